"""The FastAPI application: JSON endpoints over the public modlights API, the browser
game (``static/``) at ``/``, and Prometheus metrics at ``/metrics``.

Each endpoint checks the request's sizes and estimated cost against :mod:`.limits` in
the event loop, before anything large is built (a POST body over
``limits.RAW_BODY_BYTES`` is not even parsed there: its worker parses and checks
it), then runs the library call in a worker process (:mod:`.workers`) with a
deadline, so a long, crashing or memory-hungry solve costs its own request an error
and never holds the server or the other requests. Every error is JSON
``{"error": short-code, "detail": text}``: 400 for bad input and over-limit
requests, 422 for a body that does not match its model and for unsolvable boards,
413 for oversized bodies, 404 / 405 for unknown routes, 408 "deadline" for work
stopped at its deadline and for a body not sent within its deadline, 503
"engine_failure" when its worker died, 503 "busy" (with Retry-After) past the
concurrency cap; never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import numpy as np
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from modlights import (
    PATTERNS,
    Board,
    Campaign,
    Puzzle,
    Solver,
    Unsolvable,
    __version__,
    daily,
    generate,
)
from modlights.model.patterns import pattern_name
from modlights.play.campaign import LEVELS_PER_GROUP, MAP_SIZE, STARS_TO_OPEN
from modlights.web import limits, site
from modlights.web import workers as workers_module
from modlights.web.limits import TooLarge
from modlights.web.metrics import CONTENT_TYPE_LATEST, Metrics, Observe
from modlights.web.models import (
    AnalyseRequest,
    EncodeRequest,
    GenerateRequest,
    HintRequest,
    SolveRequest,
)

__all__ = ["create_app", "TooLarge"]

STATIC_DIR = site.STATIC_DIR
log = logging.getLogger("modlights.web")


def _error(status: int, error: str, detail: str) -> JSONResponse:
    """The service's error answer: ``{"error": error, "detail": detail}`` with ``status``."""
    return JSONResponse({"error": error, "detail": detail}, status_code=status)


# ----------------------------------------------------------------------------- checks
def _check_board_size(d: Any, max_tiles: int) -> None:
    """Reject boards over the limits from their declared sizes, before building them
    (Board.from_dict reports anything malformed)."""
    if not isinstance(d, dict):
        return
    if "effects" in d:
        effects = d["effects"]
        if not isinstance(effects, list):
            return
        lists = [e for e in effects if isinstance(e, list)]
        entries = sum(map(len, lists))
        top = max((c for e in lists for c in e if isinstance(c, int)), default=-1) + 1
        n_cells = d.get("n_cells")
        cells = max(top, n_cells if isinstance(n_cells, int) else 0)
        if entries > max_tiles or len(effects) * max(cells, 1) > limits.MAX_GRAPH_ENTRIES:
            raise TooLarge(
                f"graph boards are limited to {limits.MAX_GRAPH_ENTRIES} tap "
                f"matrix entries (n_cells x n_taps) and {max_tiles} effect "
                f"entries; got {cells} x {len(effects)}"
            )
        return
    rows, cols = d.get("rows"), d.get("cols")
    if type(rows) is int and type(cols) is int and rows * cols > max_tiles:
        raise TooLarge(
            f"boards are limited to {max_tiles} tiles here, got {rows}x{cols}"
            + (
                f' (with "minimal": false, {limits.MAX_TILES} tiles for 2 '
                f"states, {limits.MAX_TILES_MULTISTATE} for more)"
                if max_tiles < limits.MAX_TILES
                else ""
            )
        )


def _board(d: dict, minimal: bool) -> Board:
    """The request's board (Board.from_dict), within the limits for this kind of work."""
    if minimal:
        cap = limits.MAX_MINIMAL_TILES
    elif d.get("states", 2) == 2:
        cap = limits.MAX_TILES
    else:
        cap = limits.MAX_TILES_MULTISTATE
    _check_board_size(d, cap)
    board = Board.from_dict(d, max_tiles=cap)
    if board.is_grid:
        tiles = board.shape[0] * board.shape[1]
        if board.mixed is not None and tiles > limits.MAX_MIXED_TILES:
            raise TooLarge(
                f"mixed-pattern boards are limited to {limits.MAX_MIXED_TILES} "
                f"tiles here, got {tiles}"
            )
        if (
            board.pattern is not None
            and pattern_name(board.pattern) is None
            and tiles > limits.MAX_CUSTOM_TILES
        ):
            raise TooLarge(
                f"boards with custom offsets are limited to "
                f"{limits.MAX_CUSTOM_TILES} tiles here, got {tiles}"
            )
    return board


