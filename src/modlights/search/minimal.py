"""Minimal searches over cosets x0 + ker A: the least physical length sum(x) (entries
0..n-1) over a coset, exhaustively within a budget, in batches of one C call, and split
across the workers of any :class:`concurrent.futures.Executor`.

The Solver hands this module what a search needs and nothing else (this layer never
imports the Solver): a particular solution x0 (or a batch X) and a :class:`Kernel`, the
kernel generators of the factored board with their additive orders. Entry points:

- :func:`coset_minimum`: one coset within a budget (coset elements or a deadline),
  exhaustive when the budget covers it, else the best element found, improved
  greedily (:func:`descend`); split over an executor when one is given and the budget
  covers the coset (:func:`coset_min`);
- :func:`min_many`: every coset of a batch, exhaustively, in one C call
  (:func:`min_lengths_many`, rows split over an executor).

Work that leaves this module for an executor is plain data (NumPy arrays and ints)
handed to module-level functions, so it pickles for a ``ProcessPoolExecutor`` or a Dask
cluster (``dask.distributed.Client(...).get_executor()``):

- a batch (many boards, one kernel) is split by rows: each task runs
  :func:`modlights._coset_batch.coset_min_many` on its rows (:func:`min_lengths_many`);
- one coset (:func:`coset_min`) is split into sub-cubes: the coefficients of the top
  (densest) generators are fixed by a corner index, and each task walks the Gray code of
  the remaining generators from its corner (:func:`modlights._coset_batch.coset_min_sub`).
  There are a few times more tasks than workers; each task is given the shortest length
  found so far as a bound, and a sub-cube whose untouched coordinates already reach that
  bound is skipped without a walk.

GF(2) cosets of nullity ``cube.CUBE_MIN_NULLITY`` or more are searched by
:mod:`modlights.search.cube` instead (Walsh-Hadamard leaves, one leaf per orbit of the
board's symmetries that keep the coset; split over an executor by ranges of corners).

Every split search is exhaustive, so its lengths are exactly those of the
single-process search and every result is proved minimal. Complexity: an exhaustive
search examines |ker A| = prod(orders) elements, O(n_taps / 64) word operations each
over GF(2) (a Gray-code step), O(n_taps) otherwise.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable
from math import prod
from typing import Any

import numpy as np

__all__ = [
    "Kernel",
    "coset_minimum",
    "minimise",
    "descend",
    "exhaustive",
    "min_many",
    "coset_min",
    "min_lengths_many",
    "executor_workers",
    "check_executor",
    "TASKS_PER_WORKER",
    "MIN_DESCENT_SECONDS",
    "deadline_after",
]

#: Tasks per worker when a coset or a batch is split: enough that a slow task does not
#: leave the other workers idle at the end, few enough that task overhead stays small.
TASKS_PER_WORKER = 4

#: Coset elements one C call of a batch walks at most (many rows of a small kernel, or
#: one row of a large one): about a second, so Ctrl-C is seen between calls.
WORK_PER_CALL = 1 << 28

#: Rows per task at least, when a batch is split (smaller batches run in fewer tasks).
MIN_ROWS_PER_TASK = 4096


def check_executor(executor: Any) -> None:
    """ValueError unless ``executor`` is None or looks like a concurrent.futures.Executor."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(
            "executor must be a concurrent.futures.Executor (an object with "
            f"submit(), e.g. ProcessPoolExecutor or a Dask client's "
            f"get_executor()), got {type(executor).__name__}"
        )


def executor_workers(executor: cf.Executor) -> int:
    """How many tasks ``executor`` runs at once: ``_max_workers`` of the standard pools,
    the worker threads of a Dask client's executor, else 2."""
    n = getattr(executor, "_max_workers", None)
    if isinstance(n, int) and n > 0:
        return n
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # a client that cannot answer: assume a small pool
            pass
    return 2


