"""``modlights serve``: run the web service with uvicorn and print its URL.

Connections are guarded here, in uvicorn's h11 protocol (:class:`ConnectionGuard`), so
that idle and slow clients cannot exhaust the service:

- a connection must send a whole request head within the header timeout of opening it
  or of its last answer, else it is closed;
- the server holds at most ``max_connections`` connections and each client address at
  most ``max_client_connections``; when a new connection would go past either, the
  oldest connection that has not sent a request yet (then the oldest idle keep-alive
  one) of that client, or of anyone for the total, is closed to make room (as nginx
  reuses idle keep-alive connections when it runs out), provided it has been waiting
  for :data:`EVICT_AFTER_SECONDS` (a connection just opened or just answered is not
  closed under its client); otherwise the new one is refused, with a JSON 503 "busy"
  and Retry-After.
"""

from __future__ import annotations

import logging
import resource
import socket
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["serve", "ConnectionGuard"]

#: Seconds a new or idle keep-alive connection may take to send a request's headers.
HEADER_TIMEOUT_SECONDS = 5.0
#: Connections the server holds at once, by default (fewer when the open-files limit
#: allows fewer: :func:`_open_files`).
MAX_CONNECTIONS = 4096
#: Connections one client address holds at once, by default (0: no limit): a client
#: holding 300 idle connections leaves room for itself and for everyone else. Behind a
#: reverse proxy every client has the proxy's address: raise it or set 0 there.
MAX_CLIENT_CONNECTIONS = 512
#: Seconds a connection without a request (or idle between requests) is safe from being
#: closed to make room for a new one.
EVICT_AFTER_SECONDS = 1.0
#: File descriptors the process keeps besides its connections (workers' streams, the
#: forkserver, files served, logs).
RESERVED_FILES = 256
#: Bytes of a request head (its line and headers) past which the server answers 400.
MAX_HEAD_BYTES = 16 << 10


class ConnectionGuard:
    """The connections of one server, in three sets: fresh (no whole request yet),
    busy (inside a request) and idle (between requests), the fresh and idle ones
    oldest first, overall and per client address.

    most: connections at once; per_client: connections of one address at once (0: no
    limit). :meth:`admit` decides on a new connection (closing older fresh or idle
    ones, waiting for at least ``evict_after`` seconds, to make room); the protocol
    reports :meth:`busy`, :meth:`rest` and :meth:`gone`. ``on_event`` is called with
    "evicted" or "refused". O(1) a call; ``clock``: the time source (seconds).
    """

    def __init__(
        self,
        most: int,
        per_client: int,
        on_event: Callable[[str], None] | None = None,
        evict_after: float = EVICT_AFTER_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.most = most
        self.per_client = per_client
        self.on_event = on_event
        self.evict_after = evict_after
        self.clock = clock
        self.since: dict[Any, float] = {}  # when a fresh or idle connection became so
        self.count = 0
        self.clients: dict[str, int] = {}
        # state of each connection: "fresh" | "busy" | "idle"
        self.state: dict[Any, str] = {}
        self.fresh: OrderedDict = OrderedDict()
        self.idle: OrderedDict = OrderedDict()
        self.client_fresh: dict[str, OrderedDict] = {}
        self.client_idle: dict[str, OrderedDict] = {}

    def _unlist(self, conn: Any) -> None:
        client = conn.guard_client
        self.fresh.pop(conn, None)
        self.idle.pop(conn, None)
        for table in (self.client_fresh, self.client_idle):
            d = table.get(client)
            if d is not None:
                d.pop(conn, None)
                if not d:
                    del table[client]

    def _victim(self, client: str | None) -> Any:
        """The oldest fresh, else the oldest idle connection (of ``client`` when given)
        that has waited ``evict_after`` seconds; None when there is none."""
        if client is None:
            tables = (self.fresh, self.idle)
        else:
            tables = (
                self.client_fresh.get(client, OrderedDict()),
                self.client_idle.get(client, OrderedDict()),
            )
        now = self.clock()
        for table in tables:
            if table:
                oldest = next(iter(table))
                if now - self.since[oldest] >= self.evict_after:
                    return oldest
        return None

    def _evict(self, conn: Any) -> None:
        self.gone(conn)
        conn.evict()
        if self.on_event is not None:
            self.on_event("evicted")

    def admit(self, conn: Any) -> bool:
        """Whether the new connection ``conn`` (with ``conn.guard_client``, its address,
        and ``conn.evict()``, which closes it) may stay, after closing others for room;
        False when every connection in its way is inside a request."""
        client = conn.guard_client
        if self.per_client and self.clients.get(client, 0) >= self.per_client:
            victim = self._victim(client)
            if victim is None:
                return self._refuse()
            self._evict(victim)
        if self.count >= self.most:
            victim = self._victim(None)
            if victim is None:
                return self._refuse()
            self._evict(victim)
        self.count += 1
        self.clients[client] = self.clients.get(client, 0) + 1
        self.state[conn] = "fresh"
        self.since[conn] = self.clock()
        self.fresh[conn] = None
        self.client_fresh.setdefault(client, OrderedDict())[conn] = None
        return True

    def _refuse(self) -> bool:
        if self.on_event is not None:
            self.on_event("refused")
        return False

    def busy(self, conn: Any) -> None:
        """``conn`` has sent a whole request head."""
        if self.state.get(conn) in ("fresh", "idle"):
            self._unlist(conn)
            self.state[conn] = "busy"

    def rest(self, conn: Any) -> None:
        """``conn`` was answered and stays open for another request."""
        if self.state.get(conn) == "busy":
            self.state[conn] = "idle"
            self.since[conn] = self.clock()
            self.idle[conn] = None
            self.client_idle.setdefault(conn.guard_client, OrderedDict())[conn] = None

    def gone(self, conn: Any) -> None:
        """``conn`` is closed (or being closed)."""
        if self.state.pop(conn, None) is None:
            return
        self.since.pop(conn, None)
        self._unlist(conn)
        self.count -= 1
        client = conn.guard_client
        left = self.clients.get(client, 1) - 1
        if left > 0:
            self.clients[client] = left
        else:
            self.clients.pop(client, None)


#: The answer to a connection refused by the guard (every connection is in a request).
_REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
    b"retry-after: 1\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
)
_REFUSED_BODY = (
    b'{"error": "busy", "detail": "the server holds as many connections as it may, each '
    b'inside a request; try again shortly"}'
)