def _values(data: Any, board: Board, what: str) -> np.ndarray:
    """A board-shaped uint8 array from nested lists of ints in 0..n-1."""
    n = board.states
    if board.is_grid:
        rows, cols = board.shape
        if len(data) != rows or any(not isinstance(r, list) or len(r) != cols for r in data):
            raise ValueError(f"{what} must be {rows} lists of {cols} ints (the board's shape)")
        flat = (v for r in data for v in r)
    else:
        m = board.shape[0]
        if len(data) != m or any(isinstance(v, list) for v in data):
            raise ValueError(f"{what} must be a list of {m} ints (one a cell)")
        flat = iter(data)
    for v in flat:
        if not 0 <= v < n:
            raise ValueError(f"{what} values must be from 0 to {n - 1}, got {v}")
    return np.array(data, dtype=np.uint8).reshape(board.shape)


def _target(data: Any, board: Board) -> Any:
    """The request's target: an int in 0..n-1 (every tile), or board-shaped values."""
    if isinstance(data, int):
        if not 0 <= data < board.states:
            raise ValueError(f"target must be from 0 to {board.states - 1}, got {data}")
        return data
    return _values(data, board, "target")


def _budget(seconds: float | None) -> float:
    """Seconds of minimal search of a request: its own budget clamped to
    ``limits.MAX_SEARCH_SECONDS``, or ``limits.DEFAULT_SEARCH_SECONDS`` when it gave none."""
    if seconds is None:
        return limits.DEFAULT_SEARCH_SECONDS
    return float(min(seconds, limits.MAX_SEARCH_SECONDS))


def as_json(fn: Callable, *args: Any) -> bytes:
    """``fn(*args)`` as the bytes of its JSON answer (made in the worker, so that a
    large answer costs the server's event loop nothing but sending it)."""
    return json.dumps(
        fn(*args), ensure_ascii=False, allow_nan=False, separators=(",", ":")
    ).encode()


def _position(pos: Any) -> Any:
    """A position as JSON: [r, c] for a grid, the tap index for a graph board."""
    return [int(pos[0]), int(pos[1])] if isinstance(pos, tuple) else int(pos)


# ----------------------------------------------------------------------------- work
def _precheck(d: Any, minimal: bool) -> None:
    """The checks of :func:`_board` that need nothing built: declared sizes and the
    estimated cost (run in the event loop before a worker is asked)."""
    if minimal:
        cap = limits.MAX_MINIMAL_TILES
    elif isinstance(d, dict) and d.get("states", 2) == 2:
        cap = limits.MAX_TILES
    else:
        cap = limits.MAX_TILES_MULTISTATE
    _check_board_size(d, cap)
    limits.check_board(d)
    if minimal:
        limits.check_minimal(d)


def solve(req: SolveRequest, budget: float | None = None) -> dict:
    """POST /api/solve (in a worker). budget: seconds of minimal search (the caller
    clamps the request's own to the limits)."""
    board = _board(req.board, req.minimal)
    state = _values(req.state, board, "state")
    target = _target(req.target, board)
    if req.minimal and budget is None:
        budget = _budget(req.budget)
    solver = Solver(board)
    if req.minimal and board.n_taps * (board.states - 1) > limits.MAX_ANSWER_MOVES:
        # The search could only shorten the solution it starts from; refused before it
        # runs when that one is already over the limit.
        _check_moves(solver.solve(state, target, minimal=False).length, searched=False)
    sol = solver.solve(state, target, minimal=req.minimal, budget=budget if req.minimal else None)
    _check_moves(sol.length, searched=req.minimal)
    return sol.to_dict()


