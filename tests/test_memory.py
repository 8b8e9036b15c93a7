"""Bounded memory and time for structure queries, minimal searches and the chase.

Rank, nullity and kernel_size come from the elimination alone
(no kernel generators, no dense int64 matrix); the minimal search holds a bounded set of
generators; ``kernel()`` states its size before allocating; the chase estimates its
residual system from the plan and refuses (ValueError saying how large) before
allocating it. The heavy reproducers run in a subprocess whose address space is capped
a little above what the interpreter already uses, so asking for GiBs fails the test.
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import modlights as ml
from modlights import solver
from modlights.engines.native import NativeEngine
from strategies import boards
from suite_groups import sample


def run_capped(body: str, extra_mb: int = 700, seconds: float = 60) -> str:
    """Run body in a fresh interpreter whose address space may grow by extra_mb beyond
    what it uses after importing modlights; returns stdout (assert on it)."""
    code = "\n".join(
        [
            "import resource, sys, time",
            "import numpy as np",
            "import modlights as ml",
            "from modlights.native import _core as _gf2, _core as _zn, _core as _chase",
            "vm = [int(l.split()[1]) for l in open('/proc/self/status') "
            "if l.startswith('VmSize')][0]",
            f"cap = vm * 1024 + {extra_mb} * 2**20",
            "resource.setrlimit(resource.RLIMIT_AS, (cap, cap))",
            "t0 = time.perf_counter()",
            body,
            "print('SECONDS', time.perf_counter() - t0)",
        ]
    )
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds
    )
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


def seconds_of(out: str) -> float:
    return float(out.split("SECONDS")[1].split()[0])


pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="address-space caps via /proc and RLIMIT_AS"
)


# ---------------------------------------------------------------------------- item 4
def test_dense_gf2_counts_without_int64_matrix():
    """150 x 150 cross board, dense method: the old rank path built a 3.8 GiB int64
    matrix; now rank / nullity / kernel_size come from a packed elimination."""
    out = run_capped(
        """
s = ml.Solver(ml.Board.grid(150, 150), method="dense")
print("COUNTS", s.rank, s.nullity, s.kernel_size)
""",
        extra_mb=400,
    )
    rk, nl, ks = map(int, out.split("COUNTS")[1].split()[:3])
    chase_solver = ml.Solver(ml.Board.grid(150, 150), method="chase")
    assert (rk, nl, ks) == (chase_solver.rank, chase_solver.nullity, chase_solver.kernel_size)
    assert rk + nl == 150 * 150 and ks == 2**nl


def test_identity_graph_board_counts_fast_and_small():
    out = run_capped(
        """
s = ml.Solver(ml.Board.from_effects([[i] for i in range(20000)], 2))
print("COUNTS", s.rank, s.kernel_size, s.nullity)
x = s.solve(np.ones(20000, np.uint8))
print("LEN", x.length, x.proven_minimal)
""",
        extra_mb=600,
    )
    assert out.split("COUNTS")[1].split()[:3] == ["20000", "1", "0"]
    assert out.split("LEN")[1].split()[:2] == ["20000", "True"]
    assert seconds_of(out) < 10


# 2-3 CPU s a case (a capped subprocess): n = 3 and 4 in the heavy group
@pytest.mark.parametrize("n", sample([2, 3, 4], 1, mark=pytest.mark.heavy))
def test_minimal_search_on_a_huge_kernel_is_bounded(n):
    """100000 taps on one cell: nullity 99999 (a 9.3 GiB dense kernel). The search takes
    the generators that fit and proves nothing; the answer is still a solution, here
    of the least length (n - 1 taps take state 1 to 0)."""
    out = run_capped(
        f"""
s = ml.Solver(ml.Board.from_effects([[0]] * 100000, {n}, n_cells=1))
sol = s.solve([1])
b = s.board
print("RESULT", sol.length, sol.proven_minimal, int(b.apply([1], sol.taps)[0]), s.nullity)
""",
        extra_mb=900,
    )
    length, proven, after, nullity = out.split("RESULT")[1].split()[:4]
    assert int(after) == 0 and int(length) == n - 1
    assert int(nullity) == 99999 and proven in ("True", "False")
    assert seconds_of(out) < 20


def test_kernel_states_its_size_before_allocating():
    out = run_capped(
        """
s = ml.Solver(ml.Board.from_effects([[0]] * 100000, 2, n_cells=1))
try:
    s.kernel()
except ValueError as e:
    print("REFUSED", e)
