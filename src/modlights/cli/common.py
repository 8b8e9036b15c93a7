"""Shared parts of the ``modlights`` command: exit codes, argument parsing, the
board options, text output and the puzzle helpers several commands use."""

from __future__ import annotations

import argparse
import math
import re
import secrets
import sys
from typing import Any

import numpy as np

from modlights.model.board import Board
from modlights.model.patterns import PATTERNS, pattern_name
from modlights.model.validation import as_int
from modlights.play.prng import seed_from
from modlights.play.puzzles import DIFFICULTIES, Puzzle, generate
from modlights.solver import Solver

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_USAGE = 2

_LEGEND = (
    "legend: '.' hole (not a tile), '*' after a value: locked tile (changed by taps, "
    "cannot be tapped)"
)

_MASK_HELP = """\
  --locked and --holes name tiles: a 0/1 mask (row-major, rows*cols long, e.g.
  "000/010/000") or positions "r,c;r,c" (0-based). Custom pattern offsets that begin
  with '-' need an '=': --pattern="-1,0;1,0", or argparse takes them for an option.
"""

_BOARD_HELP = (
    """\
input formats:
  The board is --grid ROWSxCOLS with its options (--states, --pattern, --locked,
  --holes, --wrap), or a puzzle code with --code CODE: one of the two is required.
  A state or target string lists the tiles row by row (row-major) as digits, e.g.
  "012 210 001"; whitespace, '/' and newlines between rows are ignored and '.' may
  stand for a hole. For more than 10 states give the values as integers separated by
  commas or spaces, e.g. "10,0,3,12".
"""
    + _MASK_HELP
)

_GENERATE_HELP = """\
locked tiles and holes:
  --locked and --holes name the tiles, as in 'modlights solve': a 0/1 mask (row-major,
  e.g. "0000/0100/0000/0000") or positions "r,c;r,c" (0-based). --locked-count K and
  --holes-count K ask for K of them instead, placed by the seeded generator. With none
  of the four, as few tiles are locked as make the solution unique (unless
  --no-unique).
"""


#: With --svg / --png, boards of more tiles than this are not printed as text grids.
_PRINT_TILES_WITH_PICTURE = 10_000


class _UserError(ValueError):
    """Bad command-line input (reported like any ValueError: exit 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``modlights solve: error: ... (see --help)``.

    argparse puts "argument --states: " before the message of a ``type`` function; the
    messages of this package's types name their flag themselves ("--states must be from
    2 to 255, got 1"), so that prefix is dropped rather than said twice."""

    def error(self, message: str):
        message = " ".join(str(message).split())  # one line, whatever the message holds
        m = re.match(r"argument ([^:]+): (.*)", message)
        if m and m.group(2).startswith(tuple(m.group(1).split("/"))):
            message = m.group(2)
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


#: Most decimal digits printed for a count (|ker A|, solutions); larger counts print as
#: their factorisation (Python refuses int -> str past 4300 digits by default, and the
#: conversion is quadratic).
MAX_COUNT_DIGITS = 4000


def _count_text(k: int) -> str:
    """An exact count as text: decimal up to MAX_COUNT_DIGITS digits, else its prime
    factorisation (a kernel size's primes divide n <= 255) and its digit count, e.g.
    ``2^14301 (4306 digits)``. O(bits x primes) for the large ones."""
    k = int(k)
    if k.bit_length() * 0.30103 < MAX_COUNT_DIGITS:
        return str(k)
    parts, rest = [], k
    for p in range(2, 256):
        if rest == 1:
            break
        if any(p % d == 0 for d in range(2, int(p**0.5) + 1)) or rest % p:
            continue
        e = 0
        while rest % p == 0:  # strip p^(2^j), the largest that divides: few divisions
            step, j = p, 1
            while rest % (step * step) == 0:
                step, j = step * step, 2 * j
            rest, e = rest // step, e + j
        parts.append(f"{p}^{e}" if e > 1 else str(p))
    if rest != 1:
        parts.append(f"(a factor of {rest.bit_length()} bits)")
    digits = int(k.bit_length() * 0.30102999566398120) + 1
    return f"{' * '.join(parts)} (about {digits} digits)"