def _check_moves(length: int, searched: bool) -> None:
    """TooLarge when an answer of ``length`` moves is over ``limits.MAX_ANSWER_MOVES``;
    ``searched``: the length is the minimal search's (else the solution it starts from,
    before any search)."""
    if length > limits.MAX_ANSWER_MOVES:
        what = "the answer has" if searched else "the solution before the minimal search has"
        raise TooLarge(
            f"{what} {length} moves; answers are limited to {limits.MAX_ANSWER_MOVES} "
            "moves here, judged before the search (a smaller board or fewer states, or "
            "the library itself, for more)"
        )


def _parse_body(model: Any, body: bytes, content_type: str | None) -> Any:
    """The request ``model`` of a raw body, decoded as FastAPI decodes a body (JSON
    when the content type is JSON, the bytes otherwise) and validated as it validates
    one. A body that is not JSON or not a ``model`` raises :class:`limits.Invalid`
    (422 "invalid_request", described as FastAPI describes it), one that is not text
    :class:`limits.Unparsable` (400 "http_error")."""
    from pydantic import ValidationError

    data: Any = body
    if _is_json(content_type):
        try:
            data = json.loads(body)
        except json.JSONDecodeError as e:
            raise limits.Invalid(f"body.{e.pos}: JSON decode error") from None
        except (ValueError, UnicodeDecodeError):
            raise limits.Unparsable("There was an error parsing the body") from None
    try:
        return model.model_validate(data, from_attributes=True)  # as FastAPI does
    except ValidationError as e:
        raise limits.Invalid(
            _describe([{**err, "loc": ("body", *err.get("loc", ()))} for err in e.errors()])
        ) from None


def _is_json(content_type: str | None) -> bool:
    """Whether FastAPI reads a body of this content type as JSON (application/json or
    application/...+json; with no content type, it does not)."""
    if not content_type:
        return False
    import email.message

    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


def analyse(req: AnalyseRequest) -> dict:
    """POST /api/analyse: {"rank", "nullity", "kernel_size", "is_invertible", "engine"}
    ("engine": the registered name of the engine that answered, ``Solver.engine``)."""
    s = Solver(_board(req.board, False))
    return {
        "rank": int(s.rank),
        "nullity": int(s.nullity),
        "kernel_size": int(s.kernel_size),
        "is_invertible": bool(s.is_invertible),
        "engine": s.engine,
    }


def hint(req: HintRequest, budget: float | None = None) -> dict:
    """POST /api/hint: the first tap of a minimal plan (null when already solved)."""
    board = _board(req.board, True)
    state = _values(req.state, board, "state")
    budget = _budget(None) if budget is None else budget
    moves = Solver(board).solve(state, minimal=True, budget=budget).moves()
    return {"tap": _position(moves[0]) if moves else None}


def make_puzzle(req: GenerateRequest) -> dict:
    """POST /api/generate."""
    if req.rows * req.cols > limits.MAX_GENERATE_TILES:
        raise TooLarge(
            f"generated boards are limited to {limits.MAX_GENERATE_TILES} "
            f"tiles, got {req.rows}x{req.cols}"
        )
    return generate(
        req.rows,
        req.cols,
        req.states,
        req.pattern,
        req.difficulty,
        locked=req.locked,
        holes=req.holes,
        wrap=req.wrap,
        unique=req.unique,
        seed=req.seed,
    ).to_dict()


def encode(req: EncodeRequest) -> dict:
    """POST /api/encode: {"code", "board", "start", "solvable"} of a hand-built grid
    board and start. The start need not be solvable (a playground board may not be);
    nothing is searched, so this stays cheap."""
    _check_board_size(req.board, limits.MAX_PUZZLE_TILES)
    board = Board.from_dict(req.board, max_tiles=limits.MAX_PUZZLE_TILES)
    start = _values(req.start, board, "start")
    p = Puzzle(board, start)  # ValueError for graph boards
    return {
        "code": p.code,
        "board": board.to_dict(),
        "start": p.start.tolist(),
        "solvable": bool(Solver(board).solvable(start)),
    }


def daily_puzzles(date: str) -> list:
    """GET /api/daily/{date}."""
    return [p.to_dict() for p in daily(date)]


_CAMPAIGNS: dict = {}


