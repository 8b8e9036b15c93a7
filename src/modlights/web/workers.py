"""Solver work of the web service in worker processes, in lanes by estimated cost.

Every request that may compute runs in a worker process of a :class:`WorkerPool`, never
in the server's own process. The pool has two lanes, each with its own worker processes
and its own queue:

- **cheap**: requests whose estimated cost is small (:func:`limits.board_lane`: a 3 x 3
  solve, a hint on a small board, a daily puzzle); they never wait behind expensive
  ones. A task that runs past ``cheap_seconds`` of work in this lane was estimated
  wrongly: its worker is killed and the request runs again in the heavy lane (the pool
  event "demoted"), so the cheap lane stays cheap whatever a request claims;
- **heavy**: everything else.

What a request gets:

- admission: at most ``workers + queue`` requests hold or wait for a worker of a lane;
  past that :meth:`WorkerPool.run` raises :class:`Busy` at once (HTTP 503 with
  Retry-After), and a request that waited ``queue_seconds`` for a worker gets
  :class:`Busy` too (never a deadline: waiting is not work);
- a deadline that counts work: the clock starts when a warm worker receives the task,
  so queueing and worker start cost a request nothing; past it the worker is killed
  (:class:`Deadline`, HTTP 408);
- isolation: each worker caps its address space (``RLIMIT_AS``), so a runaway
  allocation is a MemoryError or a dead worker (:class:`EngineFailure`, HTTP 503), never
  a server out of memory; a worker that dies costs its one request an error;
- a client that disconnects has its task cancelled (its worker killed; :class:`ClientGone`).

What cannot happen: a request stopping the pool. The task is pickled by the request's
own coroutine before it is sent (data that cannot be pickled fails that request with
:class:`Unpicklable`, HTTP 400), the answer is unpickled by it too (an answer that
cannot be read fails that request), and no shared thread runs a request's code. A
supervisor thread replaces every dead or killed worker and is itself started again
when it ends; :meth:`WorkerPool.readiness` says whether every lane has a warm worker
(the service's readiness route). The pool serves any event loop (a test client may run
each request in a loop of its own): its workers talk over blocking sockets, each
exchange in a thread of the pool's, awaited from the request's loop.

Workers come from a forkserver that has imported the service, so a new one starts in
milliseconds; each warms up (a small solve) before it takes work (:mod:`.worker_process`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

from modlights.web import limits, worker_process
from modlights.web.worker_process import (
    hook_abort,
    hook_allocate,
    hook_nested,
    hook_pid,
    hook_segfault,
    hook_spin,
)

__all__ = [
    "WorkerPool",
    "Busy",
    "Deadline",
    "EngineFailure",
    "ClientGone",
    "Unpicklable",
    "LANES",
    "hook_pid",
    "hook_abort",
    "hook_segfault",
    "hook_allocate",
    "hook_nested",
    "hook_spin",
]

log = logging.getLogger("modlights.web")

#: The lanes, cheapest first.
LANES = ("cheap", "heavy")
#: Seconds between two looks at a waiting request's client, deadline and queue time.
POLL_SECONDS = 0.05
#: Seconds between two rounds of the supervisor (dead idle workers, missing workers).
SUPERVISE_SECONDS = 0.25
#: Longest wait between two tries to start a lane's workers when they fail to start.
MAX_BACKOFF_SECONDS = 30.0
#: A cheap-lane task moves to the heavy lane after ``cheap_seconds`` of CPU time, or
#: this many times that in wall time where the CPU time cannot be read (or the worker
#: barely gets the CPU).
CHEAP_WALL_FACTOR = 5.0

try:
    _CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
except (ValueError, OSError, AttributeError):  # pragma: no cover
    _CLOCK_TICKS = 100


class Busy(Exception):
    """Every worker of the request's lane is taken and its queue is full, or the
    request waited its lane's queue time (HTTP 503 "busy", Retry-After)."""

    def __init__(self, message: str, retry_after: int = limits.RETRY_AFTER_SECONDS):
        super().__init__(message)
        self.retry_after = retry_after


class Deadline(Exception):
    """The request's work ran past its deadline; its worker was killed (HTTP 408)."""


class EngineFailure(Exception):
    """The request's worker died or ran out of memory, or the service is shutting
    down (HTTP 503 "engine_failure")."""


