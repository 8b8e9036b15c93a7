"""Limits that keep one request from holding the web service, checked in the event loop
before anything is built or allocated: sizes, an estimated cost of the request's board
(:func:`check_board`, :func:`check_generate`), deadlines, the worker pool's defaults,
each route's body cap (:func:`body_cap`), and the middleware that reads request bodies
within their cap and deadline (:class:`BodyLimit`)."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

from modlights.model.patterns import PATTERNS

#: Most tiles (grid rows * cols) for /api/solve and /api/analyse with 2 states.
MAX_TILES = 250_000
#: Most tiles with 3 or more states (a ring's structured solve with holes grows fastest;
#: the bound keeps it within :data:`WORK_SECONDS`, bench/web_load.py).
MAX_TILES_MULTISTATE = 62_500
#: Most tiles for a minimal search (/api/solve with "minimal": true, /api/hint): the
#: kernels of larger boards make the search's set-up outlast small budgets.
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
#: Most moves in a solve's answer (its "moves" list, each tap once a press): past it
#: the answer's JSON alone would take the worker longer than its deadline.
MAX_ANSWER_MOVES = 1_000_000
#: Longest puzzle code read by /api/puzzle/{code} (a 64 x 64 board with 255 states and
#: a mixed pattern of 35 patterns codes to under 10,000 characters).
MAX_CODE_CHARS = 32_768
#: Campaign levels whose puzzles the service keeps (every level of the map fits).
MAX_CACHED_LEVELS = 4096
#: Seconds a minimal search may take: a request's "budget" is clamped to this.
MAX_SEARCH_SECONDS = 5.0
#: Seconds of minimal search when the request gives no budget.
DEFAULT_SEARCH_SECONDS = 1.0
#: Largest request body in bytes, of any route (each route has its own smaller cap,
#: :func:`body_cap`).
MAX_BODY_BYTES = 8 << 20
#: POST bodies (/api/solve, /api/analyse, /api/hint, /api/generate, /api/encode)
#: larger than this are not parsed in the event loop: their raw bytes go to a worker,
#: which decodes, validates, checks and works on them.
RAW_BODY_BYTES = 256 << 10
#: Seconds a client may take to send a request's whole body (from the request head
#: on); past it the service answers 408 "deadline" and reads no more.
BODY_SECONDS = 10.0

# ----------------------------------------------------------------------------- cost
#: Most estimated work units of one board: tiles x distinct offsets x reach x bits of n
#: (reach: the largest |dr| or |dc| of an offset, at least 1; bits: of n - 1, at least
#: 1). A 500 x 500 cross board with 2 states is 1.25 M units, a 250 x 250 knight board
#: with 255 states 9 M; a 100 x 100 board with 255 states and 50 offsets within +-10
#: 40 M (the most allowed); 200 offsets within +-99 there would be 1.6 G.
MAX_COST = 40_000_000
#: Most kernel generators a minimal search on a graph board may face, counted from the
#: request before anything is built as taps - distinct cells the taps change (a lower
#: bound): 1024 taps all changing one cell leave 1023. The search's set-up grows with
#: the generators whatever its budget, so this bounds it.
MAX_MINIMAL_GRAPH_KERNEL = 256
#: Most distinct offsets in one pattern (a named pattern has at most 9).
MAX_PATTERN_OFFSETS = 256
#: Most distinct per-tile patterns of a mixed-pattern board.
MAX_MIXED_PATTERNS = 64
#: Most offset entries written out in a request's pattern data, all tiles together.
MAX_PATTERN_ENTRIES = 20_000
#: Most estimated work units of /api/generate: a board's cost times the boards the
#: generator may build (one, or up to ``GENERATE_ATTEMPTS`` placements of locked
#: tiles and holes).
MAX_GENERATE_COST = 40_000_000
#: Boards /api/generate may build for one puzzle when it places a count of locked
#: tiles or holes for a unique solution (the library's placement tries).
GENERATE_ATTEMPTS = 256

# ----------------------------------------------------------------------------- deadlines
#: Seconds a request's worker may run beyond its search budget (building the board,
#: the solver's set-up, the clean-up after the search).
DEADLINE_MARGIN_SECONDS = 2.0
#: Seconds of worker time a request without a search budget may take (analyse,
#: generate, a non-minimal solve, a puzzle's minimum): the worker is killed past it.
WORK_SECONDS = 10.0
#: The longest deadline of any request, budget and margin included.
MAX_DEADLINE_SECONDS = 10.0


def deadline(budget: float | None) -> float:
    """Seconds the worker of a request may run: its search ``budget`` plus the margin
    for the non-search parts, or :data:`WORK_SECONDS` without a budget; at most
    :data:`MAX_DEADLINE_SECONDS`."""
    if budget is None:
        return min(WORK_SECONDS, MAX_DEADLINE_SECONDS)
    return min(float(budget) + DEADLINE_MARGIN_SECONDS, MAX_DEADLINE_SECONDS)


# ----------------------------------------------------------------------------- workers
#: Niceness added to each worker process: the server's event loop (health checks,
#: refusals, answers) gets the CPU before solver work on a loaded machine.
WORKER_NICE = 10
#: Seconds a client is told to wait (Retry-After) when the service is busy.
RETRY_AFTER_SECONDS = 1


def default_workers() -> int:
    """Worker processes by default: one a CPU (os.cpu_count(), at least 1)."""
    return max(1, os.cpu_count() or 1)


def default_queue(workers: int) -> int:
    """Requests that may wait for a worker before the service answers 503 busy."""
    return 2 * workers


def default_memory_bytes(workers: int) -> int:
    """Address-space cap of one worker (RLIMIT_AS): 2 GiB, or less when the machine's
    RAM shared by the workers (and the server) is less; at least 512 MiB."""
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        ram = 0
    share = ram // (workers + 1) if ram > 0 else 2 << 30
    return max(512 << 20, min(2 << 30, share))


class TooLarge(ValueError):
    """A request over one of the service's limits (HTTP 400, error "too_large")."""


