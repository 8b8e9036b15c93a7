"""The C API's minimal search and result JSON (csrc/api/solve.c, csrc/api/result.c, bound
as modlights.native._core.CSolver.solve_result / CResult) answer as ``modlights.Solver``
(dense engines): on random boards (every named pattern and random offsets, mixed maps,
locks, holes, wrap, odd and even sides, n 2..9, 16 and 101, graph boards from effects and
from matrices) and every budget rule (the default, counts that cover the coset and
counts that stop the search so nothing is proved, 0, 0.0 seconds, deadlines) the same
taps, length, proven flag, examined + pruned (not under a deadline: it depends on the
clock; the split between them depends on the threads' timing); Solution.to_dict() and
certificate() equal ml_result_to_json and ml_result_certificate as parsed JSON, or the
same refusal message; the batches
(ml_solver_solvable_many, min_taps_many, solve_many with and without the search) equal
Solver.solvable_many / min_taps_many / solve_many, or the same Unsolvable message. Deterministic
(seeded NumPy generators)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import modlights as ml
from capi_oracle import c_board
from modlights.native import _core
from test_capi_solver import _random_board

CSolver = _core.CSolver

#: The budgets compared: Python's argument (the C binding maps int -> ml_budget_steps,
#: float -> ml_budget_seconds, None -> ml_budget_default).
BUDGETS = [None, 0, 1, 3, 17, 100, 1 << 20, 0.0, 5.0]


def _solvable_state(b: ml.Board, rng) -> np.ndarray:
    x = rng.integers(0, b.states, size=b.n_taps)
    shape = b.shape if b.is_grid else (b.n_cells,)
    ax = b.apply(np.zeros(shape, dtype=np.int64), b.from_tap_vector(x)).astype(np.int64)
    return (-ax) % b.states


def _same_text(call_py, call_c):
    """Python's dict and C's JSON text equal once parsed, or one ValueError message."""
    try:
        want = call_py()
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            call_c()
        assert str(got.value) == str(e)
        return None
    got = json.loads(call_c())
    assert got == json.loads(json.dumps(want))
    return got


def _compare(b: ml.Board, rng, budgets=BUDGETS, target=0, slow=False) -> int:
    """Compare every budget on one random solvable state; deadlines that would run out
    (a kernel past 2^16 elements) only when ``slow``."""
    name = "dense-gf2" if b.states == 2 else "dense-zn"
    ps = ml.Solver(b, method=name)
    cs = CSolver(c_board(b), "dense")
    state = _solvable_state(b, rng)
    compared = 0
    for budget in budgets:
        deadline = isinstance(budget, float) or (
            budget is None and ps.kernel_size > ps._default_count
        )
        if deadline and budget != 0.0 and ps.kernel_size > 1 << 16 and not slow:
            continue
        want = ps.solve(state, target, minimal=True, budget=budget)
        got = cs.solve_result(state, target, budget=budget, proof=True)
        assert got.proven_minimal == want.proven_minimal or deadline, (b, budget)
        if not deadline or (want.proven_minimal and got.proven_minimal):
            taps = np.asarray(want.taps).reshape(-1)
            assert np.array_equal(got.taps, taps), (b, budget)
            assert got.length == want.length
        if not deadline:
            # the threaded walk prunes a chunk by the best length found so far, so how the
            # coset splits into examined and pruned depends on the threads' timing (a
            # loaded machine moved 32768 elements between them); what was covered does not
            assert got.examined + got.pruned == want.examined + want.pruned, (b, budget)
            if got.proven_minimal and want.proven_minimal and got.length:
                # a coset past 2^64 elements (proved by the Z/n branch and bound) has
                # its covered count saturated at 2^64 - 1
                covered = min(want.kernel_size, 2**64 - 1)
                assert got.examined + got.pruned == covered, (b, budget)
            _same_text(want.to_dict, got.to_json)
            _same_text(want.certificate, got.certificate)
        assert got.kernel_size == want.kernel_size
        compared += 1
    return compared


@pytest.mark.parametrize("seed", range(4))
def test_random_boards_minimal_as_python(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(12):
        _compare(_random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16, 101], max_side=6), rng)


def test_unproved_budgets_as_python():
    """Kernels large enough that small counts stop the search (proven False, the descent
    after it), and a certificate refused with Python's message."""
    boards = [
        ml.Board.grid(5, 5, states=2),  # |ker| 4
        ml.Board.grid(9, 9, states=2, pattern="diagonal"),
        ml.Board.grid(6, 6, states=3, pattern="square", wrap=True),
        ml.Board.grid(4, 6, states=4, wrap=True),
        ml.Board.grid(5, 5, states=6, wrap=True),
        ml.Board.grid(5, 4, states=6, pattern="knight"),
        # |ker A| = 16^18 = 2^72: the searched prefix (product < 2^62) must not overflow
        ml.Board.grid(3, 9, states=16, pattern="vertical", wrap=True),
    ]
    rng = np.random.default_rng(7)
    unproved = 0
    for b in boards:
        ps = ml.Solver(b, method="dense-gf2" if b.states == 2 else "dense-zn")
        assert ps.kernel_size > 1
        _compare(b, rng, budgets=[1, 2, 3, 0])
        sol = ps.solve(_solvable_state(b, rng), minimal=True, budget=1)
        unproved += not sol.proven_minimal
    assert unproved >= 3


