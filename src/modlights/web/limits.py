"""Limits that keep one request from holding the web service, checked before anything
is allocated, and the middleware that caps request bodies."""
from __future__ import annotations

import json
from typing import Any

#: Most tiles (grid rows * cols) for /api/solve and /api/analyse with 2 states.
MAX_TILES = 250_000
#: Most tiles with 3 or more states: the structured solve of a 500 x 500 board with
#: a few holes and n = 4 or 6 takes 7 to 30 s, of a 250 x 250 one at most 3 s
#: (measured on a shared 2-core machine).
MAX_TILES_MULTISTATE = 62_500
#: Most tiles for a minimal search (/api/solve with "minimal": true, /api/hint). The
#: search stops near its budget in seconds up to 150 x 150 (1.1 to 1.7 s for a 1 s
#: budget); on 250 x 250 horizontal / vertical boards with a few holes (kernels of
#: about 480 generators) it overran a 1 s budget to 4 to 12 s.
MAX_MINIMAL_TILES = 22_500
#: Most tiles of a board with a custom (unnamed) offset pattern.
MAX_CUSTOM_TILES = 10_000
#: Most tiles of a mixed-pattern board (its structured solve grows fastest).
MAX_MIXED_TILES = 10_000
#: Most tiles for /api/generate (the library's own cap is 1024).
MAX_GENERATE_TILES = 1024
#: Most entries of a graph board's tap matrix (n_cells * n_taps): it is factored densely.
MAX_GRAPH_ENTRIES = 1 << 20
#: Most tiles of a puzzle read from a code (its minimum is searched for to_dict).
MAX_PUZZLE_TILES = 4096
#: Seconds a minimal search may take: a request's "budget" is clamped to this.
MAX_SEARCH_SECONDS = 5.0
#: Seconds of minimal search when the request gives no budget.
DEFAULT_SEARCH_SECONDS = 1.0
#: Largest request body in bytes (a 250000-tile board and state fit comfortably).
MAX_BODY_BYTES = 8 << 20


def _reply(status: int, error: str, detail: str) -> tuple[dict, bytes]:
    body = json.dumps({"error": error, "detail": detail}).encode()
    start = {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]}
    return start, body


class BodyLimit:
    """ASGI middleware: reads at most ``max_bytes`` of a request body; a body announced
    or found to be larger gets HTTP 413 ``{"error": "too_large", ...}`` without the
    application ever seeing it."""

    def __init__(self, app: Any, max_bytes: int = MAX_BODY_BYTES):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = -1
                if announced < 0 or announced > self.max_bytes:
                    await self._too_large(send)
                    return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        sent = False

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Any) -> None:
        start, body = _reply(413, "too_large",
                             f"request bodies are limited to {self.max_bytes} bytes")
        await send(start)
        await send({"type": "http.response.body", "body": body})