class ClientGone(Exception):
    """The client disconnected while its request waited or ran; its task was cancelled."""


class Unpicklable(ValueError):
    """The request's data cannot be handed to a worker (HTTP 400)."""


class _Overran(Exception):
    """A cheap-lane task ran past the lane's work time (internal: run it heavy)."""


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


def _describe_exit(code: int | None) -> str:
    """How a dead worker ended, for messages: "signal SIGSEGV", "exit code 1"..."""
    if isinstance(code, int) and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


class _Worker:
    """One worker process of a lane and the server's end of its stream (blocking)."""

    def __init__(self, lane: _Lane):
        self.lane = lane
        self.process: Any = None
        self.sock: socket.socket | None = None
        self.pid: int | None = None
        self.state = "starting"  # -> idle <-> busy -> dead

    def start(self, ctx: Any, memory_bytes: int, nice: int, seconds: float) -> None:
        """Start the process and wait (at most ``seconds``) for it to report ready
        (blocking: a thread of the pool's runs it)."""
        parent, child = socket.socketpair()
        self.sock = parent
        try:
            proc = ctx.Process(
                target=worker_process.main,
                args=(child, memory_bytes, nice),
                daemon=True,
                name=f"modlights-{self.lane.name}-worker",
            )
            proc.start()
            self.process = proc
        finally:
            child.close()
        parent.settimeout(seconds)
        try:
            frame = worker_process.recv_frame(parent)
        except TimeoutError:
            raise RuntimeError(f"it did not report ready within {seconds:g} s") from None
        if frame is None:
            raise RuntimeError(f"the process ended ({self.exit_description()})")
        parent.settimeout(None)
        kind, value = pickle.loads(frame)
        if kind != "ready":
            raise RuntimeError(str(value))
        self.pid = value

    def exchange(self, payload: bytes) -> bytes | None:
        """Send a task and return the answer frame; None when the stream ended (the
        worker died or was killed). Blocking: a thread of the pool's runs it."""
        sock = self.sock
        if sock is None:
            return None
        try:
            worker_process.send_frame(sock, payload)
            return worker_process.recv_frame(sock)
        except OSError:
            return None

    def alive(self) -> bool:
        return self.process is not None and self.process.exitcode is None

    def cpu_seconds(self) -> float | None:
        """CPU seconds the process has used (user + system, from /proc); None where
        /proc does not tell (not Linux, or the process is gone)."""
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (OSError, ValueError, IndexError):
            return None

    def kill(self) -> None:
        """Kill the process (SIGKILL) and shut its stream (a thread blocked on it
        returns); the worker is dead. Idempotent, from any thread."""
        self.state = "dead"
        if self.process is not None and self.process.exitcode is None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                self.process.kill()
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()

    def exit_description(self) -> str:
        """How the (dead) process ended, after waiting at most a second for it."""
        if self.process is None:
            return "it never started"
        with contextlib.suppress(Exception):
            self.process.join(1.0)
        return _describe_exit(self.process.exitcode)


class _Lane:
    """A lane: its workers, the requests it admitted, the ones waiting for a worker.
    Every field is read and written under the pool's lock."""

    def __init__(self, name: str, size: int, queue: int):
        self.name = name
        self.size = size
        self.queue = queue
        self.pending = 0  # admitted requests, holding or waiting for a worker
        self.workers: set[_Worker] = set()  # starting, idle or busy
        self.idle: list[_Worker] = []
        self.waiters: deque[concurrent.futures.Future] = deque()
        self.warm = False  # every worker of the first start reported ready
        self.failures = 0  # workers in a row that did not start
        self.next_spawn = 0.0  # monotonic time before which no worker is started

    @property
    def capacity(self) -> int:
        return self.size + self.queue

    @property
    def ready(self) -> int:
        """Warm workers (idle or busy) whose process runs (one killed from outside
        counts no more, before the supervisor has even noticed)."""
        return sum(w.state in ("idle", "busy") and w.alive() for w in self.workers)

    @property
    def busy(self) -> int:
        return sum(w.state == "busy" for w in self.workers)

    @property
    def waiting(self) -> int:
        return sum(not f.done() for f in self.waiters)

    def give(self, worker: _Worker) -> None:
        """A worker is free: to the first waiter still waiting, else idle; a dead one
        is dropped."""
        if worker.state != "idle":
            self.workers.discard(worker)
            return
        while self.waiters:
            fut = self.waiters.popleft()
            if fut.set_running_or_notify_cancel():
                fut.set_result(worker)
                return
        self.idle.append(worker)


