"""The C API's split search (csrc/api/search.c, bound as modlights.native._core.CSearch)
answers as ``modlights.Solver.solve(executor=...)`` (search/minimal.py's coset_min over
sub-cubes): on random boards (named patterns and random offsets, mixed maps, locks,
holes, wrap, graph boards, n 2..9) split for 1..3 workers, the tasks run and merged in
order, in reverse and shuffled (each given the bound ml_search_bound says right before
it runs, as a driver would), through the export / import of a worker's copy: the same
taps, length and proof, every coset element examined or pruned. Bad exports, tasks out
of range, a task merged twice and unsolvable states are refused with the C library's
message. GF(2) kernels of nullity >= 22 split as minimal._cube_on_executor (ranges of
corners of the transform search): the same element, length, proof and examined and
pruned counts as Python's solve over an executor (and as ml_solver_solve). The
many-coset split (csrc/api/search_many.c, ml_solver_search_many: tasks of rows) answers
as Solver.min_taps_many / solve_many(minimal=True) over an executor whose rows really
are split (MIN_ROWS_PER_TASK lowered): per state the same length, proof and taps
(unsolvable states: -1, proved) whatever the split and the order tasks finish in, run on
imported copies (bytes pickled as a process pool would) or a thread pool; its misuses
and bad exports are refused with the C library's messages. Deterministic (seeded NumPy
generators)."""

from __future__ import annotations

import json
import pickle
from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy as np
import pytest

import modlights as ml
from capi_oracle import c_board
from modlights.native import _core
from test_capi_solver import _random_board

CSolver = _core.CSolver


def _solvable_state(b: ml.Board, rng) -> np.ndarray:
    x = rng.integers(0, b.states, size=b.n_taps)
    shape = b.shape if b.is_grid else (b.n_cells,)
    ax = b.apply(np.zeros(shape, dtype=np.int64), b.from_tap_vector(x)).astype(np.int64)
    return (-ax) % b.states


def _drive(q, order) -> None:
    """Run every task of q (a worker's copy from q's export) in `order`, merging each."""
    data = q.export()
    for t in order:
        if q.done:
            break
        q.merge(t, _core.search_task(data, t, q.bound(t)))


def _solvers(b: ml.Board):
    name = "dense-gf2" if b.states == 2 else "dense-zn"
    return ml.Solver(b, method=name), CSolver(c_board(b), name)


def _compare(b: ml.Board, rng, workers: int) -> bool:
    """One random solvable state of b: C's split search in three task orders against
    Python's solve over a thread pool of `workers`. False when skipped (a trivial or a
    GF(2) transform-search kernel (_compare_cube), or one too large to enumerate
    quickly)."""
    ps, cs = _solvers(b)
    if ps.kernel_size < 2 or ps.kernel_size > 1 << 14 or (b.states == 2 and ps.nullity >= 22):
        return False
    state = _solvable_state(b, rng)
    with ThreadPoolExecutor(workers) as ex:
        want = ps.solve(state, executor=ex)
    shape = b.shape if b.is_grid else (b.n_taps,)
    for how in ("order", "reverse", "shuffle"):
        q = _core.capi_search(cs, state)
        tasks = q.split(4 * workers)
        order = list(range(tasks))
        if how == "reverse":
            order.reverse()
        elif how == "shuffle":
            rng.shuffle(order)
        _drive(q, order)
        assert q.done
        r = q.finish()
        assert r.length == want.length, how
        assert r.proven_minimal and want.proven_minimal
        assert np.array_equal(r.taps.reshape(shape), np.asarray(want.taps)), how
        # what is examined and what pruned depends on the bounds tasks got (Python's on
        # its threads' timing); together they cover the coset
        assert r.examined + r.pruned == ps.kernel_size == want.examined + want.pruned
        cert = json.loads(r.to_json())
        assert cert["length"] == want.length and cert["proven_minimal"]
    return True


