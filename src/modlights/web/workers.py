"""Solver work of the web service in worker processes.

Every request that may compute runs in a process of a :class:`WorkerPool` (pebble's
ProcessPool), never in the server's own process or threads:

- each worker caps its address space (``RLIMIT_AS``), so a runaway allocation is a
  MemoryError or a dead worker, not a server out of memory;
- each task has a wall-clock deadline, enforced by killing its worker (pebble kills a
  task's process on timeout and on ``cancel()``), so no search overruns its request;
- a worker that dies (a segfault, an abort, the out-of-memory killer) costs its one
  request an error; the pool starts a new worker in its place;
- admission control: at most ``workers + queue`` requests hold or wait for a worker;
  past that :meth:`WorkerPool.run` raises :class:`Busy` at once;
- a request whose client disconnects, or whose own deadline passes while it waits,
  has its task cancelled (and its worker killed when the task was running).

The errors, mapped to HTTP by the app: :class:`Busy` (503 "busy", with Retry-After),
:class:`Deadline` (408 "deadline"), :class:`EngineFailure` (503 "engine_failure"),
:class:`ClientGone` (the client is no longer there to read an answer).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import pebble

from modlights.web import limits

__all__ = ["WorkerPool", "Busy", "Deadline", "EngineFailure", "ClientGone"]

log = logging.getLogger("modlights.web")

#: Seconds between two looks at a waiting request's client and deadline.
POLL_SECONDS = 0.05


class Busy(Exception):
    """Every worker is taken and the queue is full (HTTP 503 "busy", Retry-After)."""


class Deadline(Exception):
    """The request's deadline passed; its worker was killed (HTTP 408 "deadline")."""


class EngineFailure(Exception):
    """The request's worker died or ran out of memory (HTTP 503 "engine_failure")."""


class ClientGone(Exception):
    """The client disconnected while its request waited; its task was cancelled."""


# ----------------------------------------------------------------------------- in a worker
def _init_worker(memory_bytes: int, nice: int = 0) -> None:
    """Run once in each new worker: Ctrl-C is the server's business (the server kills
    its workers), the address space is capped at ``memory_bytes`` (0: no cap), the
    niceness raised by ``nice`` (the server's event loop goes first), and no core
    files are written. Integers of any size become JSON here (Python's int -> str
    limit lifted: a |ker A| of a 100 x 100 board over Z/255 has 24,000 digits; the
    request's deadline bounds the conversion's quadratic time)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    if nice > 0:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover
            pass
    if memory_bytes > 0:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    _, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, hard))


def _call(fn: Callable, args: tuple) -> Any:
    """Run ``fn(*args)`` in a worker; what it raises comes back as an exception that
    always pickles: ValueError subclasses of the library and the service as they are
    (their message is their only argument), any other ValueError as a ValueError,
    MemoryError as a MemoryError, anything else as a RuntimeError with its type only
    (logged in the worker)."""
    from modlights.solver import Unsolvable

    try:
        return fn(*args)
    except (Unsolvable, limits.TooLarge, limits.Invalid, limits.Unparsable) as e:
        raise type(e)(str(e)) from None
    except ValueError as e:
        raise ValueError(str(e)) from None
    except MemoryError:
        raise MemoryError("the worker's memory cap was reached") from None
    except Exception as e:  # noqa: BLE001 - reported, never sent
        log.exception("unexpected error in a worker")
        raise RuntimeError(type(e).__name__) from None


def _warm() -> int:
    """A no-op task (the worker's pid) that makes a worker start and import the service."""
    return os.getpid()


# Test-only hooks (the app routes them only when created with test_hooks=True).
def hook_pid(seconds: float = 0.0, pidfile: str | None = None) -> int:
    """The worker's pid, written to ``pidfile`` first when given, after ``seconds`` of
    sleep (in short steps)."""
    pid = os.getpid()
    if pidfile:
        with open(pidfile, "w") as f:
            f.write(str(pid))
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.01)
    return pid


