"""The work of each endpoint, as a worker process runs it: build the request's board
within the limits for its kind of work, call the public modlights API, and answer
JSON-safe data (:func:`as_json` makes the bytes in the worker). The checks that need
nothing built (declared sizes, estimated cost) are here too, run by the event loop
before a worker is asked (:mod:`.app`), and :func:`from_body`, which parses, checks and
works on a body too large for the event loop.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np

from modlights import Board, Campaign, Puzzle, Solver, daily, generate
from modlights.model.patterns import pattern_name
from modlights.web import limits
from modlights.web.limits import TooLarge
from modlights.web.models import (
    AnalyseRequest,
    EncodeRequest,
    GenerateRequest,
    HintRequest,
    SolveRequest,
)


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


def search_budget(seconds: float | None) -> float:
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
        budget = search_budget(req.budget)
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
            describe_errors([{**err, "loc": ("body", *err.get("loc", ()))} for err in e.errors()])
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
    budget = search_budget(None) if budget is None else budget
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
def check_solve(req: SolveRequest) -> None:
    _precheck(req.board, req.minimal)


def check_analyse(req: AnalyseRequest) -> None:
    _precheck(req.board, False)


def check_hint(req: HintRequest) -> None:
    _precheck(req.board, True)


def check_generate(req: GenerateRequest) -> None:
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


def check_encode(req: EncodeRequest) -> None:
    _check_board_size(req.board, limits.MAX_PUZZLE_TILES)
    limits.check_board(req.board)


def _solve_work(req: SolveRequest) -> dict:
    return solve(req, search_budget(req.budget) if req.minimal else None)


def _hint_work(req: HintRequest) -> dict:
    return hint(req, search_budget(None))


#: Each POST route's (request model, the checks before work, the work).
_BODY_ROUTES: dict = {
    "/api/solve": (SolveRequest, check_solve, _solve_work),
    "/api/analyse": (AnalyseRequest, check_analyse, analyse),
    "/api/hint": (HintRequest, check_hint, _hint_work),
    "/api/generate": (GenerateRequest, check_generate, make_puzzle),
    "/api/encode": (EncodeRequest, check_encode, encode),
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


def describe_errors(errors: Any) -> str:
    """pydantic's errors as one short line: 'body.state: Input should be ...; ...'."""
    parts = []
    for err in list(errors)[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    more = len(errors) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