def _protocol(
    header_timeout: float,
    guard: ConnectionGuard | None = None,
    on_bad_request: Callable[[], None] | None = None,
) -> Any:
    """uvicorn's h11 protocol with the connection guard (when given) and a header
    timeout: a connection that has not sent a whole request head within
    ``header_timeout`` seconds of opening or of its last answer is closed (uvicorn
    alone times out idle keep-alive connections, not slow request heads; the body
    that follows a head has a deadline of its own, in the app: limits.BodyLimit).
    A 400 that uvicorn answers itself (a malformed request) is noted in the request's
    scope for the metrics (metrics.SERVER_STATUS), or reported to ``on_bad_request``
    when no request had begun."""
    try:
        from uvicorn.protocols.http.h11_impl import H11Protocol
    except ImportError:  # pragma: no cover
        return "h11"
    from modlights.web.metrics import SERVER_STATUS

    class GuardedH11(H11Protocol):
        _head_timer: Any = None
        guard_client: str = ""

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
            self.evict()

        def evict(self) -> None:
            """Close the connection (it has no request being answered)."""
            self._disarm()
            if self.transport is not None and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.guard_client = self.client[0] if self.client else ""
            if guard is not None and not guard.admit(self):
                body = _REFUSED_BODY
                transport.write(_REFUSED % (len(body), body))
                transport.close()
                return
            self._arm()

        def connection_lost(self, exc: Any) -> None:
            self._disarm()
            if guard is not None:
                guard.gone(self)
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()
                if guard is not None:
                    guard.busy(self)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                if guard is not None:
                    guard.rest(self)
                self._arm()

        def send_400_response(self, msg: str) -> None:
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                if not cycle.response_started:
                    self.scope[SERVER_STATUS] = 400  # type: ignore[literal-required]
            elif on_bad_request is not None:
                on_bad_request()
            super().send_400_response(msg)

    return GuardedH11