def campaign_level(seed: Any, row: int, col: int, level: int) -> dict:
    """GET /api/campaign/{row}/{col}/{level}: the level of the campaign of ``seed`` (one
    Campaign a seed in each worker)."""
    campaign = _CAMPAIGNS.get(seed)
    if campaign is None:
        campaign = _CAMPAIGNS[seed] = Campaign(seed)
    return campaign.level((row, col), level).to_dict()


def puzzle_of_code(code: str) -> dict:
    """GET /api/puzzle/{code}."""
    p = Puzzle.from_code(code)
    rows, cols = p.board.shape
    if rows * cols > limits.MAX_PUZZLE_TILES:
        raise TooLarge(
            f"puzzles served here are limited to {limits.MAX_PUZZLE_TILES} "
            f"tiles, the code holds a {rows}x{cols} board"
        )
    return p.to_dict()


# ----------------------------------------------------------------------------- bodies
# The checks before work (sizes and estimated cost; TooLarge past a limit) and the work
# of each POST route, as the event loop and a worker run them.
def _check_solve(req: SolveRequest) -> None:
    _precheck(req.board, req.minimal)


def _check_analyse(req: AnalyseRequest) -> None:
    _precheck(req.board, False)


def _check_hint(req: HintRequest) -> None:
    _precheck(req.board, True)


def _check_generate(req: GenerateRequest) -> None:
    if req.rows * req.cols > limits.MAX_GENERATE_TILES:
        raise TooLarge(
            f"generated boards are limited to {limits.MAX_GENERATE_TILES} "
            f"tiles, got {req.rows}x{req.cols}"
        )
    limits.check_generate(
        {
            "rows": req.rows,
            "cols": req.cols,
            "states": req.states,
            "pattern": req.pattern,
            "locked": req.locked,
            "holes": req.holes,
            "unique": req.unique,
        }
    )


def _check_encode(req: EncodeRequest) -> None:
    _check_board_size(req.board, limits.MAX_PUZZLE_TILES)
    limits.check_board(req.board)


def _solve_work(req: SolveRequest) -> dict:
    return solve(req, _budget(req.budget) if req.minimal else None)


def _hint_work(req: HintRequest) -> dict:
    return hint(req, _budget(None))


#: Each POST route's (request model, the checks before work, the work).
_BODY_ROUTES: dict = {
    "/api/solve": (SolveRequest, _check_solve, _solve_work),
    "/api/analyse": (AnalyseRequest, _check_analyse, analyse),
    "/api/hint": (HintRequest, _check_hint, _hint_work),
    "/api/generate": (GenerateRequest, _check_generate, make_puzzle),
    "/api/encode": (EncodeRequest, _check_encode, encode),
}


def from_body(route: str, body: bytes, content_type: str | None) -> dict:
    """The answer of a POST ``route`` from the raw bytes of its body (in a worker, for
    bodies too large to parse in the event loop): parsed (:func:`_parse_body`),
    checked as the event loop checks a small one (its nesting depth first), then
    worked on, with the same answers and errors."""
    model, check, work = _BODY_ROUTES[route]
    limits.check_depth(body)
    req = _parse_body(model, body, content_type)
    check(req)
    return work(req)