def _json_dumps(doc: Any) -> str:
    """json.dumps that writes integers of any size (Python's int -> str limit lifted
    for this call only): the CLI's --json output keeps exact counts."""
    import json

    old = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    if old is not None:
        sys.set_int_max_str_digits(0)
    try:
        return json.dumps(doc)
    finally:
        if old is not None:
            sys.set_int_max_str_digits(old)


def _int_arg(what: str, lo: int | None = None, hi: int | None = None):
    """An argparse ``type`` for whole numbers, through the library's one integer
    check (:func:`modlights.model.validation.as_int`): any size, range-checked exactly."""

    def parse(text: str) -> int:
        t = text.strip()
        if not re.fullmatch(r"[+-]?\d{1,4000}", t):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}")
        try:
            return as_int(int(t), what, lo, hi)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def _parse_grid(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not m:
        raise _UserError(f"--grid must be ROWSxCOLS such as 5x5, got {text!r}")
    rows, cols = int(m.group(1)), int(m.group(2))
    if rows < 1 or cols < 1:
        raise _UserError(f"--grid needs at least one row and one column, got {text!r}")
    return rows, cols


def _parse_pattern(text: str) -> Any:
    """A pattern name, or offsets "dr,dc;dr,dc;..."."""
    key = text.strip().lower()
    if key in PATTERNS:
        return key
    if not re.search(r"\d", text):
        names = ", ".join(PATTERNS)
        raise _UserError(
            f'unknown pattern {text!r}: use one of {names}, or offsets such as "0,0;-1,0;1,0"'
        )
    offsets = _int_pairs(
        text,
        True,
        lambda part: (
            f"bad pattern offset {part!r} in {text!r}: offsets are "
            '"dr,dc" pairs separated by \';\', e.g. "0,0;-1,0;1,0"'
        ),
    )
    if not offsets:
        raise _UserError(f"pattern {text!r} lists no offsets")
    return offsets


def _int_pairs(text: str, signed: bool, bad: Any) -> list:
    """Integer pairs "a,b;a,b" (optional parentheses, ';' or spaces between pairs);
    bad(part) gives the message of the _UserError raised for a malformed pair."""
    num = r"([+-]?\d+)" if signed else r"(\d+)"
    pairs = []
    for part in re.split(r"[;\s]+", text.strip()):
        if not part:
            continue
        m = re.fullmatch(rf"\(?\s*{num}\s*,\s*{num}\s*\)?", part)
        if not m:
            raise _UserError(bad(part))
        pairs.append((int(m.group(1)), int(m.group(2))))
    return pairs


def _parse_values(text: str, rows: int, cols: int, n: int, what: str) -> np.ndarray:
    """A (rows, cols) array of tile values 0..n-1 from a state string.

    Digits one per tile (whitespace, '/', newlines ignored; '.' = 0, for holes), or
    integers separated by commas / whitespace / '/' (needed for n > 10).
    """
    cells = rows * cols
    tokens = [t for t in re.split(r"[\s,/;]+", text.strip()) if t]
    if "," in text or (len(tokens) == cells and any(len(t) > 1 for t in tokens)):
        mode = "integers"
    else:
        mode = "digits"
        tokens = [ch for ch in "".join(tokens)]
    values = []
    for tok in tokens:
        if tok == ".":
            values.append(0)
            continue
        if not re.fullmatch(r"\d{1,4000}", tok):
            hint = (
                "digits 0-9 (and '.' for a hole)"
                if mode == "digits"
                else "non-negative integers separated by commas or spaces"
            )
            raise _UserError(f"{what}: {tok!r} is not a tile value; use {hint}")
        values.append(int(tok))
    if len(values) != cells:
        raise _UserError(
            f"{what} has {len(values)} values, the {rows}x{cols} board has "
            f"{cells} tiles (give one value per tile, row by row)"
        )
    # checked as Python ints, before any fixed-width array (no overflow for huge values)
    bad = next((i for i, v in enumerate(values) if v >= n), None)
    if bad is not None:
        shown = tokens[bad] if len(tokens[bad]) <= 12 else tokens[bad][:9] + "..."
        raise _UserError(
            f"{what}: value {shown} at tile ({bad // cols}, {bad % cols}) is out "
            f"of range for {n} states (0..{n - 1})"
            + (
                "; for more than 10 states separate values with commas"
                if n > 10 and mode == "digits"
                else ""
            )
        )
    return np.array(values, dtype=np.int64).reshape(rows, cols)


def _parse_mask(text: str, rows: int, cols: int, what: str, count_flag: str | None = None) -> Any:
    """A 0/1 mask string (row-major) or positions "r,c;r,c" -> something Board.grid takes.

    ``count_flag`` (generate, play: "--locked-count"): a plain number that is no mask of
    this board, which those commands once read as a count, is refused with a message
    naming that flag (it never silently becomes a mask or a count)."""
    if "," in text:
        return _int_pairs(
            text,
            False,
            lambda part: (
                f"{what}: bad position {part!r}; positions are 0-based "
                '"row,col" pairs separated by \';\', e.g. "0,0;2,1"'
            ),
        )
    bits = re.sub(r"[\s/]+", "", text)
    if re.fullmatch(r"[01]*", bits) and len(bits) == rows * cols:
        return np.array([c == "1" for c in bits], dtype=bool).reshape(rows, cols)
    if count_flag is not None and re.fullmatch(r"\s*\d+\s*", text):
        raise _UserError(
            f'{what} names tiles (a 0/1 mask or positions "r,c;r,c"); for a number of '
            f"tiles use {count_flag} {text.strip()}"
        )
    if not re.fullmatch(r"[01]*", bits):
        raise _UserError(
            f'{what} must be a 0/1 mask such as "010/111/010" or positions "r,c;r,c", got {text!r}'
        )
    raise _UserError(
        f"{what} mask has {len(bits)} entries, the {rows}x{cols} board has {rows * cols} tiles"
    )


def _parse_target(text: str, rows: int, cols: int, n: int) -> Any:
    t = text.strip()
    # A single tile value (0..n-1) means "every tile ends in that state".
    if re.fullmatch(r"\d+", t) and len(t) <= len(str(n - 1)) and int(t) < n:
        return int(t)
    if re.fullmatch(r"-\d+", t) or (
        re.fullmatch(r"\d+", t) and (rows * cols == 1 or len(t) <= len(str(n - 1)))
    ):
        raise _UserError(f"--target {t} is out of range for {n} states (0..{n - 1})")
    return _parse_values(t, rows, cols, n, "--target")


#: The forms of --budget, as its messages name them (hardest takes the seconds form only).
_BUDGET_FORMS = "a count of solutions to examine (e.g. 100000) or seconds with an 's' (e.g. 2s)"


def _parse_budget(text: str) -> int | float:
    """``--budget COUNT|SECONDSs``, the one budget grammar of the command: a whole
    number is a count of solutions to examine (an int), a number followed by 's' is
    seconds (a float, finite, >= 0). argparse ``type``: ArgumentTypeError (exit 2, one
    line) naming both forms for anything else. O(len(text))."""
    t = text.strip().lower()
    try:
        if t.endswith("s"):
            v = float(t[:-1])
            if not (v >= 0 and math.isfinite(v)):
                raise ValueError
            return v
        if not re.fullmatch(r"\+?\d{1,4000}", t):
            raise ValueError
        return int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--budget must be {_BUDGET_FORMS}, got {text!r}"
        ) from None