# ------------------------------------------------------------------ tasks (module level)
def _rows_task(
    X0: np.ndarray, H: np.ndarray, orders: list[int], n: int, taps: bool, threads: int | None
) -> tuple[np.ndarray, np.ndarray | None]:
    from modlights.native import _core as _coset_batch

    return _coset_batch.coset_min_many(X0, H, orders, n, threads=threads, taps=taps)


def _sub_task(
    x0: np.ndarray, H: np.ndarray, orders: list[int], n: int, inner: int, corner: int, bound: int
) -> tuple[np.ndarray | None, int, int, int]:
    from modlights.native import _core as _coset_batch

    return _coset_batch.coset_min_sub(x0, H, orders, n, inner, corner, bound)


# ------------------------------------------------------------------ batches
def min_lengths_many(
    X0: np.ndarray,
    H: np.ndarray,
    orders: list[int],
    n: int,
    *,
    taps: bool = True,
    executor: cf.Executor | None = None,
    threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """The least length over x + span(H) for every row x of X0 (m, r), exhaustively.

    Parameters
    ----------
    X0 : uint8 (m, r), the particular solutions; H : uint8 (k, r), generators of the
        kernel with additive orders ``orders``; n : the modulus.
    taps : also return a least-length element per row.
    executor : split the rows over its workers, a few tasks per worker (None, or a
        batch of at most ``MIN_ROWS_PER_TASK`` rows: C calls here, threads over rows).
    threads : C threads per call (None: the CPUs; 1 in executor tasks).

    Returns
    -------
    (lengths int64 (m,), best uint8 (m, r) or None)
    """
    check_executor(executor)
    X0 = np.ascontiguousarray(X0, dtype=np.uint8)
    H = np.ascontiguousarray(H, dtype=np.uint8)
    orders = [int(o) for o in orders]
    m = X0.shape[0]
    if executor is None or m <= MIN_ROWS_PER_TASK:
        # blocks of about WORK_PER_CALL coset elements: Ctrl-C is seen between calls
        block = max(1, min(m, WORK_PER_CALL // max(1, prod(orders))))
        if block >= m:
            return _rows_task(X0, H, orders, n, taps, threads)
        parts = [
            _rows_task(X0[a : a + block], H, orders, n, taps, threads) for a in range(0, m, block)
        ]
        return (
            np.concatenate([p[0] for p in parts]),
            np.concatenate([p[1] for p in parts]) if taps else None,
        )
    want = TASKS_PER_WORKER * executor_workers(executor)
    tasks = max(1, min(want, -(-m // MIN_ROWS_PER_TASK)))
    cuts = np.linspace(0, m, tasks + 1).astype(np.int64)
    futures = [
        executor.submit(
            _rows_task, X0[a:b].copy(), H, orders, n, taps, 1 if threads is None else threads
        )
        for a, b in zip(cuts[:-1], cuts[1:])
    ]
    try:
        _wait(futures, cf.ALL_COMPLETED)
        parts = [f.result() for f in futures]
    except BaseException:  # an error or Ctrl-C: queued tasks are not run
        _stop_tasks(futures, executor)
        raise
    lengths = np.concatenate([p[0] for p in parts])
    best = np.concatenate([p[1] for p in parts]) if taps else None
    return lengths, best


# ------------------------------------------------------------------ one coset
def _split(orders: list[int], tasks: int) -> int:
    """The number of inner generators: the top ones are fixed until their cells number
    at least ``tasks`` (all of them fixed at most)."""
    inner, cells = len(orders), 1
    while inner > 0 and cells < tasks:
        inner -= 1
        cells *= orders[inner]
    return inner


def coset_min(
    x0: np.ndarray,
    H: np.ndarray,
    orders: list[int],
    n: int,
    executor: cf.Executor,
    *,
    tasks: int | None = None,
) -> tuple[np.ndarray, int, int, int]:
    """Least-length element of x0 + span(H), split into sub-cubes over ``executor``.

    Parameters
    ----------
    x0 : uint8 (r,); H : uint8 (k, r) generators of additive orders ``orders``
        (prod(orders) < 2^62); n : the modulus.
    executor : any concurrent.futures.Executor; at most as many tasks as it has workers
        (plus one) are in flight, each given the best length found so far as its bound.
    tasks : sub-cubes to cut (default ``TASKS_PER_WORKER`` per worker).

    Returns
    -------
    (best uint8 (r,), length, examined, pruned): examined + pruned covers the coset;
    the answer is proved minimal. Its length is that of the single-process search;
    of the elements of that length it is the first, in its walk, of the sub-cube with
    the lowest corner index that holds one, whatever order the tasks finish in (a
    sub-cube below the best one's corner is given the best length + 1 as its bound, so
    it reports an element as short; one above it, the best length). For one executor
    size and ``tasks`` the answer is therefore the same on every run.
    """
    check_executor(executor)
    x0 = np.ascontiguousarray(x0, dtype=np.uint8)
    H = np.ascontiguousarray(H, dtype=np.uint8)
    orders = [int(o) for o in orders]
    if prod(orders) >= 1 << 62:
        raise ValueError("the coset has 2^62 or more elements: too many to enumerate")
    # sparsest generators inside (cheap Gray steps), densest fixed by the corners
    order = sorted(range(len(orders)), key=lambda i: (int(np.count_nonzero(H[i])), i))
    H = np.ascontiguousarray(H[order]) if order else H
    orders = [orders[i] for i in order]
    workers = executor_workers(executor)
    inner = _split(orders, tasks or TASKS_PER_WORKER * workers)
    cells = prod(orders[inner:])
    pending: set[cf.Future] = set()
    try:
        return _run_sub_cubes(executor, workers, pending, x0, H, orders, n, inner, cells)
    except BaseException:  # an error or Ctrl-C: queued tasks are not run
        _stop_tasks(pending, executor)
        raise


def _wait(futures, return_when: str) -> set:
    """cf.wait in slices of 0.1 s: a blocking wait would not see Ctrl-C until a task
    ends (a signal handled on another thread, or interrupt_main, does not wake it)."""
    while True:
        done, _ = cf.wait(futures, timeout=0.1, return_when=return_when)
        if len(done) == len(futures) or (done and return_when == cf.FIRST_COMPLETED):
            return done


#: Seconds an interrupted call waits for the tasks running on threads of this process
#: to stop (they poll the stop flag every few milliseconds).
STOP_WAIT = 0.5


def _stop_tasks(futures, executor: Any) -> None:
    """After an error or Ctrl-C: cancel the queued tasks, and with a ThreadPoolExecutor
    stop those running on its threads (they would otherwise walk their cosets to the
    end, and the interpreter waits for them at exit): the batch module's stop flag is
    set, the running tasks are waited for (at most ``STOP_WAIT`` s), and the flag is
    cleared. Tasks in other processes get the terminal's SIGINT themselves (or run on;
    their results are dropped)."""
    from modlights.native import _core as _coset_batch

    running = [f for f in futures if not f.cancel() and not f.done()]
    if not running or not isinstance(executor, cf.ThreadPoolExecutor):
        return
    _coset_batch._request_interrupt()
    try:
        cf.wait(running, timeout=STOP_WAIT)
    finally:
        _coset_batch._clear_interrupt()


def _run_sub_cubes(executor, workers, pending, x0, H, orders, n, inner, cells):
    """Submit the sub-cubes, at most workers + 1 in flight, each with the best length
    so far as its bound; merge. ``pending`` is the caller's, to cancel on errors."""
    # the best so far: (length, corner) least; x0 (in corner 0) stands until a task
    # reports, with corner `cells` so that corner 0 reports it or a shorter element
    best, best_len, best_corner = x0.copy(), int(x0.sum(dtype=np.int64)), cells
    examined = pruned = 0
    nxt = 0
    futures: dict[cf.Future, int] = {}
    while nxt < cells or pending:
        while nxt < cells and len(pending) <= workers and best_len > 0:
            bound = best_len + 1 if nxt < best_corner else best_len
            f = executor.submit(_sub_task, x0, H, orders, n, inner, nxt, bound)
            futures[f] = nxt
            pending.add(f)
            nxt += 1
        if best_len == 0:  # nothing is shorter (and 0 is one vector): covered
            pruned += prod(orders) - examined - pruned
            break
        done = _wait(pending, cf.FIRST_COMPLETED)
        for f in sorted(done, key=futures.__getitem__):
            pending.discard(f)
            corner = futures.pop(f)
            found, length, ex, pr = f.result()
            examined += ex
            pruned += pr
            if found is not None and (length, corner) < (best_len, best_corner):
                best, best_len, best_corner = found, length, corner
    return best, best_len, examined, pruned


# ------------------------------------------------------------------ what the Solver hands over
#: Seconds the greedy clean-up of an unfinished minimal search may take whatever its
#: budget (within the budget's stated tolerance of +0.25 s).
MIN_DESCENT_SECONDS = 0.05


class Kernel:
    """ker A of one factored board, as the minimal searches see it.

    Parameters
    ----------
    n : int
        The modulus.
    n_taps : int
        The length of a tap vector (the columns of A).
    size : int
        |ker A| (an exact Python int).
    native : bool
        Whether the C searches may be used (False: the NumPy enumeration, as the
        reference backend does).
    generators : callable () -> (H, orders)
        Generators of all of ker A (uint8, k x n_taps) and their additive orders, so
        that ker A is their direct sum; built on first use by the caller.
    search_generators : callable () -> (H, orders, every), optional
        The generators a search may hold (every=False: only the first ones fit in
        memory, a sub-coset, so the search proves nothing). Default: all of them.
    searchable : callable () -> bool, optional
        False when no basis can be built at all (the search then returns x0, unproved).
    symmetries : callable () -> list of (cells, taps), optional
        Permutations of the cells and taps that preserve A entry by entry (see
        :func:`modlights.search.symmetry.symmetries`); the GF(2) transform search
        walks one leaf per orbit of those that also keep the coset. Default: none.
    reduce : callable (X) -> X, optional
        Called once the generators are built: the particular solution(s) X ((n_taps,)
        or (m, n_taps)) rewritten as the canonical representatives of their cosets
        when the generators are canonical (:mod:`modlights.search.canon`), else X
        unchanged. Every search starts from its result, so with canonical generators
        its answer, finished or not, does not depend on the engine. Default: identity.
    """

    __slots__ = (
        "n",
        "n_taps",
        "size",
        "native",
        "_generators",
        "_search",
        "_searchable",
        "_symmetries",
        "_reduce",
    )

    def __init__(
        self,
        n: int,
        n_taps: int,
        size: int,
        *,
        native: bool,
        generators: Callable[[], tuple[np.ndarray, list[int]]],
        search_generators: Callable[[], tuple[np.ndarray, list[int], bool]] | None = None,
        searchable: Callable[[], bool] | None = None,
        symmetries: Callable[[], list] | None = None,
        reduce: Callable[[np.ndarray], np.ndarray] | None = None,
    ):
        self.n, self.n_taps, self.size = int(n), int(n_taps), int(size)
        self.native = bool(native)
        self._generators = generators
        self._search = search_generators
        self._searchable = searchable
        self._symmetries = symmetries
        self._reduce = reduce

    def symmetries(self) -> list:
        """(cells, taps) permutation pairs preserving A (empty when none were given)."""
        return [] if self._symmetries is None else list(self._symmetries())

    def generators(self) -> tuple[np.ndarray, list[int]]:
        """(H, orders): generators of all of ker A."""
        return self._generators()

    def search_generators(self) -> tuple[np.ndarray, list[int], bool]:
        """(H, orders, every): the generators a search holds; every=False for a
        sub-coset."""
        if self._search is None:
            H, orders = self._generators()
            return H, orders, True
        return self._search()

    def reduce(self, X: np.ndarray) -> np.ndarray:
        """X with its rows made canonical coset representatives (see the class); call
        after ``generators`` or ``search_generators``."""
        return X if self._reduce is None else self._reduce(X)

    def searchable(self) -> bool:
        """Whether a basis of ker A can be built for a search."""
        return True if self._searchable is None else bool(self._searchable())


def deadline_after(seconds: float | None) -> float | None:
    """The ``time.perf_counter()`` value ``seconds`` from now (None: no deadline)."""
    return None if seconds is None else time.perf_counter() + min(seconds, 1e12)


def exhaustive(kernel: Kernel, steps: int | None, seconds: float | None) -> bool:
    """Whether a search within this budget (``steps`` coset elements, or ``seconds``)
    covers every coset element, so its result is the exact minimum, proved, whichever
    way the work is split. Only native searches are split or batched."""
    if not kernel.native:
        return False
    total = kernel.size
    if total == 1:
        return True
    return (
        seconds is None and steps is not None and 0 < steps and total <= steps and total < 1 << 62
    )


def coset_minimum(
    x0: np.ndarray,
    kernel: Kernel,
    *,
    steps: int | None,
    seconds: float | None,
    deadline: float | None,
    executor: Any = None,
    progress: Any = None,
    descent: float = MIN_DESCENT_SECONDS,
    proof: list | None = None,
) -> tuple[np.ndarray, bool, int, int]:
    """The least-length element of x0 + ker A within a budget.

    Parameters
    ----------
    x0 : array (n_taps,)
        A particular solution, entries 0..n-1.
    kernel : Kernel
    steps, seconds : the budget (coset elements, or seconds; as
        :func:`modlights.model.validation.check_budget` returns them).
    deadline : float or None
        The ``time.perf_counter()`` value the search and its clean-up stop by (from
        :func:`deadline_after`).
    executor : concurrent.futures.Executor, optional
        When the budget covers the whole coset (:func:`exhaustive`) and |ker A| > 1, the
        coset is split into sub-cubes over its workers (:func:`coset_min`).
    progress : callable (done, total), optional
        Told how far the search got, in coset elements (see :func:`minimise`).
    descent : float
        Seconds the greedy clean-up of an incomplete search may take at least.
    proof : list, optional
        When the answer is proved, one JSON-safe dict is appended: the ``<proof>`` of a
        minimal certificate (docs/certificates.md), for the generators in the order
        ``kernel.generators()`` returns them unless the dict carries its own
        ``"generators"`` and ``"orders"``. Nothing is appended when it is not proved.

    Returns
    -------
    (best uint8 (n_taps,), proven, examined, pruned): proven is True only when the
    whole coset was covered (or the best has length 0).
    """
    if executor is not None and exhaustive(kernel, steps, seconds) and kernel.size > 1:
        H, orders = kernel.generators()
        x0 = kernel.reduce(x0)
        if _use_cube(kernel, orders):
            return _cube_minimum(x0, kernel, H, orders, None, None, progress, 0.0, proof, executor)
        best, _, examined, pruned = coset_min(x0, H, orders, kernel.n, executor)
        _append_proof(proof, best, len(orders))
        return best, True, examined, pruned
    return minimise(x0, kernel, steps, deadline, progress, descent, proof=proof)


def _append_proof(proof: list | None, best: np.ndarray, k: int) -> None:
    """Append the proof of an exhaustive walk to ``proof`` (if given): enumeration, or
    for a best of length 0 the tree pruned at its root (every length is >= 0)."""
    if proof is None:
        return
    if not np.any(best):
        proof.append({"method": "tree", "leaf_dim": 0, "pruned": [[]]})
    else:
        proof.append({"method": "enumeration"})


def min_many(
    X: np.ndarray, kernel: Kernel, executor: Any, taps: bool
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(lengths, least-length solutions or None) for the particular solutions X
    (m, n_taps), every coset searched exhaustively in one batch (a native kernel; see
    :func:`min_lengths_many`). A trivial kernel with ``taps``: (None, X) (nothing to
    search, no lengths needed)."""
    if kernel.size == 1 and taps:
        return None, X
    H, orders = kernel.generators()
    return min_lengths_many(kernel.reduce(X), H, orders, kernel.n, taps=taps, executor=executor)


def minimise(
    x0: np.ndarray,
    kernel: Kernel,
    steps: int | None,
    deadline: float | None,
    progress: Any = None,
    descent: float = 0.0,
    proof: list | None = None,
) -> tuple[np.ndarray, bool, int, int]:
    """Least-length element of x0 + ker A by enumeration, in this process.

    Within ``steps`` coset elements, or until ``deadline`` (a ``time.perf_counter()``
    value); the greedy clean-up of an incomplete search stops by the deadline too, or
    ``descent`` seconds after this call started, whichever is later. ``progress(done,
    total)`` is told how far it got: after every chunk of the NumPy enumeration, at the
    start and end of a native search (the C search runs to its end or budget without
    calling back; Ctrl-C stops it), after every chunk of the GF(2) transform search. A
    native GF(2) kernel of nullity ``cube.CUBE_MIN_NULLITY`` or more is searched by
    :mod:`modlights.search.cube`; another native kernel in C
    (:func:`modlights._coset.coset_min`: Gray code, sub-cube bounds); a coset of 2^62
    or more elements is never covered (the sub-coset of the generators that fit is
    searched, then descended; not proved). ``proof``: as in :func:`coset_minimum`.

    Returns
    -------
    (best uint8 (n_taps,), proven, examined, pruned)
    """
    seconds = None if deadline is None else deadline - time.perf_counter()
    deadline_search = deadline
    if deadline is not None:
        deadline = max(deadline, time.perf_counter() + descent)
    if not kernel.searchable():
        return x0.astype(np.uint8), False, 0, 0  # no basis to search: not proved
    H, orders, every = kernel.search_generators()
    if every:
        x0 = kernel.reduce(x0)
    total = prod(orders)
    n = kernel.n
    if progress is not None:
        progress(0, total)
    if total == 1 and every:
        if progress is not None:
            progress(1, 1)
        _append_proof(proof, x0, len(orders))
        return x0.astype(np.uint8), True, 1, 0
    if steps == 0 or (seconds is not None and seconds <= 0):
        best = descend(x0.astype(np.int64), H, orders, n, deadline)
        if not x0.any():
            _append_proof(proof, x0, len(orders))
        return best.astype(np.uint8), int(x0.sum()) == 0, 0, 0
    if kernel.native and every and _use_cube(kernel, orders, steps):
        return _cube_minimum(
            x0, kernel, H, orders, steps, deadline_search, progress, deadline, proof, None
        )
    if kernel.native:
        from modlights.native import _core as _coset

        # the longest prefix of generators of fewer than 2^62 elements
        k, size = 0, 1
        while k < len(orders) and size * orders[k] < 1 << 62:
            size *= orders[k]
            k += 1
        # the seconds left now (the C search stops by the deadline; a budget of
        # <= 0 seconds would mean none to it: at least a microsecond)
        left = 0.0 if deadline_search is None else max(1e-6, deadline_search - time.perf_counter())
        # A budget short of the coset is walked on one thread: threads share their best
        # length as a bound and skip sub-cubes by it, so what a partial walk covers (and
        # whether it proves the minimum) would depend on the CPU count and the timing;
        # one thread gives the same answer on every machine. Whole walks use them all.
        partial = steps is not None and steps != 0 and steps < size
        best, _, examined, pruned, complete = _coset.coset_min(
            x0.astype(np.uint8),
            H[:k],
            orders[:k],
            n,
            budget=steps or 0,
            seconds=left,
            threads=1 if partial else None,
        )
        # a sub-coset proves nothing, except that length 0 is always least
        complete = (complete and k == len(orders) and every) or not best.any()
        if not complete:
            best = descend(best.astype(np.int64), H, orders, n, deadline)
        if progress is not None:
            progress(total if complete else int(examined), total)
        if complete:
            _append_proof(proof, best, len(orders))
        return best.astype(np.uint8), complete, examined, pruned
    x0 = x0.astype(np.int64)
    limit = total if steps is None else min(total, steps)
    Hi = H.astype(np.int64)
    best = x0.copy()
    best_len = int(best.sum())
    low, d = _inner_block(Hi, orders, n)
    shift = x0.copy()  # x0 + the outer generators' part of the current block
    digits = [0] * (len(orders) - d)
    start = 0
    # element i is x0 + sum c_j h_j with i = c_0 + o_0 (c_1 + o_1 (...)): block after
    # block, each the inner block plus one choice of the outer coefficients
    while start < limit and best_len > 0:
        cnt = min(len(low), limit - start)
        X = (low[:cnt] + shift) % n
        lens = X.sum(axis=1)
        i = int(np.argmin(lens))
        if lens[i] < best_len:
            best_len = int(lens[i])
            best = X[i]
        start += cnt
        if progress is not None:
            progress(start, total)
        if deadline_search is not None and time.perf_counter() > deadline_search:
            break
        for t in range(len(digits)):  # the next outer choice (o_j h_j = 0: a carry adds h_j)
            shift = (shift + Hi[d + t]) % n
            digits[t] += 1
            if digits[t] < orders[d + t]:
                break
            digits[t] = 0
    covered = start >= total
    proven = covered or best_len == 0
    if not covered:
        best = descend(best, Hi, orders, n, deadline)
    if proven:
        _append_proof(proof, best, len(orders))
    return best.astype(np.uint8), proven, start, 0


#: Elements (and entries: elements x n_taps) of the inner block of the NumPy enumeration:
#: one block is a few milliseconds, so a deadline is met within that.
BLOCK_ELEMENTS = 1 << 14
BLOCK_ENTRIES = 1 << 20


def _inner_block(H: np.ndarray, orders: list[int], n: int) -> tuple[np.ndarray, int]:
    """(every sum_{j < d} c_j h_j as rows, in the order c_0 + o_0 (c_1 + ...), d): the
    first d generators whose span fits BLOCK_ELEMENTS and BLOCK_ENTRIES (d = 0: the
    zero row alone)."""
    r = H.shape[1]
    d, size = 0, 1
    while d < len(orders):
        grown = size * orders[d]
        if grown > BLOCK_ELEMENTS or grown * max(1, r) > BLOCK_ENTRIES:
            break
        size, d = grown, d + 1
    low = np.zeros((1, r), dtype=np.int64)
    for j in range(d):
        mult = np.arange(orders[j], dtype=np.int64)[:, None, None] * H[j]
        low = ((low[None, :, :] + mult) % n).reshape(-1, r)
    return low, d


def _use_cube(kernel: Kernel, orders: list[int], steps: int | None = None) -> bool:
    """Whether the GF(2) transform search (:mod:`modlights.search.cube`) takes this
    coset: a native GF(2) kernel of nullity ``CUBE_MIN_NULLITY`` or more that it holds,
    and a budget of seconds or of at least ``cube.MIN_STEPS`` elements (or the whole
    coset); smaller budgets walk the Gray code (its corners are too coarse)."""
    from modlights.search import cube

    return (
        kernel.native
        and len(orders) >= cube.CUBE_MIN_NULLITY
        and cube.applies(kernel.n, kernel.n_taps, orders)
        and (steps is None or steps >= min(cube.MIN_STEPS, kernel.size))
    )


def _cube_minimum(
    x0, kernel, H, orders, steps, deadline_search, progress, deadline, proof, executor
):
    """minimise / coset_minimum by the transform search: (best, proven, examined,
    pruned) with pruned the elements covered by symmetry; an unfinished search is
    descended until ``deadline``."""
    from modlights.search import cube

    p = cube.plan(x0, H, symmetries=kernel.symmetries())
    if executor is None:
        r = cube.search(p, steps=steps, deadline=deadline_search, progress=progress)
    else:
        r = _cube_on_executor(p, executor, progress)
    best = r.best
    if not r.complete:
        best = descend(best.astype(np.int64), H, orders, kernel.n, deadline).astype(np.uint8)
    elif proof is not None:
        if not best.any():
            _append_proof(proof, best, len(orders))
        else:
            proof.append(p.proof())
    return best.astype(np.uint8), bool(r.complete), int(r.examined), int(r.skipped)


def _cube_on_executor(p, executor: cf.Executor, progress: Any):
    """The whole transform search of plan ``p`` split over ``executor``: ranges of
    corners are its tasks (``TASKS_PER_WORKER`` x 2 per worker), each given the best
    length so far as its bound, at most workers + 1 in flight. Returns a
    :class:`modlights.search.cube.Result` (complete: every corner was walked)."""
    from modlights.search import cube

    inner, n_corners, per_corner = cube.layout(p)
    total = n_corners * per_corner
    workers = executor_workers(executor)
    size = max(1, -(-n_corners // (2 * TASKS_PER_WORKER * workers)))
    # the best so far, (length, first corner of its task) least: a task before the
    # best one's is bounded by the best length + 1 (it reports an element as short),
    # one after it by the best length, so the answer does not depend on the order the
    # tasks finish in (as coset_min); x0 stands until a task reports
    best = p.x0.copy()
    best_len, best_at = int(best.sum()), n_corners
    done = examined = skipped = nxt = 0
    pending: dict[cf.Future, tuple[int, int]] = {}
    if progress is not None:
        progress(0, total)
    try:
        while nxt < n_corners or pending:
            while nxt < n_corners and len(pending) <= workers and best_len > 0:
                b = min(n_corners, nxt + size)
                bound = best_len + 1 if nxt < best_at else best_len
                pending[executor.submit(cube.task, p, inner, nxt, b, bound)] = (nxt, b - nxt)
                nxt = b
            if not pending:
                break
            for f in sorted(_wait(set(pending), cf.FIRST_COMPLETED), key=pending.__getitem__):
                at, cnt = pending.pop(f)
                length, hi, lo, lv, sk, _, comp = f.result()
                if not comp:  # a task stopped early (interrupted elsewhere)
                    raise KeyboardInterrupt("a search task was interrupted")
                if hi is not None and (length, at) < (best_len, best_at):
                    best, best_len, best_at = p.element(hi, lo), length, at
                done += cnt
                examined += lv << p.m
                skipped += sk << p.m
            if progress is not None:
                progress(done * per_corner, total)
    except BaseException:  # an error or Ctrl-C: queued tasks are not run
        _stop_tasks(set(pending), executor)
        raise
    complete = done >= n_corners or best_len == 0
    return cube.Result(
        best_len, best, complete, total if complete else done * per_corner, examined, skipped
    )


def descend(
    x: np.ndarray, H: np.ndarray, orders: list[int], n: int, deadline: float | None = None
) -> np.ndarray:
    """Greedy improvement of x: add the best multiple of one generator while it shortens
    x, generator by generator, until a pass changes nothing or ``deadline`` (a
    ``time.perf_counter()`` value; None: no limit) passes, checked before each generator
    (one costs O(order x n_taps)). The C library's descent (csrc/search/driver.c, the one
    the WebAssembly core runs): the least multiple on ties, so every front end descends
    alike. Returns the improved vector as int64. KeyboardInterrupt on Ctrl-C."""
    from modlights.native import _core

    seconds = None if deadline is None else deadline - time.perf_counter()
    if seconds is not None and seconds <= 0:
        return np.asarray(x, dtype=np.int64).copy()
    return _core.driver_descend(x, H, orders, n, seconds).astype(np.int64)
