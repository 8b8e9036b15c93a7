"""The web service's Prometheus metrics (``GET /metrics``) and its access log.

:class:`Observe` is ASGI middleware that, for every HTTP request, counts it by endpoint
(the route's path template, so ``/api/puzzle/{code}`` is one label) and status,
records its latency, and writes one access-log line (method, path, status,
milliseconds) to the ``modlights.web.access`` logger. Each app has its own registry,
so several apps in one process (tests) do not collide.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

__all__ = ["Metrics", "Observe", "CONTENT_TYPE_LATEST"]

access_log = logging.getLogger("modlights.web.access")

#: Latency buckets in seconds, from the health check's milliseconds to the deadline.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """The metrics of one app, in their own registry. ``pool``: the WorkerPool whose
    queue length and requests in flight the gauges read when scraped."""

    def __init__(self, pool: Any):
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)  # the server's CPU, memory, fds
        self.requests = Counter(
            "modlights_requests",
            "HTTP requests answered",
            ["endpoint", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "modlights_request_seconds",
            "Seconds from a request's start to its answer",
            ["endpoint"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.in_flight = Gauge(
            "modlights_workers_busy", "Requests holding a worker process", registry=self.registry
        )
        self.in_flight.set_function(lambda: pool.in_flight)
        self.queue = Gauge(
            "modlights_queue_length",
            "Requests waiting for a worker process",
            registry=self.registry,
        )
        self.queue.set_function(lambda: pool.queued)
        self.workers = Gauge(
            "modlights_workers", "Worker processes of the heavy lane", registry=self.registry
        )
        self.workers.set(pool.workers)
        reads: dict[str, tuple[str, Callable[[Any], int]]] = {
            "workers": ("Worker processes of a lane", lambda lane: lane.size),
            "workers_ready": (
                "Warm worker processes of a lane (idle or busy)",
                lambda lane: lane.ready,
            ),
            "workers_busy": ("Worker processes of a lane running a task", lambda lane: lane.busy),
            "queue_length": ("Requests waiting for a worker of a lane", lambda lane: lane.waiting),
        }
        for name, (doc, read) in reads.items():
            gauge = Gauge(f"modlights_lane_{name}", doc, ["lane"], registry=self.registry)
            for lane_name, lane in pool.lanes.items():
                gauge.labels(lane_name).set_function(partial(read, lane))
        self.ready = Gauge(
            "modlights_ready",
            "1 while the service can do solver work (GET /api/ready answers 200), else 0",
            registry=self.registry,
        )
        self.ready.set_function(lambda: float(pool.readiness()[0]))
        self.restarts = Counter(
            "modlights_worker_restarts",
            "Worker processes killed (deadline, cancel) or found dead and replaced",
            registry=self.registry,
        )
        self.outcomes = Counter(
            "modlights_work",
            "Solver tasks by outcome (ok, error, deadline, engine_failure, busy, client_gone, "
            "demoted: moved from the cheap lane to the heavy lane)",
            ["outcome"],
            registry=self.registry,
        )

        self.connections_closed = Counter(
            "modlights_connections_closed",
            "Connections the server closed or refused to make room (evicted: an older "
            "connection without a request; refused: every connection was in a request)",
            ["reason"],
            registry=self.registry,
        )

    def watch_connections(self, guard: Any) -> None:
        """Gauges of the server's connections (a server.ConnectionGuard): open, and
        how many have not sent a request yet, are inside one, or idle between them."""
        gauge = Gauge(
            "modlights_connections",
            "Open connections by state (fresh: no request yet; busy; idle: keep-alive)",
            ["state"],
            registry=self.registry,
        )
        gauge.labels("fresh").set_function(lambda: len(guard.fresh))
        gauge.labels("idle").set_function(lambda: len(guard.idle))
        gauge.labels("busy").set_function(lambda: guard.count - len(guard.fresh) - len(guard.idle))

    def connection_event(self, event: str) -> None:
        """The connection guard's events: "evicted", "refused" (counted; refused
        connections got a 503, counted as a request too)."""
        self.connections_closed.labels(event).inc()
        if event == "refused":
            self.requests.labels("other", "other", "503").inc()

    def bad_request(self) -> None:
        """A request the server answered 400 itself before any app saw it (a malformed
        request line or headers): counted, and logged as the access log logs requests."""
        self.requests.labels("other", "other", "400").inc()
        if access_log.isEnabledFor(logging.INFO):
            access_log.info("- - 400 (a malformed request, answered by the server)")

    def pool_event(self, event: str) -> None:
        """The pool's events: "restart" (a worker killed or found dead), "demoted"."""
        if event == "restart":
            self.restarts.inc()
        elif event == "demoted":
            self.outcomes.labels("demoted").inc()

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


#: Methods counted under their own name; any other (a client may send any token) is
#: counted as "other", so clients cannot grow the number of series.
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"})


def _method(scope: dict) -> str:
    """The request's method as a label: its own name for the usual ones, else "other"."""
    method = scope.get("method", "")
    return method if method in _METHODS else "other"


def _printable(text: str) -> str:
    """Client-controlled text for one log line: control and non-ASCII characters
    escaped (a percent-decoded path may hold a newline)."""
    return text.encode("unicode_escape").decode("ascii")


def _endpoint(scope: dict) -> str:
    """The endpoint label of a request: its route's path template (matched here for a
    request answered before routing), "/" for the game's root, "other" for a path no
    route matches (clients cannot grow the number of series)."""
    route = scope.get("route")
    if route is None and "app" in scope:  # answered before routing (busy): match now
        from starlette.routing import Match, Route

        for r in getattr(getattr(scope["app"], "router", None), "routes", ()):
            if isinstance(r, Route) and r.matches(scope)[0] is not Match.NONE:
                route = r
                break
    path = getattr(route, "path", None)
    if isinstance(path, str) and path not in ("", "/"):
        return path
    return "/" if scope.get("path", "/") == "/" or route is not None else "other"


#: The scope key where the server notes a status it answered itself (a malformed
#: request body, which uvicorn answers 400 while the app sees a disconnect).
SERVER_STATUS = "modlights.server_status"


class Observe:
    """ASGI middleware: the metrics and the access-log line of every HTTP request, with
    the status the client got: the app's answer; else the one the server sent itself
    (``scope[SERVER_STATUS]``); else 500 when the app failed (the server answers 500
    then), or 499 when the client left before any answer (nginx's "client closed
    request": nothing was sent)."""

    def __init__(self, app: Any, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 0
        failed = True

        async def sending(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
            failed = False
        finally:
            if not status:
                status = scope.get(SERVER_STATUS) or (500 if failed else 499)
            seconds = time.perf_counter() - t0
            endpoint = _endpoint(scope)
            self.metrics.requests.labels(endpoint, _method(scope), str(status)).inc()
            self.metrics.latency.labels(endpoint).observe(seconds)
            if access_log.isEnabledFor(logging.INFO):
                access_log.info(
                    "%s %s %d %.1f ms",
                    _printable(scope.get("method", "")),
                    _printable(scope.get("path", "")),
                    status,
                    seconds * 1000,
                )
