"""Limits that keep one request from holding the web service, checked in the event loop
before anything is built or allocated: sizes, an estimated cost of the request's board
(:func:`check_board`, :func:`check_generate`), deadlines, the worker pool's defaults,
each route's body cap (:func:`body_cap`), and the middleware that reads request bodies
within their cap and deadline (:class:`BodyLimit`)."""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
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
#: larger than this are not parsed in the event loop: their raw bytes go to a worker of
#: the heavy lane, which decodes, validates, checks and works on them; before their body
#: is read, at most the heavy lane's workers + queue of them are admitted
#: (app._Admission). The event loop parses only what takes it a millisecond or so (a
#: game's board: a 64 x 64 state is 12 KB; the 250 x 250 state of a knight board, 190
#: KB, took 30 ms to parse and check, a mixed pattern of 180 KB 120 ms).
RAW_BODY_BYTES = 16 << 10
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
#: Niceness added to each worker process by default: 0, the server's priority (a higher
#: value lets other load on the machine slow the service's work down; ``modlights serve
#: --worker-nice``).
WORKER_NICE = 0
#: Seconds a client is told to wait (Retry-After) when the service is busy.
RETRY_AFTER_SECONDS = 1
#: Seconds of work a task may do in the cheap lane; past it the task was estimated
#: wrongly: it is stopped and run again in the heavy lane.
CHEAP_SECONDS = 1.0
#: Seconds a request may wait for a worker of its lane before it is answered 503 "busy".
QUEUE_SECONDS = 10.0
#: Seconds a new worker may take to start and warm up; a request waits this long for
#: the first workers of a lane (a service just started) before it is answered 503.
START_SECONDS = 60.0


def default_workers() -> int:
    """Heavy-lane worker processes by default: one a CPU (os.cpu_count(), at least 1)."""
    return max(1, os.cpu_count() or 1)


def default_queue(workers: int) -> int:
    """Requests that may wait for a heavy-lane worker before the lane answers 503 busy."""
    return 2 * workers


