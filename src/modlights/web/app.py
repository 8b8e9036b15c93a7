"""The FastAPI application: JSON endpoints over the public modlights API, and the
browser game (``static/``) at ``/``.

Each endpoint checks the request's sizes against :mod:`.limits` before anything large
is built, then runs the library call in a worker thread (the C engines release the
GIL), so one long solve does not hold the others. Every error is JSON
``{"error": short-code, "detail": text}``: 400 for bad input, 422 for a body that does
not match its model and for unsolvable boards, 413 for oversized bodies, 404 / 405
for unknown routes; never a traceback.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any, Callable

import numpy as np
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from .. import PATTERNS, Board, Campaign, Puzzle, Solver, Unsolvable, __version__, daily, generate
from ..play.campaign import LEVELS_PER_GROUP, MAP_SIZE, STARS_TO_OPEN
from ..patterns import pattern_name
from . import limits
from .models import AnalyseRequest, EncodeRequest, GenerateRequest, HintRequest, SolveRequest

__all__ = ["create_app", "TooLarge"]

STATIC_DIR = Path(__file__).with_name("static")
log = logging.getLogger("modlights.web")


class TooLarge(ValueError):
    """A request over one of the service's limits (HTTP 400, error "too_large")."""


def _error(status: int, error: str, detail: str) -> JSONResponse:
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
            raise TooLarge(f"graph boards are limited to {limits.MAX_GRAPH_ENTRIES} tap "
                           f"matrix entries (n_cells x n_taps) and {max_tiles} effect "
                           f"entries; got {cells} x {len(effects)}")
        return
    rows, cols = d.get("rows"), d.get("cols")
    if type(rows) is int and type(cols) is int and rows * cols > max_tiles:
        raise TooLarge(f"boards are limited to {max_tiles} tiles here, got {rows}x{cols}"
                       + (f' (with "minimal": false, {limits.MAX_TILES} tiles for 2 '
                          f"states, {limits.MAX_TILES_MULTISTATE} for more)"
                          if max_tiles < limits.MAX_TILES else ""))


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
            raise TooLarge(f"mixed-pattern boards are limited to {limits.MAX_MIXED_TILES} "
                           f"tiles here, got {tiles}")
        if board.pattern is not None and pattern_name(board.pattern) is None \
                and tiles > limits.MAX_CUSTOM_TILES:
            raise TooLarge(f"boards with custom offsets are limited to "
                           f"{limits.MAX_CUSTOM_TILES} tiles here, got {tiles}")
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
    if isinstance(data, int):
        if not 0 <= data < board.states:
            raise ValueError(f"target must be from 0 to {board.states - 1}, got {data}")
        return data
    return _values(data, board, "target")


def _budget(seconds: float | None) -> float:
    if seconds is None:
        return limits.DEFAULT_SEARCH_SECONDS
    return float(min(seconds, limits.MAX_SEARCH_SECONDS))


def _position(pos: Any) -> Any:
    return [int(pos[0]), int(pos[1])] if isinstance(pos, tuple) else int(pos)


# ----------------------------------------------------------------------------- work
def solve(req: SolveRequest) -> dict:
    """POST /api/solve."""
    board = _board(req.board, req.minimal)
    state = _values(req.state, board, "state")
    target = _target(req.target, board)
    budget = _budget(req.budget) if req.minimal else None
    return Solver(board).solve(state, target, minimal=req.minimal, budget=budget).to_dict()


def analyse(req: AnalyseRequest) -> dict:
    """POST /api/analyse."""
    s = Solver(_board(req.board, False))
    return {"rank": int(s.rank), "nullity": int(s.nullity),
            "kernel_size": int(s.kernel_size), "is_invertible": bool(s.is_invertible)}


def hint(req: HintRequest) -> dict:
    """POST /api/hint: the first tap of a minimal plan (null when already solved)."""
    board = _board(req.board, True)
    state = _values(req.state, board, "state")
    moves = Solver(board).solve(state, minimal=True, budget=_budget(None)).moves()
    return {"tap": _position(moves[0]) if moves else None}


def make_puzzle(req: GenerateRequest) -> dict:
    """POST /api/generate."""
    if req.rows * req.cols > limits.MAX_GENERATE_TILES:
        raise TooLarge(f"generated boards are limited to {limits.MAX_GENERATE_TILES} "
                       f"tiles, got {req.rows}x{req.cols}")
    return generate(req.rows, req.cols, req.states, req.pattern, req.difficulty,
                    locked=req.locked, holes=req.holes, wrap=req.wrap, unique=req.unique,
                    seed=req.seed).to_dict()


def encode(req: EncodeRequest) -> dict:
    """POST /api/encode: {"code", "board", "start", "solvable"} of a hand-built grid
    board and start. The start need not be solvable (a playground board may not be);
    nothing is searched, so this stays cheap."""
    _check_board_size(req.board, limits.MAX_PUZZLE_TILES)
    board = Board.from_dict(req.board, max_tiles=limits.MAX_PUZZLE_TILES)
    start = _values(req.start, board, "start")
    p = Puzzle(board, start)                    # ValueError for graph boards
    return {"code": p.code, "board": board.to_dict(), "start": p.start.tolist(),
            "solvable": bool(Solver(board).solvable(start))}


def puzzle_of_code(code: str) -> dict:
    """GET /api/puzzle/{code}."""
    p = Puzzle.from_code(code)
    rows, cols = p.board.shape
    if rows * cols > limits.MAX_PUZZLE_TILES:
        raise TooLarge(f"puzzles served here are limited to {limits.MAX_PUZZLE_TILES} "
                       f"tiles, the code holds a {rows}x{cols} board")
    return p.to_dict()