def test_minimal_false_and_refusals_as_python():
    rng = np.random.default_rng(3)
    b = ml.Board.grid(5, 5, states=2)
    ps, cs = ml.Solver(b, method="dense-gf2"), CSolver(c_board(b), "dense")
    state = _solvable_state(b, rng)
    want = ps.solve(state, minimal=False)
    got = cs.solve_result(state, minimal=False)
    assert got.proven_minimal == want.proven_minimal
    _same_text(want.to_dict, got.to_json)
    _same_text(want.certificate, got.certificate)
    # a trivial kernel: proved without a search, with a certificate
    b1 = ml.Board.grid(4, 4, states=3)
    p1, c1 = ml.Solver(b1, method="dense-zn"), CSolver(c_board(b1), "dense")
    s1 = _solvable_state(b1, rng)
    _same_text(
        p1.solve(s1, minimal=False).certificate, c1.solve_result(s1, minimal=False).certificate
    )
    # bad budgets: Python's messages
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError) as e:
            ps.solve(state, budget=bad)
        with pytest.raises(ValueError) as g:
            cs.solve_result(state, budget=bad)
        assert str(g.value) == str(e.value)
    with pytest.raises(ValueError, match="budget kind must be"):
        cs.solve_result(state, budget=(7, 0, 0.0))
    # a proved search without ML_SOLVE_PROOF keeps no proof
    r = cs.solve_result(state, budget=100)
    assert r.proven_minimal
    with pytest.raises(ValueError, match="kept no proof"):
        r.certificate()


def test_graph_boards_and_targets_as_python():
    rng = np.random.default_rng(11)
    for n in (2, 3, 5, 9):
        effects = [[int(c) for c in rng.integers(0, 7, size=3)] for _ in range(9)]
        b = ml.Board.from_effects(effects, states=n, n_cells=7)
        _compare(b, rng)
        m = ml.Board.from_matrix(rng.integers(0, n, size=(6, 9)), n)
        _compare(m, rng)
    b = ml.Board.grid(5, 5, states=3)
    _compare(b, rng, target=2)


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(40))
def test_matrix_minimal_as_python(seed):
    rng = np.random.default_rng(5000 + seed)
    for _ in range(25):
        _compare(_random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16, 101], max_side=9), rng, slow=True)


# ------------------------------------------------------------------ batches
def _states(b: ml.Board, rng, k: int) -> np.ndarray:
    """k states: most solvable (-A x), some random (often unsolvable)."""
    rows = [_solvable_state(b, rng) for _ in range(k)]
    shape = b.shape if b.is_grid else (b.n_cells,)
    for i in range(0, k, 3):
        rows[i] = rng.integers(0, b.states, size=shape)
    return np.stack(rows) if rows else np.zeros((0, *shape), dtype=np.int64)


