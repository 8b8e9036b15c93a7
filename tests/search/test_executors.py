"""Minimal searches split over executors (modlights.search.minimal): a ProcessPoolExecutor
and a dask.distributed LocalCluster give the single-process answers."""

from __future__ import annotations

import concurrent.futures as cf

import numpy as np
import pytest

import modlights as ml
from modlights.search import minimal
from strategies import random_masks

PATTERNS = ["cross", "square", "diagonal", "horizontal", "knight"]


def random_boards(seed: int, count: int, max_kernel: int = 1 << 12):
    """Random grid boards, n in {2..6}, sizes 2..6, locks, holes, wrap, whose kernel is
    non-trivial and small (the executor tests stay fast)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.choice([2, 3, 4, 5, 6]))
        size = int(rng.integers(2, 7))
        shape = (size, int(rng.integers(2, 7)))
        locked, holes = random_masks(rng, shape, 0.1, 0.1)
        b = ml.Board.grid(
            *shape,
            states=n,
            pattern=str(rng.choice(PATTERNS)),
            locked=locked,
            holes=holes,
            wrap=bool(rng.integers(2)),
        )
        if 1 < ml.Solver(b).kernel_size <= max_kernel:
            out.append(b)
    return out


def reaches(b, state, taps, target=0) -> bool:
    """Whether the taps take the state to the target on every active tile."""
    reached = b.apply(state, taps)
    t = np.broadcast_to(target, b.shape)
    return all(reached[p] == t[p] for p in b.cells)


def check_like_single(b, state, sol_ex, sol_one, target=0):
    assert sol_ex.length == sol_one.length
    assert sol_ex.proven_minimal == sol_one.proven_minimal
    assert reaches(b, state, sol_ex.taps, target)


@pytest.fixture(scope="module")
def process_pool():
    with cf.ProcessPoolExecutor(2) as ex:
        yield ex


# dask: tests/conftest.py's dask_executor (a local cluster of two worker processes, 10-20
# s of wall time to start) is in the heavy group
@pytest.fixture(params=["process_pool", pytest.param("dask", marks=pytest.mark.heavy)])
def executor(request):
    return request.getfixturevalue(
        "process_pool" if request.param == "process_pool" else "dask_executor"
    )


def test_solve_with_executor_matches_single_process(executor):
    rng = np.random.default_rng(1)
    for b in random_boards(2, 12):
        s = ml.Solver(b)
        for _ in range(2):
            state = b.random_state(rng=rng)
            one = s.solve(state)
            ex = s.solve(state, executor=executor)
            check_like_single(b, state, ex, one)
            assert ex.proven_minimal


def test_min_taps_many_with_executor_matches_single_process(executor, monkeypatch):
    monkeypatch.setattr(minimal, "MIN_ROWS_PER_TASK", 8)  # split even small batches
    rng = np.random.default_rng(3)
    for b in random_boards(4, 6):
        s = ml.Solver(b)
        S = np.stack([b.random_state(rng=rng, solvable=bool(rng.integers(2))) for _ in range(50)])
        got = s.min_taps_many(S, executor=executor)
        want = s.min_taps_many(S)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        ok = s.solvable_many(S)
        T = s.solve_many(S[ok], minimal=True, executor=executor)
        assert np.array_equal(T.reshape(len(T), -1).sum(axis=1), want[0][ok])
        for state, taps in zip(S[ok][:5], T[:5]):
            assert reaches(b, state, taps)


class _ShuffledExecutor(cf.Executor):
    """Runs its tasks on one thread in a seeded random order (not the order submitted),
    holding each until it has ``hold`` tasks or is waited on: tasks finish out of order
    as on a loaded pool."""

    def __init__(self, seed: int, hold: int = 3):
        import random
        import threading

        self._max_workers = hold
        self._rng = random.Random(seed)
        self._queue: list = []
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def submit(self, fn, /, *args, **kwargs):
        f: cf.Future = cf.Future()
        with self._ready:
            self._queue.append((f, fn, args, kwargs))
            self._ready.notify()
        return f

    def _run(self):
        while True:
            with self._ready:
                # wait for `hold` tasks to choose from (or 20 ms without a new one)
                seen = -1
                while (
                    len(self._queue) < self._max_workers
                    and not self._stop
                    and (len(self._queue) != seen or not self._queue)
                ):
                    seen = len(self._queue)
                    self._ready.wait(0.02)
                if self._stop and not self._queue:
                    return
                f, fn, args, kwargs = self._queue.pop(self._rng.randrange(len(self._queue)))
            if f.set_running_or_notify_cancel():
                f.set_result(fn(*args, **kwargs))

    def shutdown(self, wait=True, **kwargs):
        with self._ready:
            self._stop = True
            self._ready.notify()
        if wait:
            self._thread.join()


def test_split_answer_does_not_depend_on_the_order_tasks_finish():
    """The C split search (csrc/api/search.c's merge rule): tasks finishing in five
    different orders give the same element, of the least length (the search without
    an executor's), on random boards (GF(2) and Z/n)."""
    rng = np.random.default_rng(11)
    for b in random_boards(11, 4):
        s = ml.Solver(b)
        state = b.random_state(rng=rng, solvable=True)
        want = s.solve(state, budget=1 << 20)
        answers = set()
        for seed in range(5):
            with _ShuffledExecutor(seed) as ex:
                got = s.solve(state, budget=1 << 20, executor=ex)
            assert got.proven_minimal and got.examined + got.pruned == got.kernel_size
            assert got.length == want.length and reaches(b, state, got.taps)
            answers.add(got.taps.tobytes())
        assert len(answers) == 1


def test_budget_below_the_coset_runs_as_without_executor(process_pool):
    b = ml.Board.grid(4, 4)  # kernel 2^4
    s = ml.Solver(b)
    state = b.random_state(rng=np.random.default_rng(8))
    for budget in (0, 5, 2.0):
        one = s.solve(state, budget=budget)
        ex = s.solve(state, budget=budget, executor=process_pool)
        check_like_single(b, state, ex, one)


def test_executor_workers_counts():
    with cf.ThreadPoolExecutor(3) as ex:
        assert minimal.executor_workers(ex) == 3
        b = ml.Board.grid(4, 4, states=3)
        s = ml.Solver(b)
        state = b.random_state(rng=np.random.default_rng(9))
        assert s.solve(state, executor=ex).length == s.solve(state).length
    with pytest.raises(ValueError, match="executor"):
        minimal.check_executor(object())


# ------------------------------------------------------------------ the C solver's splits
def _c_boards(seed: int, count: int):
    """Random boards (as random_boards) whose Solver is the C solver, GF(2) ones through
    the chase (the dense GF(2) engine is Python's)."""
    out = []
    for b in random_boards(seed, 4 * count):
        s = ml.Solver(b) if b.states > 2 else ml.Solver(b, method="chase")
        if s._on_c and len(out) < count:
            out.append((b, s.method))
    return out


@pytest.mark.parametrize("workers", [1, 3])
def test_c_solve_over_an_executor_answers_as_the_reference(workers):
    """Solver.solve(executor=) on the C solver (the split search of csrc/api/search.c)
    against the reference backend's NumPy enumeration: the same length, proved, the
    whole coset covered, and a certificate that verifies."""
    rng = np.random.default_rng(21 + workers)
    boards = _c_boards(21, 10)
    assert any(b.states == 2 for b, _ in boards) and any(b.states > 2 for b, _ in boards)
    with cf.ThreadPoolExecutor(workers) as ex:
        for b, method in boards:
            state = b.random_state(rng=rng, solvable=True)
            got = ml.Solver(b, method=method).solve(state, executor=ex)
            want = ml.Solver(b, backend="reference").solve(state, budget=1 << 20)
            assert got.length == want.length and got.proven_minimal and want.proven_minimal
            assert reaches(b, state, got.taps)
            assert got.examined + got.pruned == got.kernel_size == want.kernel_size
            assert ml.verify(got.certificate())


def test_c_cube_split_over_processes_answers_as_without(process_pool):
    """A GF(2) kernel of nullity 24 (the transform search, ranges of corners) on the C
    solver over a process pool: the element, counts and proof of the same search
    without an executor (ml_solver_solve), and a proof the checker accepts."""
    b = ml.Board.grid(30, 30, states=2, wrap=True)
    s = ml.Solver(b, method="chase")
    assert s._on_c and s.nullity == 24
    state = b.random_state(rng=np.random.default_rng(4), solvable=True)
    seen: list = []
    got = s.solve(
        state, budget=1 << 40, executor=process_pool, progress=lambda d, t: seen.append((d, t))
    )
    want = ml.Solver(b, method="chase").solve(state, budget=1 << 40)
    assert got.proven_minimal and got.length == want.length
    assert np.array_equal(got.taps, want.taps)
    assert got.examined + got.pruned == want.examined + want.pruned == 1 << 24
    assert got.certificate()["proof"] == want.certificate()["proof"]
    assert seen[0] == (0, 1 << 24) and seen[-1] == (1 << 24, 1 << 24)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


class _CountedSearch:
    """A C split search (``_core.CSearch``) that records its splits and exports."""

    def __init__(self, q):
        self.q, self.splits, self.exports = q, [], 0

    def split(self, want):
        self.splits.append(want)
        return self.q.split(want)

    def export(self):
        self.exports += 1
        return self.q.export()

    def __getattr__(self, name):
        return getattr(self.q, name)


@pytest.mark.parametrize("shape, wrap, nullity", [((19, 19), False, 16), ((30, 30), True, 24)])
def test_the_split_search_is_split_and_exported_once_per_task_count(shape, wrap, nullity):
    """split_search without a checkpoint: a search of sub-cubes (nullity 16) is split into
    TASKS_PER_WORKER tasks a worker and exported once; the transform search (nullity 24,
    its format known from its export) is split again into twice as many ranges of
    corners, and those are the tasks submitted. The answer is the one-process one."""
    from modlights import solver_native
    from modlights.native._core import capi_search
    from modlights.search.split import split_search

    b = ml.Board.grid(*shape, states=2, wrap=wrap)
    s = ml.Solver(b, method="chase")
    assert s._on_c and s.nullity == nullity
    state = b.random_state(rng=np.random.default_rng(5), solvable=True)
    st, t = solver_native.c_state_target(b, state, 0)
    q = _CountedSearch(capi_search(s._csolver(), st, t))
    want = minimal.TASKS_PER_WORKER * 2
    with cf.ThreadPoolExecutor(2) as ex:
        submit, submitted = ex.submit, []
        ex.submit = lambda fn, *a: submitted.append(a[1]) or submit(fn, *a)
        got = split_search(q, ex)
    assert q.splits == ([want] if nullity < 22 else [want, 2 * want]) and q.exports == len(q.splits)
    assert sorted(submitted) == list(range(q.q.split(q.splits[-1])))
    assert got.length == s.solve(state).length and got.proven_minimal


def test_c_progress_without_executor(monkeypatch):
    """progress on the C solver: told (0, |ker A|) first and (|ker A|, |ker A|) at the end
    of a proved search; the elements examined after a partial one; a callback that raises
    stops the search, the Solver usable."""
    b = ml.Board.grid(4, 4, states=4)  # |ker A| = 256
    s = ml.Solver(b)
    assert s._on_c and s.kernel_size > 1
    state = b.random_state(rng=3, solvable=True)
    calls: list = []
    sol = s.solve(state, progress=lambda d, t: calls.append((d, t)))
    ks = s.kernel_size
    assert calls[0] == (0, ks) and calls[-1] == (ks, ks) and sol.proven_minimal
    assert sol.length == s.solve(state).length
    calls.clear()
    part = s.solve(state, budget=3, progress=lambda d, t: calls.append((d, t)))
    assert not part.proven_minimal and calls[-1] == (part.examined, ks) and part.examined <= 3

    def stop(done, total):
        raise ValueError("stop")

    with pytest.raises(ValueError, match="stop"):
        s.solve(state, progress=stop)
    assert s.solve(state).length == sol.length


class _Counting(cf.ThreadPoolExecutor):
    """A thread pool that counts the tasks submitted to it."""

    submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def test_c_batches_over_an_executor_answer_as_without(monkeypatch):
    """min_taps_many / solve_many(minimal=True) on the C solver with an executor whose
    rows are split (MIN_ROWS_PER_TASK lowered: the many-coset split search of
    csrc/api/search_many.c, tasks really submitted): the answers of the one C batch
    without it (lengths, proofs, taps; unsolvable states -1 and named)."""
    monkeypatch.setattr(minimal, "MIN_ROWS_PER_TASK", 8)
    rng = np.random.default_rng(31)
    for b, method in _c_boards(31, 6):
        s = ml.Solver(b, method=method)
        S = np.stack([b.random_state(rng=rng, solvable=bool(rng.integers(2))) for _ in range(40)])
        with _Counting(2) as ex:
            got = s.min_taps_many(S, executor=ex)
            assert ex.submitted > 1
        want = s.min_taps_many(S)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        ok = s.solvable_many(S)
        with _Counting(3) as ex:
            T = s.solve_many(S[ok], minimal=True, executor=ex)
            assert ex.submitted > 1 or ok.sum() <= 8
            if not ok.all():
                with pytest.raises(ml.Unsolvable) as e:
                    s.solve_many(S, minimal=True, executor=ex)
                assert list(e.value.indices) == list(np.flatnonzero(~ok))
        assert np.array_equal(T, s.solve_many(S[ok], minimal=True))


def test_c_batch_progress():
    """progress of min_taps_many on the C solver: once at the end of a whole batch,
    after each solvable board of a partial one (the same lengths as without it)."""
    b = ml.Board.grid(4, 4, states=4)
    s = ml.Solver(b)
    assert s._on_c
    rng = np.random.default_rng(5)
    S = np.stack([b.random_state(rng=rng, solvable=i != 2) for i in range(5)])
    calls: list = []
    got = s.min_taps_many(S, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(5, 5)]
    assert all(np.array_equal(g, w) for g, w in zip(got, s.min_taps_many(S)))
    calls.clear()
    got = s.min_taps_many(S, budget=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(i, 5) for i in (1, 2, 4, 5)]  # the unsolvable third is not searched
    assert all(np.array_equal(g, w) for g, w in zip(got, s.min_taps_many(S, budget=2)))


def test_c_progress_of_the_transform_search_and_its_stop():
    """The C transform search (GF(2), nullity 32) told about progress between chunks
    (capi_solve_progress: the C context's callback), growing, and stopped from it
    within a chunk: the exception raised, the Solver usable after."""
    import time

    b = ml.Board.grid(20, 20, wrap=True)
    s = ml.Solver(b, method="chase")
    assert s._on_c and s.nullity == 32
    state = b.random_state(rng=np.random.default_rng(3), solvable=True)
    seen: list = []
    sol = s.solve(state, budget=1 << 28, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 1 << 32) and len(seen) > 2
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert not sol.proven_minimal and seen[-1][0] <= (1 << 28) + (1 << 20)

    def stop(done, total):
        if done > 0:
            raise ValueError("stop")

    t0 = time.perf_counter()
    with pytest.raises(ValueError, match="stop"):
        s.solve(state, budget=float("inf"), progress=stop)
    assert time.perf_counter() - t0 < 1.5
    assert s.solve(state, budget=1 << 20).length >= sol.length


def test_c_split_over_threads_stops_on_a_stop_request():
    """A stop request (Ctrl-C's flag) during the C split search over a thread pool: the
    running tasks stop, KeyboardInterrupt within a second, the flag cleared, the pool and
    the Solver usable (the next split search exact)."""
    import threading
    import time

    from modlights.native import _core

    b = ml.Board.grid(10, 10, states=6, wrap=True)  # 1.3e9 coset elements: many seconds
    s = ml.Solver(b, method="chase")
    assert s._on_c and s.kernel_size > 1 << 30
    state = b.random_state(rng=np.random.default_rng(2), solvable=True)
    with cf.ThreadPoolExecutor(2) as pool:
        timer = threading.Timer(0.3, _core._request_interrupt)
        timer.start()
        t0 = time.perf_counter()
        try:
            with pytest.raises(KeyboardInterrupt):
                s.solve(state, budget=1 << 40, executor=pool)
        finally:
            timer.cancel()
            _core._clear_interrupt()
        assert time.perf_counter() - t0 < 1.5
        small = ml.Board.grid(4, 4, states=4)
        st = small.random_state(rng=1, solvable=True)
        got = ml.Solver(small).solve(st, executor=pool)
        assert got.proven_minimal and got.length == ml.Solver(small).solve(st).length