def default_cheap_workers() -> int:
    """Cheap-lane worker processes by default: one per two CPUs, at least 1."""
    return max(1, (os.cpu_count() or 1) // 2)


def default_cheap_queue(workers: int) -> int:
    """Requests that may wait for a cheap-lane worker (each takes milliseconds)."""
    return 16 * workers


def default_memory_bytes(workers: int) -> int:
    """Address-space cap of one worker (RLIMIT_AS): 2 GiB, or less when the machine's
    RAM shared by the ``workers`` (and the server) is less; at least 512 MiB."""
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        ram = 0
    share = ram // (workers + 1) if ram > 0 else 2 << 30
    return max(512 << 20, min(2 << 30, share))


#: The smallest and largest address-space cap of a worker (0 aside: no cap); a worker
#: needs about 200 MiB to import the library and NumPy.
MIN_WORKER_MEMORY = 256 << 20
MAX_WORKER_MEMORY = 1 << 40
_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_memory(text: str) -> int:
    """Bytes of a memory size written with a unit: ``512M``, ``2G``, ``1.5G``, ``1T``
    (K, M, G, T are powers of 1024; a trailing "iB" or "B" is allowed), or ``0`` for
    none. Raises ValueError for a number without a unit (bytes or MiB would be a
    guess) and for sizes outside :data:`MIN_WORKER_MEMORY`..:data:`MAX_WORKER_MEMORY`."""
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    if t == "0":
        return 0
    allowed = "a size with a unit, e.g. 512M or 2G (K, M, G, T: powers of 1024), or 0 for none"
    unit = _UNITS.get(t[-1:]) if t else None
    try:
        value = float(t[:-1]) if unit else math.nan
    except ValueError:
        value = math.nan
    if unit is None or not math.isfinite(value) or value < 0:
        raise ValueError(f"memory must be {allowed}, got {text!r}")
    size = int(value * unit)
    if not MIN_WORKER_MEMORY <= size <= MAX_WORKER_MEMORY:
        raise ValueError(
            f"memory must be from {MIN_WORKER_MEMORY >> 20}M to {MAX_WORKER_MEMORY >> 40}T "
            f"(or 0 for none), got {text}"
        )
    return size


class TooLarge(ValueError):
    """A request over one of the service's limits (HTTP 400, error "too_large")."""


class Invalid(ValueError):
    """A request body that is not JSON or does not match its model, found in a worker
    (HTTP 422, error "invalid_request", as FastAPI's own validation)."""


class TooDeep(ValueError):
    """A request body nested deeper than :data:`MAX_JSON_DEPTH` (HTTP 400, error
    "too_deep"), found before anything parses it."""


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


# ----------------------------------------------------------------------------- lanes
#: Most estimated work units (:func:`board_cost`) of a board in the cheap lane.
CHEAP_COST = 100_000
#: Most tiles (or taps of a graph board) of a minimal search in the cheap lane.
CHEAP_MINIMAL_TILES = 400
#: Most tiles of a generated puzzle in the cheap lane.
CHEAP_GENERATE_TILES = 100
#: Longest puzzle code read in the cheap lane.
CHEAP_CODE_CHARS = 512


def _tiles(d: Any) -> int:
    """Declared tiles of a board given as ``Board.to_dict()`` data (taps of a graph
    board); 0 when it declares none."""
    if not isinstance(d, dict):
        return 0
    if "effects" in d:
        return len(d["effects"]) if isinstance(d["effects"], list) else 0
    rows, cols = d.get("rows"), d.get("cols")
    return rows * cols if type(rows) is int and type(cols) is int and rows > 0 < cols else 0


def board_lane(d: Any, minimal: bool) -> str:
    """The lane of work on a board given as ``Board.to_dict()`` data: "cheap" when its
    estimated cost is at most :data:`CHEAP_COST` and, for a minimal search, it has at
    most :data:`CHEAP_MINIMAL_TILES` tiles; "heavy" otherwise. An estimate only: a
    cheap-lane task that runs long moves to the heavy lane (workers.WorkerPool)."""
    if minimal and _tiles(d) > CHEAP_MINIMAL_TILES:
        return "heavy"
    return "cheap" if board_cost(d) <= CHEAP_COST else "heavy"


def generate_lane(body: dict) -> str:
    """The lane of a /api/generate request (its declared sizes, as :func:`check_generate`
    reads them): "cheap" for at most :data:`CHEAP_GENERATE_TILES` tiles and a cheap
    board, "heavy" otherwise."""
    rows, cols = body.get("rows"), body.get("cols")
    if type(rows) is not int or type(cols) is not int or rows * cols > CHEAP_GENERATE_TILES:
        return "heavy"
    board = {"rows": rows, "cols": cols, "states": body.get("states", 2)}
    board["pattern"] = body.get("pattern", "cross")
    return board_lane(board, True)


def code_lane(code: str) -> str:
    """The lane of reading a puzzle code: "cheap" up to :data:`CHEAP_CODE_CHARS`."""
    return "cheap" if len(code) <= CHEAP_CODE_CHARS else "heavy"


# ----------------------------------------------------------------------------- bodies
#: Deepest nesting of arrays and objects in a request body (a mixed-pattern board's
#: offsets are 6 deep: body, board, pattern, row, tile, offset).
MAX_JSON_DEPTH = 32
#: Bytes of request bodies over :data:`SMALL_BODY_BYTES` the service holds at once
#: (being received, parsed or waiting for their answer); a large body that would go
#: past it is answered 503 "busy" without being read.
MAX_HELD_BODY_BYTES = 64 << 20
#: Bodies up to this size are never refused for the bytes held (they are bounded by the
#: connections: ``--max-connections`` x this).
SMALL_BODY_BYTES = 64 << 10

_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_depth(body: bytes) -> int:
    """The nesting depth of arrays and objects in a JSON text, from its bytes alone
    (strings skipped, nothing parsed): exact for valid JSON, an upper bound of what a
    parser would nest for anything else. O(len(body)) at C speed (a regular
    expression, bytes.translate, NumPy): about 30 ms for 8 MB."""
    import numpy as np

    brackets = _JSON_STRING.sub(b"", body).translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    step = np.zeros(256, np.int8)
    step[ord("[")] = step[ord("{")] = 1
    step[ord("]")] = step[ord("}")] = -1
    return int(np.cumsum(step[np.frombuffer(brackets, np.uint8)], dtype=np.int32).max())


def check_depth(body: bytes) -> None:
    """Raise :class:`TooDeep` when ``body`` nests arrays and objects deeper than
    :data:`MAX_JSON_DEPTH` (:func:`json_depth`)."""
    if body and json_depth(body) > MAX_JSON_DEPTH:
        raise TooDeep(
            f"request bodies here nest arrays and objects at most {MAX_JSON_DEPTH} deep; "
            "this one nests deeper"
        )


def _reply(status: int, error: str, detail: str, *extra: tuple) -> tuple[dict, bytes]:
    """The ASGI start message and JSON body of an error answer that closes the connection."""
    body = json.dumps({"error": error, "detail": detail}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *extra,
        ],
    }
    return start, body