def _compare_many(b: ml.Board, rng, budgets=(None, 0, 1, 5, 4096, 0.0), slow=False) -> None:
    name = "dense-gf2" if b.states == 2 else "dense-zn"
    ps = ml.Solver(b, method=name)
    cs = CSolver(c_board(b), "dense")
    k = int(rng.integers(0, 7))
    S = _states(b, rng, k)
    ok = ps.solvable_many(S)
    assert np.array_equal(cs.solvable_many(S), ok)
    for budget in budgets:
        deadline = isinstance(budget, float) or (
            budget is None and ps.kernel_size > ps._default_count
        )
        if deadline and budget != 0.0 and not slow:
            continue
        lengths, proven = ps.min_taps_many(S, budget=budget)
        got_l, got_p = cs.min_taps_many(S, budget=budget)
        if not deadline:
            assert np.array_equal(got_l, lengths), (b, budget)
            assert np.array_equal(got_p, proven), (b, budget)
        solvable = S[ok]
        for minimal in (False, True):
            want = ps.solve_many(solvable, minimal=minimal, budget=budget)
            taps, okc = cs.solve_many(solvable, minimal=minimal, budget=budget)
            assert okc.all()
            if not (deadline and minimal):
                assert np.array_equal(taps, np.asarray(want).reshape(taps.shape)), (b, budget)
    if not ok.all():
        with pytest.raises(ValueError) as e:
            ps.solve_many(S)
        with pytest.raises(ValueError) as g:
            cs.solve_many(S)
        assert str(g.value) == str(e.value)


@pytest.mark.parametrize("seed", range(2))
def test_batches_as_python(seed):
    rng = np.random.default_rng(2000 + seed)
    for _ in range(10):
        _compare_many(_random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16, 101], max_side=6), rng)
    for b in (ml.Board.grid(5, 5, states=2), ml.Board.grid(4, 6, states=4, wrap=True)):
        _compare_many(b, rng, budgets=(1, 2, 3, None))


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(20))
def test_matrix_batches_as_python(seed):
    rng = np.random.default_rng(6000 + seed)
    for _ in range(20):
        _compare_many(
            _random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16, 101], max_side=9), rng, slow=True
        )


# ------------------------------------------------------------------ the transform search
#: GF(2) boards of nullity 22..30 (pattern, wrap, rows, cols): the transform search's
#: kernels, most with symmetries (tori: translations too)
CUBE_BOARDS = [
    ("diagonal", False, 32, 32),
    ("cross", True, 30, 30),
    ("square", False, 14, 14),
    ("cross", True, 12, 24),
    ("cross", True, 14, 18),
    ("diagonal", True, 14, 18),
    ("square", False, 5, 23),
    ("square", False, 8, 17),
    ("horizontal", False, 22, 23),
    ("horizontal", False, 24, 29),
    ("vertical", False, 5, 26),
    ("vertical", False, 8, 24),
    ("knight", True, 9, 9),
    ("knight", True, 15, 15),
    ("knight", True, 9, 18),
    ("square", False, 5, 26),
    ("diagonal", True, 18, 28),
    ("cross", True, 20, 30),
]

#: Budgets of the transform search: the default, its least count (ML_CUBE_MIN_STEPS),
#: one short of it (the Gray walk, unless the coset is smaller), 0
CUBE_BUDGETS = [None, 1 << 28, (1 << 28) - 1, 1 << 22, 0]


def _grid_taps(b: ml.Board, got) -> np.ndarray:
    """A C result's taps (ml_board_taps_size bytes: every tile) shaped as Board.apply
    takes them."""
    return np.asarray(got.taps).reshape(b.shape if b.is_grid else (-1,))


def _symmetric_state(b: ml.Board, rng) -> np.ndarray:
    """A solvable state fixed by the board's symmetries (the union of the images of a
    random tap vector's orbit), so that they keep its coset."""
    from modlights.search.symmetry import symmetries

    x = rng.integers(0, 2, size=b.n_taps)
    for _ in range(2):
        for _cells, taps in symmetries(b):
            y = np.empty_like(x)
            y[np.asarray(taps)] = x
            x = x | y
    ax = b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x)).astype(np.int64)
    return ax % 2