# ----------------------------------------------------------------------------- the app
def create_app() -> FastAPI:
    """The web service: a FastAPI application (ASGI; run it with uvicorn, or
    ``modlights serve``). JSON endpoints under ``/api``, OpenAPI docs at ``/docs``,
    and the browser game at ``/`` when the package ships it."""
    app = FastAPI(title="modlights", version=__version__,
                  description="Solve, analyse and generate modular Lights Out puzzles.",
                  docs_url=None, redoc_url=None)
    _add_docs(app)
    campaign = Campaign()
    campaign_lock = threading.Lock()     # its level cache and puzzles are shared

    def campaign_level(row: int, col: int, level: int) -> dict:
        with campaign_lock:
            return campaign.level((row, col), level).to_dict()

    async def run(fn: Callable, *args: Any) -> Any:
        return await run_in_threadpool(fn, *args)

    @app.post("/api/solve", summary="Solve a board (fewest taps by default)")
    async def api_solve(req: SolveRequest) -> dict:
        return await run(solve, req)

    @app.post("/api/analyse", summary="Rank, nullity and kernel size of a board's tap matrix")
    async def api_analyse(req: AnalyseRequest) -> dict:
        return await run(analyse, req)

    @app.post("/api/hint", summary="The next tap of a minimal plan")
    async def api_hint(req: HintRequest) -> dict:
        return await run(hint, req)

    @app.post("/api/generate", summary="Generate a puzzle")
    async def api_generate(req: GenerateRequest) -> dict:
        return await run(make_puzzle, req)

    @app.post("/api/encode", summary="The puzzle code of a board and a start")
    async def api_encode(req: EncodeRequest) -> dict:
        return await run(encode, req)

    @app.get("/api/puzzle/{code}", summary="The puzzle of a code")
    async def api_puzzle(code: str) -> dict:
        return await run(puzzle_of_code, code)

    @app.get("/api/daily/{date}", summary="The three daily puzzles of a date (YYYY-MM-DD)")
    async def api_daily(date: str) -> list:
        return await run(lambda: [p.to_dict() for p in daily(date)])

    @app.get("/api/campaign", summary="The campaign's map")
    async def api_campaign() -> dict:
        return {"map_size": MAP_SIZE, "levels_per_group": LEVELS_PER_GROUP,
                "stars_to_open": STARS_TO_OPEN, "seed": campaign.seed}

    @app.get("/api/campaign/{row}/{col}/{level}", summary="A campaign level's puzzle")
    async def api_campaign_level(row: int, col: int, level: int) -> dict:
        return await run(campaign_level, row, col, level)

    @app.get("/api/patterns", summary="The named tap patterns' offsets")
    async def api_patterns() -> dict:
        return {name: [list(o) for o in offs] for name, offs in PATTERNS.items()}

    @app.get("/api/health", summary="Whether the service is up")
    async def api_health() -> dict:
        return {"status": "ok", "version": __version__}

    _add_error_handlers(app)
    app.add_middleware(limits.BodyLimit, max_bytes=limits.MAX_BODY_BYTES)
    if (STATIC_DIR / "index.html").is_file():
        from fastapi.staticfiles import StaticFiles
        # Appended after the API routes and blind to /api/...: a wrong method on an
        # API route stays a JSON 405 and an unknown API path a JSON 404, instead of
        # the static files' answer.
        app.router.routes.append(_GameMount("/", app=StaticFiles(directory=STATIC_DIR,
                                                                 html=True), name="game"))
    return app


def _add_docs(app: FastAPI) -> None:
    """The OpenAPI page at /docs, with Swagger UI's files from the fastapi-offline
    package (a dependency of the web extra; Swagger UI 5 reads OpenAPI 3.1) so it works
    with no internet; FastAPI's default page loads Swagger UI from a CDN, which is the
    fallback when that package is missing."""
    from fastapi.openapi.docs import get_swagger_ui_html
    try:
        import fastapi_offline
        assets_dir = Path(fastapi_offline.__file__).with_name("static")
    except ImportError:                                  # pragma: no cover
        assets_dir = None
    if assets_dir is not None and (assets_dir / "swagger-ui-bundle.js").is_file():
        from fastapi.staticfiles import StaticFiles
        app.mount("/docs-assets", StaticFiles(directory=assets_dir), name="docs-assets")
        assets = {"swagger_js_url": "/docs-assets/swagger-ui-bundle.js",
                  "swagger_css_url": "/docs-assets/swagger-ui.css",
                  "swagger_favicon_url": "/docs-assets/favicon.png"}
    else:
        assets = {}

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        return get_swagger_ui_html(openapi_url=app.openapi_url, title="modlights API",
                                   **assets)


class _GameMount(Mount):
    """The browser game's files at "/", matching every path but those under /api/."""

    def matches(self, scope: Any) -> tuple:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Unsolvable)
    async def unsolvable(_: Request, e: Unsolvable) -> JSONResponse:
        return _error(422, "unsolvable", str(e))

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
        return JSONResponse({"error": code, "detail": str(e.detail)},
                            status_code=e.status_code, headers=getattr(e, "headers", None))

    @app.exception_handler(Exception)
    async def internal(_: Request, e: Exception) -> JSONResponse:
        log.exception("unexpected error")      # logged on the server, never sent
        return _error(500, "internal", "unexpected server error")


def _describe(errors: Any) -> str:
    """pydantic's errors as one short line: 'body.state: Input should be ...; ...'."""
    parts = []
    for err in list(errors)[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    more = len(errors) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
