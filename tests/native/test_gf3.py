"""The bit-sliced GF(3), Z/4 and Z/8 elimination (csrc/gf3.c, used by csrc/zn.c for the
parts mod 3, 4 and 8) against the reference engine, the band elimination, python-flint and
direct checks.

The band and bit-sliced eliminations take the same pivots from the same row order, so
they record the same factorisation and every answer must agree exactly (solutions,
kernel generators, det), over the rings Z/4 and Z/8 as well; the reference engine, python-flint
and direct products check them independently."""

from math import gcd

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.reference import ReferenceEngine
from modlights.native import _core as _zn
from modlights.native._core import ZnEngine, _LocalLU
from modlights.solver import Solver

try:
    import flint
except ImportError:  # python-flint is optional
    flint = None

#: Moduli with a part mod 3, 4 or 8 (3 divides n and 9 does not, or the power of 2 in
#: n is 4 or 8): the bit-sliced path applies to that part.
MODULI = [3, 6, 12, 15, 21, 4, 20, 28, 8, 24, 40, 56]
KINDS = ["dense", "lowrank", "sparse", "zerolines", "dependent", "nonunit", "evencols", "mixed"]


def make_matrix(rng, n, m, r, kind):
    """Dense random matrices of many ranks: full, low rank, sparse, zero lines, dense
    with repeated / combined rows and columns, and (rings) mostly non-units or whole
    columns of non-units, so columns without a unit pivot are skipped and carried."""
    if m == 0 or r == 0:
        return np.zeros((m, r), dtype=np.int64)
    a = rng.integers(0, n, (m, r))
    if kind == "lowrank":
        k = int(rng.integers(0, min(m, r) + 1))
        a = rng.integers(0, n, (m, k)) @ rng.integers(0, n, (k, r))
    elif kind == "sparse":
        a = a * (rng.random((m, r)) < 0.05)
    elif kind == "zerolines":
        a[rng.random(m) < 0.3] = 0
        a[:, rng.random(r) < 0.3] = 0
    elif kind == "dependent":
        for _ in range(3):
            i, j = rng.integers(0, m, 2)
            a[i] = a[j] * int(rng.integers(0, n))
            c, d = rng.integers(0, r, 2)
            a[:, c] = a[:, d] * 2 + a[:, int(rng.integers(0, r))]
    elif kind == "nonunit":
        nu = [x for x in range(n) if gcd(x, n) > 1]
        mask = rng.random((m, r)) < 0.85
        a[mask] = rng.choice(nu, int(mask.sum()))
    elif kind == "mixed":  # non-units of every valuation in places
        nu = [x for x in range(n) if gcd(x, n) > 1]
        mask = rng.random((m, r)) < 0.5
        a[mask] = rng.choice(nu, int(mask.sum()))
    elif kind == "evencols":
        f = next((p for p in (2, 3) if n % p == 0), 1)
        a[:, rng.random(r) < 0.4] *= f
    return np.asarray(a, dtype=np.int64) % n


def assert_same_answers(a, n, rng, eng, other):
    """eng and other (two native engines) give identical answers, and eng's are right
    by direct computation."""
    m, r = a.shape
    assert eng.kernel_size == other.kernel_size
    H, orders = eng.generators()
    Ho, oo = other.generators()
    assert orders == oo and np.array_equal(H, Ho)
    assert not (a @ H.T.astype(np.int64) % n).any(), "a generator is not in the kernel"
    R = rng.integers(0, n, (5, m))
    if r:
        R[:3] = (a @ rng.integers(0, n, (r, 3))).T % n
    X, ok = eng.solve(R)
    Xo, oko = other.solve(R)
    assert np.array_equal(ok, oko) and np.array_equal(X, Xo)
    assert ok[:3].all() or r == 0
    assert not ((a @ X.T.astype(np.int64) - R.T) % n)[:, ok].any()
    if m == r:
        assert eng.det() == other.det()