class WorkerPool:
    """Worker processes for a web app's solver work, in a cheap and a heavy lane.

    Parameters
    ----------
    workers, queue : int, optional
        The heavy lane's processes (default :func:`limits.default_workers`, one a CPU)
        and the requests that may wait for one (default :func:`limits.default_queue`).
    memory_bytes : int, optional
        Each worker's address-space cap (default :func:`limits.default_memory_bytes`;
        0 for none).
    on_event : callable, optional
        Called with "restart" each time a worker is killed or found dead (the pool
        starts another), and "demoted" when a cheap-lane task moves to the heavy lane
        (from the supervisor's thread or the request's).
    cheap_workers, cheap_queue : int, optional
        The cheap lane's processes (default :func:`limits.default_cheap_workers`) and
        queue (default :func:`limits.default_cheap_queue`).
    nice : int, optional
        Niceness added to every worker, 0..19 (default :data:`limits.WORKER_NICE`, 0:
        the server's priority).
    cheap_seconds, queue_seconds, start_seconds : float, optional
        Work a cheap-lane task may do before it moves to the heavy lane, time a
        request may wait for a worker, time a new worker may take to start and warm up
        (defaults :data:`limits.CHEAP_SECONDS`, :data:`limits.QUEUE_SECONDS`,
        :data:`limits.START_SECONDS`).

    Raises
    ------
    ValueError
        For workers < 1, queue < 0, memory_bytes < 0, nice outside 0..19, or seconds
        that are not above 0 and at most 3600.

    Notes
    -----
    The processes start with :meth:`start` (the app's startup) or on first use, and
    stop with :meth:`close`, which also runs when the pool is collected.
    """

    def __init__(
        self,
        workers: int | None = None,
        queue: int | None = None,
        memory_bytes: int | None = None,
        on_event: Callable[[str], None] | None = None,
        *,
        cheap_workers: int | None = None,
        cheap_queue: int | None = None,
        nice: int | None = None,
        cheap_seconds: float | None = None,
        queue_seconds: float | None = None,
        start_seconds: float | None = None,
    ):
        heavy = limits.default_workers() if workers is None else workers
        _check_int("workers", heavy, 1)
        heavy_queue = limits.default_queue(heavy) if queue is None else queue
        _check_int("queue", heavy_queue, 0)
        cheap = limits.default_cheap_workers() if cheap_workers is None else cheap_workers
        _check_int("cheap_workers", cheap, 1)
        cheap_q = limits.default_cheap_queue(cheap) if cheap_queue is None else cheap_queue
        _check_int("cheap_queue", cheap_q, 0)
        self.memory_bytes = (
            limits.default_memory_bytes(heavy + cheap) if memory_bytes is None else memory_bytes
        )
        _check_int("memory_bytes", self.memory_bytes, 0)
        self.nice = limits.WORKER_NICE if nice is None else nice
        _check_int("nice", self.nice, 0, 19)
        self.cheap_seconds = _seconds("cheap_seconds", cheap_seconds, limits.CHEAP_SECONDS)
        self.queue_seconds = _seconds("queue_seconds", queue_seconds, limits.QUEUE_SECONDS)
        self.start_seconds = _seconds("start_seconds", start_seconds, limits.START_SECONDS)
        self.on_event = on_event
        self.lanes = {
            "cheap": _Lane("cheap", cheap, cheap_q),
            "heavy": _Lane("heavy", heavy, heavy_queue),
        }
        self.restarts = 0
        self.spawn_failures = 0
        self._lock = threading.Lock()
        self._wake = threading.Event()  # the supervisor's next round, now
        self._closing = False
        self._supervisor: threading.Thread | None = None
        self._ctx: Any = None
        # one exchange a worker at most, plus the ones still ending after a kill
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=2 * (heavy + cheap) + 4, thread_name_prefix="modlights-exchange"
        )
        self._finalizer = weakref.finalize(self, _stop, self.lanes, self._threads)

    # -- sizes (the heavy lane's, as before there were lanes; the totals)
    @property
    def workers(self) -> int:
        """The heavy lane's worker processes."""
        return self.lanes["heavy"].size

    @property
    def queue(self) -> int:
        """Requests that may wait for a heavy-lane worker."""
        return self.lanes["heavy"].queue

    @property
    def pending(self) -> int:
        """Requests holding or waiting for a worker, all lanes."""
        return sum(lane.pending for lane in self.lanes.values())

    @property
    def in_flight(self) -> int:
        """Requests whose task a worker runs, all lanes."""
        return sum(lane.busy for lane in self.lanes.values())

    @property
    def queued(self) -> int:
        """Requests waiting for a worker, all lanes."""
        return sum(lane.waiting for lane in self.lanes.values())

    # -- life
    def start(self) -> WorkerPool:
        """Start the workers (in the background: see :meth:`readiness`); returns at once."""
        self._ensure_running()
        return self

    def _ensure_running(self) -> None:
        """Make sure the supervisor thread runs (it starts the workers)."""
        if self._closing:
            raise EngineFailure("the service is shutting down")
        with self._lock:
            if self._supervisor is not None and self._supervisor.is_alive():
                return
            if self._supervisor is not None:
                log.error("the worker pool's supervisor stopped; starting it again")
            if self._ctx is None:
                self._ctx = _context()
            self._supervisor = threading.Thread(
                target=self._supervise, name="modlights-pool-supervisor", daemon=True
            )
            self._supervisor.start()

    def close(self) -> None:
        """Stop the pool: waiting requests fail with :class:`EngineFailure` and every
        worker is killed. Idempotent."""
        with self._lock:
            self._closing = True
            for lane in self.lanes.values():
                while lane.waiters:
                    fut = lane.waiters.popleft()
                    if fut.set_running_or_notify_cancel():
                        fut.set_exception(EngineFailure("the service is shutting down"))
        self._wake.set()
        _stop(self.lanes, self._threads)
        supervisor = self._supervisor
        if supervisor is not None and supervisor is not threading.current_thread():
            supervisor.join(5)

    def _event(self, what: str) -> None:
        if what == "restart":
            self.restarts += 1
        if self.on_event is not None:
            try:
                self.on_event(what)
            except Exception:  # noqa: BLE001 - an observer must not break the pool
                log.exception("the worker pool's event observer failed")

    def _supervise(self) -> None:
        """The supervisor thread: every :data:`SUPERVISE_SECONDS` (or when woken), drop
        idle workers whose process ended (the out-of-memory killer, a signal from
        outside) and start the missing ones, each in a thread of its own."""
        while not self._closing:
            try:
                self._round()
            except Exception:  # noqa: BLE001 - the supervisor must go on
                log.exception("the worker pool's supervisor failed a round")
            self._wake.wait(SUPERVISE_SECONDS)
            self._wake.clear()

    def _round(self) -> None:
        now = time.monotonic()
        dead = 0
        starting = []
        with self._lock:
            for lane in self.lanes.values():
                for worker in [w for w in lane.idle if not w.alive()]:
                    lane.idle.remove(worker)
                    lane.workers.discard(worker)
                    worker.kill()
                    dead += 1
                    log.warning("an idle %s-lane worker died; replacing it", lane.name)
                if now < lane.next_spawn or self._closing:
                    continue
                while len(lane.workers) < lane.size:
                    worker = _Worker(lane)
                    lane.workers.add(worker)
                    starting.append(worker)
        for _ in range(dead):
            self._event("restart")
        for worker in starting:
            threading.Thread(
                target=self._spawn, args=(worker,), name="modlights-worker-start", daemon=True
            ).start()

    def _spawn(self, worker: _Worker) -> None:
        lane = worker.lane
        try:
            worker.start(self._ctx, self.memory_bytes, self.nice, self.start_seconds)
        except Exception as e:  # noqa: BLE001 - logged; the supervisor tries again
            worker.kill()
            with self._lock:
                lane.workers.discard(worker)
                if self._closing:
                    return
                self.spawn_failures += 1
                lane.failures += 1
                backoff = min(MAX_BACKOFF_SECONDS, SUPERVISE_SECONDS * 2 ** min(lane.failures, 10))
                lane.next_spawn = time.monotonic() + backoff
            log.error(
                "a %s-lane worker did not start (%s); the next try in %.1f s",
                lane.name,
                f"{type(e).__name__}: {e}",
                backoff,
            )
            return
        with self._lock:
            if self._closing:
                worker.kill()
                lane.workers.discard(worker)
                return
            lane.failures = 0
            worker.state = "idle"
            if not lane.warm and lane.ready >= lane.size:
                lane.warm = True
            lane.give(worker)

    def _replace(self, worker: _Worker) -> None:
        """A killed or dead worker leaves its lane; the supervisor starts another now."""
        with self._lock:
            worker.lane.workers.discard(worker)
        self._wake.set()

    def readiness(self) -> tuple[bool, dict]:
        """(whether the service can do solver work now, the lanes' state): ready when
        the pool is not closing, its supervisor thread runs, and every lane has had all
        of its first workers warm and has a warm worker now."""
        with self._lock:
            lanes = {
                name: {
                    "workers": lane.size,
                    "ready": lane.ready,
                    "busy": lane.busy,
                    "queued": lane.waiting,
                    "queue": lane.queue,
                }
                for name, lane in self.lanes.items()
            }
            ok = (
                not self._closing
                and self._supervisor is not None
                and self._supervisor.is_alive()
                and all(lane.warm and lane.ready > 0 for lane in self.lanes.values())
            )
        return ok, lanes

    # -- work
    async def run(
        self,
        fn: Callable,
        *args: Any,
        timeout: float,
        request: Any = None,
        lane: str = "heavy",
    ) -> Any:
        """``fn(*args)`` in a worker of ``lane``; its result, or what it raised (see
        :func:`worker_process.call`).

        fn must be a module-level function. timeout: seconds of work, counted from
        when a worker receives the task. request: a Starlette Request whose client is
        watched. Raises :class:`Busy` (the lane is full, or no worker came free within
        ``queue_seconds``), :class:`Deadline`, :class:`EngineFailure` (the worker died
        or ran out of memory, or the pool is closing), :class:`ClientGone`,
        :class:`Unpicklable` (the arguments cannot be sent), ValueError for an unknown
        lane.
        """
        if lane not in self.lanes:
            raise ValueError(f"lane must be one of {', '.join(LANES)}, got {lane!r}")
        self._ensure_running()
        try:
            payload = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # noqa: BLE001 - RecursionError, PicklingError...
            raise Unpicklable(
                f"the request's data cannot be handed to a worker ({type(e).__name__})"
            ) from None
        if lane == "cheap":
            try:
                return await self._run(self.lanes["cheap"], payload, timeout, request, True)
            except _Overran:
                self._event("restart")
                self._event("demoted")
        return await self._run(self.lanes["heavy"], payload, timeout, request, False)

    async def _run(
        self, lane: _Lane, payload: bytes, timeout: float, request: Any, sliced: bool
    ) -> Any:
        with self._lock:
            if lane.pending >= lane.capacity:
                raise Busy(
                    f"all {lane.size} workers of the {lane.name} lane are busy and "
                    f"{lane.queue} requests wait; try again shortly"
                )
            lane.pending += 1
        try:
            worker = await self._acquire(lane, request)
            data = await self._call(worker, payload, timeout, request, sliced)
        finally:
            with self._lock:
                lane.pending -= 1
        try:
            kind, value = pickle.loads(data)
        except Exception as e:  # noqa: BLE001 - the answer, not the pool, fails
            raise EngineFailure(
                f"the worker's answer could not be read ({type(e).__name__})"
            ) from None
        if kind == "ok":
            return value
        if isinstance(value, MemoryError):
            raise EngineFailure(
                "the request needs more memory than a worker may use "
                f"({self.memory_bytes >> 20} MiB)"
            )
        raise value

    async def _acquire(self, lane: _Lane, request: Any) -> _Worker:
        """An idle warm worker of ``lane``, waiting in line for one. Raises
        :class:`Busy` past ``queue_seconds`` of waiting (``start_seconds`` while the
        lane has no warm worker yet: workers starting are no reason to give up),
        :class:`ClientGone`, :class:`EngineFailure` (closing)."""
        with self._lock:
            while lane.idle:
                worker = lane.idle.pop()
                if worker.alive():
                    worker.state = "busy"
                    return worker
                worker.kill()
                lane.workers.discard(worker)
                self._wake.set()
            fut: concurrent.futures.Future = concurrent.futures.Future()
            lane.waiters.append(fut)
        start = time.monotonic()
        waiter = asyncio.wrap_future(fut)
        try:
            while not (await asyncio.wait({waiter}, timeout=POLL_SECONDS))[0]:
                if request is not None and await request.is_disconnected():
                    raise ClientGone("the client disconnected")
                waited = time.monotonic() - start
                with self._lock:
                    warm = lane.ready > 0
                if waited >= (self.queue_seconds if warm else self.start_seconds):
                    raise Busy(
                        f"no worker of the {lane.name} lane came free within "
                        f"{waited:.0f} s; try again shortly"
                    )
            handed: _Worker = waiter.result()  # EngineFailure when the pool closed
            handed.state = "busy"
            return handed
        except BaseException:
            with self._lock:
                if not fut.cancel() and fut.exception() is None:
                    lane.give(fut.result())  # handed over as we gave up: pass it on
            raise

    async def _call(
        self, worker: _Worker, payload: bytes, timeout: float, request: Any, sliced: bool
    ) -> bytes:
        """Send one task and return the worker's answer frame. The clock starts now:
        past ``timeout`` seconds the worker is killed (:class:`Deadline`); in the cheap
        lane, past ``cheap_seconds`` of the worker's CPU time (a loaded machine does not
        move a cheap task) or :data:`CHEAP_WALL_FACTOR` times that in wall time, too
        (:class:`_Overran`). The client is watched every :data:`POLL_SECONDS`
        (:class:`ClientGone`)."""
        limit = self.cheap_seconds if sliced and self.cheap_seconds < timeout else None
        cpu0 = worker.cpu_seconds() if limit is not None else None
        start = time.monotonic()
        try:
            fut = self._threads.submit(worker.exchange, payload)
        except RuntimeError:  # the pool's threads were shut down: closing
            worker.kill()
            raise EngineFailure("the service is shutting down") from None
        waiter = asyncio.wrap_future(fut)
        try:
            while not (await asyncio.wait({waiter}, timeout=POLL_SECONDS))[0]:
                elapsed = time.monotonic() - start
                if limit is not None:
                    cpu = worker.cpu_seconds() if cpu0 is not None else None
                    used = elapsed if cpu is None or cpu0 is None else cpu - cpu0
                    if used >= limit or elapsed >= CHEAP_WALL_FACTOR * limit:
                        raise _Overran()
                if elapsed >= timeout:
                    self._event("restart")
                    raise Deadline(
                        f"the request's work took longer than its deadline of "
                        f"{timeout:g} s and was stopped"
                    )
                if request is not None and await request.is_disconnected():
                    self._event("restart")
                    raise ClientGone("the client disconnected")
            data = waiter.result()
            if data is None:
                self._event("restart")
                how = await asyncio.to_thread(worker.exit_description)
                raise EngineFailure(
                    f"the engine's worker process died ({how}); the request was not completed"
                )
        except BaseException as e:
            worker.kill()
            self._replace(worker)
            if isinstance(e, asyncio.CancelledError):
                # Only the server cancels a request's task: shutting down, past its
                # grace period. The worker is killed and the request answered, not
                # left to die with a traceback.
                self._event("restart")
                raise EngineFailure(
                    "the service is shutting down; the request was stopped"
                ) from None
            raise
        with self._lock:
            worker.state = "idle"
            worker.lane.give(worker)
        return data


def _stop(lanes: dict, threads: concurrent.futures.ThreadPoolExecutor) -> None:
    """Kill every worker process of the lanes and stop the exchange threads (best
    effort; also when the pool is collected)."""
    for lane in lanes.values():
        for worker in list(lane.workers):
            with contextlib.suppress(Exception):
                worker.kill()
    threads.shutdown(wait=False, cancel_futures=True)
    for lane in lanes.values():
        for worker in list(lane.workers):
            if worker.process is not None:
                with contextlib.suppress(Exception):
                    worker.process.join(2)


def _check_int(name: str, v: Any, lo: int, hi: int | None = None) -> None:
    if type(v) is not int or v < lo or (hi is not None and v > hi):
        allowed = f">= {lo}" if hi is None else f"from {lo} to {hi}"
        raise ValueError(f"{name} must be an int {allowed}, got {v!r}")


def _seconds(name: str, v: Any, default: float) -> float:
    if v is None:
        return default
    if not (isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 3600):
        raise ValueError(f"{name} must be seconds above 0 and at most 3600, got {v!r}")
    return float(v)