def _parse_seconds_budget(text: str) -> float:
    """``--budget SECONDSs`` of a command that limits time only (``hardest``): the
    seconds form of :func:`_parse_budget`. A bare number, which is a count of solutions
    in that grammar (and was seconds in ``hardest`` once), is refused with a
    message naming the seconds spelling, never read as either."""
    try:
        v = _parse_budget(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"--budget must be seconds with an 's' (e.g. 120s), got {text!r}"
        ) from None
    if isinstance(v, int):
        raise argparse.ArgumentTypeError(
            f"--budget here is seconds, written with an 's': --budget {v}s "
            f"(a bare number is a count of solutions, which only 'modlights solve' takes)"
        )
    return v


#: The most characters of a text seed (a longer one is a mistake, not a seed).
MAX_SEED_TEXT = 1000


def _parse_seed(text: str) -> int | str:
    """``--seed INT|TEXT``, the one seed grammar of the command: a whole number (any
    size, a sign allowed) is an int, anything else non-empty is text. argparse
    ``type``; ArgumentTypeError for empty or overlong text. The same seed gives the
    same result on every machine: :func:`modlights.generate` takes either, and
    :func:`_rng_seed` turns it into NumPy's seed."""
    t = text.strip()
    if re.fullmatch(r"[+-]?\d{1,4000}", t):
        return int(t)
    if not t or len(t) > MAX_SEED_TEXT:
        raise argparse.ArgumentTypeError(
            f"--seed must be a whole number or text of 1 to {MAX_SEED_TEXT} characters, "
            f"got {text[:40]!r}{'...' if len(text) > 40 else ''}"
        )
    return t


