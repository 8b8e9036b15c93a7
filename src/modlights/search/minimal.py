"""Minimal searches over cosets x0 + ker A in Python: the reference backend's NumPy
enumeration (the oracle the C searches are compared with), the greedy descent, and the
executor plumbing the C split searches use.

The Solver hands this module what a search needs and nothing else (this layer never
imports the Solver): a particular solution x0 and a :class:`Kernel`, the kernel
generators of the factored board with their additive orders. Entry points:

- :func:`coset_minimum` / :func:`minimise`: one coset within a budget (coset elements
  or a deadline), by NumPy enumeration in blocks; exhaustive when the budget covers it,
  else the best element found, improved greedily (:func:`descend`, the C library's
  descent). A native Solver never comes here: its searches are the C solver's
  (``ml_solver_solve``, the batches, the split searches of
  :mod:`modlights.search.split`).
- executors: :func:`check_executor`, :func:`executor_workers`, the waits that see
  Ctrl-C (``_wait``) and the stopping of tasks after an error (``_stop_tasks``), with
  the split's sizes (``TASKS_PER_WORKER``, ``MIN_ROWS_PER_TASK``), for
  :mod:`modlights.search.split`.

Complexity: an exhaustive search examines |ker A| = prod(orders) elements, O(n_taps)
entries each (in NumPy blocks of ``BLOCK_ELEMENTS``).
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
    "executor_workers",
    "check_executor",
    "TASKS_PER_WORKER",
    "MIN_DESCENT_SECONDS",
    "deadline_after",
]

#: Tasks per worker when a coset or a batch is split: enough that a slow task does not
#: leave the other workers idle at the end, few enough that task overhead stays small.
TASKS_PER_WORKER = 4

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
    generators : callable () -> (H, orders)
        Generators of all of ker A (uint8, k x n_taps) and their additive orders, so
        that ker A is their direct sum; built on first use by the caller.
    searchable : callable () -> bool, optional
        False when no basis can be built at all (the search then returns x0, unproved).
    reduce : callable (X) -> X, optional
        Called once the generators are built: the particular solution(s) X ((n_taps,)
        or (m, n_taps)) rewritten as the canonical representatives of their cosets
        when the generators are canonical (:mod:`modlights.search.canon`), else X
        unchanged. Every search starts from its result, so with canonical generators
        its answer, finished or not, does not depend on the engine. Default: identity.
    """

    __slots__ = ("n", "n_taps", "size", "_generators", "_searchable", "_reduce")

    def __init__(
        self,
        n: int,
        n_taps: int,
        size: int,
        *,
        generators: Callable[[], tuple[np.ndarray, list[int]]],
        searchable: Callable[[], bool] | None = None,
        reduce: Callable[[np.ndarray], np.ndarray] | None = None,
    ):
        self.n, self.n_taps, self.size = int(n), int(n_taps), int(size)
        self._generators = generators
        self._searchable = searchable
        self._reduce = reduce

    def generators(self) -> tuple[np.ndarray, list[int]]:
        """(H, orders): generators of all of ker A."""
        return self._generators()

    def reduce(self, X: np.ndarray) -> np.ndarray:
        """X with its rows made canonical coset representatives (see the class); call
        after ``generators``."""
        return X if self._reduce is None else self._reduce(X)

    def searchable(self) -> bool:
        """Whether a basis of ker A can be built for a search."""
        return True if self._searchable is None else bool(self._searchable())


def deadline_after(seconds: float | None) -> float | None:
    """The ``time.perf_counter()`` value ``seconds`` from now (None: no deadline)."""
    return None if seconds is None else time.perf_counter() + min(seconds, 1e12)


def coset_minimum(
    x0: np.ndarray,
    kernel: Kernel,
    *,
    steps: int | None,
    seconds: float | None,
    deadline: float | None,
    progress: Any = None,
    descent: float = MIN_DESCENT_SECONDS,
    proof: list | None = None,
) -> tuple[np.ndarray, bool, int, int]:
    """The least-length element of x0 + ker A within a budget (:func:`minimise`, its
    clean-up given ``descent`` seconds at least).

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


def minimise(
    x0: np.ndarray,
    kernel: Kernel,
    steps: int | None,
    deadline: float | None,
    progress: Any = None,
    descent: float = 0.0,
    proof: list | None = None,
) -> tuple[np.ndarray, bool, int, int]:
    """Least-length element of x0 + ker A by NumPy enumeration, in this process.

    Within ``steps`` coset elements, or until ``deadline`` (a ``time.perf_counter()``
    value); the greedy clean-up of an incomplete search stops by the deadline too, or
    ``descent`` seconds after this call started, whichever is later. Element i is
    x0 + sum c_j h_j with i = c_0 + o_0 (c_1 + o_1 (...)), walked in blocks of
    ``BLOCK_ELEMENTS``; the first least element in that order is kept. ``progress(done,
    total)`` is told how far it got after every block. ``proof``: as in
    :func:`coset_minimum`.

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
    H, orders = kernel.generators()
    x0 = kernel.reduce(x0)
    total = prod(orders)
    n = kernel.n
    if progress is not None:
        progress(0, total)
    if total == 1:
        if progress is not None:
            progress(1, 1)
        _append_proof(proof, x0, len(orders))
        return x0.astype(np.uint8), True, 1, 0
    if steps == 0 or (seconds is not None and seconds <= 0):
        best = descend(x0.astype(np.int64), H, orders, n, deadline)
        if not x0.any():
            _append_proof(proof, x0, len(orders))
        return best.astype(np.uint8), int(x0.sum()) == 0, 0, 0
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