# ----------------------------------------------------------------------------- the app
def create_app(
    *,
    workers: int | None = None,
    queue: int | None = None,
    memory_bytes: int | None = None,
    cors_origins: Any = (),
    body_seconds: float | None = None,
    test_hooks: bool = False,
    cheap_workers: int | None = None,
    cheap_queue: int | None = None,
    worker_nice: int | None = None,
) -> FastAPI:
    """The web service: a FastAPI application (ASGI; run it with uvicorn, or
    ``modlights serve``). JSON endpoints under ``/api``, OpenAPI docs at ``/docs``,
    Prometheus metrics at ``/metrics``, and the browser game at ``/`` when the package
    ships it.

    Parameters
    ----------
    workers : int, optional
        Solver processes of the heavy lane (default: one a CPU).
    queue : int, optional
        Requests that may wait for a heavy-lane worker before the service answers 503
        "busy" (default: twice the workers).
    memory_bytes : int, optional
        Each worker's address-space cap (default: 2 GiB or a share of the RAM; 0: none).
    cors_origins : iterable of str
        Origins allowed to call the API from a browser (CORS; "*" for any).
    body_seconds : float, optional
        Seconds a client may take to send a request's body before the answer is 408
        "deadline" (default: ``limits.BODY_SECONDS``).
    test_hooks : bool
        Also route ``POST /api/_test/{hook}`` to the test hooks of :mod:`.workers`
        (for the test suite only).
    cheap_workers, cheap_queue : int, optional
        Solver processes of the cheap lane, where requests estimated cheap run (default:
        one per two CPUs, at least 1), and the requests that may wait for one (default:
        16 a worker).
    worker_nice : int, optional
        Niceness added to the workers, 0..19 (default 0: the server's priority).

    Returns
    -------
    fastapi.FastAPI

    Raises
    ------
    ValueError
        For workers < 1, queue < 0, memory_bytes < 0, body_seconds <= 0, cheap_workers
        < 1, cheap_queue < 0 or worker_nice outside 0..19.

    Notes
    -----
    Requests estimated cheap (small boards) run in their own lane of workers and never
    wait behind expensive ones; a deadline counts a request's work, not its wait for a
    worker. ``GET /api/health`` answers while the server lives (liveness), ``GET
    /api/ready`` with 200 only while every lane has a warm worker (readiness). The worker
    processes start with the app (or on first use) and stop on its
    shutdown; they come from a forkserver, which imports the main module of the program
    again, so a script that serves the app must guard its start with
    ``if __name__ == "__main__":``. The endpoints, their bodies and answers are listed
    in the web API reference, generated from ``app.openapi()``.

    Examples
    --------
    >>> from modlights.web import create_app
    >>> app = create_app(workers=1)
    >>> sorted(r.path for r in app.routes if r.path.startswith("/api/")
    ...        and "_test" not in r.path)[:4]
    ['/api/analyse', '/api/campaign', '/api/campaign/{row}/{col}/{level}', '/api/daily/{date}']
    >>> app.openapi()["info"]["title"]
    'modlights'
    >>> create_app(workers=0)
    Traceback (most recent call last):
        ...
    ValueError: workers must be an int >= 1, got 0
    """
    if body_seconds is not None and not (
        isinstance(body_seconds, (int, float)) and body_seconds > 0
    ):
        raise ValueError(f"body_seconds must be seconds > 0, got {body_seconds!r}")
    pool = workers_module.WorkerPool(
        workers,
        queue,
        memory_bytes,
        cheap_workers=cheap_workers,
        cheap_queue=cheap_queue,
        nice=worker_nice,
    )
    metrics = Metrics(pool)
    pool.on_event = metrics.pool_event

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> Any:
        pool.start()
        try:
            yield
        finally:
            pool.close()

    app = FastAPI(
        title="modlights",
        version=__version__,
        description="Solve, analyse and generate modular Lights Out puzzles.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.pool = pool
    app.state.metrics = metrics
    _add_docs(app)
    campaign = Campaign()
    campaign_cache: dict = {}  # (row, col, level) -> the level's to_dict()

    async def work(
        request: Request,
        fn: Callable,
        *args: Any,
        budget: float | None = None,
        timeout: float | None = None,
        lane: str = "heavy",
    ) -> Response:
        """The JSON answer of fn(*args), made in a worker (see :func:`run`)."""
        body = await run(request, as_json, fn, *args, budget=budget, timeout=timeout, lane=lane)
        return Response(body, media_type="application/json")

    async def run(
        request: Request,
        fn: Callable,
        *args: Any,
        budget: float | None = None,
        timeout: float | None = None,
        lane: str = "heavy",
    ) -> Any:
        """fn(*args) in a worker of ``lane``, within the deadline of a request with this
        search budget (or within ``timeout`` seconds of work when given); the outcome
        counted."""
        if timeout is None:
            timeout = limits.deadline(budget)
        try:
            result = await pool.run(fn, *args, timeout=timeout, request=request, lane=lane)
        except workers_module.Busy:
            metrics.outcomes.labels("busy").inc()
            raise
        except workers_module.Deadline:
            metrics.outcomes.labels("deadline").inc()
            raise
        except workers_module.EngineFailure:
            metrics.outcomes.labels("engine_failure").inc()
            raise
        except workers_module.ClientGone:
            metrics.outcomes.labels("client_gone").inc()
            raise
        except Exception:
            metrics.outcomes.labels("error").inc()
            raise
        metrics.outcomes.labels("ok").inc()
        return result

    def raw(route: str) -> type:
        """The route class of a POST ``route``: bodies too large for the event loop go
        to a worker whole (:func:`from_body`)."""

        async def answer(request: Request, body: bytes) -> Response:
            # The budget is not known before the worker parses the body: the longest
            # deadline of any request bounds it (a search keeps to its own budget).
            return await work(
                request,
                from_body,
                route,
                body,
                request.headers.get("content-type"),
                timeout=limits.MAX_DEADLINE_SECONDS,
            )

        return _raw_route(answer)

    async def api_solve(req: SolveRequest, request: Request) -> Response:
        _check_solve(req)
        budget = _budget(req.budget) if req.minimal else None
        lane = limits.board_lane(req.board, req.minimal)
        return await work(request, solve, req, budget, budget=budget, lane=lane)

    async def api_analyse(req: AnalyseRequest, request: Request) -> Response:
        _check_analyse(req)
        return await work(request, analyse, req, lane=limits.board_lane(req.board, False))

    async def api_hint(req: HintRequest, request: Request) -> Response:
        _check_hint(req)
        budget = _budget(None)
        lane = limits.board_lane(req.board, True)
        return await work(request, hint, req, budget, budget=budget, lane=lane)

    async def api_generate(req: GenerateRequest, request: Request) -> Response:
        _check_generate(req)
        lane = limits.generate_lane(req.model_dump())
        return await work(request, make_puzzle, req, lane=lane)

    async def api_encode(req: EncodeRequest, request: Request) -> Response:
        _check_encode(req)
        return await work(request, encode, req, lane=limits.board_lane(req.board, False))

    for path, endpoint, summary in (
        ("/api/solve", api_solve, "Solve a board (fewest taps by default)"),
        ("/api/analyse", api_analyse, "Rank, nullity and kernel size of a board's tap matrix"),
        ("/api/hint", api_hint, "The next tap of a minimal plan"),
        ("/api/generate", api_generate, "Generate a puzzle"),
        ("/api/encode", api_encode, "The puzzle code of a board and a start"),
    ):
        # the handlers answer with the worker's JSON Response; the schema says a dict
        app.router.add_api_route(
            path,
            endpoint,
            methods=["POST"],
            summary=summary,
            response_model=dict,
            route_class_override=raw(path),
        )

    @app.get("/api/puzzle/{code}", summary="The puzzle of a code", response_model=dict)
    async def api_puzzle(code: str, request: Request) -> Response:
        if len(code) > limits.MAX_CODE_CHARS:
            raise TooLarge(
                f"puzzle codes are at most {limits.MAX_CODE_CHARS} characters here, got {len(code)}"
            )
        return await work(request, puzzle_of_code, code, lane=limits.code_lane(code))

    @app.get(
        "/api/daily/{date}",
        summary="The three daily puzzles of a date (YYYY-MM-DD)",
        response_model=list,
    )
    async def api_daily(date: str, request: Request) -> Response:
        return await work(request, daily_puzzles, date, lane="cheap")

    @app.get("/api/campaign", summary="The campaign's map")
    async def api_campaign() -> dict:
        return {
            "map_size": MAP_SIZE,
            "levels_per_group": LEVELS_PER_GROUP,
            "stars_to_open": STARS_TO_OPEN,
            "seed": campaign.seed,
        }

    @app.get(
        "/api/campaign/{row}/{col}/{level}",
        summary="A campaign level's puzzle",
        response_model=dict,
    )
    async def api_campaign_level(row: int, col: int, level: int, request: Request) -> Response:
        key = (row, col, level)
        if key not in campaign_cache:
            answer = await work(
                request, campaign_level, campaign.seed, row, col, level, lane="cheap"
            )
            if len(campaign_cache) < limits.MAX_CACHED_LEVELS:
                campaign_cache[key] = answer.body
            return answer
        return Response(campaign_cache[key], media_type="application/json")

    @app.get("/api/patterns", summary="The named tap patterns' offsets")
    async def api_patterns() -> dict:
        return {name: [list(o) for o in offs] for name, offs in PATTERNS.items()}

    @app.get("/api/health", summary="Liveness: the server answers")
    async def api_health() -> dict:
        return {"status": "ok", "version": __version__}

    @app.get(
        "/api/ready",
        summary="Readiness: the service can do solver work now (503 while it cannot)",
        response_model=dict,
    )
    async def api_ready() -> Response:
        ok, lanes = pool.readiness()
        doc: dict[str, Any] = {"status": "ready" if ok else "not_ready", "lanes": lanes}
        if ok:
            return JSONResponse(doc)
        doc["error"] = "not_ready"
        doc["detail"] = "the service cannot do solver work now: a lane has no warm worker"
        headers = {"Retry-After": str(limits.RETRY_AFTER_SECONDS)}
        return JSONResponse(doc, status_code=503, headers=headers)

    @app.get("/metrics", summary="Prometheus metrics", include_in_schema=False)
    async def get_metrics() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    if test_hooks:
        _add_test_hooks(app, run)
    _add_error_handlers(app)
    # Outermost last: metrics and access log, CORS (so every answer, busy included,
    # carries its headers), the admission of large bodies, the body limit.
    app.add_middleware(limits.BodyLimit, max_bytes=limits.MAX_BODY_BYTES, seconds=body_seconds)
    app.add_middleware(_Admission, pool=pool, metrics=metrics, body_seconds=body_seconds)
    origins = [cors_origins] if isinstance(cors_origins, str) else list(cors_origins)
    if origins:
        from starlette.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
            expose_headers=["Retry-After"],
            max_age=600,
        )
    app.add_middleware(Observe, metrics=metrics)
    if (STATIC_DIR / "index.html").is_file():
        # The same files as `modlights site DIR` writes (site.site_files), appended
        # after the API routes and blind to /api/...: a wrong method on an API route
        # stays a JSON 405 and an unknown API path a JSON 404, instead of the game's.
        app.router.routes.append(
            _GameMount("/", app=_SiteFiles(site.site_files(STATIC_DIR)), name="game")
        )
    return app


