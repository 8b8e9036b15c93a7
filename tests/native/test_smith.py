"""csrc/engines/smith.c (the tensor engine's small Smith forms) against
src/modlights/engines/reference.py's LocalSmith: the same rank, valuations, transforms U
and V and determinant, step for step, on random matrices over Z/p^e.

The C side is csrc/tests/t-smith.c built with the system C compiler and run in its
``--dump`` mode (smith.c is internal to the library: no public header function to bind).
"""

from __future__ import annotations

import random
import subprocess

import numpy as np
import pytest

from modlights.engines.reference import LocalSmith
from test_c import CC, CSRC, build

RINGS = [(2, 1), (3, 1), (5, 1), (7, 1), (2, 2), (2, 3), (3, 2), (2, 5), (5, 2), (3, 3), (101, 1)]


def _matrix(rng: random.Random, m: int, r: int, p: int, e: int) -> np.ndarray:
    q = p**e
    kind = rng.randrange(3)
    if kind == 0:
        rows = [[rng.randrange(q) for _ in range(r)] for _ in range(m)]
        return np.array(rows, dtype=np.int64).reshape(m, r)
    if kind == 1:  # low rank
        inner = rng.randint(0, min(m, r))
        b = np.array([[rng.randrange(q) for _ in range(inner)] for _ in range(m)], dtype=np.int64)
        c = np.array([[rng.randrange(q) for _ in range(r)] for _ in range(inner)], dtype=np.int64)
        return (b.reshape(m, inner) @ c.reshape(inner, r)) % q
    rows = [[rng.randrange(q) * p ** rng.randrange(e + 1) % q for _ in range(r)] for _ in range(m)]
    return np.array(rows, dtype=np.int64).reshape(m, r)


def _compare(tmp_path, cases: list[tuple[int, int, np.ndarray]]) -> None:
    exe = tmp_path / "t-smith"
    build(CSRC / "tests" / "t-smith.c", ["engines/smith.c"], [], exe)
    text = []
    for p, e, a in cases:
        m, r = a.shape
        text.append(f"{p} {e} {m} {r} " + " ".join(str(int(x)) for x in a.ravel()))
    out = subprocess.run(
        [str(exe), "--dump"], input="\n".join(text) + "\n", capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == len(cases)
    for (p, e, a), line in zip(cases, lines, strict=True):
        m, r = a.shape
        got = [int(x) for x in line.split()]
        ls = LocalSmith(a, p, e)
        want = [ls.rank, *(int(v) for v in ls.v), *ls.U.ravel().tolist(), *ls.V.ravel().tolist()]
        want.append(ls.det() if m == r else -1)
        assert got == want, (p, e, a.tolist())


@pytest.mark.skipif(CC is None, reason="no C compiler")
def test_smith_matches_local_smith(tmp_path):
    rng = random.Random(33)
    cases = []
    for p, e in RINGS:
        for _ in range(25):
            m = rng.randint(0, 9)
            r = m if rng.random() < 0.6 else rng.randint(0, 9)
            cases.append((p, e, _matrix(rng, m, r, p, e)))
    _compare(tmp_path, cases)


@pytest.mark.matrix
@pytest.mark.skipif(CC is None, reason="no C compiler")
def test_smith_matches_local_smith_large(tmp_path):
    rng = random.Random(34)
    cases = []
    for p, e in RINGS:
        for s in (16, 33, 64):
            cases.append((p, e, _matrix(rng, s, s, p, e)))
            cases.append((p, e, _matrix(rng, s, rng.randint(1, 64), p, e)))
    _compare(tmp_path, cases)