def hook_abort() -> None:
    """Kill the worker with SIGABRT (os.abort), as a failed assertion in C would."""
    os.abort()


def hook_segfault() -> None:
    """Kill the worker with a segmentation fault (a read of address 0)."""
    import ctypes

    ctypes.string_at(0)


def hook_allocate(nbytes: int) -> int:
    """Allocate and touch ``nbytes`` bytes: past the worker's memory cap, a MemoryError."""
    block = bytearray(nbytes)
    return len(block)


# ----------------------------------------------------------------------------- the pool
def _context() -> Any:
    """A forkserver context whose server has imported the service already, so that a
    new worker starts in milliseconds, and forks from a process that has no threads
    of the server's (uvicorn's, the test client's)."""
    try:
        ctx = multiprocessing.get_context("forkserver")
    except ValueError:  # pragma: no cover - no forkserver
        return multiprocessing.get_context("spawn")
    ctx.set_forkserver_preload(["modlights.web.app"])
    return ctx


class WorkerPool:
    """Worker processes for a web app's solver work.

    workers: processes (default :func:`limits.default_workers`, one a CPU). queue:
    requests that may wait for a worker beyond those (default
    :func:`limits.default_queue`). memory_bytes: each worker's address-space cap
    (default :func:`limits.default_memory_bytes`; 0 for none). on_event: called with
    "restart" each time a worker is killed or found dead (the pool starts another).

    The processes start on first use (or :meth:`start`), and stop with :meth:`close`,
    which the app calls on shutdown and which also runs when the pool is collected or
    the interpreter exits. Raises ValueError for workers < 1, queue < 0 or
    memory_bytes < 0.
    """

    def __init__(
        self,
        workers: int | None = None,
        queue: int | None = None,
        memory_bytes: int | None = None,
        on_event: Callable[[str], None] | None = None,
    ):
        self.workers = limits.default_workers() if workers is None else workers
        if type(self.workers) is not int or self.workers < 1:
            raise ValueError(f"workers must be an int >= 1, got {workers!r}")
        self.queue = limits.default_queue(self.workers) if queue is None else queue
        if type(self.queue) is not int or self.queue < 0:
            raise ValueError(f"queue must be an int >= 0, got {queue!r}")
        self.memory_bytes = (
            limits.default_memory_bytes(self.workers) if memory_bytes is None else memory_bytes
        )
        if type(self.memory_bytes) is not int or self.memory_bytes < 0:
            raise ValueError(f"memory_bytes must be an int >= 0, got {memory_bytes!r}")
        self.on_event = on_event
        self.pending = 0  # requests holding or waiting for a worker
        self.restarts = 0
        self._pool: pebble.ProcessPool | None = None
        self._lock = threading.Lock()
        self._finalizer: Any = None

    # -- life
    def start(self) -> WorkerPool:
        """Start the worker processes now (they start on first use otherwise); returns
        at once, while they start."""
        pool = self._get()
        for _ in range(self.workers):
            pool.schedule(_warm)
        return self

    def _get(self) -> pebble.ProcessPool:
        """The pebble pool, made on first use (thread-safe)."""
        with self._lock:
            if self._pool is None:
                self._pool = pebble.ProcessPool(
                    max_workers=self.workers,
                    initializer=_init_worker,
                    initargs=(self.memory_bytes, limits.WORKER_NICE),
                    context=_context(),
                )
                self._finalizer = weakref.finalize(self, _stop, self._pool)
            return self._pool

    def close(self) -> None:
        """Stop the pool: pending tasks are dropped and the workers killed."""
        with self._lock:
            pool, self._pool = self._pool, None
            if self._finalizer is not None:
                self._finalizer.detach()
                self._finalizer = None
        if pool is not None:
            _stop(pool)

    @property
    def in_flight(self) -> int:
        """Requests holding a worker (at most ``workers``)."""
        return min(self.pending, self.workers)

    @property
    def queued(self) -> int:
        """Requests waiting for a worker."""
        return max(0, self.pending - self.workers)

    def _restarted(self) -> None:
        """Count a killed or dead worker and tell ``on_event``."""
        self.restarts += 1
        if self.on_event is not None:
            self.on_event("restart")

    # -- work
    async def run(self, fn: Callable, *args: Any, timeout: float, request: Any = None) -> Any:
        """``fn(*args)`` in a worker; its result, or what it raised (see :func:`_call`).

        fn and args must pickle (fn a module-level function). timeout: seconds for the
        whole request, from now: the worker is killed when its task runs past it, and
        a task still waiting for a worker then is dropped. request: a Starlette
        Request whose client is watched; when it disconnects the task is cancelled
        (its worker killed). Raises :class:`Busy` at once when ``workers + queue``
        requests are pending, :class:`Deadline`, :class:`EngineFailure` (the worker
        died, or ran out of memory), :class:`ClientGone`.
        """
        if self.pending >= self.workers + self.queue:
            raise Busy(
                f"all {self.workers} workers are busy and {self.queue} requests "
                "wait; try again shortly"
            )
        self.pending += 1
        try:
            return await self._run(fn, args, timeout, request)
        finally:
            self.pending -= 1

    async def _run(self, fn: Callable, args: tuple, timeout: float, request: Any) -> Any:
        """:meth:`run` once admitted: schedule the task, then wait for it while watching
        the deadline and the client every ``POLL_SECONDS``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        pool = self._get()
        try:
            future = pool.schedule(_call, args=(fn, args), timeout=timeout)
        except RuntimeError as e:  # the pool was stopped (shutting down)
            raise EngineFailure(f"the service is shutting down ({e})") from None
        waiter = asyncio.wrap_future(future)
        try:
            while True:
                done, _ = await asyncio.wait({waiter}, timeout=POLL_SECONDS)
                if done:
                    break
                if request is not None and await request.is_disconnected():
                    self._cancel(future)
                    raise ClientGone("the client disconnected")
                if loop.time() >= end:
                    self._cancel(future)
                    raise Deadline(
                        f"the request took longer than its deadline of "
                        f"{timeout:g} s and was stopped"
                    )
        except asyncio.CancelledError:
            # Only the server cancels a request's task: shutting down, past its grace
            # period. The worker is killed and the request answered, not left to die
            # with a traceback.
            self._cancel(future)
            raise EngineFailure("the service is shutting down; the request was stopped") from None
        try:
            return waiter.result()
        except (TimeoutError, FutureTimeout):
            self._restarted()
            raise Deadline(
                f"the request took longer than its deadline of {timeout:g} s and was stopped"
            ) from None
        except pebble.ProcessExpired as e:
            self._restarted()
            raise EngineFailure(
                f"the engine's worker process died ({_describe_exit(e)}); "
                "the request was not completed"
            ) from None
        except MemoryError:
            raise EngineFailure(
                "the request needs more memory than a worker may use "
                f"({self.memory_bytes >> 20} MiB)"
            ) from None
        except (FutureCancelled, asyncio.CancelledError):
            raise EngineFailure("the request's work was cancelled") from None

    def _cancel(self, future: Any) -> None:
        """Cancel a task; a running one's worker is killed (and counted as a restart)."""
        running = future.running()
        if future.cancel() and running:
            self._restarted()


def _describe_exit(e: Any) -> str:
    """How a dead worker ended, for messages: "signal SIGSEGV", "exit code 1"..."""
    code = getattr(e, "exitcode", None)
    if isinstance(code, int) and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def _stop(pool: pebble.ProcessPool) -> None:
    """Stop a pebble pool and wait a few seconds for its workers (best effort)."""
    try:
        pool.stop()
        pool.join(timeout=5)
    except Exception:  # noqa: BLE001 - best effort at shutdown
        pass
