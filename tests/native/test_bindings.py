"""The private Cython bindings (src/modlights/_*.pyx) check every argument before C runs.

Each reproducer of issue 12 that used to crash (heap corruption, segfault) runs in a
subprocess, so a regression fails the test instead of killing pytest; the others run
here. Every call must end in ValueError (or a clean answer), never a crash, a
MemoryError for a bad argument, or a silently wrong result.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core as _gf2
from modlights.native import _core as _zn
from suite_groups import sample


def run_isolated(code: str) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter (a crash there is a failed assertion here)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )


def expect_value_error_isolated(call: str):
    """call (an expression using np, _gf2, _zn, _chase, _native) raises
    ValueError in a subprocess: it must neither crash nor return."""
    p = run_isolated(f"""
        import numpy as np
        from modlights.native import _core as _gf2, _core as _zn, _core as _chase, \
            _core as _native
        try:
            {call}
        except ValueError as e:
            print("VALUE_ERROR", e)
        else:
            print("RETURNED")
    """)
    assert p.returncode == 0, f"crashed ({p.returncode}): {p.stderr[-1000:]}"
    assert "VALUE_ERROR" in p.stdout, p.stdout + p.stderr


# ---------------------------------------------------------------------------- crashers
# each call in a subprocess of its own (0.4 CPU s): two of each list in the default run,
# the others in the heavy group
@pytest.mark.parametrize(
    "call",
    sample(
        [
            "_native.unpack_bits(np.zeros((2, 1), np.uint64), 10**8)",
            "_native.pack_bits(np.ones(7, np.uint8))",
        ],
        2,
        mark=pytest.mark.heavy,
    ),
)
def test_packing_helpers_refuse_bad_shapes(call):
    expect_value_error_isolated(call)


# ---------------------------------------------------------------------------- Gf2Engine
def test_unbuilt_extension_objects_raise_instead_of_crashing():
    e = _gf2.Gf2Engine.__new__(_gf2.Gf2Engine)
    with pytest.raises(ValueError, match="not built"):
        _ = e.rank
    with pytest.raises(ValueError, match="not built"):
        e.solve(np.zeros((1, 0), np.uint8))
    lu = _zn._LocalLU(2, 2, 3)
    with pytest.raises(ValueError, match="out of range"):
        lu.add_coo(np.array([10**9]), np.array([10**9]))
    with pytest.raises(ValueError):
        lu.set_dense(np.full((2, 2), 7, np.uint8))


def test_gf2_engine_init_twice_refactors():
    """A second __init__ replaces the factorisation and everything cached from the old
    one (the solve matrix, the kernel): answers follow the new matrix."""
    rng = np.random.default_rng(5)
    A1 = np.eye(80, dtype=np.uint8)
    A2 = (rng.random((80, 80)) < 0.5).astype(np.uint8)
    A2[:, 3] = 0  # a kernel, so the cached one matters
    e = _gf2.Gf2Engine(A1)
    R = rng.integers(0, 2, (100, 80)).astype(np.uint8)
    e.solve(R)  # >= 64 right-hand sides: builds S
    assert e.generators()[0].shape[0] == 0  # caches the (empty) kernel
    e.__init__(A2)
    ref = ml.Solver(ml.Board.from_matrix(A2, 2), backend="reference")
    X, ok = e.solve(R)
    X0, ok0 = ref._engine.solve(R)
    assert np.array_equal(ok, ok0)
    assert not ((A2.astype(np.int64) @ X[ok].T.astype(np.int64)) % 2 - R[ok].T).any()
    H, _ = e.generators()
    assert H.shape[0] == ref.nullity and not ((A2.astype(int) @ H.T.astype(int)) % 2).any()


def test_gf2_engine_bad_coo_and_shapes():
    with pytest.raises(ValueError):
        _gf2.Gf2Engine.from_coo(2, 2, [0, 5], [0, 1])
    with pytest.raises(ValueError):
        _gf2.Gf2Engine.from_coo(-1, 2, [], [])
    with pytest.raises(ValueError):
        _gf2.Gf2Engine.from_coo(2, 2, [0.5], [1])
    with pytest.raises(ValueError):
        _gf2.rank_coo(2, 3, [0], [3])
    with pytest.raises(ValueError):
        _gf2.rank_coo(1 << 27, 1 << 27, [], [])  # asks for 2 PiB: refused first
    e = _gf2.Gf2Engine(np.eye(3, dtype=np.uint8))
    with pytest.raises(ValueError):
        e.solve(np.zeros((2, 4), np.uint8))
    with pytest.raises(ValueError):
        _ = _gf2.Gf2Engine.__new__(_gf2.Gf2Engine).rank  # never built


def test_gf2_rank_coo_matches_dense():
    rng = np.random.default_rng(3)
    for m, r in [(0, 4), (4, 0), (7, 9), (70, 130), (130, 70)]:
        ci = rng.integers(0, max(m, 1), 3 * m * r // 4 if m and r else 0)
        tj = rng.integers(0, max(r, 1), ci.size)
        A = np.zeros((m, r), np.int64)
        np.add.at(A, (ci, tj), 1)
        assert _gf2.rank_coo(m, r, ci, tj) == _gf2.rank(A % 2)


def test_gf2_generators_limit_is_a_prefix():
    rng = np.random.default_rng(8)
    A = (rng.random((40, 120)) < 0.3).astype(np.uint8)
    e = _gf2.Gf2Engine(A)
    H, orders = e.generators()
    for limit in (0, 1, 7, len(orders), len(orders) + 5):
        Hl, ol = e.generators(limit=limit)
        assert np.array_equal(Hl, H[:limit]) and ol == orders[:limit]


# ---------------------------------------------------------------------------- _LocalLU
@pytest.mark.parametrize("q", [0, 1, 6, 12, 256, -3, 2.0, "7", True])
def test_local_lu_bad_modulus_is_value_error(q):
    with pytest.raises(ValueError, match="prime power"):
        _zn._LocalLU(2, 2, q)


@pytest.mark.parametrize("m, r", [(-1, 2), (2, -1), (1 << 20, 1 << 20), (2.5, 1)])
def test_local_lu_bad_shape_is_value_error(m, r):
    with pytest.raises(ValueError):
        _zn._LocalLU(m, r, 3)


def test_local_lu_life_cycle():
    lu = _zn._LocalLU(2, 2, 3)
    rhs = np.zeros((2, 1), np.uint8)
    for call in (
        lambda: lu.solve_t(rhs),
        lu.generators,
        lu.det,
        lu.kernel_size,
        lambda: lu.rank,
        lambda: lu.unit_rank,
    ):
        with pytest.raises(ValueError, match="factor"):
            call()
    lu.set_dense(np.array([[1, 2], [0, 1]], np.uint8))
    with pytest.raises(ValueError):
        lu.set_dense(np.array([[1, 3], [0, 1]], np.uint8))  # entry >= q
    lu.factor()
    lu.factor()  # again: a no-op
    with pytest.raises(ValueError, match="before factor"):
        lu.set_dense(np.eye(2, dtype=np.uint8))
    with pytest.raises(ValueError, match="before factor"):
        lu.add_coo(np.zeros(1, np.int64), np.zeros(1, np.int64))
    with pytest.raises(ValueError):
        lu.solve_t(np.full((2, 1), 3, np.uint8))  # entries >= q
    X, ok = lu.solve_t(np.array([[1], [2]], np.uint8))
    assert ok[0] and np.array_equal((np.array([[1, 2], [0, 1]]) @ X) % 3, [[1], [2]])
    assert lu.det() == 1


def test_local_lu_generators_limit_is_a_prefix():
    rng = np.random.default_rng(4)
    for n in (5, 8, 9):
        A = rng.integers(0, n, (6, 15)).astype(np.uint8)
        lu = _zn._LocalLU(6, 15, n)
        lu.set_dense(A)
        lu.factor()
        H, o = lu.generators()
        for limit in (0, 1, 4, len(o), len(o) + 3):
            Hl, ol = lu.generators(limit)
            assert np.array_equal(Hl, H[:limit]) and ol == o[:limit]
        e = _zn.ZnEngine(A, n * (3 if n != 9 else 2))
        G, go = e.generators()
        Gl, gol = e.generators(limit=3)
        assert np.array_equal(Gl, G[:3]) and gol == go[:3]