def check_against_reference(a, n, rng, eng):
    m, r = a.shape
    ref = ReferenceEngine(a, n)
    assert eng.kernel_size == ref.kernel_size
    H, orders = eng.generators()
    _, rorders = ref.generators()
    assert sorted(orders) == sorted(rorders)
    assert not (a @ H.T.astype(np.int64) % n).any()
    R = rng.integers(0, n, (4, m))
    if r:
        R[:2] = (a @ rng.integers(0, n, (r, 2))).T % n
    X, ok = eng.solve(R)
    _, rok = ref.solve(R)
    assert np.array_equal(ok, rok)
    assert not ((a @ X.T.astype(np.int64) - R.T) % n)[:, ok].any()
    assert not X[~ok].any()
    if m == r:
        assert eng.det() == ref.det()
        if gcd(ref.det(), n) == 1:
            assert np.array_equal(eng.inverse(), ref.inverse())
        else:
            with pytest.raises(ValueError, match="not invertible"):
                eng.inverse()
    try:
        ref.pseudo_inverse()
    except ValueError:  # a non-unit invariant mod 4 (n = 12)
        with pytest.raises(ValueError, match="no generalised inverse"):
            eng.pseudo_inverse()
        return
    G = eng.pseudo_inverse()
    if n % 4 == 0:  # exists here: the band engine's, exactly
        assert np.array_equal(G, ZnEngine(a, n, method="band").pseudo_inverse())
    assert G.shape == (r, m)
    assert not ((a @ (G.astype(np.int64) @ a) - a) % n).any(), "A G A != A"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    n=st.sampled_from(MODULI),
    m=st.integers(0, 130),
    r=st.integers(0, 130),
    kind=st.sampled_from(KINDS),
    seed=st.integers(0, 2**32 - 1),
)
def test_bitsliced_matches_reference(n, m, r, kind, seed):
    rng = np.random.default_rng(seed)
    a = make_matrix(rng, n, m, r, kind)
    eng = ZnEngine(a, n, method="bitsliced")
    assert all(v == "bitsliced" for q, v in eng.methods.items() if q in (3, 4, 8))
    check_against_reference(a, n, rng, eng)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    n=st.sampled_from(MODULI),
    m=st.integers(0, 200),
    r=st.integers(0, 200),
    kind=st.sampled_from(KINDS),
    seed=st.integers(0, 2**32 - 1),
)
def test_bitsliced_matches_band(n, m, r, kind, seed):
    rng = np.random.default_rng(seed)
    a = make_matrix(rng, n, m, r, kind)
    assert_same_answers(
        a, n, rng, ZnEngine(a, n, method="bitsliced"), ZnEngine(a, n, method="band")
    )


@pytest.mark.skipif(flint is None, reason="python-flint is not installed")
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    m=st.integers(1, 200),
    r=st.integers(1, 200),
    kind=st.sampled_from(KINDS),
    seed=st.integers(0, 2**32 - 1),
)
def test_bitsliced_matches_flint(m, r, kind, seed):
    rng = np.random.default_rng(seed)
    a = make_matrix(rng, 3, m, r, kind)
    eng = ZnEngine(a, 3, method="bitsliced")
    F = flint.nmod_mat(a.tolist(), 3)
    rank = F.rank()
    assert eng.kernel_size == 3 ** (r - rank)
    assert eng.parts[0][2].rank == rank
    if m == r:
        assert eng.det() == int(F.det())