""",
        extra_mb=300,
    )
    msg = out.split("REFUSED")[1]
    assert "99999" in msg and "9999900000 bytes" in msg and "GiB" in msg


def test_large_cross_board_counts_quickly():
    """k = 2049: nullity in the hundreds; counted from the chase's residual system."""
    out = run_capped(
        """
s = ml.Solver(ml.Board.grid(2049, 2049))
print("COUNTS", s.nullity, s.rank, s.kernel_size.bit_length() - 1)
""",
        extra_mb=900,
    )
    nl, rk, log2 = map(int, out.split("COUNTS")[1].split()[:3])
    assert nl == log2 and nl + rk == 2049 * 2049 and 100 <= nl < 2049
    assert seconds_of(out) < 30


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards)
def test_counts_need_no_generators(b):
    """nullity / rank / kernel_size agree with the reference and build no generator."""
    s = ml.Solver(b)
    ref = ml.Solver(b, backend="reference")
    assert (s.nullity, s.rank, s.kernel_size) == (ref.nullity, ref.rank, ref.kernel_size)
    assert s._gens is None


@pytest.mark.parametrize("n", [2, 3])
def test_bounded_search_generators(n):
    """Past MAX_SEARCH_BYTES of generators (the C library's limit, nullity x n_taps
    bytes) the search covers the sub-coset of the engine's first generators that fit: a
    valid solution, never claimed proven unless of length 0 (the zero state is)."""
    rng = np.random.default_rng(n)
    a = (rng.random((40, 4200)) < 0.05).astype(np.int64) * rng.integers(1, n, (40, 4200))
    b = ml.Board.from_matrix(a, n)
    s = ml.Solver(b, method="dense")
    assert s.nullity * b.n_taps > solver.MAX_SEARCH_BYTES
    x = rng.integers(0, n, size=b.n_taps)
    state = (-(a @ x)) % n
    for budget in (1, 1 << 12):
        sol = s.solve(state, budget=budget)
        assert not b.apply(state, sol.taps).any()
        assert not sol.proven_minimal and sol.length > 0
        assert sol.examined + sol.pruned <= 2 * budget  # a count: not the sub-coset
    zero = s.solve(np.zeros(b.n_cells, dtype=np.int64), budget=1)
    assert zero.proven_minimal and zero.length == 0


def test_chase_generators_limit_is_a_prefix():
    b = ml.Board.grid(30, 30, 2)
    eng = NativeEngine(b, "chase")
    H, o = eng.generators()
    Hl, ol = eng.generators(limit=2)
    assert np.array_equal(Hl, H[:2]) and ol == o[:2]


# ---------------------------------------------------------------------------- item 5
@pytest.mark.parametrize(
    "args",
    [
        (200000, 8, 2, "horizontal"),
        (600, 600, 2, [(0, 0), (-300, 0)]),
        (60000, 8, 3, "horizontal"),
        (255, 255, 2, []),
    ],
)
def test_chase_refuses_huge_residual_systems_quickly(args):
    t0 = time.perf_counter()
    b = ml.Board.grid(*args)
    with pytest.raises(ValueError, match=r"residual system of \d+ equations x \d+ unknowns"):
        ml.Solver(b, method="chase")
    assert time.perf_counter() - t0 < 3


@pytest.mark.parametrize("args", [(200000, 8, 2, "horizontal"), (60000, 8, 3, "horizontal")])
def test_boards_too_large_for_the_chase_are_solved_by_the_algebra(args):
    """Uniform row-recurrence boards whose chase residual would not fit go to a
    structured engine (method="auto": the tensor engine for these 1-D patterns, or the
    algebraic one): answered in well under the chase guard's time."""
    t0 = time.perf_counter()
    b = ml.Board.grid(*args)
    s = ml.Solver(b)
    assert s.engine == "tensor" or s.engine.startswith("algebraic-")
    state = b.random_state(rng=5)
    sol = s.solve(state, minimal=False)
    assert not b.apply(state, sol.taps).any()
    assert time.perf_counter() - t0 < 3


def test_chase_refusal_allocates_nothing_large():
    out = run_capped(
        """
for args in [(200000, 8, 2, "horizontal"), (60000, 8, 3, "horizontal"), (255, 255, 2, [])]:
    try:
        ml.Solver(ml.Board.grid(*args), method="chase")
    except ValueError as e:
        print("REFUSED", str(e)[:60])
""",
        extra_mb=400,
    )
    assert out.count("REFUSED") == 3
    assert seconds_of(out) < 5


# the residual system's cost model (bytes, work, limits): csrc/tests/t-engines-chase.c
# (residual_cost_model)


def test_check_command_refuses_such_codes_quickly(tmp_path):
    b = ml.Board.grid(255, 255, 2, [])
    code = ml.Puzzle(b, np.random.default_rng(0).integers(0, 2, b.shape)).code
    f = tmp_path / "levels.txt"
    f.write_text(code + "\n")
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "modlights", "check", str(f)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.perf_counter() - t0 < 10
    assert p.returncode == 2 and "residual system" in p.stderr
    assert "Traceback" not in p.stderr