class _SiteFiles:
    """An ASGI app answering GET / HEAD with the site's files (``/`` is index.html);
    anything else is a JSON 404 (405 for other methods). Files made from Python (the
    campaign) are made once, on a thread, on first request."""

    def __init__(self, files: dict):
        self.files = files
        self.made: dict[str, bytes] = {}

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        from starlette.responses import FileResponse

        if scope["method"] not in ("GET", "HEAD"):
            raise StarletteHTTPException(405)
        rel = scope["path"].lstrip("/") or "index.html"
        source = self.files.get(rel)
        if source is None:
            raise StarletteHTTPException(404)
        media = site.MEDIA_TYPES[Path(rel).suffix]
        if isinstance(source, Path):
            response: Response = FileResponse(source, media_type=media)
        else:
            if rel not in self.made:
                self.made[rel] = await asyncio.to_thread(source)
            response = Response(self.made[rel], media_type=media)
        await response(scope, receive, send)


def _raw_route(handler: Callable) -> type:
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


class _Admission:
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


def _add_test_hooks(app: FastAPI, run: Callable) -> None:
    """POST /api/_test/{hook}: the worker hooks of :mod:`.workers`, for the tests."""
    hooks = {
        "pid": workers_module.hook_pid,
        "abort": workers_module.hook_abort,
        "segfault": workers_module.hook_segfault,
        "allocate": workers_module.hook_allocate,
        "nested": workers_module.hook_nested,
        "spin": workers_module.hook_spin,
    }

    @app.post("/api/_test/{hook}", include_in_schema=False)
    async def test_hook(hook: str, request: Request) -> Any:
        if hook not in hooks:
            raise ValueError(f"no test hook {hook!r}")
        body = await request.json()
        budget = body.pop("budget", None)
        args = body.get("args", ())
        lane = body.get("lane", "heavy")
        return {"result": await run(request, hooks[hook], *args, budget=budget, lane=lane)}