@pytest.mark.parametrize("seed", range(3))
def test_split_searches_answer_as_python_over_an_executor(seed):
    rng = np.random.default_rng(3100 + seed)
    compared = 0
    while compared < 8:
        b = _random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9], max_side=6)
        compared += _compare(b, rng, int(rng.integers(1, 4)))


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(20))
def test_split_searches_answer_as_python_matrix(seed):
    rng = np.random.default_rng(3200 + seed)
    compared = 0
    while compared < 20:
        b = _random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16], max_side=8)
        compared += _compare(b, rng, int(rng.integers(1, 5)))


def _search(b: ml.Board, rng):
    ps, cs = _solvers(b)
    return _core.capi_search(cs, _solvable_state(b, rng))


def test_a_length_zero_best_ends_the_search_and_prunes_the_rest():
    b = ml.Board.grid(4, 4, states=2)  # |ker A| = 16
    ps, cs = _solvers(b)
    q = _core.capi_search(cs, np.zeros((4, 4), dtype=np.uint8))
    tasks = q.split(4)
    assert tasks == 4 and q.done  # x0 = 0: nothing is shorter
    r = q.finish()
    assert r.length == 0 and r.proven_minimal
    assert (r.examined, r.pruned) == (0, ps.kernel_size)


def test_bounds_follow_the_merged_best():
    b = ml.Board.grid(5, 5, states=3, wrap=True)
    rng = np.random.default_rng(7)
    q = _search(b, rng)
    tasks = q.split(9)
    first = q.bound(0)
    assert all(q.bound(t) == first for t in range(tasks))  # x0 stands: length + 1
    data = q.export()
    answer = _core.search_task(data, tasks - 1, q.bound(tasks - 1))
    q.merge(tasks - 1, answer)
    if answer[0]:
        # below the best's corner: its length + 1 (an equal length there wins); at it or
        # above: its length
        assert q.bound(0) == answer[2] + 1
        assert q.bound(tasks - 1) == answer[2]


def test_bad_exports_tasks_and_merges_are_refused():
    b = ml.Board.grid(4, 4, states=3)
    rng = np.random.default_rng(11)
    q = _search(b, rng)
    tasks = q.split(3)
    data = q.export()
    msg = r"not a search exported by libmodlights \S+ \(format \d+, version \d+\)"
    for bad in (b"", data[:-1], data + b"\0", b"MLSEARCX" + data[8:], data[:8] + b"\2" + data[9:]):
        with pytest.raises(ValueError, match=msg):
            _core.CSearch.from_bytes(bad)
    junk = bytearray(data)
    junk[-1] = 200  # a generator entry past n
    with pytest.raises(ValueError, match=msg):
        _core.CSearch.from_bytes(bytes(junk))
    out_of_range = rf"task {tasks} out of range: the search has {tasks} tasks"
    with pytest.raises(ValueError, match=out_of_range):
        q.bound(tasks)
    with pytest.raises(ValueError, match="out of range"):
        _core.search_task(data, tasks, 5)
    answer = _core.search_task(data, 0, q.bound(0))
    q.merge(0, answer)
    with pytest.raises(ValueError, match="task 0 out of range"):
        q.merge(0, answer)  # a task merged twice
    copy = _core.CSearch.from_bytes(data)
    assert copy.export() == data  # a worker's copy exports the same bytes
    with pytest.raises(Exception, match="not an imported copy"):
        copy.finish()


def test_an_unsolvable_state_is_refused_with_pythons_message():
    b = ml.Board.grid(4, 4, states=2)
    ps, cs = _solvers(b)
    rng = np.random.default_rng(5)
    while True:
        state = rng.integers(0, 2, size=(4, 4))
        if not ps.solvable(state):
            break
    with pytest.raises(ml.Unsolvable) as e:
        ps.solve(state)
    with pytest.raises(ValueError) as got:
        _core.capi_search(cs, state)
    assert str(got.value) == str(e.value)