def _compare_cube(b: ml.Board, rng, budgets=CUBE_BUDGETS) -> int:
    """Random, symmetric and all-ones states of a GF(2) board of nullity >= 22: C as
    Python (the element, length, proven flag, examined and pruned, the certificate)."""
    ps = ml.Solver(b, method="dense-gf2")
    assert ps.nullity >= 22
    cs = CSolver(c_board(b), "dense")
    states = [_solvable_state(b, rng), _symmetric_state(b, rng)]
    if ps.solvable(np.ones(b.shape, dtype=np.int64)):
        states.append(np.ones(b.shape, dtype=np.int64))
    compared = 0
    for state in states:
        for budget in budgets:
            want = ps.solve(state, minimal=True, budget=budget)
            got = cs.solve_result(state, budget=budget, proof=True)
            key = (b, budget)
            if isinstance(budget, float) or (
                budget is None and ps.kernel_size > ps._default_count
            ):  # a deadline: what it covers depends on the clock
                assert not b.apply(state, _grid_taps(b, got)).any(), key
                if want.proven_minimal:
                    assert got.length >= want.length, key
                if got.proven_minimal and want.proven_minimal:
                    assert np.array_equal(got.taps, np.asarray(want.taps).reshape(-1)), key
                continue
            assert got.proven_minimal == want.proven_minimal, key
            assert np.array_equal(got.taps, np.asarray(want.taps).reshape(-1)), key
            assert got.length == want.length, key
            assert (got.examined, got.pruned) == (want.examined, want.pruned), key
            _same_text(want.to_dict, got.to_json)
            _same_text(want.certificate, got.certificate)
            compared += 1
    return compared


def test_cube_boards_as_python():
    """A few boards in the default run: a diagonal pattern (22), a cross torus (24: 31
    symmetries), a square pattern (27); a count that stops the search part-way on a
    nullity-32 torus (unproved, descended)."""
    rng = np.random.default_rng(33)
    for pat, wrap, r, c in CUBE_BOARDS[:3]:
        _compare_cube(ml.Board.grid(r, c, states=2, pattern=pat, wrap=wrap), rng)
    b = ml.Board.grid(20, 20, states=2, wrap=True)  # nullity 32: 64 corners of 2^26
    ps, cs = ml.Solver(b, method="dense-gf2"), CSolver(c_board(b), "dense")
    state = _solvable_state(b, rng)
    want = ps.solve(state, budget=1 << 28)
    got = cs.solve_result(state, budget=1 << 28)
    assert not want.proven_minimal and not got.proven_minimal
    assert np.array_equal(got.taps, np.asarray(want.taps).reshape(-1))
    assert (got.examined, got.pruned) == (want.examined, want.pruned) == (1 << 28, 0)


def test_cube_graph_boards_as_python():
    """Graph boards (no symmetries) of nullity 22..30: random sparse matrices over
    GF(2)."""
    rng = np.random.default_rng(34)
    compared = 0
    for rows, cols in ((8, 32), (12, 40), (30, 56)):
        a = (rng.random((rows, cols)) < 0.2).astype(np.int64)
        b = ml.Board.from_matrix(a, 2)
        if 22 <= ml.Solver(b).nullity <= 30:
            compared += _compare_cube(b, rng, budgets=[None, 1 << 28, 1 << 21])
    assert compared >= 12


def test_cube_deadline_answers_validly():
    """Deadlines on a nullity-32 torus (2^32 elements): a solution of the state, never
    shorter than the least, proved only with the least length (and then a certificate
    of the transform search's tree); a random state is not proved in 0.05 s."""
    rng = np.random.default_rng(35)
    b = ml.Board.grid(20, 20, states=2, wrap=True)
    ps, cs = ml.Solver(b, method="dense-gf2"), CSolver(c_board(b), "dense")
    assert ps.nullity == 32
    state = _symmetric_state(b, rng)  # 127 symmetries keep its coset: about 0.2 s
    exact = ps.solve(state, budget=1 << 40)
    assert exact.proven_minimal
    for budget in (0.02, 5.0):
        got = cs.solve_result(state, budget=budget, proof=True)
        assert not b.apply(state, _grid_taps(b, got)).any()
        assert got.length >= exact.length
        assert got.proven_minimal or budget < 1
        if got.proven_minimal:
            assert got.length == exact.length
            cert = json.loads(got.certificate())
            assert cert["length"] == exact.length and cert["proof"]["method"] == "tree"
    state = _solvable_state(b, rng)
    got = cs.solve_result(state, budget=0.05)
    assert not got.proven_minimal
    assert not b.apply(state, _grid_taps(b, got)).any()