def _rng_seed(seed: int | str) -> int:
    """A NumPy seed (an int >= 0) from a ``--seed`` value: a non-negative int is itself
    (so a seed keeps the state it gave when --seed took only those), a negative int or
    text goes through :func:`modlights.play.prng.seed_from` (the generator's own
    mapping: mod 2**64, SHA-256 of the text)."""
    if isinstance(seed, int) and seed >= 0:
        return seed
    return seed_from(seed)


def _build_board(args: argparse.Namespace) -> Board:
    if getattr(args, "code", None) is not None:
        if args.grid is not None:
            raise _UserError("give the board either as --code CODE or with --grid, not both")
        return Puzzle.from_code(args.code).board
    if args.grid is None:
        raise _UserError(
            "give the board with --grid ROWSxCOLS (e.g. --grid 5x5) or a "
            "puzzle code with --code CODE"
        )
    rows, cols = _parse_grid(args.grid)
    pattern = _parse_pattern(args.pattern)
    locked = _parse_mask(args.locked, rows, cols, "--locked") if args.locked else None
    holes = _parse_mask(args.holes, rows, cols, "--holes") if args.holes else None
    return Board.grid(rows, cols, args.states, pattern, locked=locked, holes=holes, wrap=args.wrap)


def _offsets_text(offs) -> str:
    """A pattern's name, or its offsets as "dr,dc;dr,dc" (as --pattern takes them)."""
    return pattern_name(offs) or ";".join(f"{dr},{dc}" for dr, dc in offs)


def _pattern_text(board: Board) -> str:
    if board.pattern is None:  # a mixed board (puzzle codes hold them)
        return "mixed (one pattern per tile)"
    return _offsets_text(board.pattern)


def _format_grid(board: Board, values: np.ndarray) -> list[str]:
    """Rows of text: values right-aligned, '.' at holes, '*' after locked tiles."""
    n = board.states
    width = len(str(n - 1))
    locked, holes = board.locked, board.holes
    mark = bool(locked.any())
    lines = []
    for r in range(values.shape[0]):
        cells = []
        for c in range(values.shape[1]):
            text = "." if holes[r, c] else str(int(values[r, c]))
            text = text.rjust(width)
            if mark:
                text += "*" if locked[r, c] else " "
            cells.append(text)
        lines.append("  " + " ".join(cells).rstrip())
    return lines