class Invalid(ValueError):
    """A request body that is not JSON or does not match its model, found in a worker
    (HTTP 422, error "invalid_request", as FastAPI's own validation)."""


class Unparsable(ValueError):
    """A request body that is not text, found in a worker (HTTP 400, error
    "http_error", as FastAPI's own parsing)."""


# ----------------------------------------------------------------------------- bodies
#: Bytes of a request's fixed parts: its keys, scalars (rows, cols, states, wrap,
#: n_cells, minimal, budget, difficulty, a seed of 200 characters written as
#: \uXXXX escapes) and the JSON around them.
BODY_FIXED_BYTES = 4096


def _digits(x: int) -> int:
    """Decimal digits of a non-negative int."""
    return len(str(x))


def values_bytes(tiles: int, states: int) -> int:
    """Most bytes of a state (or target) of ``tiles`` values from 0 to states - 1 as
    ``json.dumps`` writes it (separators ", "): each value and its ", ", and each row's
    "[", "]" and ", " (a grid has at most one row a tile)."""
    return tiles * (_digits(states - 1) + len(", ") + len("[], "))


def board_bytes(tiles: int) -> int:
    """Most bytes of a ``Board.to_dict()`` board of at most ``tiles`` tiles (or taps,
    effect entries and cells of a graph board) as ``json.dumps`` writes it: the
    larger of

    - a grid: locked and holes as two boolean masks (each tile "false, ", each row
      "[], "), which is more than as [r, c] lists (a tile is locked or a hole, not
      both), plus its pattern data (:func:`pattern_bytes`);
    - a graph board: each tap "[], " and each effect entry a cell index and ", ".
    """
    masks = 2 * tiles * (len("false, ") + len("[], "))
    graph = tiles * (len("[], ") + _digits(tiles) + len(", "))
    return max(masks + pattern_bytes(), graph)