# ------------------------------------------------------------------ the transform search
def _compare_cube(b: ml.Board, rng, workers: int, symmetric: bool) -> None:
    """A GF(2) board of nullity >= 22: C's split search (tasks of corners, in three
    orders, through a worker's copy) against Python's solve over a thread pool."""
    from test_capi_minimal import _symmetric_state

    ps, cs = _solvers(b)
    assert ps.nullity >= 22
    state = _symmetric_state(b, rng) if symmetric else _solvable_state(b, rng)
    with ThreadPoolExecutor(workers) as ex:
        want = ps.solve(state, executor=ex, budget=1 << 40)
    assert want.proven_minimal
    one = cs.solve_result(state, budget=1 << 40)
    shape = b.shape if b.is_grid else (b.n_taps,)
    for how, split in (("order", 8 * workers), ("reverse", 3), ("shuffle", 1000)):
        q = _core.capi_search(cs, state)
        tasks = q.split(split)
        assert 1 <= tasks <= split
        order = list(range(tasks))
        if how == "reverse":
            order.reverse()
        elif how == "shuffle":
            rng.shuffle(order)
        _drive(q, order)
        assert q.done
        r = q.finish()
        assert r.length == want.length == one.length, how
        assert r.proven_minimal
        assert np.array_equal(r.taps.reshape(shape), np.asarray(want.taps)), how
        assert np.array_equal(r.taps, one.taps), how
        if r.length:
            assert (r.examined, r.pruned) == (want.examined, want.pruned), how


def test_cube_split_searches_answer_as_python():
    rng = np.random.default_rng(3300)
    boards = [
        ml.Board.grid(32, 32, states=2, pattern="diagonal"),  # nullity 22
        ml.Board.grid(30, 30, states=2, wrap=True),  # 24, 31 symmetries
        ml.Board.from_matrix((rng.random((8, 32)) < 0.2).astype(np.int64), 2),
    ]
    for i, b in enumerate(boards):
        _compare_cube(b, rng, 1 + i % 3, symmetric=i == 1)
        _compare_cube(b, rng, 2, symmetric=False)


def test_cube_split_exports_are_checked():
    """A format-2 export (the plan) reads back; cut, padded or with a word past its
    bits it is refused with the C library's message."""
    b = ml.Board.grid(30, 30, states=2, wrap=True)
    ps, cs = _solvers(b)
    from test_capi_minimal import _symmetric_state

    q = _core.capi_search(cs, _symmetric_state(b, np.random.default_rng(5)))
    q.split(4)
    data = q.export()
    assert data[8] == 2  # format 2
    copy = _core.CSearch.from_bytes(data)
    assert copy.export() == data
    msg = r"not a search exported by libmodlights \S+ \(format \d+, version \d+\)"
    for bad in (data[:-1], data + b"\0", data[:-8] + b"\xff" * 8):
        with pytest.raises(ValueError, match=msg):
            _core.CSearch.from_bytes(bad)


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(6))
def test_cube_split_searches_matrix(seed):
    from test_capi_minimal import CUBE_BOARDS

    rng = np.random.default_rng(3400 + seed)
    for pat, wrap, r, c in CUBE_BOARDS[seed::6]:
        b = ml.Board.grid(r, c, states=2, pattern=pat, wrap=wrap)
        if ml.Solver(b).nullity <= 27:
            _compare_cube(b, rng, int(rng.integers(1, 5)), symmetric=bool(rng.random() < 0.5))


# ------------------------------------------------------------------ many cosets
def _states(b: ml.Board, rng, k: int) -> np.ndarray:
    """k states of b: about 3 in 4 solvable, the rest random (often unsolvable)."""
    shape = b.shape if b.is_grid else (b.n_cells,)
    rows = [
        _solvable_state(b, rng) if rng.random() < 0.75 else rng.integers(0, b.states, size=shape)
        for _ in range(k)
    ]
    return np.stack(rows).astype(np.int64) if rows else np.zeros((0, *shape), dtype=np.int64)


