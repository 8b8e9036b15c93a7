"""Exhaustive minimal searches over cosets x0 + ker A: batches in one C call, and work
split across the workers of any :class:`concurrent.futures.Executor`.

Two kinds of work leave this module, both as plain data (NumPy arrays and ints) handed to
module-level functions, so they pickle for a ``ProcessPoolExecutor`` or a Dask cluster
(``dask.distributed.Client(...).get_executor()``):

- a batch (many boards, one kernel) is split by rows: each task runs
  :func:`modlights._coset_batch.coset_min_many` on its rows (:func:`min_lengths_many`);
- one coset (:func:`coset_min`) is split into sub-cubes: the coefficients of the top
  (densest) generators are fixed by a corner index, and each task walks the Gray code of
  the remaining generators from its corner (:func:`modlights._coset_batch.coset_min_sub`).
  There are a few times more tasks than workers; each task is given the shortest length
  found so far as a bound, and a sub-cube whose untouched coordinates already reach that
  bound is skipped without a walk.

Every search here is exhaustive, so the lengths are exactly those of the single-process
search and every result is proved minimal.
"""
from __future__ import annotations

import concurrent.futures as cf
from math import prod
from typing import Any

import numpy as np

__all__ = ["coset_min", "min_lengths_many", "executor_workers", "check_executor",
           "TASKS_PER_WORKER"]

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
        raise ValueError("executor must be a concurrent.futures.Executor (an object with "
                         f"submit(), e.g. ProcessPoolExecutor or a Dask client's "
                         f"get_executor()), got {type(executor).__name__}")


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
        except Exception:           # a client that cannot answer: assume a small pool
            pass
    return 2


# ------------------------------------------------------------------ tasks (module level)
def _rows_task(X0: np.ndarray, H: np.ndarray, orders: list[int], n: int, taps: bool,
               threads: int | None) -> tuple[np.ndarray, np.ndarray | None]:
    from modlights.native import _core as _coset_batch
    return _coset_batch.coset_min_many(X0, H, orders, n, threads=threads, taps=taps)


def _sub_task(x0: np.ndarray, H: np.ndarray, orders: list[int], n: int, inner: int,
              corner: int, bound: int) -> tuple[np.ndarray | None, int, int, int]:
    from modlights.native import _core as _coset_batch
    return _coset_batch.coset_min_sub(x0, H, orders, n, inner, corner, bound)


# ------------------------------------------------------------------ batches
def min_lengths_many(X0: np.ndarray, H: np.ndarray, orders: list[int], n: int, *,
                     taps: bool = True, executor: cf.Executor | None = None,
                     threads: int | None = None
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
        parts = [_rows_task(X0[a:a + block], H, orders, n, taps, threads)
                 for a in range(0, m, block)]
        return (np.concatenate([p[0] for p in parts]),
                np.concatenate([p[1] for p in parts]) if taps else None)
    want = TASKS_PER_WORKER * executor_workers(executor)
    tasks = max(1, min(want, -(-m // MIN_ROWS_PER_TASK)))
    cuts = np.linspace(0, m, tasks + 1).astype(np.int64)
    futures = [executor.submit(_rows_task, X0[a:b].copy(), H, orders, n, taps,
                               1 if threads is None else threads)
               for a, b in zip(cuts[:-1], cuts[1:])]
    try:
        _wait(futures, cf.ALL_COMPLETED)
        parts = [f.result() for f in futures]
    except BaseException:           # an error or Ctrl-C: queued tasks are not run
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


def coset_min(x0: np.ndarray, H: np.ndarray, orders: list[int], n: int,
              executor: cf.Executor, *, tasks: int | None = None
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
    which element of that length is returned depends on the order tasks finish in
    (later tasks report only elements shorter than their bound).
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
    except BaseException:           # an error or Ctrl-C: queued tasks are not run
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
    best, best_len = x0.copy(), int(x0.sum(dtype=np.int64))
    examined = pruned = 0
    nxt = 0
    while nxt < cells or pending:
        while nxt < cells and len(pending) <= workers and best_len > 0:
            pending.add(executor.submit(_sub_task, x0, H, orders, n, inner, nxt,
                                        best_len))
            nxt += 1
        if best_len == 0:           # nothing is shorter: the rest is covered
            pruned += prod(orders) - examined - pruned
            break
        done = _wait(pending, cf.FIRST_COMPLETED)
        for f in done:
            pending.discard(f)
            found, length, ex, pr = f.result()
            examined += ex
            pruned += pr
            if found is not None and length < best_len:
                best, best_len = found, length
    return best, best_len, examined, pruned