def _add_docs(app: FastAPI) -> None:
    """The OpenAPI page at /docs, with Swagger UI's files from the fastapi-offline
    package (a dependency of the web extra; Swagger UI 5 reads OpenAPI 3.1) so it works
    with no internet; FastAPI's default page loads Swagger UI from a CDN, which is the
    fallback when that package is missing."""
    from fastapi.openapi.docs import get_swagger_ui_html

    try:
        import fastapi_offline

        assets_dir = Path(fastapi_offline.__file__).with_name("static")
    except ImportError:  # pragma: no cover
        assets_dir = None
    if assets_dir is not None and (assets_dir / "swagger-ui-bundle.js").is_file():
        from fastapi.staticfiles import StaticFiles

        app.mount("/docs-assets", StaticFiles(directory=assets_dir), name="docs-assets")
        assets: dict[str, Any] = {
            "swagger_js_url": "/docs-assets/swagger-ui-bundle.js",
            "swagger_css_url": "/docs-assets/swagger-ui.css",
            "swagger_favicon_url": "/docs-assets/favicon.png",
        }
    else:
        assets = {}

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        # openapi_url is FastAPI's default, "/openapi.json" (create_app leaves it on)
        return get_swagger_ui_html(
            openapi_url=str(app.openapi_url), title="modlights API", **assets
        )


