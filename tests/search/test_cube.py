"""The C solver's GF(2) transform search (csrc/search/cube_plan.c: Walsh-Hadamard leaves
with the board's symmetries; checked against enumeration in csrc/tests/t-cube.c and
t-cube_plan.c) through the Solver: the all-on k x k boards against OEIS A075464, the
proof's certificate through the independent checker, budgets, deadlines, progress,
executors and Ctrl-C."""

from __future__ import annotations

import concurrent.futures as cf
import threading
import time

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core

# OEIS A075464: fewest taps for the all-on k x k board, k = 1..54 (the list)
A075464 = [
    1,
    4,
    5,
    4,
    15,
    28,
    33,
    40,
    25,
    44,
    55,
    72,
    105,
    56,
    117,
    104,
    147,
    188,
    141,
    224,
    245,
    276,
    231,
    270,
    353,
    356,
    405,
    416,
    345,
    376,
    553,
    428,
    469,
    520,
    563,
    600,
    761,
    772,
    561,
    696,
    891,
    940,
    953,
    772,
    1069,
    1188,
    971,
    1096,
    1165,
    1220,
    1317,
    1256,
    1487,
    1400,
]


def test_the_transform_search_proves_with_symmetry_and_its_certificate_verifies():
    """39 x 39 all-on (nullity 32: the transform search, the board's symmetries keep
    the coset): proved, A075464's value, a tree proof over leaves with symmetries
    (checking it takes 2e10 work units: tests/search/test_verify*.py check such proofs
    on smaller kernels)."""
    k = 39
    b = ml.Board.grid(k, k)
    s = ml.Solver(b)
    assert s.nullity >= 22
    sol = s.solve(np.zeros((k, k), int), target=1, minimal=True, budget=float("inf"))
    assert sol.proven_minimal and sol.length == A075464[k - 1]
    cert = sol.certificate()
    proof = cert["proof"]
    assert proof["method"] == "tree" and proof["leaf_dim"] > 0 and proof["symmetries"]


def test_a075464_up_to_54_against_oeis():
    t0 = time.perf_counter()
    for k in range(1, 55):
        b = ml.Board.grid(k, k)
        sol = ml.Solver(b).solve(np.zeros((k, k), int), target=1, minimal=True, budget=float("inf"))
        assert sol.proven_minimal and sol.length == A075464[k - 1], k
    assert time.perf_counter() - t0 < 60


# ------------------------------------------------------------------ budgets and control
def _big():
    b = ml.Board.grid(20, 20, wrap=True)  # nullity 32, no symmetry of the state
    s = ml.Solver(b)
    st = b.random_state(rng=np.random.default_rng(3))
    return b, s, st


def test_budget_steps_and_deadline_are_honest():
    b, s, st = _big()
    for steps in (1 << 26, 1 << 30):  # the Gray walk below cube.MIN_STEPS, then corners
        seen = []
        sol = s.solve(
            st, minimal=True, budget=steps, progress=lambda d, t, seen=seen: seen.append(d)
        )
        # (the Gray walk accounts its steps in blocks of a few thousand)
        assert not sol.proven_minimal and sol.examined <= steps + (1 << 14)
        assert not ((b.apply(st, sol.taps)) % 2).any()
        assert max(seen) <= steps + (1 << 14)
    t = time.perf_counter()
    sol = s.solve(st, minimal=True, budget=0.2)
    assert time.perf_counter() - t < 1.5 and not sol.proven_minimal
    assert not ((b.apply(st, sol.taps)) % 2).any()


@pytest.mark.heavy  # 4 CPU s: a 2^32 coset searched twice
def test_progress_and_executor_agree():
    b, s, st = _big()
    seen = []
    full = s.solve(st, minimal=True, budget=float("inf"), progress=lambda d, t: seen.append((d, t)))
    assert full.proven_minimal
    assert seen[-1][0] == seen[-1][1] == 1 << 32
    assert all(a[0] <= c[0] for a, c in zip(seen, seen[1:]))
    with cf.ThreadPoolExecutor(2) as ex:
        other = s.solve(st, minimal=True, budget=1 << 40, executor=ex)
    assert other.proven_minimal and other.length == full.length
    with cf.ProcessPoolExecutor(2) as ex:
        got = s.solve(st, minimal=True, budget=1 << 40, executor=ex)
    assert got.proven_minimal and got.length == full.length
    proof = got.certificate()["proof"]
    assert proof["method"] == "tree" and proof["leaf_dim"] > 0


def test_ctrl_c_stops_within_a_second():
    b, s, st = _big()
    timer = threading.Timer(0.3, _core._request_interrupt)
    timer.start()
    t = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.solve(st, minimal=True, budget=float("inf"))
    finally:
        timer.cancel()
        _core._clear_interrupt()
    assert time.perf_counter() - t < 1.5
    assert s.solve(st, minimal=True, budget=1 << 20).length >= 0  # still usable


@pytest.mark.slow
@pytest.mark.parametrize("k", range(55, 62))
def test_a075464_past_54(k):
    b = ml.Board.grid(k, k)
    sol = ml.Solver(b).solve(np.zeros((k, k), int), target=1, minimal=True, budget=float("inf"))
    assert sol.proven_minimal
    assert (b.apply(np.zeros((k, k), int), sol.taps) == 1).all()
