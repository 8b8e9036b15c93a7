"""modlights.search.cube (the GF(2) minimal search by Walsh-Hadamard leaves, with board
symmetries) against enumeration of every coset element: random boards (locks, holes,
wraps, odd and even sides, graph boards) and random kernels of random matrices, with
and without symmetry; the minimise / coset_minimum integration (budgets, deadlines,
progress, Ctrl-C, executors, the proof dict, checked here by a small independent
checker of the "tree" proof); A075464 against the OEIS values."""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import threading
import time

import numpy as np
import pytest

import modlights as ml
from modlights.engines.reference import ReferenceEngine
from modlights.native import _core
from modlights.search import cube
from modlights.search.minimal import Kernel, coset_minimum, minimise
from modlights.search.symmetry import symmetries

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


# ------------------------------------------------------------------ helpers
def gf2_rank(M: np.ndarray) -> int:
    M = (np.asarray(M, dtype=np.uint8) & 1).copy()
    r = 0
    for c in range(M.shape[1] if M.ndim == 2 else 0):
        piv = np.flatnonzero(M[r:, c])
        if piv.size == 0:
            continue
        p = r + piv[0]
        M[[r, p]] = M[[p, r]]
        rows = np.flatnonzero(M[:, c])
        rows = rows[rows != r]
        M[rows] ^= M[r]
        r += 1
        if r == M.shape[0]:
            break
    return r


def coset_least(x0: np.ndarray, H: np.ndarray) -> int:
    """The least weight of x0 + span(H) by listing every combination."""
    k = len(H)
    if k == 0:
        return int(x0.sum())
    C = np.array(list(itertools.product((0, 1), repeat=k)), dtype=np.int64)
    return int(((x0[None, :] + C @ H.astype(np.int64)) % 2).sum(axis=1).min())


def random_board(rng) -> ml.Board:
    """A GF(2) board with a kernel of a few dimensions (grids with locks, holes,
    wraps; graph boards; random matrices with more taps than cells)."""
    kind = rng.integers(0, 3)
    if kind == 0:
        rows = int(rng.integers(2, 8))
        cols = rows if rng.random() < 0.6 else int(rng.integers(2, 8))
        pattern = ["cross", "square", "diagonal", "knight"][int(rng.integers(0, 4))]
        wrap = bool(rng.random() < 0.3)
        holes = rng.random((rows, cols)) < 0.1
        locked = (rng.random((rows, cols)) < 0.1) & ~holes
        if rng.random() < 0.5:
            holes &= holes[::-1, ::-1]
            locked &= locked[::-1, ::-1]
            locked &= ~holes
        if holes.all():
            holes[0, 0] = False
        return ml.Board.grid(rows, cols, 2, pattern, locked=locked, holes=holes, wrap=wrap)
    if kind == 1:
        m = int(rng.integers(3, 12))
        effects = [
            list(rng.choice(m, size=int(rng.integers(1, 4)), replace=False)) for _ in range(m)
        ]
        return ml.Board.from_effects(effects, 2, n_cells=m)
    cells = int(rng.integers(3, 14))
    taps = cells + int(rng.integers(1, 9))
    effects = [[int(i) for i in np.flatnonzero(rng.random(cells) < 0.3)] for _ in range(taps)]
    return ml.Board.from_effects(effects, 2, n_cells=cells)


def kernel_of(board: ml.Board, syms=True) -> Kernel:
    eng = ReferenceEngine(board.matrix(), board.states)
    return Kernel(
        board.states,
        board.n_taps,
        eng.kernel_size,
        native=True,
        generators=eng.generators,
        symmetries=(lambda: symmetries(board)) if syms else None,
    )


def symmetric_solution(board, rng) -> np.ndarray:
    """A tap vector x whose rhs A x is kept by the board's symmetries (orbit sums)."""
    A = board.matrix().astype(np.int64)
    b = rng.integers(0, 2, board.n_cells)
    for pc, _ in symmetries(board):
        b = b | b[pc]
    for _ in range(4):
        for pc, _ in symmetries(board):
            b = b | b[pc]
    eng = ReferenceEngine(board.matrix(), 2)
    X, ok = eng.solve(b[None, :].astype(np.uint8))
    if ok[0]:
        return X[0].astype(np.uint8)
    return (A.T @ np.zeros(board.n_cells, dtype=np.int64) % 2).astype(np.uint8)


