"""The C library's split searches driven over an executor (csrc/api/search.c,
search_many.c through ``_core.CSearch``): the Solver's searches over any
:class:`concurrent.futures.Executor` (a ``ProcessPoolExecutor``, a Dask client's
``get_executor()``) when the C solver answers.

A split search is made by the C solver (``_core.capi_search`` for one coset,
``capi_search_many`` for a stack of states), cut into tasks, exported as bytes and run
anywhere by module-level functions of ``_core`` (``search_task``, ``search_rows_task``:
plain data in and out, so they pickle); the driver here submits them, gives each the
bound the merged answers allow right before it is sent, merges the answers as they come
and finishes. The merge rule is C's: the answer does not depend on the order tasks
finish in, and every split search is exhaustive, so it is proved. The split and the
in-flight limits are :mod:`modlights.search.minimal`'s (``TASKS_PER_WORKER``,
``MIN_ROWS_PER_TASK``, ``executor_workers``), as are the waits that see Ctrl-C and the
stopping of tasks after an error (``_wait``, ``_stop_tasks``).
"""

from __future__ import annotations

import concurrent.futures as cf
from typing import Any

from modlights.search import minimal
from modlights.search.checkpoint import Checkpoint
from modlights.search.minimal import TASKS_PER_WORKER, _stop_tasks, _wait, executor_workers

__all__ = ["split_search", "split_search_many"]


def _search_format(data: bytes) -> int:
    """The export format of a split search's bytes (csrc/api/search.c: 1 sub-cubes,
    2 ranges of corners of the transform search, 3 rows of many cosets)."""
    return int.from_bytes(data[8:12], "little")


def split_search(
    q: Any,
    executor: cf.Executor,
    progress: Any = None,
    total: int = 0,
    checkpoint: Checkpoint | None = None,
) -> Any:
    """Run the C split search ``q`` of one coset (``_core.capi_search``: an
    ``ml_search``) over ``executor`` and return ``q.finish()`` (a ``_core.CResult``,
    proved). Sub-cubes are cut ``TASKS_PER_WORKER`` a worker (ranges of corners of the
    transform search twice as many); at most workers + 1
    tasks are in flight, each given ``q.bound(t)`` right before it is sent (the merge
    rule of csrc/api/search.c: the answer does not depend on the order tasks finish
    in). A task runs ``_core.search_task`` on the exported bytes (picklable: process
    pools and Dask). ``progress(done, total)``, when given, is told 0 first, then the
    share of ``total`` coset elements of the tasks merged, after each wait, and
    ``total`` at the end. An error, Ctrl-C or a raising ``progress`` cancels the queued
    tasks and stops those on this process's threads (``_stop_tasks``).
    O(|ker A|) work over the workers."""
    from modlights.native import _core

    workers = executor_workers(executor)
    want = TASKS_PER_WORKER * workers
    split = checkpoint.split_of() if checkpoint is not None else None
    tasks = q.split(want if split is None else split)
    data = q.export()
    if split is None:
        split = want
        if _search_format(data) == 2:  # the transform search: twice as many corner ranges
            split = 2 * want
            tasks = q.split(split)
            data = q.export()
    kept = checkpoint.start(data, split, tasks) if checkpoint is not None else {}
    for t in sorted(kept):
        q.merge(t, kept[t])
    if progress is not None:
        progress(0, total)
    pending: dict[cf.Future, int] = {}
    nxt = 0
    merged = len(kept)
    try:
        while not q.done:
            while nxt < tasks and len(pending) <= workers and not q.done:
                if nxt in kept:
                    nxt += 1
                    continue
                pending[executor.submit(_core.search_task, data, nxt, q.bound(nxt))] = nxt
                nxt += 1
            if not pending:
                break
            now = []
            for f in sorted(_wait(set(pending), cf.FIRST_COMPLETED), key=pending.__getitem__):
                t = pending.pop(f)
                answer = f.result()
                if not answer[1]:  # a task stopped early (interrupted where it ran)
                    raise KeyboardInterrupt("a search task was interrupted")
                q.merge(t, answer)
                now.append((t, answer))
                merged += 1
            if checkpoint is not None and now:
                checkpoint.record(now)
            if progress is not None and not q.done:
                progress(total * merged // tasks, total)
    except BaseException:  # an error or Ctrl-C: queued tasks are not run
        _stop_tasks(set(pending), executor)
        raise
    for f in pending:  # a best of length 0 ended the search: the rest is not needed
        f.cancel()
    if progress is not None:
        progress(total, total)
    return q.finish()


def split_search_many(q: Any, k: int, executor: cf.Executor, taps: bool) -> None:
    """Run the C many-coset split search ``q`` (``_core.capi_search_many`` of ``k``
    states) over ``executor``, rows split ``TASKS_PER_WORKER`` a worker and at least
    ``MIN_ROWS_PER_TASK`` rows a task; ``q.lengths`` / ``q.proven`` answer after it
    (same answers whatever the split: csrc/api/search_many.c). Each task runs
    ``_core.search_rows_task`` on the exported bytes. Cancels the queued tasks on an
    error or Ctrl-C. O(k |ker A|) work over the workers."""
    from modlights.native import _core

    want = TASKS_PER_WORKER * executor_workers(executor)
    tasks = q.split(max(1, min(want, -(-k // minimal.MIN_ROWS_PER_TASK))))
    data = q.export()
    futures = {executor.submit(_core.search_rows_task, data, t, taps): t for t in range(tasks)}
    try:
        _wait(set(futures), cf.ALL_COMPLETED)
        for f, t in sorted(futures.items(), key=lambda ft: ft[1]):
            q.merge_rows(t, f.result())
    except BaseException:  # an error or Ctrl-C: queued tasks are not run
        _stop_tasks(set(futures), executor)
        raise