@pytest.mark.parametrize(
    "n, m, r, kind",
    [
        (3, 300, 300, "dense"),
        (3, 700, 700, "dense"),
        (3, 500, 500, "lowrank"),
        (3, 640, 380, "dense"),
        (3, 380, 640, "dependent"),
        (3, 450, 450, "zerolines"),
        (4, 600, 600, "dense"),
        (4, 500, 500, "nonunit"),
        (4, 420, 660, "evencols"),
        (4, 660, 420, "lowrank"),
        (12, 400, 400, "nonunit"),
        (8, 600, 600, "dense"),
        (8, 500, 500, "nonunit"),
        (8, 420, 660, "evencols"),
        (24, 350, 350, "mixed"),
    ],
)
def test_bitsliced_large(n, m, r, kind):
    """Many panels, chunks and Four Russians groups: against the band elimination,
    direct checks and python-flint's rank and determinant (GF(3))."""
    rng = np.random.default_rng(m * 1000 + r + n)
    a = make_matrix(rng, n, m, r, kind)
    eng = ZnEngine(a, n, method="bitsliced")
    assert_same_answers(a, n, rng, eng, ZnEngine(a, n, method="band"))
    if flint is not None and n == 3:
        F = flint.nmod_mat(a.tolist(), 3)
        assert eng.parts[0][2].rank == F.rank()
        if m == r:
            assert eng.det() == int(F.det())


def test_bitsliced_large_inverse_and_crt():
    """A 320 x 320 invertible matrix mod 3, 6, 4, 12 and 8 (the parts mod 3, 4 and 8
    bit-sliced): the inverse times A is the identity."""
    rng = np.random.default_rng(77)
    for n in (3, 6, 4, 12, 8):
        while True:
            a = rng.integers(0, n, (320, 320))
            eng = ZnEngine(a, n)
            if gcd(eng.det(), n) == 1:
                break
        assert all(v == "bitsliced" for q, v in eng.methods.items() if q in (3, 4, 8))
        inv = eng.inverse().astype(np.int64)
        assert np.array_equal(a @ inv % n, np.eye(320, dtype=np.int64))
        assert np.array_equal(inv, ZnEngine(a, n, method="band").inverse())


@pytest.mark.parametrize("n", [3, 6, 9, 4, 8])
def test_solver_dense_all_moduli(n):
    """Dense matrices: n = 3, 6, 4, 8 through the bit-sliced parts mod 3, 4 and 8, the
    ring 9 through the band elimination (ZnEngine), and the Solver's dense-zn engine;
    all against the reference engine."""
    rng = np.random.default_rng(500 + n)
    for m, r, kind in [(60, 60, "dense"), (80, 50, "lowrank"), (45, 90, "dependent")]:
        a = make_matrix(rng, n, m, r, kind)
        s = Solver(ml.Board.from_matrix(a, n))
        assert s.engine == "dense-zn"
        want = {
            3: {3: "bitsliced"},
            6: {2: "band", 3: "bitsliced"},
            9: {9: "band"},
            4: {4: "bitsliced"},
            8: {8: "bitsliced"},
        }[n]
        eng = ZnEngine(a, n)  # the elimination of each part (the C solver's dense/zn.c)
        assert eng.methods == want
        check_against_reference(a, n, rng, eng)
        ref = Solver(ml.Board.from_matrix(a, n), backend="reference")
        assert s.kernel_size == ref.kernel_size
        x = rng.integers(0, n, r)
        state = (-(a @ x)) % n
        sol = s.solve(state, minimal=False)
        assert not ((state + a @ np.asarray(sol.taps, dtype=np.int64).ravel()) % n).any()


def test_auto_choice():
    """auto: bit-sliced for dense matrices mod 3, 4 and 8, band for board bands, thin
    matrices and other q."""
    rng = np.random.default_rng(3)
    assert ZnEngine(rng.integers(0, 3, (200, 200)), 3).methods == {3: "bitsliced"}
    assert ZnEngine(rng.integers(0, 6, (200, 200)), 6).methods == {2: "band", 3: "bitsliced"}
    assert ZnEngine(rng.integers(0, 12, (200, 200)), 12).methods == {4: "bitsliced", 3: "bitsliced"}
    assert ZnEngine(rng.integers(0, 9, (200, 200)), 9).methods == {9: "band"}
    assert ZnEngine(rng.integers(0, 8, (200, 200)), 8).methods == {8: "bitsliced"}
    assert ZnEngine(rng.integers(0, 16, (200, 200)), 16).methods == {16: "band"}
    assert ZnEngine(rng.integers(0, 3, (5000, 20)), 3).methods == {3: "band"}
    assert ZnEngine(ml.Board.grid(30, 30, 3).matrix(), 3).methods == {3: "band"}
    assert ZnEngine(ml.Board.grid(30, 30, 4).matrix(), 4).methods == {4: "band"}