def pattern_bytes() -> int:
    """Most bytes of a grid's pattern data: :data:`MAX_PATTERN_ENTRIES` offsets
    "[-dr, -dc], " within a board of :data:`MAX_CUSTOM_TILES` tiles (|dr| < rows, |dc| <
    cols, so their digits add up to at most those of the tiles + 1), and a mixed
    board's :data:`MAX_MIXED_TILES` tiles each the longest pattern name ('"horizontal",
    ') or a list's "[], ", each row "[], "."""
    offset = len("[-, -], ") + _digits(MAX_CUSTOM_TILES) + 1
    names = max(len(f'"{name}", ') for name in PATTERNS) + len("[], ")
    return MAX_PATTERN_ENTRIES * offset + MAX_MIXED_TILES * (names + len("[], "))


def body_cap(route: str) -> int:
    """Most bytes of a valid request body of a POST route, from the limits above (the
    bodies that :func:`json.dumps` writes, separators ", " and ": "; compact JSON is
    smaller), at most :data:`MAX_BODY_BYTES`; :data:`MAX_BODY_BYTES` for other routes.

    - /api/solve: the fixed parts + a board + a state and a target, for each tile cap
      (2 states, more states, a minimal search), the largest;
    - /api/analyse: the fixed parts + a board of :data:`MAX_TILES`;
    - /api/hint: the fixed parts + a board and a state of :data:`MAX_MINIMAL_TILES`
      with 255 states;
    - /api/encode: the fixed parts + a board and a start of :data:`MAX_PUZZLE_TILES`
      with 255 states;
    - /api/generate: the fixed parts + a board of :data:`MAX_GENERATE_TILES` (its
      pattern, locked and holes).
    """
    if route == "/api/solve":
        size = max(
            board_bytes(t) + 2 * values_bytes(t, n)
            for t, n in ((MAX_TILES, 2), (MAX_TILES_MULTISTATE, 255), (MAX_MINIMAL_TILES, 255))
        )
    elif route == "/api/analyse":
        size = board_bytes(MAX_TILES)
    elif route == "/api/hint":
        size = board_bytes(MAX_MINIMAL_TILES) + values_bytes(MAX_MINIMAL_TILES, 255)
    elif route == "/api/encode":
        size = board_bytes(MAX_PUZZLE_TILES) + values_bytes(MAX_PUZZLE_TILES, 255)
    elif route == "/api/generate":
        size = board_bytes(MAX_GENERATE_TILES)
    else:
        return MAX_BODY_BYTES
    return min(BODY_FIXED_BYTES + size, MAX_BODY_BYTES)


def _bits(n: Any) -> int:
    """Bits of n - 1 (at least 1) for a declared n; 1 for anything that is not an int >= 2."""
    return max(1, (n - 1).bit_length()) if type(n) is int and n >= 2 else 1


def _offsets(entry: Any, budget: list[int]) -> frozenset | None:
    """The distinct offsets of one pattern entry as JSON gives it (a name or a list of
    [dr, dc] pairs); None when it is not one (Board.from_dict says why later).
    ``budget`` holds the pattern entries still allowed; TooLarge past it."""
    if isinstance(entry, str):
        offs = PATTERNS.get(entry.strip().lower())
        return frozenset(offs) if offs is not None else None
    if not isinstance(entry, list):
        return None
    budget[0] -= len(entry)
    if budget[0] < 0:
        raise TooLarge(f"patterns are limited to {MAX_PATTERN_ENTRIES} offset entries in all here")
    out = set()
    for p in entry:
        if not (isinstance(p, list) and len(p) == 2 and type(p[0]) is int and type(p[1]) is int):
            return None
        out.add((p[0], p[1]))
    if len(out) > MAX_PATTERN_OFFSETS:
        raise TooLarge(
            f"patterns are limited to {MAX_PATTERN_OFFSETS} distinct offsets here, got {len(out)}"
        )
    return frozenset(out)


