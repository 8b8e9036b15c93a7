"""The web app's own ASGI pieces: the admission of large work requests before their
body is read (:class:`Admission`) and the route class that hands a large body to a
worker unparsed (:func:`raw_route`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.routing import APIRoute

from modlights.web import limits
from modlights.web.metrics import Metrics


def raw_route(handler: Callable) -> type:
    """An APIRoute class whose requests with a body over :data:`limits.RAW_BODY_BYTES`
    are answered by ``await handler(request, body)``, the body unparsed; the others
    as FastAPI answers them (the route's model parses and validates the body; the
    OpenAPI schema is the model's either way)."""

    class RawLarge(APIRoute):
        def get_route_handler(self) -> Callable:
            parsed = super().get_route_handler()

            async def route(request: Request) -> Response:
                body = await request.body()
                if len(body) > limits.RAW_BODY_BYTES:
                    return await handler(request, body)
                return await parsed(request)

            return route

    return RawLarge


class Admission:
    """ASGI middleware: admission of work requests estimated heavy before their body is
    read. A POST whose body is announced larger than :data:`limits.RAW_BODY_BYTES`
    (or comes chunked, of unknown size) counts from its arrival until its answer is
    sent; one that arrives while the heavy lane's ``workers + queue`` such requests are
    in the app gets 503 "busy" (Retry-After) at once, its body read and dropped as it
    comes (within the body cap and deadline), never kept or parsed: the event loop
    parses at most that many large bodies at a time, however many clients send them.
    Smaller bodies pass (they parse in a millisecond or so; their lane admits them after).

    body_seconds: the deadline of a body's reading (None: limits.BODY_SECONDS)."""

    def __init__(self, app: Any, pool: Any, metrics: Metrics, body_seconds: float | None = None):
        self.app = app
        self.pool = pool
        self.metrics = metrics
        self.body_seconds = body_seconds
        self.active = 0  # large work requests inside the app

    @staticmethod
    def large(scope: dict) -> bool:
        """Whether a request is a POST to the API whose body is large or of unknown size."""
        if scope["type"] != "http" or scope.get("method") != "POST":
            return False
        if not scope.get("path", "").startswith("/api/"):
            return False
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    return int(value) > limits.RAW_BODY_BYTES
                except ValueError:
                    return False  # BodyLimit answers 413
            if name == b"transfer-encoding":
                return True
        return False

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if not self.large(scope):
            await self.app(scope, receive, send)
            return
        heavy = self.pool.lanes["heavy"]
        if self.active >= heavy.capacity:
            await self._busy(receive, send, heavy)
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1

    async def _busy(self, receive: Any, send: Any, heavy: Any) -> None:
        self.metrics.outcomes.labels("busy").inc()
        seconds = limits.BODY_SECONDS if self.body_seconds is None else self.body_seconds
        try:
            body = await asyncio.wait_for(
                limits.read_body(receive, limits.MAX_BODY_BYTES, keep=False), seconds
            )
        except asyncio.TimeoutError:
            body = None
        drained = body is not None and body is not limits.TOO_LARGE
        answer = json.dumps(
            {
                "error": "busy",
                "detail": f"all {heavy.size} workers of the heavy lane are busy and "
                f"{heavy.queue} large requests wait; try again shortly",
            }
        ).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(answer)).encode()),
            (b"retry-after", str(limits.RETRY_AFTER_SECONDS).encode()),
        ]
        if not drained:  # the rest of the body is not read: close
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": answer})