def test_method_errors():
    a = np.eye(4, dtype=np.uint8)
    for n in (9, 5, 18, 16, 32, 2):
        with pytest.raises(ValueError, match="bitsliced"):
            ZnEngine(a, n, method="bitsliced")
    with pytest.raises(ValueError, match="method must be one of"):
        ZnEngine(a, 3, method="fast")
    lu = _LocalLU(4, 4, 5)
    with pytest.raises(ValueError, match="needs q = 3, 4 or 8"):
        lu.set_method("bitsliced")
    lu = _LocalLU(4, 4, 3)
    lu.set_method("bitsliced")
    lu.set_dense(a)
    lu.factor()
    assert lu.method == "bitsliced" and lu.rank == 4
    with pytest.raises(ValueError, match="before factor"):
        lu.set_method("band")


def test_interrupt_then_exact():
    """A stop requested on the flag stops the bit-sliced elimination (KeyboardInterrupt);
    the next factorisation runs in full and is exact."""
    rng = np.random.default_rng(11)
    for n in (3, 4, 8):
        a = rng.integers(0, n, (300, 300))
        _zn._request_interrupt()
        with pytest.raises(KeyboardInterrupt):
            ZnEngine(a, n, method="bitsliced")
        eng = ZnEngine(a, n, method="bitsliced")
        assert_same_answers(a, n, rng, eng, ZnEngine(a, n, method="band"))


def test_portable_kernels():
    """The portable word loops (MODLIGHTS_SIMD=portable; the default run takes AVX2 where
    the CPU has it) give the band elimination's answers, in a fresh process."""
    import os
    import subprocess
    import sys

    code = "\n".join(
        [
            "import numpy as np",
            "from modlights.native._core import ZnEngine",
            "rng = np.random.default_rng(5)",
            "for n in (3, 4, 8, 24):",
            "    a = rng.integers(0, n, (300, 280))",
            "    a[:, rng.random(280) < 0.3] &= ~1 if n % 2 == 0 else 0",
            "    x, y = ZnEngine(a, n, method='bitsliced'), ZnEngine(a, n, method='band')",
            "    H, o = x.generators(); Hb, ob = y.generators()",
            "    assert o == ob and np.array_equal(H, Hb), n",
            "    R = rng.integers(0, n, (4, 300))",
            "    X, ok = x.solve(R); Xb, okb = y.solve(R)",
            "    assert np.array_equal(X, Xb) and np.array_equal(ok, okb), n",
            "print('ok')",
        ]
    )
    env = dict(os.environ, MODLIGHTS_SIMD="portable")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


@pytest.mark.parametrize("n", [3, 4, 8, 12])
def test_bitsliced_from_coo(n):
    """Coordinates (repeats add up mod q, as from_effects boards give them) into the
    bit-sliced elimination: the band elimination's answers."""
    rng = np.random.default_rng(900 + n)
    m, r = 180, 150
    ci = rng.integers(0, m, 20000)
    tj = rng.integers(0, r, 20000)
    a = np.zeros((m, r), dtype=np.int64)
    np.add.at(a, (ci, tj), 1)
    a %= n
    eng = ZnEngine.from_coo(m, r, ci, tj, n, method="bitsliced")
    assert all(v == "bitsliced" for q, v in eng.methods.items() if q in (3, 4, 8))
    assert_same_answers(a, n, rng, eng, ZnEngine.from_coo(m, r, ci, tj, n, method="band"))
