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
            "modlights_workers", "Worker processes of the pool", registry=self.registry
        )
        self.workers.set(pool.workers)
        self.restarts = Counter(
            "modlights_worker_restarts",
            "Worker processes killed (deadline, cancel) or found dead and replaced",
            registry=self.registry,
        )
        self.outcomes = Counter(
            "modlights_work",
            "Solver tasks by outcome (ok, error, deadline, engine_failure, busy, client_gone)",
            ["outcome"],
            registry=self.registry,
        )

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


class Observe:
    """ASGI middleware: the metrics and the access-log line of every HTTP request."""

    def __init__(self, app: Any, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 500

        async def sending(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
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
