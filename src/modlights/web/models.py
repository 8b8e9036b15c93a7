"""Request bodies of the web service (pydantic models, strict: no bool for an int, no
float for an int, no unknown fields). A board is ``Board.to_dict()`` data, checked by
``Board.from_dict``; states are nested lists of ints."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from modlights.web.limits import MAX_SEARCH_SECONDS

Pair = Annotated[list[int], Field(min_length=2, max_length=2)]
#: a grid state (rows of ints) or a graph board's state (one int a cell)
StateData = list[list[int]] | list[int]
#: a name, a list of [dr, dc] pairs, or a mixed board's rows of those
PatternData = str | list[Pair] | list[list[str | list[Pair]]]
#: a count (placed by the generator), [row, col] positions, or a boolean mask
PlacementData = int | list[Pair] | list[list[bool]]

_BOARD = (
    "the board as Board.to_dict() gives it: {rows, cols, states, pattern, locked, "
    "holes, wrap} for grids, {effects, states, n_cells} for graph boards"
)


class _Request(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SolveRequest(_Request):
    """POST /api/solve."""

    board: dict[str, Any] = Field(description=_BOARD)
    state: StateData = Field(description="tile states 0..n-1, shaped as the board")
    target: int | StateData = Field(
        0, description="an int (every tile) or a board-shaped array, 0..n-1"
    )
    minimal: bool = Field(True, description="search for the fewest taps")
    budget: float | None = Field(
        None, ge=0, description=f"seconds of minimal search, clamped to {MAX_SEARCH_SECONDS}"
    )


class AnalyseRequest(_Request):
    """POST /api/analyse."""

    board: dict[str, Any] = Field(description=_BOARD)


class HintRequest(_Request):
    """POST /api/hint."""

    board: dict[str, Any] = Field(description=_BOARD)
    state: StateData = Field(description="tile states 0..n-1, shaped as the board")


class EncodeRequest(_Request):
    """POST /api/encode: the puzzle code of a grid board and a start (a hand-built board)."""

    board: dict[str, Any] = Field(description=_BOARD)
    start: StateData = Field(description="tile states 0..n-1, shaped as the board")


class GenerateRequest(_Request):
    """POST /api/generate: the arguments of ``modlights.generate``."""

    rows: int = Field(description="rows of the board")
    cols: int = Field(description="columns of the board")
    states: int = Field(2, description="states per tile, 2..255")
    pattern: PatternData = Field(
        "cross",
        description="a pattern name, [dr, dc] offsets, or a rows x cols nested list of those",
    )
    difficulty: str = Field("medium", description="easy, medium, hard or expert")
    locked: PlacementData | None = Field(
        None, description="how many tiles to lock, or their positions / mask"
    )
    holes: PlacementData | None = Field(
        None, description="how many holes, or their positions / mask"
    )
    wrap: bool = Field(False, description="the board is a torus")
    unique: bool = Field(True, description="every start has exactly one solution")
    seed: int | Annotated[str, Field(max_length=200)] | None = Field(
        None, description="the same seed gives the same puzzle; none: a random one"
    )