def pattern_stats(pattern: Any, rows: int, cols: int) -> tuple[int, int, int]:
    """(distinct patterns, most distinct offsets of one, reach) of a grid's pattern
    data as JSON gives it: a name, a list of [dr, dc] pairs, or a rows x cols nested
    list of those (mixed). Linear in the data; raises :class:`TooLarge` past
    :data:`MAX_PATTERN_ENTRIES`, :data:`MAX_PATTERN_OFFSETS` or
    :data:`MAX_MIXED_PATTERNS`. Data of another shape counts as one small pattern
    (Board.from_dict reports what is wrong with it)."""
    budget = [MAX_PATTERN_ENTRIES]
    mixed = (
        isinstance(pattern, list)
        and len(pattern) == rows
        and rows > 0
        and isinstance(pattern[0], list)
        and len(pattern[0]) == cols
        and (isinstance(pattern[0][0], (str, list)))
    )
    if (
        mixed
        and isinstance(pattern[0][0], list)
        and pattern[0][0]
        and type(pattern[0][0][0]) is int
    ):
        mixed = False  # a list of pairs, as long as the board is tall
    entries = [e for row in pattern if isinstance(row, list) for e in row] if mixed else [pattern]
    if len(entries) > rows * cols:
        entries = entries[: rows * cols]
    seen: set = set()
    distinct, width, reach = 0, 0, 1
    for entry in entries:
        offs = _offsets(entry, budget)
        if offs is None or offs in seen:
            continue
        seen.add(offs)
        distinct += 1
        if distinct > MAX_MIXED_PATTERNS:
            raise TooLarge(
                f"mixed-pattern boards are limited to {MAX_MIXED_PATTERNS} "
                "distinct tile patterns here"
            )
        width = max(width, len(offs))
        reach = max(reach, max((max(abs(dr), abs(dc)) for dr, dc in offs), default=1))
    return max(distinct, 1), max(width, 1), reach


def board_cost(d: Any) -> int:
    """Estimated work units of a board given as ``Board.to_dict()`` data, from its
    declared sizes alone (nothing is built): tiles x distinct offsets x reach x bits of
    n for grids, n_cells x n_taps x bits for graph boards. 0 for data that is not a
    board (Board.from_dict reports it)."""
    if not isinstance(d, dict):
        return 0
    bits = _bits(d.get("states", 2))
    if "effects" in d:
        effects = d["effects"]
        if not isinstance(effects, list):
            return 0
        n_cells = d.get("n_cells")
        cells = n_cells if type(n_cells) is int and n_cells > 0 else 1
        for e in effects:
            if isinstance(e, list):
                cells = max(cells, max((c + 1 for c in e if type(c) is int), default=0))
        return len(effects) * cells * bits
    rows, cols = d.get("rows"), d.get("cols")
    if type(rows) is not int or type(cols) is not int or rows < 1 or cols < 1:
        return 0
    _, width, reach = pattern_stats(d.get("pattern", "cross"), rows, cols)
    return rows * cols * width * reach * bits


def check_board(d: Any, max_cost: int = MAX_COST) -> None:
    """Raise :class:`TooLarge` when a board's estimated cost (:func:`board_cost`) is over
    ``max_cost``, saying what is allowed."""
    cost = board_cost(d)
    if cost > max_cost:
        raise TooLarge(
            f"this board is too costly for this service: about {cost:,} work "
            f"units (tiles x distinct offsets x reach x bits of n, or cells x "
            f"taps x bits for graph boards), at most {max_cost:,} allowed"
        )


def check_minimal(d: Any) -> None:
    """Raise :class:`TooLarge` when a minimal search on a graph board given as
    ``Board.to_dict()`` data faces more than :data:`MAX_MINIMAL_GRAPH_KERNEL` kernel
    generators by the lower bound taps - distinct cells changed (nothing is built;
    linear in the effects)."""
    if not isinstance(d, dict) or not isinstance(d.get("effects"), list):
        return
    effects = d["effects"]
    cells = {c for e in effects if isinstance(e, list) for c in e if type(c) is int}
    bound = len(effects) - len(cells)
    if bound > MAX_MINIMAL_GRAPH_KERNEL:
        raise TooLarge(
            f"a minimal search here faces at most {MAX_MINIMAL_GRAPH_KERNEL} "
            f"kernel generators; this board's {len(effects)} taps change "
            f"{len(cells)} distinct cells, so it has at least {bound}; ask with "
            '"minimal": false'
        )