def _describe(board: Board) -> str:
    rows, cols = board.shape
    extra = []
    if board.wrap:
        extra.append("wrapped (torus)")
    k = rows * cols - board.n_cells  # holes (no mask: giant boards)
    if k:
        extra.append(f"{k} hole{'s' * (k != 1)}")
    if board.n_cells - board.n_taps:
        extra.append(f"{board.n_cells - board.n_taps} locked")
    tail = (", " + ", ".join(extra)) if extra else ""
    return f"{rows}x{cols} board, {board.states} states, pattern {_pattern_text(board)}{tail}"


def _board_json(board: Board) -> dict:
    return board.to_dict()


def _add_code_option(g: Any, help: str) -> None:
    """``--code CODE``: a puzzle code (every command that reads one spells it so)."""
    g.add_argument("--code", metavar="CODE", help=help)


def _add_date_option(g: Any, help: str) -> None:
    """``--date YYYY-MM-DD``: the day of the daily puzzles (``daily``, ``play --daily``)."""
    g.add_argument("--date", metavar="YYYY-MM-DD", help=help)


def _add_shape_options(g: Any, grid_help: str, grid_default: str | None = None) -> None:
    """The options that describe a board, one meaning in every command: ``--grid
    ROWSxCOLS``, ``--states N``, ``--pattern NAME|OFFSETS``, ``--locked MASK|POSITIONS``,
    ``--holes MASK|POSITIONS``, ``--wrap``."""
    g.add_argument("--grid", metavar="ROWSxCOLS", default=grid_default, help=grid_help)
    g.add_argument(
        "--states",
        metavar="N",
        type=_int_arg("--states", 2, 255),
        default=2,
        help="states per tile, 2..255 (default: 2, classic Lights Out)",
    )
    g.add_argument(
        "--pattern",
        default="cross",
        metavar="NAME|OFFSETS",
        help=f"what a tap changes: one of {', '.join(PATTERNS)}, or offsets "
        '"dr,dc;dr,dc" (include 0,0 for the tapped tile itself) '
        "(default: cross)",
    )
    g.add_argument(
        "--locked",
        metavar="MASK|POSITIONS",
        help="tiles that cannot be tapped (taps still change them): a 0/1 mask or "
        'positions "r,c;r,c"',
    )
    g.add_argument(
        "--holes",
        metavar="MASK|POSITIONS",
        help='positions with no tile at all: a 0/1 mask or positions "r,c;r,c"',
    )
    g.add_argument(
        "--wrap", action="store_true", help="the board is a torus: patterns wrap around the edges"
    )