def check_tree_proof(board, rhs, x, length, proof, H_kernel):
    """An independent check of a "tree" proof (docs/certificates.md) on a small coset:
    generators in ker A spanning it, symmetries preserving A and b and the low span,
    every orbit-least leaf (relative to x) enumerated; pruned prefixes recomputed."""
    A = board.matrix().astype(np.int64)
    assert proof["method"] == "tree"
    G = np.array(proof.get("generators", H_kernel), dtype=np.int64).reshape(-1, board.n_taps)
    k, m = len(G), proof["leaf_dim"]
    assert proof.get("orders", [2] * k) == [2] * k
    assert not (A @ G.T % 2).any()
    assert gf2_rank(G) == k == gf2_rank(np.vstack([G, H_kernel])) == len(H_kernel)
    assert not ((A @ x - rhs) % 2).any() and int(x.sum()) == length
    low = G[:m]
    for s in proof.get("symmetries", []):
        pc, pt = np.array(s["cells"]), np.array(s["taps"])
        B = np.zeros_like(A)
        B[np.ix_(pc, pt)] = A
        assert np.array_equal(A, B) and np.array_equal(rhs[pc] % 2, rhs % 2)
        if m:
            moved = np.zeros_like(low)
            moved[:, pt] = low
            assert gf2_rank(np.vstack([low, moved])) == gf2_rank(low)

    def coords(v):
        """The coefficients of v in G (v in span G), by solving G^T c = v."""
        for c in itertools.product((0, 1), repeat=k):
            if not ((np.array(c) @ G - v) % 2).any():
                return c
        raise AssertionError("not in the span")

    def leaf_key(c_high):  # (c_{k-1}, ..., c_m) as an int, c_{k-1} most significant
        return int("".join(map(str, reversed(c_high))) or "0", 2)

    for pre in proof["pruned"]:
        d = len(pre)
        y = x.astype(np.int64).copy()
        for t, c in enumerate(pre):
            y += c * G[k - 1 - t]
        y %= 2
        free = G[: k - d]
        groups: dict = {}
        for j in range(board.n_taps):
            groups.setdefault(tuple(free[:, j]), []).append(y[j])
        bound = sum(
            sum(v) if not any(key) else min(sum(v), len(v) - sum(v)) for key, v in groups.items()
        )
        assert bound >= length
    for c_high in itertools.product((0, 1), repeat=k - m):
        y = (x + np.array(c_high, dtype=np.int64) @ G[m:]) % 2 if k > m else x.copy()
        if any(tuple(reversed(c_high))[: len(p)] == tuple(p) for p in proof["pruned"]):
            continue
        least = True
        for s in proof.get("symmetries", []):
            py = np.zeros_like(y)
            py[np.array(s["taps"])] = y
            img = coords((py - x) % 2)[m:]
            if leaf_key(img) < leaf_key(c_high):
                least = False
        if least:
            assert coset_least(y, low) >= length


# ------------------------------------------------------------------ the C search
@pytest.mark.parametrize("seed", range(40))
def test_search_equals_enumeration_on_random_cosets(seed):
    rng = np.random.default_rng(seed)
    N = int(rng.integers(1, 70))
    k = int(rng.integers(0, 13))
    H = (rng.random((k, N)) < rng.uniform(0.1, 0.6)).astype(np.uint8)
    H = _independent(H)
    x0 = rng.integers(0, 2, N).astype(np.uint8)
    want = coset_least(x0, H)
    for m in sorted({0, int(rng.integers(0, len(H) + 1)), len(H)}):
        p = cube.plan(x0, H, m=m)
        r = cube.search(p, threads=int(rng.integers(1, 3)))
        assert r.complete and r.length == want == int(r.best.sum())
        assert gf2_rank(np.vstack([H, r.best ^ x0])) == gf2_rank(H)  # in the coset
        assert r.covered == 1 << len(H)


def _independent(H):
    rows = []
    for h in H:
        if gf2_rank(np.array(rows + [h])) == len(rows) + 1:
            rows.append(h)
    return np.array(rows, dtype=np.uint8).reshape(len(rows), H.shape[1])