def _drive_rows(q, order, taps=True) -> None:
    """Run every task of q in `order`, each on its own copy imported from pickled
    bytes (what a ProcessPoolExecutor's worker gets), merging each answer."""
    data = pickle.loads(pickle.dumps(q.export()))
    for t in order:
        answer = pickle.loads(pickle.dumps(_core.search_rows_task(data, t, taps)))
        q.merge_rows(t, answer)


def _compare_many(b: ml.Board, rng, workers: int, k: int, monkeypatch, most=1 << 12) -> bool:
    """k random states of b: C's many-coset split (random splits, three task orders,
    a thread pool) against Python's min_taps_many and solve_many(minimal=True) over a
    thread pool of `workers` (rows split: MIN_ROWS_PER_TASK lowered). False when
    skipped (a kernel too large to search whole by default quickly)."""
    import modlights.search.minimal as minimal

    ps, cs = _solvers(b)
    if ps.kernel_size > most:
        return False
    monkeypatch.setattr(minimal, "MIN_ROWS_PER_TASK", 4)
    target = int(rng.integers(0, b.states)) if rng.random() < 0.3 else 0
    S = _states(b, rng, k)
    ok = ps.solvable_many(S, target)
    with ThreadPoolExecutor(workers) as ex:
        lengths, proven = ps.min_taps_many(S, target, executor=ex)
        X = ps.solve_many(S[ok], target, minimal=True, executor=ex)
    assert proven.all()
    X = np.asarray(X).reshape(len(X), -1) if ok.any() else None
    for how in ("order", "reverse", "shuffle", "pool", "lengths"):
        q = _core.capi_search_many(cs, S, target)
        tasks = q.split(int(rng.integers(1, k + 3)))
        assert 1 <= tasks <= max(1, int(ok.sum()))
        order = list(range(tasks))
        if how == "reverse":
            order.reverse()
        elif how in ("shuffle", "lengths"):
            rng.shuffle(order)
        if how == "pool":  # merged as they finish
            data = q.export()
            with ThreadPoolExecutor(workers) as ex:
                futures = {ex.submit(_core.search_rows_task, data, t): t for t in order}
                for f in as_completed(futures):
                    q.merge_rows(futures[f], f.result())
        else:
            _drive_rows(q, order[:-1], taps=how != "lengths")
            if ok.sum() and tasks > 1:  # a task not merged: its rows are not proved
                assert not q.done and not q.proven()[ok].all()
            _drive_rows(q, order[-1:], taps=how != "lengths")
        assert q.done
        got, taps = q.lengths(taps=how != "lengths")
        assert np.array_equal(got, lengths), how
        assert np.array_equal(q.proven(), proven), how
        if how == "lengths":
            if ok.any() and b.n_taps:
                with pytest.raises(ValueError, match=r"no taps: \d+ task\(s\) were merged without"):
                    q.lengths()
            continue
        assert X is None or np.array_equal(taps[ok], X), how
        assert not taps[~ok].any()
    c_lengths, c_proven = cs.min_taps_many(S, target)
    assert np.array_equal(c_lengths, lengths) and c_proven.all()
    return True


@pytest.mark.parametrize("seed", range(2))
def test_many_coset_splits_answer_as_python_over_an_executor(seed, monkeypatch):
    rng = np.random.default_rng(3500 + seed)
    compared = 0
    while compared < 4:
        b = _random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9], max_side=5)
        compared += _compare_many(b, rng, int(rng.integers(1, 4)), 100, monkeypatch)


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(12))
def test_many_coset_splits_matrix(seed, monkeypatch):
    rng = np.random.default_rng(3600 + seed)
    compared = 0
    while compared < 8:
        b = _random_board(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16], max_side=7)
        k = int(rng.choice([0, 1, 7, 150, 400]))
        compared += _compare_many(b, rng, int(rng.integers(1, 5)), k, monkeypatch)