def _open_files(max_connections: int | None) -> int:
    """The connections the server may hold: ``max_connections``, or by default
    :data:`MAX_CONNECTIONS` or fewer when the open-files limit allows fewer. Raises the
    soft limit of open files to what they need (up to the hard limit); ValueError when
    an explicit ``max_connections`` cannot fit."""
    want = MAX_CONNECTIONS if max_connections is None else max_connections
    need = want + RESERVED_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    top = soft
    if soft != resource.RLIM_INFINITY and soft < need:
        top = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))
        except (ValueError, OSError):
            top = soft
    if top != resource.RLIM_INFINITY and top < need:
        if max_connections is not None or top - RESERVED_FILES < 64:
            raise ValueError(
                f"--max-connections {want} needs about {need} open files; this process "
                f"may open {top} (ulimit -n): lower --max-connections or raise the limit"
            )
        return top - RESERVED_FILES
    return want


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
        sock.listen(1024)
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
    cheap_workers: int | None = None,
    cheap_queue: int | None = None,
    memory_bytes: int | None = None,
    worker_nice: int = 0,
    cors_origins: Any = (),
    shutdown_timeout: float = 5.0,
    keep_alive: float = 5.0,
    header_timeout: float = HEADER_TIMEOUT_SECONDS,
    body_timeout: float | None = None,
    max_connections: int | None = None,
    max_client_connections: int = MAX_CLIENT_CONNECTIONS,
    access_log: bool = True,
    test_hooks: bool = False,
) -> None:
    """Serve ``create_app()`` on host:port until interrupted; prints the URL first
    (with the port actually used when ``port`` is 0).

    workers, queue, cheap_workers, cheap_queue, worker_nice, cors_origins: as
    :func:`create_app`; memory_bytes: each worker's address-space cap in bytes (None:
    the default; 0: none). shutdown_timeout: seconds in-flight requests get to finish
    after SIGTERM / Ctrl-C before they are cancelled (their workers killed).
    keep_alive: seconds an idle keep-alive connection stays open; header_timeout:
    seconds a connection may take to send a request head; body_timeout: seconds a
    client may take to send a request's body, past which it gets 408 "deadline" and
    its connection is closed (None: limits.BODY_SECONDS); max_connections,
    max_client_connections: connections at once, overall (None: :data:`MAX_CONNECTIONS`,
    or fewer when the open-files limit allows fewer) and of one client address (0: no
    limit), enforced by :class:`ConnectionGuard`. access_log: one line a request
    (method, path, status, milliseconds) on stderr. Raises ValueError for an unusable
    address or argument, or an open-files limit too low for max_connections.
    """
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be from 0 to 65535, got {port}")
    for name, v, lo in (
        ("workers", workers, 1),
        ("queue", queue, 0),
        ("cheap_workers", cheap_workers, 1),
        ("cheap_queue", cheap_queue, 0),
        ("memory_bytes", memory_bytes, 0),
        ("max_connections", max_connections, 1),
        ("max_client_connections", max_client_connections, 0),
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
    max_connections = _open_files(max_connections)
    app = create_app(
        workers=workers,
        queue=queue,
        cheap_workers=cheap_workers,
        cheap_queue=cheap_queue,
        memory_bytes=memory_bytes,
        worker_nice=worker_nice,
        cors_origins=cors_origins,
        body_seconds=body_timeout,
        test_hooks=test_hooks,
    )
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(
        f"modlights serving on http://{shown}:{bound}/ (API docs at /docs; readiness at "
        "/api/ready; Ctrl-C stops)",
        file=out,
        flush=True,
    )
    if access_log:
        _log_access(out=sys.stderr)
    metrics = app.state.metrics
    guard = ConnectionGuard(max_connections, max_client_connections, metrics.connection_event)
    metrics.watch_connections(guard)
    # uvicorn declares both timeouts int; it uses them as asyncio timeouts, which take
    # fractions of a second as well. The guard bounds connections (uvicorn's own
    # limit_concurrency would count idle ones and answer plain-text 503s).
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        http=_protocol(header_timeout, guard, metrics.bad_request),
        lifespan="on",
        timeout_graceful_shutdown=shutdown_timeout,  # type: ignore[arg-type]
        timeout_keep_alive=keep_alive,  # type: ignore[arg-type]
        limit_concurrency=None,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
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