@pytest.mark.parametrize("seed", range(40))
def test_boards_with_and_without_symmetry(seed):
    rng = np.random.default_rng(100 + seed)
    board = random_board(rng)
    eng = ReferenceEngine(board.matrix(), 2)
    H, orders = eng.generators()
    if len(orders) > 12:
        pytest.skip("kernel too large to enumerate here")
    x0 = (
        symmetric_solution(board, rng)
        if seed % 2
        else rng.integers(0, 2, board.n_taps).astype(np.uint8)
    )
    want = coset_least(x0, H)
    for syms in ([], symmetries(board)):
        for m in (None, int(rng.integers(0, len(orders) + 1))):
            p = cube.plan(x0, H, m=m, symmetries=syms)
            r = cube.search(p)
            assert r.complete and r.length == want
            y = r.best.astype(np.int64)
            assert not ((board.matrix().astype(np.int64) @ (y - x0)) % 2).any()


def test_symmetry_skips_leaves_on_the_all_on_board():
    b = ml.Board.grid(19, 19)
    s = ml.Solver(b)
    x0 = b.tap_vector(s.solve(np.zeros((19, 19), int), target=1).taps)
    H, _ = s.kernel(), None
    p = cube.plan(x0, H, m=8, symmetries=symmetries(b, np.ones(b.n_cells, int)))
    assert len(p.symmetries) == 7
    r = cube.search(p)
    q = cube.search(cube.plan(x0, H, m=8))
    assert r.length == q.length == A075464[18]
    assert r.skipped > 4 * r.examined and q.skipped == 0


def test_minimise_by_the_transform_equals_the_gray_walk(monkeypatch):
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(60):
        board = random_board(rng)
        kernel = kernel_of(board)
        H, orders = kernel.generators()
        if not 1 <= len(orders) <= 10:
            continue
        x0 = (
            symmetric_solution(board, rng)
            if checked % 2
            else rng.integers(0, 2, board.n_taps).astype(np.uint8)
        )
        monkeypatch.setattr(cube, "CUBE_MIN_NULLITY", 10**6)
        old = minimise(x0, kernel, None, None)
        monkeypatch.setattr(cube, "CUBE_MIN_NULLITY", 1)
        proof: list = []
        new = minimise(x0, kernel, None, None, proof=proof)
        assert old[1] and new[1]
        assert int(old[0].sum()) == int(new[0].sum()) == coset_least(x0, H)
        assert len(proof) == 1
        rhs = board.matrix().astype(np.int64) @ x0 % 2
        if proof[0]["method"] == "tree":
            check_tree_proof(board, rhs, new[0].astype(np.int64), int(new[0].sum()), proof[0], H)
        checked += 1
    assert checked >= 20


def test_solver_uses_the_transform_with_symmetry_and_proves(monkeypatch):
    monkeypatch.setattr(cube, "CUBE_MIN_NULLITY", 1)
    for k in (4, 9, 11, 16):
        b = ml.Board.grid(k, k)
        s = ml.Solver(b)
        sol = s.solve(np.zeros((k, k), int), target=1, minimal=True, budget=float("inf"))
        assert sol.proven_minimal and sol.length == A075464[k - 1]
    proof: list = []
    b = ml.Board.grid(9, 9)
    s = ml.Solver(b)
    x0 = b.tap_vector(s.solve(np.zeros((9, 9), int), target=1).taps)
    best, proven, _, _ = coset_minimum(
        x0, s._kernel(), steps=None, seconds=None, deadline=None, proof=proof
    )
    assert proven and len(proof) == 1 and len(proof[0]["symmetries"]) == 7
    check_tree_proof(
        b,
        np.ones(b.n_cells, dtype=np.int64),
        best.astype(np.int64),
        A075464[8],
        proof[0],
        s.kernel(),
    )


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
        proof: list = []
        got = coset_minimum(
            b.tap_vector(full.taps),
            s._kernel(),
            steps=1 << 40,
            seconds=None,
            deadline=None,
            executor=ex,
            proof=proof,
        )
    assert got[1] and int(got[0].sum()) == full.length
    assert proof and proof[0]["method"] == "tree" and proof[0]["leaf_dim"] > 0


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
