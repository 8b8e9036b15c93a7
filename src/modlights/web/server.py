"""``modlights serve``: run the web service with uvicorn and print its URL."""

from __future__ import annotations

import logging
import socket
import sys
from typing import Any, TextIO

__all__ = ["serve"]

#: Seconds a new or idle keep-alive connection may take to send a request's headers.
HEADER_TIMEOUT_SECONDS = 10.0


def _protocol(header_timeout: float) -> Any:
    """uvicorn's h11 protocol, closing a connection that has not sent a whole request
    head within ``header_timeout`` seconds of opening or of its last answer (uvicorn
    alone times out idle keep-alive connections, not slow request heads). The body
    that follows a head has a deadline of its own, in the app (limits.BodyLimit)."""
    try:
        from uvicorn.protocols.http.h11_impl import H11Protocol
    except ImportError:  # pragma: no cover
        return "h11"

    class HeaderTimeout(H11Protocol):
        _head_timer: Any = None

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(header_timeout, self._head_timeout)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timeout(self) -> None:
            self._head_timer = None
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a request is being answered
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Any) -> None:
            self._disarm()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return HeaderTimeout


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free port the system picks);
    ValueError when the address cannot be used."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise ValueError(f"cannot resolve host {host!r}: {e}") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise ValueError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    out: TextIO = sys.stdout,
    *,
    workers: int | None = None,
    queue: int | None = None,
    memory_mb: int | None = None,
    cors_origins: Any = (),
    shutdown_timeout: float = 5.0,
    keep_alive: float = 5.0,
    header_timeout: float = HEADER_TIMEOUT_SECONDS,
    body_timeout: float | None = None,
    max_connections: int = 256,
    access_log: bool = True,
    test_hooks: bool = False,
) -> None:
    """Serve ``create_app()`` on host:port until interrupted; prints the URL first
    (with the port actually used when ``port`` is 0).

    workers, queue, cors_origins: as :func:`create_app`; memory_mb: each worker's
    address-space cap in MiB (None: the default; 0: none). shutdown_timeout: seconds
    in-flight requests get to finish after SIGTERM / Ctrl-C before they are cancelled
    (their workers killed). keep_alive: seconds an idle keep-alive connection stays
    open; header_timeout: seconds a connection may take to send a request head;
    body_timeout: seconds a client may take to send a request's body, past which it
    gets 408 "deadline" and its connection is closed (None: limits.BODY_SECONDS);
    max_connections: connections (and requests) at once, past which uvicorn answers
    503. access_log: one line a request (method, path, status, milliseconds) on
    stderr. Raises ValueError for an unusable address or argument.
    """
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be from 0 to 65535, got {port}")
    for name, v, lo in (
        ("workers", workers, 1),
        ("queue", queue, 0),
        ("memory_mb", memory_mb, 0),
        ("max_connections", max_connections, 1),
    ):
        if v is not None and (type(v) is not int or v < lo):
            raise ValueError(f"{name} must be an int >= {lo}, got {v!r}")
    for name, secs in (
        ("shutdown_timeout", shutdown_timeout),
        ("keep_alive", keep_alive),
        ("header_timeout", header_timeout),
        ("body_timeout", 1.0 if body_timeout is None else body_timeout),
    ):
        if not (isinstance(secs, (int, float)) and 0 < secs <= 3600):
            raise ValueError(f"{name} must be seconds from 0 to 3600 (not 0), got {secs!r}")
    try:
        import uvicorn

        from modlights.web.app import create_app
    except ImportError as e:
        raise ValueError(
            f"the web service needs its extra ({e.name or e} is missing): "
            'pip install "modlights[web]"'
        ) from None
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(
        f"modlights serving on http://{shown}:{bound}/ (API docs at /docs; Ctrl-C stops)",
        file=out,
        flush=True,
    )
    if access_log:
        _log_access(out=sys.stderr)
    app = create_app(
        workers=workers,
        queue=queue,
        memory_bytes=None if memory_mb is None else memory_mb << 20,
        cors_origins=cors_origins,
        body_seconds=body_timeout,
        test_hooks=test_hooks,
    )
    # uvicorn declares both timeouts int; it uses them as asyncio timeouts, which take
    # fractions of a second as well
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        http=_protocol(header_timeout),
        lifespan="on",
        timeout_graceful_shutdown=shutdown_timeout,  # type: ignore[arg-type]
        timeout_keep_alive=keep_alive,  # type: ignore[arg-type]
        limit_concurrency=max_connections,
    )
    server = _server_class(uvicorn)(config)
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        app.state.pool.close()


def _server_class(uvicorn: Any) -> Any:
    """uvicorn's Server, whose SIGINT / SIGTERM handling stops the service and returns:
    the first signal starts a graceful shutdown (requests in flight get the shutdown
    timeout), a second SIGINT or SIGTERM forces it; no signal is raised again
    afterwards (uvicorn's own would end the process in a KeyboardInterrupt
    traceback)."""
    import asyncio
    import contextlib
    import gc
    import signal
    import threading

    class Server(uvicorn.Server):
        should_exit: bool  # uvicorn.Server's, set in its __init__
        force_exit: bool

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            # What the server has built so far lives as long as it does: out of the
            # cyclic collector's sight, a full collection scans only what requests
            # left instead of pausing every request for the whole heap.
            gc.collect()
            gc.freeze()

        @contextlib.contextmanager
        def capture_signals(self) -> Any:
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            handled = (signal.SIGINT, signal.SIGTERM)
            before = {sig: signal.signal(sig, self._on_signal) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

        async def shutdown(self, sockets: Any = None) -> None:
            await super().shutdown(sockets)
            if self.force_exit:  # uvicorn skips these when forced
                tasks = list(self.server_state.tasks)
                for t in tasks:
                    t.cancel()
                if tasks:
                    await asyncio.wait(tasks, timeout=1.0)
                await self.lifespan.shutdown()

        def _on_signal(self, sig: int, frame: Any) -> None:
            if self.should_exit:
                self.force_exit = True
            self.should_exit = True

    return Server


def _log_access(out: TextIO) -> None:
    """Access-log lines of the service ("modlights.web.access", INFO) to ``out``."""
    logger = logging.getLogger("modlights.web.access")
    if not any(getattr(h, "_modlights", False) for h in logger.handlers):
        handler = logging.StreamHandler(out)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        handler._modlights = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