def _add_board_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("board")
    _add_code_option(
        g,
        "a puzzle code (from 'modlights generate'): the board and, for "
        "solve, the start state; instead of --grid and its options",
    )
    _add_shape_options(g, "board size, e.g. 5x5 (required unless --code)")
    g.add_argument(
        "--backend",
        choices=("native", "reference"),
        default="native",
        help="solver engine (default: native; reference is pure NumPy)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _add_seed_option(g: Any, help: str, default: Any = None) -> None:
    """``--seed INT|TEXT`` (:func:`_parse_seed`), in every command that takes a seed."""
    g.add_argument("--seed", metavar="INT|TEXT", type=_parse_seed, default=default, help=help)


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _puzzle_lines(p: Puzzle, label: str = "") -> list[str]:
    b = p.board
    solver = p.solver
    lines = [(label + ": " if label else "") + _describe(b)]
    if b.locked.any() or b.holes.any():
        lines.append(_LEGEND)
    lines.append("")
    lines.append("start:")
    lines.extend(_format_grid(b, p.start))
    lines.append("")
    proof = "proved" if p.proven else "best found, not proved"
    lines.append(f"fewest taps: {p.min_taps} ({proof})")
    lines.append(
        "solutions:   "
        + (
            "unique"
            if solver.is_unique
            else f"{solver.kernel_size} (|ker A| = {solver.kernel_size})"
        )
    )
    lines.append(f"difficulty:  {p.difficulty} (score {p.score:.2f})")
    st = p.stars
    lines.append(f"stars:       3 at <= {st[3]} taps, 2 at <= {st[2]}, 1 at <= {st[1]}")
    lines.append(f"code:        {p.code}")
    lines.append(f"play:        modlights play --code {p.code}")
    return lines


def _puzzle_json(p: Puzzle) -> dict:
    """p.to_dict() with the board's fields also at the top level (the flat layout of
    the CLI's JSON output) and the kernel size and score."""
    doc = _board_json(p.board)
    doc.update(p.to_dict())
    doc.update({"kernel_size": p.solver.kernel_size, "score": round(p.score, 4)})
    return doc


def _generate_options(args: argparse.Namespace, rows: int, cols: int) -> tuple[Any, Any]:
    """``locked`` and ``holes`` for :func:`modlights.generate` from ``--locked`` /
    ``--locked-count`` and ``--holes`` / ``--holes-count`` (None when neither is given).
    ValueError when both spellings of one are given, or for a bad mask."""
    out = []
    for name in ("locked", "holes"):
        tiles, count = getattr(args, name), getattr(args, f"{name}_count")
        if tiles is not None and count is not None:
            raise _UserError(f"give --{name} (which tiles) or --{name}-count (how many), not both")
        if tiles is not None:
            out.append(_parse_mask(tiles, rows, cols, f"--{name}", f"--{name}-count"))
        else:
            out.append(count)
    return out[0], out[1]


def _generate_from_args(args: argparse.Namespace) -> tuple[Puzzle, str]:
    """A puzzle from the generate options; a note when locks were added for uniqueness."""
    rows, cols = _parse_grid(args.grid)
    pattern = _parse_pattern(args.pattern)
    locked, holes = _generate_options(args, rows, cols)
    seed = args.seed
    if seed is None:
        seed = secrets.randbelow(1 << 32)
    kw = dict(
        rows=rows,
        cols=cols,
        states=args.states,
        pattern=pattern,
        difficulty=args.difficulty,
        wrap=args.wrap,
        unique=not args.no_unique,
        seed=seed,
    )
    auto = locked is None and holes is None and not args.no_unique
    try:
        return generate(
            locked=0 if locked is None else locked, holes=0 if holes is None else holes, **kw
        ), f"seed {seed}"
    except ValueError as e:
        if not auto or "unique" not in str(e):
            raise
        first = e
    # No counts given: lock as few tiles as make the solution unique. Each lock lowers
    # dim ker A by at most one, so start at the nullity.
    full = Solver(Board.grid(rows, cols, args.states, pattern, wrap=args.wrap))
    lo = max(1, full.nullity)
    for k in range(lo, min(rows * cols - 1, lo + 3) + 1):
        try:
            p = generate(locked=k, holes=0, **kw)
        except ValueError:
            continue
        return p, (
            f"seed {seed}; {k} tile{'s' * (k != 1)} locked so that the solution is "
            "unique (--locked-count/--holes-count choose counts, --no-unique allows several)"
        )
    raise _UserError(f"{first}; locking {lo} to {lo + 3} tiles did not help either")


def _add_generate_options(p: argparse.ArgumentParser, grid_default: str | None) -> None:
    g = p.add_argument_group("puzzle")
    _add_shape_options(g, f"board size (default: {grid_default or '5x5'})", grid_default)
    g.add_argument(
        "--locked-count",
        metavar="K",
        type=_int_arg("--locked-count", 0),
        help="how many tiles to lock, placed by the generator (default: as few as make "
        "the solution unique, often none)",
    )
    g.add_argument(
        "--holes-count",
        metavar="K",
        type=_int_arg("--holes-count", 0),
        help="how many holes, placed by the generator (default: 0)",
    )
    g.add_argument(
        "--difficulty",
        default="medium",
        choices=DIFFICULTIES,
        help="easy, medium, hard or expert (default: medium)",
    )
    g.add_argument(
        "--no-unique", action="store_true", help="allow boards with several solutions (|ker A| > 1)"
    )
    _add_seed_option(g, "the same seed gives the same puzzle on every machine (default: random)")