class _GameMount(Mount):
    """The browser game's files at "/", matching every path but those under /api/."""

    def matches(self, scope: Any) -> tuple:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def _add_error_handlers(app: FastAPI) -> None:
    """Every error as JSON ``{"error", "detail"}``: the library's Unsolvable (422) and
    ValueError (400), the pool's Busy (503, Retry-After), Deadline (408) and
    EngineFailure (503) and ClientGone (499, logged only: nobody reads it), the
    limits' TooLarge (400), bodies that fail their model (422)
    or do not parse (400), HTTP errors with their status, and anything else as 500
    "internal" with the traceback logged on the server, never sent."""

    @app.exception_handler(Unsolvable)
    async def unsolvable(_: Request, e: Unsolvable) -> JSONResponse:
        return _error(422, "unsolvable", str(e))

    @app.exception_handler(workers_module.Busy)
    async def busy(_: Request, e: Exception) -> JSONResponse:
        seconds = getattr(e, "retry_after", limits.RETRY_AFTER_SECONDS)
        return JSONResponse(
            {"error": "busy", "detail": str(e)},
            status_code=503,
            headers={"Retry-After": str(seconds)},
        )

    @app.exception_handler(workers_module.Deadline)
    async def deadline(_: Request, e: Exception) -> JSONResponse:
        return _error(408, "deadline", str(e))

    @app.exception_handler(workers_module.EngineFailure)
    async def engine_failure(_: Request, e: Exception) -> JSONResponse:
        return _error(503, "engine_failure", str(e))

    @app.exception_handler(workers_module.ClientGone)
    async def client_gone(_: Request, e: Exception) -> JSONResponse:
        return _error(499, "client_gone", str(e))  # nobody reads it; logged as 499

    @app.exception_handler(limits.Invalid)
    async def invalid_body(_: Request, e: Exception) -> JSONResponse:
        return _error(422, "invalid_request", str(e))

    @app.exception_handler(limits.Unparsable)
    async def unparsable_body(_: Request, e: Exception) -> JSONResponse:
        return _error(400, "http_error", str(e))

    @app.exception_handler(limits.TooDeep)
    async def too_deep(_: Request, e: Exception) -> JSONResponse:
        return _error(400, "too_deep", str(e))

    @app.exception_handler(TooLarge)
    async def too_large(_: Request, e: TooLarge) -> JSONResponse:
        return _error(400, "too_large", str(e))

    @app.exception_handler(ValueError)
    async def bad_input(_: Request, e: ValueError) -> JSONResponse:
        return _error(400, "bad_input", str(e))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        return _error(422, "invalid_request", _describe(e.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return JSONResponse(
            {"error": code, "detail": str(e.detail)},
            status_code=e.status_code,
            headers=getattr(e, "headers", None),
        )

    @app.exception_handler(Exception)
    async def internal(_: Request, e: Exception) -> JSONResponse:
        log.exception("unexpected error")  # logged on the server, never sent
        return _error(500, "internal", "unexpected server error")


def _describe(errors: Any) -> str:
    """pydantic's errors as one short line: 'body.state: Input should be ...; ...'."""
    parts = []
    for err in list(errors)[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    more = len(errors) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
