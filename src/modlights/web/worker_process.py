"""What runs inside a worker process of the web service (:mod:`.workers` starts them).

A worker caps its address space, warms up, reports ``("ready", pid)`` on its stream, then
answers framed tasks one at a time: a task is a pickled ``(fn, args)``, its answer a
pickled ``("ok", value)`` or ``("err", exception)``. A frame is an 8-byte big-endian
length and that many bytes. Nothing a task does or returns can stop the loop: an answer
that cannot be pickled is sent as an error saying so.
"""

from __future__ import annotations

import logging
import os
import pickle
import resource
import signal
import socket
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

from modlights.web import limits

__all__ = ["main", "send_frame", "recv_frame", "MAX_FRAME_BYTES", "HEADER"]

log = logging.getLogger("modlights.web")

#: Largest message between the server and a worker (a frame's length past it means the
#: stream is corrupt; answers are bounded far below it by the service's limits).
MAX_FRAME_BYTES = 1 << 31

HEADER = struct.Struct(">Q")


def init(memory_bytes: int, nice: int = 0) -> None:
    """Run once in each new worker: Ctrl-C is the server's business (the server kills
    its workers), the address space is capped at ``memory_bytes`` (0: no cap), the
    niceness raised by ``nice`` (0: the server's priority), and no core files are
    written. Integers of any size become JSON here (Python's int -> str limit lifted:
    a |ker A| of a 100 x 100 board over Z/255 has 24,000 digits; the request's
    deadline bounds the conversion's quadratic time)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
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


def call(fn: Callable, args: tuple) -> Any:
    """Run ``fn(*args)`` in a worker; what it raises comes back as an exception that
    always pickles: ValueError subclasses of the library and the service as they are
    (their message is their only argument), any other ValueError as a ValueError,
    MemoryError as a MemoryError, RecursionError as a ValueError (data nested too
    deeply for the library), anything else as a RuntimeError with its type only
    (logged in the worker)."""
    from modlights.solver import Unsolvable

    try:
        return fn(*args)
    except (Unsolvable, limits.TooLarge, limits.TooDeep, limits.Invalid, limits.Unparsable) as e:
        raise type(e)(str(e)) from None
    except ValueError as e:
        raise ValueError(str(e)) from None
    except MemoryError:
        raise MemoryError("the worker's memory cap was reached") from None
    except RecursionError:
        raise ValueError("the request's data is nested too deeply") from None
    except Exception as e:  # noqa: BLE001 - reported, never sent
        log.exception("unexpected error in a worker")
        raise RuntimeError(type(e).__name__) from None


def answer(payload: bytes) -> bytes:
    """One task in a worker: ``payload`` (a pickled ``(fn, args)``) run by :func:`call`,
    its outcome pickled as ``("ok", value)`` or ``("err", exception)``. Never raises:
    an outcome that cannot be pickled (too deep, too large for the memory cap) is sent
    as an error saying so."""
    try:
        fn, args = pickle.loads(payload)
        outcome: tuple = ("ok", call(fn, args))
    except Exception as e:  # noqa: BLE001 - _call's exceptions, or the payload's
        outcome = ("err", e)
    try:
        return pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        error: Exception = MemoryError("the worker's memory cap was reached")
    except Exception as e:  # noqa: BLE001 - RecursionError, PicklingError...
        error = RuntimeError(f"the worker's answer could not be sent ({type(e).__name__})")
    return pickle.dumps(("err", error))


def warm() -> None:
    """What a new worker does before it reports ready: the service's modules (imported
    by the forkserver already) and a small solve through the C core."""
    from modlights import Board, Solver

    board = Board.grid(3, 3, states=3)
    Solver(board).solve(board.random_state(rng=0))


def main(sock: socket.socket, memory_bytes: int, nice: int) -> None:
    """A worker process: warm up, report ``("ready", pid)``, then answer framed tasks
    from ``sock`` one at a time until the server closes it."""
    init(memory_bytes, nice)
    try:
        warm()
        ready: tuple = ("ready", os.getpid())
    except BaseException as e:  # noqa: BLE001 - reported to the server, which logs it
        ready = ("failed", f"{type(e).__name__}: {e}")
    try:
        send_frame(sock, pickle.dumps(ready))
        if ready[0] != "ready":
            return
        while True:
            payload = recv_frame(sock)
            if payload is None:
                return
            send_frame(sock, answer(payload))
    except OSError:  # the server closed the stream
        return


def send_frame(sock: socket.socket, data: bytes) -> None:
    sock.sendall(HEADER.pack(len(data)))
    sock.sendall(data)


def _recv_exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def recv_frame(sock: socket.socket) -> bytes | None:
    """The next frame, or None at the end of the stream."""
    head = _recv_exactly(sock, HEADER.size)
    if head is None:
        return None
    (size,) = HEADER.unpack(head)
    if size > MAX_FRAME_BYTES:
        return None
    return _recv_exactly(sock, size)


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


def hook_spin(seconds: float) -> int:
    """The worker's pid after ``seconds`` of CPU time spent (a busy loop)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return os.getpid()


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


def hook_nested(depth: int) -> list:
    """A list nested ``depth`` deep: an answer the worker cannot pickle past Python's
    recursion limit."""
    out: list = []
    for _ in range(depth):
        out = [out]
    return out