def check_generate(body: dict) -> None:
    """Raise :class:`TooLarge` when a /api/generate request's board, times the boards the
    generator may build for it, is over :data:`MAX_GENERATE_COST`."""
    rows, cols = body.get("rows"), body.get("cols")
    if (
        type(rows) is not int
        or type(cols) is not int
        or rows < 1
        or cols < 1
        or rows * cols > MAX_GENERATE_TILES
    ):
        return  # generate() says what is wrong
    board = {
        "rows": rows,
        "cols": cols,
        "states": body.get("states", 2),
        "pattern": body.get("pattern", "cross"),
    }
    placed = any(type(v := body.get(k)) is int and v > 0 for k in ("locked", "holes"))
    attempts = GENERATE_ATTEMPTS if placed and body.get("unique", True) else 1
    cost = board_cost(board)
    if cost * attempts > MAX_GENERATE_COST:
        raise TooLarge(
            f"this puzzle is too costly to generate here: about {cost:,} work "
            f"units a board x up to {attempts} boards tried, at most "
            f"{MAX_GENERATE_COST:,} allowed (fewer tiles, offsets or states, or "
            "fixed locked / holes positions)"
        )


def _reply(status: int, error: str, detail: str) -> tuple[dict, bytes]:
    """The ASGI start message and JSON body of an error answer that closes the connection."""
    body = json.dumps({"error": error, "detail": detail}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ],
    }
    return start, body


#: The POST routes with a body cap of their own (:func:`body_cap`).
BODY_ROUTES = ("/api/solve", "/api/analyse", "/api/hint", "/api/encode", "/api/generate")


class BodyLimit:
    """ASGI middleware: reads a request's whole body before the application sees it,
    within a size cap and a deadline.

    max_bytes: the cap of any body; a POST to one of :data:`BODY_ROUTES` is capped at
    the smaller of it and the route's :func:`body_cap`. A body announced or found to
    be larger gets HTTP 413 ``{"error": "too_large", ...}``. seconds: the time the
    client may take to send the whole body (default :data:`BODY_SECONDS`, read when
    the request comes); past it the answer is HTTP 408 ``{"error": "deadline", ...}``
    and the rest of the body is not read. Either answer closes the connection."""

    def __init__(self, app: Any, max_bytes: int = MAX_BODY_BYTES, seconds: float | None = None):
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds
        self.caps = {route: min(max_bytes, body_cap(route)) for route in BODY_ROUTES}

    def cap(self, scope: dict) -> int:
        """The body cap of a request."""
        if scope.get("method") == "POST":
            return self.caps.get(scope.get("path", ""), self.max_bytes)
        return self.max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.cap(scope)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = -1
                if announced < 0 or announced > cap:
                    await self._too_large(send, cap)
                    return
        seconds = BODY_SECONDS if self.seconds is None else self.seconds
        try:
            body = await asyncio.wait_for(read_body(receive, cap), seconds)
        except asyncio.TimeoutError:
            start, answer = _reply(
                408, "deadline", f"the request body did not arrive within {seconds:g} s"
            )
            await send(start)
            await send({"type": "http.response.body", "body": answer})
            return
        if body is None:  # the client disconnected
            return
        if body is TOO_LARGE:
            await self._too_large(send, cap)
            return
        sent = False

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Any, cap: int) -> None:
        start, body = _reply(413, "too_large", f"request bodies here are limited to {cap} bytes")
        await send(start)
        await send({"type": "http.response.body", "body": body})


#: What :func:`read_body` returns for a body over its cap.
TOO_LARGE = b"\0too large"


async def read_body(receive: Any, most: int, keep: bool = True) -> bytes | None:
    """A request's whole body from ASGI ``receive`` (b"" when not ``keep``: read and
    dropped); :data:`TOO_LARGE` (the same object) as soon as it is over ``most``
    bytes, None when the client disconnects."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > most:
            return TOO_LARGE
        if keep:
            chunks.append(chunk)
        more = message.get("more_body", False)
    return b"".join(chunks)