#: The POST routes with a body cap of their own (:func:`body_cap`).
BODY_ROUTES = ("/api/solve", "/api/analyse", "/api/hint", "/api/encode", "/api/generate")


class BodyLimit:
    """ASGI middleware: reads a request's whole body before the application sees it,
    within a size cap, a deadline, a nesting depth and the bytes the service holds.

    max_bytes: the cap of any body; a POST to one of :data:`BODY_ROUTES` is capped at
    the smaller of it and the route's :func:`body_cap`. A body announced or found to
    be larger gets HTTP 413 ``{"error": "too_large", ...}``. seconds: the time the
    client may take to send the whole body (default :data:`BODY_SECONDS`, read when
    the request comes); past it the answer is HTTP 408 ``{"error": "deadline", ...}``
    and the rest of the body is not read. A body nested deeper than
    :data:`MAX_JSON_DEPTH` gets HTTP 400 ``{"error": "too_deep", ...}``, whatever its
    route, size or content type, before anything parses it (a POST body of
    :data:`BODY_ROUTES` over :data:`RAW_BODY_BYTES` is checked by the worker that parses
    it, :func:`check_depth`, so its scan does not hold the event loop). held_bytes: the bytes of
    large bodies (over :data:`SMALL_BODY_BYTES`) held at once (default
    :data:`MAX_HELD_BODY_BYTES`, read when the middleware is made), from their arrival to
    their answer; a large body that would go past it gets HTTP 503 ``{"error":
    "busy"}`` with Retry-After before it is read. These answers close the connection.
    """

    def __init__(
        self,
        app: Any,
        max_bytes: int = MAX_BODY_BYTES,
        seconds: float | None = None,
        held_bytes: int | None = None,
    ):
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds
        self.held_bytes = MAX_HELD_BODY_BYTES if held_bytes is None else held_bytes
        self.held = 0  # bytes of large bodies held now
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
        announced = None
        chunked = False
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = -1
                if announced < 0 or announced > cap:
                    await self._send(send, *_reply(413, "too_large", self._too_large(cap)))
                    return
            elif name == b"transfer-encoding":
                chunked = True
        if announced is None and not chunked:
            announced = 0  # HTTP/1.1: a request with neither header has no body
        # large bodies hold their announced size (chunked ones their cap) until answered
        reserve = 0
        if announced is None or announced > SMALL_BODY_BYTES:
            reserve = cap if announced is None else announced
            if self.held + reserve > self.held_bytes and reserve > SMALL_BODY_BYTES:
                if announced is None and self.held + SMALL_BODY_BYTES <= self.held_bytes:
                    reserve = 0  # chunked: admitted, refused below if it grows large
                else:
                    await self._send(send, *self._busy())
                    return
        self.held += reserve
        try:
            await self._serve(scope, receive, send, cap, reserve)
        finally:
            self.held -= reserve

    async def _serve(self, scope: dict, receive: Any, send: Any, cap: int, reserve: int) -> None:
        seconds = BODY_SECONDS if self.seconds is None else self.seconds
        most = cap if reserve else min(cap, SMALL_BODY_BYTES)
        try:
            body = await asyncio.wait_for(read_body(receive, most), seconds)
        except asyncio.TimeoutError:
            detail = f"the request body did not arrive within {seconds:g} s"
            await self._send(send, *_reply(408, "deadline", detail))
            return
        if body is None:  # the client disconnected
            return
        if body is TOO_LARGE:
            if most < cap:  # a chunked body past the small size with no room to hold it
                await self._send(send, *self._busy())
            else:
                await self._send(send, *_reply(413, "too_large", self._too_large(cap)))
            return
        raw_route = scope.get("method") == "POST" and scope.get("path") in self.caps
        if body and not (raw_route and len(body) > RAW_BODY_BYTES):
            try:
                if len(body) > SMALL_BODY_BYTES:
                    await asyncio.to_thread(check_depth, body)
                else:
                    check_depth(body)
            except TooDeep as e:
                await self._send(send, *_reply(400, "too_deep", str(e)))
                return
        sent = False

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    def _too_large(cap: int) -> str:
        return f"request bodies here are limited to {cap} bytes"

    def _busy(self) -> tuple[dict, bytes]:
        return _reply(
            503,
            "busy",
            f"the service holds {self.held_bytes >> 20} MiB of large request bodies at most "
            "and has no room for this one now; try again shortly",
            (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
        )

    @staticmethod
    async def _send(send: Any, start: dict, body: bytes) -> None:
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