def test_cube_stops_on_interrupt():
    """The stop flag (ml_stop_all, what Ctrl-C sets) stops the transform search within
    a second: ML_EINTERRUPTED (KeyboardInterrupt), and the solver answers afterwards."""
    import threading
    import time

    b = ml.Board.grid(31, 31, states=2, wrap=True)
    cs = CSolver(c_board(b), "dense")
    state = _solvable_state(b, np.random.default_rng(36))
    cs.solve_result(state, budget=0)  # factor first
    timer = threading.Timer(0.3, _core._request_interrupt)
    t0 = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            cs.solve_result(state, budget=1 << 40)  # 2^40 elements: minutes
    finally:
        timer.cancel()
        _core._clear_interrupt()
    assert time.perf_counter() - t0 < 1.3
    assert cs.solve_result(state, budget=1 << 28).length > 0


def test_sub_coset_as_python():
    """nullity x n_taps past MAX_SEARCH_BYTES (2^24): the engine's first generators that
    fit are searched (a sub-coset: nothing proved but length 0), then descended."""
    rng = np.random.default_rng(37)
    a = (rng.random((40, 4200)) < 0.05).astype(np.int64)
    b = ml.Board.from_matrix(a, 2)
    x = rng.integers(0, 2, size=b.n_taps)
    # (the zero state is proved without a search: its certificate would build the whole
    # canonical kernel, 4160 x 4200, seconds on each side)
    state = (-(a @ x)) % 2
    for budget in (0, 1, 1000, 1 << 16):
        ps, cs = ml.Solver(b, method="dense-gf2"), CSolver(c_board(b), "dense")
        assert ps.nullity * b.n_taps > 1 << 24
        want = ps.solve(state, budget=budget)
        got = cs.solve_result(state, budget=budget, proof=True)
        assert not got.proven_minimal and not want.proven_minimal
        assert np.array_equal(got.taps, np.asarray(want.taps).reshape(-1)), budget
        assert (got.examined, got.pruned) == (want.examined, want.pruned)
        # |ker A| = 2^4160: C's message names "a huge number of" elements (its messages
        # hold ML_ERRMSG_MAX bytes), Python's the 1253 digits
        with pytest.raises(ValueError, match="not proved minimal"):
            got.certificate()
    zero = np.zeros(40, dtype=np.int64)
    got = CSolver(c_board(b), "dense").solve_result(zero, budget=1)
    assert got.proven_minimal and got.length == 0


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(6))
def test_matrix_cube_as_python(seed):
    """The boards of CUBE_BOARDS shared out over the seeds, each with a locked cell at
    random (kept when the nullity stays >= 22), and random graph boards."""
    rng = np.random.default_rng(7000 + seed)
    for pat, wrap, r, c in CUBE_BOARDS[3:][seed::6] + [CUBE_BOARDS[seed % 3]]:
        locked = [] if rng.random() < 0.5 else [(int(rng.integers(r)), int(rng.integers(c)))]
        b = ml.Board.grid(r, c, states=2, pattern=pat, wrap=wrap, locked=locked)
        if ml.Solver(b).nullity < 22:
            b = ml.Board.grid(r, c, states=2, pattern=pat, wrap=wrap)
        _compare_cube(b, rng)
    for _ in range(4):
        a = rng.random((int(rng.integers(5, 30)), int(rng.integers(30, 60)))) < 0.2
        b = ml.Board.from_matrix(a.astype(np.int64), 2)
        if 22 <= ml.Solver(b).nullity <= 30:
            _compare_cube(b, rng, budgets=[None, 1 << 28, 1 << 21, 0.0])