def test_many_coset_splits_of_boards_without_taps_or_kernel(monkeypatch):
    """No taps (every tile locked: a state is 0 or unsolvable; its export a zero byte a
    row) and a trivial kernel."""
    rng = np.random.default_rng(3800)
    locked = [(r, c) for r in range(2) for c in range(3)]
    for b in (ml.Board.grid(2, 3, states=3, locked=locked), ml.Board.grid(3, 3, states=2)):
        assert _compare_many(b, rng, 2, 30, monkeypatch)
    q = _core.capi_search_many(
        _solvers(ml.Board.grid(2, 3, states=3, locked=locked))[1],
        np.zeros((5, 2, 3), dtype=np.int64),
    )
    q.split(3)
    data = q.export()
    assert len(data) == 52 + 5  # the head, no generators, a zero byte a row
    for bad in (data[:-1], data[:-1] + b"\1"):
        with pytest.raises(ValueError, match="not a search exported"):
            _core.CSearch.from_bytes(bad)


@pytest.mark.matrix
def test_many_coset_splits_past_the_table(monkeypatch):
    """Kernels past coset_batch's table (more than 2^20 elements or 16 MiB): each row's
    Gray-code search, as Python's."""
    rng = np.random.default_rng(3700)
    boards = [
        ml.Board.from_matrix(rng.integers(0, 2, size=(3, 24)), 2),  # nullity 21
        ml.Board.from_matrix(rng.integers(0, 3, size=(2, 15)), 3),  # 3^13
    ]
    for b in boards:
        assert ml.Solver(b).kernel_size > 1 << 20
        assert _compare_many(b, rng, 2, 6, monkeypatch, most=1 << 24)


def test_many_coset_misuse_and_bad_exports_are_refused():
    b = ml.Board.grid(4, 4, states=3)
    ps, cs = _solvers(b)
    rng = np.random.default_rng(13)
    S = _states(b, rng, 30)
    q = _core.capi_search_many(cs, S)
    tasks = q.split(4)
    assert tasks == 4 and q.bound(0) == 1 << 62  # no bounds
    data = q.export()
    assert data[8] == 3  # format 3
    copy = _core.CSearch.from_bytes(data)
    assert copy.export() == data
    kind = r"{} does not apply to a {} search \(use {}\)"
    with pytest.raises(
        ValueError, match=kind.format("ml_search_run", "many-coset", "ml_search_run_rows")
    ):
        copy.run(0, 5)
    with pytest.raises(
        ValueError, match=kind.format("ml_search_merge", "many-coset", "ml_search_merge_rows")
    ):
        q.merge(0, (False, True, 0, 0, 0, np.zeros(b.n_taps, np.uint8)))
    with pytest.raises(ValueError, match="ml_search_finish does not apply to a many-coset"):
        q.finish()
    one = _core.capi_search(cs, _solvable_state(b, rng))
    with pytest.raises(ValueError, match="ml_search_merge_rows does not apply to a one-coset"):
        one.merge_rows(0, (np.zeros(1, np.int64), None))
    with pytest.raises(ValueError, match="ml_search_lengths does not apply to a one-coset"):
        one.lengths()
    with pytest.raises(ValueError, match="ml_search_task_rows does not apply to a one-coset"):
        one.task_rows(0)
    with pytest.raises(
        ValueError, match=rf"task {tasks} out of range: the search has {tasks} tasks"
    ):
        q.task_rows(tasks)
    with pytest.raises(ValueError, match="out of range"):
        _core.search_rows_task(data, tasks)
    answer = _core.search_rows_task(data, 1)
    q.merge_rows(1, answer)
    with pytest.raises(ValueError, match="task 1 out of range"):
        q.merge_rows(1, answer)  # merged twice
    with pytest.raises(Exception, match="not an imported copy"):
        copy.lengths()
    msg = r"not a search exported by libmodlights \S+ \(format \d+, version \d+\)"
    zero_tasks = data[:36] + b"\0" * 8 + data[44:]
    past_n = data[:-1] + b"\3"  # a representative's entry past n - 1
    for bad in (data[:-1], data + b"\0", data[:50], zero_tasks, past_n):
        with pytest.raises(ValueError, match=msg):
            _core.CSearch.from_bytes(bad)
