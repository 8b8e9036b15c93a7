"""The ``modlights`` command: solve and analyse boards from the shell.

``main(argv)`` parses ``argv`` (default ``sys.argv[1:]``) and returns the exit code:
0 on success, 1 when the board cannot be solved, 2 for bad input (any ValueError
from the library, or arguments argparse rejects). User errors never print a
traceback: a one-line message goes to stderr.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import secrets
import sys
from typing import Any, Sequence

import numpy as np

from . import render
from .board import Board
from .game import Game, PlayScreen
from .patterns import PATTERNS, pattern_name
from .puzzles import DIFFICULTIES, Puzzle, daily, generate
from .solver import Solver, Unsolvable
from .validation import as_int, read_limited

__all__ = ["main", "build_parser"]

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_USAGE = 2

_LEGEND = "legend: '.' hole (not a tile), '*' after a value: locked tile (changed by taps, cannot be tapped)"

_BOARD_HELP = """\
input formats:
  --grid ROWSxCOLS is required. A state or target string lists the tiles row by row
  (row-major) as digits, e.g. "012 210 001"; whitespace, '/' and newlines between
  rows are ignored and '.' may stand for a hole. For more than 10 states give the
  values as integers separated by commas or spaces, e.g. "10,0,3,12". A mask for
  --locked/--holes is a string of 0/1 (row-major, rows*cols long, e.g. "000/010/000")
  or a list of positions "r,c;r,c" (0-based). Custom pattern offsets that begin
  with '-' need an '=': --pattern="-1,0;1,0", or argparse takes them for an option.
"""

_SOLVE_EPILOG = _BOARD_HELP + """
output:
  The board and the taps are printed as grids in the same layout: '.' marks a
  hole and a trailing '*' a locked tile. The taps grid gives the number of times to
  tap each tile (order does not matter). Then the total number of taps and whether
  it is proved to be the fewest possible.

exit codes:
  0 solved, 1 the board cannot reach the target, 2 bad input.

examples:
  modlights solve --grid 3x3 --state 011110110
  modlights solve --grid 5x5 --states 3 --seed 7
  modlights solve --grid 4x4 --states 5 --pattern square --wrap --seed 1 --json
  modlights solve --grid 3x3 --state "000 000 000" --target 1
  modlights solve --grid 3x4 --pattern "0,0;0,1;1,0" --state 110010000000
  modlights solve --grid 4x4 --holes "0,0;3,3" --locked 0100000000000000 --seed 2
  modlights solve --grid 6x6 --states 4 --seed 3 --budget 2s
"""

_INFO_EPILOG = _BOARD_HELP + """
output:
  n (states), tiles (rows of the tap matrix A), taps (columns of A), rank and
  nullity of A (for composite n, nullity counts the generators of ker A), |ker A|
  (how many tap combinations leave every tile unchanged; every solvable state has
  exactly that many solutions), whether solutions are unique, whether A is
  invertible, and det A mod n (only for a square A).

examples:
  modlights info --grid 5x5
  modlights info --grid 4x4 --states 3 --pattern diagonal
  modlights info --grid 6x6 --states 6 --wrap --json
"""


#: With --svg / --png, boards of more tiles than this are not printed as text grids.
_PRINT_TILES_WITH_PICTURE = 10_000


class _UserError(ValueError):
    """Bad command-line input (reported like any ValueError: exit 2)."""


#: the most bytes ``modlights check`` reads from a file or standard input (a pack of
#: thousands of the longest puzzle codes); more is refused, never read without end
MAX_CHECK_BYTES = 64 << 20


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``modlights solve: error: ... (see --help)``."""

    def error(self, message: str):
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _int_arg(what: str, lo: int | None = None, hi: int | None = None):
    """An argparse ``type`` for whole numbers, through the library's one integer
    check (:func:`modlights.validation.as_int`): any size, range-checked exactly."""
    def parse(text: str) -> int:
        t = text.strip()
        if not re.fullmatch(r"[+-]?\d{1,4000}", t):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}")
        try:
            return as_int(int(t), what, lo, hi)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    parse.__name__ = what           # argparse names the type in some messages
    return parse


# ----------------------------------------------------------------------------- parsing
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
        raise _UserError(f"unknown pattern {text!r}: use one of {names}, "
                         "or offsets such as \"0,0;-1,0;1,0\"")
    offsets = _int_pairs(text, True, lambda part: (
        f"bad pattern offset {part!r} in {text!r}: offsets are "
        "\"dr,dc\" pairs separated by ';', e.g. \"0,0;-1,0;1,0\""))
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
    for i, tok in enumerate(tokens):
        if tok == ".":
            values.append(0)
            continue
        if not re.fullmatch(r"\d{1,4000}", tok):
            hint = ("digits 0-9 (and '.' for a hole)" if mode == "digits"
                    else "non-negative integers separated by commas or spaces")
            raise _UserError(f"{what}: {tok!r} is not a tile value; use {hint}")
        values.append(int(tok))
    if len(values) != cells:
        raise _UserError(f"{what} has {len(values)} values, the {rows}x{cols} board has "
                         f"{cells} tiles (give one value per tile, row by row)")
    # checked as Python ints, before any fixed-width array (no overflow for huge values)
    bad = next((i for i, v in enumerate(values) if v >= n), None)
    if bad is not None:
        shown = tokens[bad] if len(tokens[bad]) <= 12 else tokens[bad][:9] + "..."
        raise _UserError(f"{what}: value {shown} at tile ({bad // cols}, {bad % cols}) is out "
                         f"of range for {n} states (0..{n - 1})"
                         + ("; for more than 10 states separate values with commas"
                            if n > 10 and mode == "digits" else ""))
    return np.array(values, dtype=np.int64).reshape(rows, cols)


def _parse_mask(text: str, rows: int, cols: int, what: str) -> Any:
    """A 0/1 mask string (row-major) or positions "r,c;r,c" -> something Board.grid takes."""
    if "," in text:
        return _int_pairs(text, False, lambda part: (
            f"{what}: bad position {part!r}; positions are 0-based "
            "\"row,col\" pairs separated by ';', e.g. \"0,0;2,1\""))
    bits = re.sub(r"[\s/]+", "", text)
    if not re.fullmatch(r"[01]*", bits):
        raise _UserError(f"{what} must be a 0/1 mask such as \"010/111/010\" or positions "
                         f"\"r,c;r,c\", got {text!r}")
    if len(bits) != rows * cols:
        raise _UserError(f"{what} mask has {len(bits)} entries, the {rows}x{cols} board has "
                         f"{rows * cols} tiles")
    return np.array([c == "1" for c in bits], dtype=bool).reshape(rows, cols)


def _parse_target(text: str, rows: int, cols: int, n: int) -> Any:
    t = text.strip()
    # A single tile value (0..n-1) means "every tile ends in that state".
    if re.fullmatch(r"\d+", t) and len(t) <= len(str(n - 1)) and int(t) < n:
        return int(t)
    if re.fullmatch(r"-\d+", t) or (re.fullmatch(r"\d+", t) and
                                     (rows * cols == 1 or len(t) <= len(str(n - 1)))):
        raise _UserError(f"--target {t} is out of range for {n} states (0..{n - 1})")
    return _parse_values(t, rows, cols, n, "--target")


def _parse_budget(text: str) -> Any:
    t = text.strip().lower()
    try:
        if t.endswith("s"):
            v = float(t[:-1])
            if not v >= 0:
                raise ValueError
            return v
        v = int(t)
        if v < 0:
            raise ValueError
        return v
    except ValueError:
        raise _UserError(f"--budget must be a count of solutions to examine (e.g. 100000) "
                         f"or seconds with an 's' (e.g. 2s), got {text!r}") from None


def _build_board(args: argparse.Namespace) -> Board:
    if getattr(args, "code", None) is not None:
        if args.grid is not None:
            raise _UserError("give the board either as --code CODE or with --grid, not both")
        return Puzzle.from_code(args.code).board
    if args.grid is None:
        raise _UserError("give the board with --grid ROWSxCOLS (e.g. --grid 5x5) or a "
                         "puzzle code with --code CODE")
    rows, cols = _parse_grid(args.grid)
    pattern = _parse_pattern(args.pattern)
    locked = _parse_mask(args.locked, rows, cols, "--locked") if args.locked else None
    holes = _parse_mask(args.holes, rows, cols, "--holes") if args.holes else None
    return Board.grid(rows, cols, args.states, pattern, locked=locked, holes=holes,
                      wrap=args.wrap)


# ----------------------------------------------------------------------------- output
def _offsets_text(offs) -> str:
    """A pattern's name, or its offsets as "dr,dc;dr,dc" (as --pattern takes them)."""
    return pattern_name(offs) or ";".join(f"{dr},{dc}" for dr, dc in offs)


def _pattern_text(board: Board) -> str:
    if board.pattern is None:                      # a mixed board (puzzle codes hold them)
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
    k = rows * cols - board.n_cells                  # holes (no mask: giant boards)
    if k:
        extra.append(f"{k} hole{'s' * (k != 1)}")
    if board.n_cells - board.n_taps:
        extra.append(f"{board.n_cells - board.n_taps} locked")
    tail = (", " + ", ".join(extra)) if extra else ""
    return f"{rows}x{cols} board, {board.states} states, pattern {_pattern_text(board)}{tail}"


def _board_json(board: Board) -> dict:
    return board.to_dict()


# ----------------------------------------------------------------------------- commands
def _cmd_solve(args: argparse.Namespace, out) -> int:
    board = _build_board(args)
    rows, cols = board.shape
    n = board.states
    budget = _parse_budget(args.budget) if args.budget is not None else None
    target = _parse_target(args.target, rows, cols, n) if args.target is not None else 0
    seed = None
    if args.state is not None:
        if args.seed is not None:
            raise _UserError("give either --state or --seed (a random state), not both")
        state = _parse_values(args.state, rows, cols, n, "--state")
    elif args.code is not None and args.seed is None:
        state = Puzzle.from_code(args.code).start
    else:
        seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
        # A state solvable to all zeros, shifted by the target, is solvable to the target.
        s0 = board.random_state(rng=seed, solvable=True)
        if not (isinstance(target, int) and target == 0):   # int64 only when shifted
            s0 = s0.astype(np.int64) + board.coerce_target(target)
        state = board.coerce_state(s0)
    state = board.coerce_state(state)
    pictures = dict(svg=args.svg, png=args.png)
    render.check_pictures(board, **pictures)        # before the work: size, Pillow
    solver = Solver(board, backend=args.backend)
    sol = solver.solve(state, target, minimal=not args.no_minimal, budget=budget)
    taps = np.asarray(sol.taps)
    written = render.write_pictures(board, state, taps, **pictures)
    if args.json:
        doc = _board_json(board)
        doc.update({
            "state": state.tolist(),
            "seed": seed,
            "target": target if isinstance(target, int) else np.asarray(target).tolist(),
            "minimal_search": not args.no_minimal,
        })
        doc.update(sol.to_dict())
        print(json.dumps(doc), file=out)
        return EXIT_OK
    p = lambda *a: print(*a, file=out)  # noqa: E731
    if written and rows * cols > _PRINT_TILES_WITH_PICTURE:     # the picture shows them
        skipped = f"  (not printed: {rows * cols} tiles; see {', '.join(written)})"
        grid = lambda v: [skipped]  # noqa: E731
    else:
        grid = lambda v: _format_grid(board, v)  # noqa: E731
    head = _describe(board)
    if isinstance(target, int):
        head += f", target {target}" + (" (all off)" if target == 0 else "")
    else:
        head += ", target: a board (below)"
    p(head)
    if seed is not None:
        p(f"random solvable state, seed {seed} (repeat it with --seed {seed})")
    if board.locked.any() or board.holes.any():
        p(_LEGEND)
    p()
    p("state:")
    for line in grid(state):
        p(line)
    if not isinstance(target, int):
        p()
        p("target:")
        for line in grid(board.coerce_target(target)):
            p(line)
    p()
    p("taps (times to tap each tile):")
    for line in grid(taps):
        p(line)
    p()
    p(f"taps: {sol.length}")
    if sol.proven_minimal:
        why = "the solution is unique" if solver.is_unique else \
            f"all {solver.kernel_size} solutions compared"
        p(f"minimal: yes, proved ({why})")
    elif args.no_minimal:
        p(f"minimal: not searched (--no-minimal; {solver.kernel_size} solutions exist)")
    else:
        p(f"minimal: not proved (best found within the search budget; "
          f"{solver.kernel_size} solutions exist; raise --budget to search more)")
    for path in written:
        p(f"picture: {path}")
    return EXIT_OK


def _cmd_info(args: argparse.Namespace, out) -> int:
    board = _build_board(args)
    solver = Solver(board, backend=args.backend)
    n = board.states
    square = board.n_cells == board.n_taps
    det, det_note = None, "n/a (not square)"
    if square:
        try:
            det = solver.det()
        except ValueError:          # a chase-solved board too large for a dense det
            det_note = "n/a (the board is too large for a dense determinant)"
    info = {
        "n": n,
        "tiles": board.n_cells,
        "taps": board.n_taps,
        "rank": solver.rank,
        "nullity": solver.nullity,
        "kernel_size": solver.kernel_size,
        "unique": solver.is_unique,
        "invertible": solver.is_invertible,
        "det": det,
    }
    if args.json:
        doc = _board_json(board)
        doc.update(info)
        doc["engine"] = solver.engine
        print(json.dumps(doc), file=out)
        return EXIT_OK
    prime = all(n % d for d in range(2, int(n ** 0.5) + 1))
    yn = lambda v: "yes" if v else "no"  # noqa: E731
    rows = [
        ("board", _describe(board)),
        ("n", str(n)),
        ("tiles", str(board.n_cells)),
        ("taps", str(board.n_taps)),
        ("rank", str(info["rank"]) + ("" if prime else " (n_taps - nullity)")),
        ("nullity", str(info["nullity"]) + ("" if prime else
                                            " (generators of ker A; n is not prime)")),
        ("|ker A|", str(info["kernel_size"])),
        ("unique", yn(info["unique"])),
        ("invertible", yn(info["invertible"])),
        ("det", str(det) + f" (mod {n})" if det is not None else det_note),
        ("engine", f"{solver.engine} (backend {args.backend})"),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{(k + ':').ljust(width + 1)} {v}", file=out)
    return EXIT_OK


# ----------------------------------------------------------------------------- puzzles
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
    lines.append(f"solutions:   " + ("unique" if solver.is_unique
                                     else f"{solver.kernel_size} (|ker A| = {solver.kernel_size})"))
    lines.append(f"difficulty:  {p.difficulty} (score {p.score:.2f})")
    st = p.stars
    lines.append(f"stars:       3 at <= {st[3]} taps, 2 at <= {st[2]}, 1 at <= {st[1]}")
    lines.append(f"code:        {p.code}")
    lines.append(f"play:        modlights play {p.code}")
    return lines


def _puzzle_json(p: Puzzle) -> dict:
    """p.to_dict() with the board's fields also at the top level (the CLI's older
    flat layout) and the kernel size and score."""
    doc = _board_json(p.board)
    doc.update(p.to_dict())
    doc.update({"kernel_size": p.solver.kernel_size, "score": round(p.score, 4)})
    return doc


def _parse_seed(text: str | None) -> Any:
    if text is None:
        return None
    t = text.strip()
    return int(t) if re.fullmatch(r"-?\d+", t) else t


def _generate_from_args(args: argparse.Namespace) -> tuple[Puzzle, str]:
    """A puzzle from the generate options; a note when locks were added for uniqueness."""
    rows, cols = _parse_grid(args.grid)
    pattern = _parse_pattern(args.pattern)
    seed = _parse_seed(args.seed)
    if seed is None:
        seed = secrets.randbelow(1 << 32)
    kw = dict(rows=rows, cols=cols, states=args.states, pattern=pattern,
              difficulty=args.difficulty, wrap=args.wrap, unique=not args.no_unique,
              seed=seed)
    auto = args.locked is None and args.holes is None and not args.no_unique
    locked = args.locked or 0
    holes = args.holes or 0
    try:
        return generate(locked=locked, holes=holes, **kw), f"seed {seed}"
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
        return p, (f"seed {seed}; {k} tile{'s' * (k != 1)} locked so that the solution is "
                   "unique (--locked/--holes choose counts, --no-unique allows several)")
    raise _UserError(f"{first}; locking {lo} to {lo + 3} tiles did not help either")


def _cmd_generate(args: argparse.Namespace, out) -> int:
    p, note = _generate_from_args(args)
    if args.json:
        doc = _puzzle_json(p)
        doc["note"] = note
        print(json.dumps(doc), file=out)
        return EXIT_OK
    lines = _puzzle_lines(p)
    lines.insert(1, note)
    print("\n".join(lines), file=out)
    return EXIT_OK


def _cmd_daily(args: argparse.Namespace, out) -> int:
    day = args.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    ps = daily(day)
    if args.json:
        print(json.dumps({"date": str(day), "puzzles": [_puzzle_json(p) for p in ps]}),
              file=out)
        return EXIT_OK
    print(f"daily puzzles for {day} (the same everywhere; play one with "
          f"'modlights play --daily N{' --date ' + str(day) if args.date else ''}')", file=out)
    for i, (name, p) in enumerate(zip(("easy", "medium", "hard"), ps), 1):
        print(file=out)
        print("\n".join(_puzzle_lines(p, f"{i}. {name}")), file=out)
    return EXIT_OK


def _check_one(code: str, require_unique: bool) -> tuple[list[str], Puzzle | None]:
    try:
        p = Puzzle.from_code(code)
    except ValueError as e:
        return [f"bad code: {e}"], None
    problems = []
    s = p.solver
    if not s.solvable(p.start):
        return ["unsolvable: no taps clear this start"], p
    if not p.start.any():
        problems.append("already solved: the start needs no taps")
    if require_unique and not s.is_unique:
        problems.append(f"not unique: |ker A| = {s.kernel_size} (several solutions)")
    if not p.proven:
        problems.append(f"minimum not proved (best found {p.min_taps} taps)")
    return problems, p


def _cmd_check(args: argparse.Namespace, out) -> int:
    data = read_limited(args.file, MAX_CHECK_BYTES, "level pack")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _UserError(f"cannot read {args.file}: not UTF-8 text ({e.reason} at byte "
                         f"{e.start})") from None
    total = bad = 0
    results = []
    for lineno, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0].strip()
        if not code:
            continue
        total += 1
        problems, p = _check_one(code, not args.allow_multiple)
        if problems:
            bad += 1
        results.append((lineno, code, problems, p))
    if args.json:
        print(json.dumps({"file": args.file, "puzzles": total, "bad": bad, "results": [
            {"line": ln, "code": c, "ok": not pr, "problems": pr,
             **({"min_taps": p.min_taps, "proven": p.proven, "difficulty": p.difficulty,
                 "stars": {str(k): v for k, v in p.stars.items()}}
                if p is not None and not any(x.startswith(("bad", "unsolvable")) for x in pr)
                else {})}
            for ln, c, pr, p in results]}), file=out)
    else:
        for ln, c, pr, p in results:
            short = c if len(c) <= 40 else c[:37] + "..."
            if pr:
                print(f"line {ln}: BAD  {short}: " + "; ".join(pr), file=out)
            elif args.verbose:
                st = p.stars
                print(f"line {ln}: ok   {short}: {p.board.shape[0]}x{p.board.shape[1]} "
                      f"n={p.board.states}, fewest {p.min_taps} (proved), {p.difficulty}, "
                      f"stars {st[3]}/{st[2]}/{st[1]}", file=out)
        print(f"{args.file}: {total} puzzle{'s' * (total != 1)}, {bad} bad", file=out)
    if total == 0:
        raise _UserError(f"{args.file} lists no puzzle codes (one per line; '#' starts a comment)")
    return EXIT_UNSOLVABLE if bad else EXIT_OK


_CURSES_KEYS = {259: "up", 258: "down", 260: "left", 261: "right", 10: "enter",
                13: "enter", 343: "enter", 27: "escape"}


def _play_puzzle(args: argparse.Namespace) -> tuple[Puzzle, str]:
    if args.code is not None and (args.daily is not None or args.grid is not None):
        raise _UserError("give a puzzle code, --daily N or --grid, one of them")
    if args.code is not None:
        return Puzzle.from_code(args.code), "puzzle"
    if args.daily is not None:
        if args.daily not in (1, 2, 3):
            raise _UserError(f"--daily takes 1 (easy), 2 (medium) or 3 (hard), got {args.daily}")
        day = args.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
        p = daily(day)[args.daily - 1]
        return p, f"daily {day} #{args.daily} ({('easy', 'medium', 'hard')[args.daily - 1]})"
    if args.grid is None:
        args.grid = "5x5"
    p, _ = _generate_from_args(args)
    return p, "modlights"


def _curses_main(stdscr, screen: PlayScreen) -> None:
    import curses
    try:
        curses.curs_set(0)
    except curses.error:
        pass
    colours = 0
    try:
        if curses.has_colors():
            curses.start_color()
            curses.use_default_colors()
            palette = (curses.COLOR_YELLOW, curses.COLOR_RED, curses.COLOR_MAGENTA,
                       curses.COLOR_CYAN, curses.COLOR_GREEN, curses.COLOR_BLUE)
            for i, col in enumerate(palette, 1):
                curses.init_pair(i, col, -1)
            colours = len(palette)
    except curses.error:
        colours = 0
    stdscr.timeout(250)                       # redraw the timer while idle
    while True:
        stdscr.erase()
        h, w = stdscr.getmaxyx()
        # fitted to the window: a larger board scrolls with the cursor, a window too
        # small for one tile says so
        for y, line in enumerate(screen.render(h - 1, w - 1)[:max(0, h - 1)]):
            try:
                stdscr.addnstr(y, 0, line, max(0, w - 1))
            except curses.error:
                pass
        if colours:
            for y, x, width, v in screen.cell_spans(h - 1, w - 1):
                if v and y < h - 1 and x + width < w:
                    try:
                        stdscr.chgat(y, x, width, curses.color_pair(1 + (v - 1) % colours)
                                     | curses.A_BOLD)
                    except curses.error:
                        pass
        stdscr.refresh()
        ch = stdscr.getch()
        if ch == -1:
            continue
        key = _CURSES_KEYS.get(ch) or (chr(ch) if 0 <= ch < 256 else "")
        if not screen.handle_key(key.lower() if len(key) == 1 and key != "?" else key):
            break


def _cmd_play(args: argparse.Namespace, out) -> int:
    p, title = _play_puzzle(args)
    screen = PlayScreen(Game(p), numbers=args.numbers, title=title)
    if args.keys is not None:
        # Scripted session (tests, demos): key names separated by spaces or commas,
        # e.g. "right right space ? ? q"; "space" taps.
        names = [k for k in re.split(r"[\s,]+", args.keys.strip()) if k]
        names = [" " if k == "space" else k for k in names]
        print("\n".join(screen.run_keys(names)), file=out)
    else:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise _UserError("play needs a terminal (or --keys \"...\" for a scripted session)")
        try:
            import curses
        except ImportError:
            raise _UserError("the terminal game needs the curses module (on Windows: pip "
                             "install windows-curses); --keys runs a scripted session") from None
        try:
            curses.wrapper(_curses_main, screen)
        except curses.error as e:
            raise _UserError(f"the terminal cannot run the game ({e}); check TERM") from None
        print("\n".join(screen.render()[:-1]), file=out)
    return EXIT_OK


def _add_generate_options(p: argparse.ArgumentParser, grid_default: str | None) -> None:
    g = p.add_argument_group("puzzle")
    g.add_argument("--grid", metavar="ROWSxCOLS", default=grid_default,
                   help=f"board size (default: {grid_default or '5x5'})")
    g.add_argument("--states", metavar="N", type=_int_arg("--states", 2, 255), default=2,
                   help="states per tile, 2..255 (default: 2)")
    g.add_argument("--pattern", default="cross", metavar="NAME|OFFSETS",
                   help=f"one of {', '.join(PATTERNS)}, or offsets \"dr,dc;dr,dc\" "
                        "(default: cross)")
    g.add_argument("--difficulty", default="medium", choices=DIFFICULTIES,
                   help="easy, medium, hard or expert (default: medium)")
    g.add_argument("--locked", metavar="K", type=_int_arg("--locked", 0),
                   help="number of tiles to lock (default: as few as make the solution "
                        "unique, often none)")
    g.add_argument("--holes", metavar="K", type=_int_arg("--holes", 0), help="number of holes (default: 0)")
    g.add_argument("--wrap", action="store_true", help="the board is a torus")
    g.add_argument("--no-unique", action="store_true",
                   help="allow boards with several solutions (|ker A| > 1)")
    g.add_argument("--seed", metavar="INT|TEXT",
                   help="the same seed gives the same puzzle on every machine")


_GENERATE_EPILOG = """\
output:
  The board (as 'modlights solve' prints it), the fewest taps and whether that is
  proved, the difficulty, the star limits, and the puzzle code: short text holding
  the whole puzzle, for 'modlights play CODE', 'modlights solve --code CODE' or
  Puzzle.from_code in Python.

difficulty:
  From the proved fewest taps relative to the board, how many tiles those taps
  touch, and the kernel of the tap matrix (see modlights.puzzles).

examples:
  modlights generate
  modlights generate --grid 6x6 --states 3 --difficulty hard --seed 7
  modlights generate --grid 5x5 --locked 3 --holes 1 --json
"""

_CHECK_EPILOG = """\
file format:
  One puzzle code per line; blank lines and text after '#' are ignored.
  FILE '-' reads standard input.

a puzzle is bad when:
  the code is malformed, the start cannot be solved, it is already solved, it has
  several solutions (unless --allow-multiple), or its fewest taps cannot be proved.

exit codes:
  0 every puzzle is good, 1 some are bad, 2 bad input (unreadable or empty file).
"""

_PLAY_EPILOG = """\
keys:
  arrows, wasd or hjkl move the cursor; space or enter taps; u undoes; r resets;
  ? applies a hint (a hinted game earns no stars); n toggles numbers; q quits.

screen:
  '.' is a solved tile (0); other values are shades .:-=+o#%@ (or numbers with
  --numbers, always for more than 9 states); '*' after a tile: locked (cannot be
  tapped); blank: hole; [ ] the cursor; ( ) the tiles a tap under the cursor would
  change. A board larger than the window scrolls with the cursor.

examples:
  modlights play                       a new 5x5 puzzle
  modlights play --daily 2             today's medium puzzle
  modlights play --grid 6x6 --states 3 --difficulty hard --numbers
  modlights play CODE --keys "? ? ? q" a scripted session (prints the last screen)
"""


# ----------------------------------------------------------------------------- parser
def _add_board_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("board")
    g.add_argument("--code", metavar="CODE",
                   help="a puzzle code (from 'modlights generate'): the board and, for "
                        "solve, the start state; instead of --grid and its options")
    g.add_argument("--grid", metavar="ROWSxCOLS", help="board size, e.g. 5x5 (required "
                   "unless --code)")
    g.add_argument("--states", metavar="N", type=_int_arg("--states", 2, 255), default=2,
                   help="states per tile, 2..255 (default: 2, classic Lights Out)")
    g.add_argument("--pattern", default="cross", metavar="NAME|OFFSETS",
                   help=f"what a tap changes: one of {', '.join(PATTERNS)}, or offsets "
                        "\"dr,dc;dr,dc\" (include 0,0 for the tapped tile itself) "
                        "(default: cross)")
    g.add_argument("--locked", metavar="MASK|POSITIONS",
                   help="tiles that cannot be tapped (taps still change them)")
    g.add_argument("--holes", metavar="MASK|POSITIONS",
                   help="positions with no tile at all")
    g.add_argument("--wrap", action="store_true",
                   help="the board is a torus: patterns wrap around the edges")
    g.add_argument("--backend", choices=("native", "reference"), default="native",
                   help="solver engine (default: native; reference is pure NumPy)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _parse_sizes(text: str) -> list[tuple[int, int]]:
    sizes = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            if "x" in part.lower():
                r, c = part.lower().split("x")
                sizes.append((int(r), int(c)))
            else:
                sizes.append((int(part), int(part)))
        except ValueError:
            raise ValueError(f"--sizes takes sides or ROWSxCOLS separated by commas, "
                             f"got {part!r}") from None
    if not sizes:
        raise ValueError("--sizes is empty")
    for r, c in sizes:
        if r < 1 or c < 1:
            raise ValueError(f"board sides must be >= 1, got {r}x{c}")
    return sizes


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False

def _cmd_hardest(args: argparse.Namespace, out) -> int:
    from .search.hardest import hardest_command
    return hardest_command(args, _build_board(args), out, _describe, _format_grid,
                           _board_json)


def _cmd_bench(args: argparse.Namespace, out) -> int:
    from .chase import bench_large
    sizes = _parse_sizes(args.sizes)
    try:
        states = [int(v) for v in args.states.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--states takes values 2..255 separated by commas, got "
                         f"{args.states!r}") from None
    pattern = _parse_pattern(args.pattern)
    total = len(sizes) * len(states)
    done = [0]
    bar_out = sys.stderr
    # the bar redraws one line with '\r': only on a terminal (not in logs or pipes)
    show_bar = not args.quiet and _isatty(bar_out)

    def progress(i: int, n: int, label: str) -> None:
        if not show_bar or i >= n:
            return
        k = done[0] + i
        width = 30
        fill = int(width * k / total)
        print(f"\r[{'#' * fill}{'.' * (width - fill)}] {k}/{total} {label} n={cur_n[0]}   ",
              end="", file=bar_out, flush=True)

    cur_n = [0]
    rows = []
    # boards past MAX_TILES (or all with --packed) run bit-packed: GF(2) algebraic engine
    from .board import MAX_TILES
    packed = [s for s in sizes if args.packed or s[0] * s[1] > MAX_TILES]
    if packed and states != [2]:
        raise _UserError(f"boards of more than {MAX_TILES} tiles (or --packed) run the "
                         "bit-packed path, which needs --states 2")
    for n in states:
        cur_n[0] = n
        if packed:
            from .bench_giant import bench_packed
            rows += bench_packed(packed, pattern=pattern, progress=progress,
                                 repeats=args.repeats, seed=args.seed)
            done[0] += len(packed)
        bytewise = [s for s in sizes if s not in packed]
        if bytewise:
            rows += bench_large(bytewise, n=n, pattern=pattern, progress=progress,
                                repeats=args.repeats, seed=args.seed, method=args.method)
            done[0] += len(bytewise)
    if show_bar:
        print(f"\r[{'#' * 30}] {total}/{total} done" + " " * 20, file=bar_out, flush=True)
    if args.json:
        print(json.dumps([dict(board=b, n=n, pattern=p, seconds=t, peak_mb=m)
                          for b, n, p, t, m in rows]), file=out)
        return EXIT_OK
    print(f"{'board':>12} {'n':>4} {'pattern':>10} {'seconds':>9} {'peak MB':>9}", file=out)
    for b, n, p, t, m in rows:
        print(f"{b:>12} {n:>4} {p:>10} {t:>9.3f} {m:>9.0f}", file=out)
    print(f"(Board.grid + Solver + solve(minimal=False) (solve_packed on the bit-packed "
          f"path), median of {args.repeats}; every "
          "answer checked by applying it to the board)", file=out)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog="modlights",
        description="Solve, analyse, generate and play modular Lights Out puzzles: tiles with n states; "
                    "tapping a tile advances every tile of a pattern around it by one "
                    "(n-1 wraps to 0).",
        epilog="examples:\n  modlights solve --grid 3x3 --state 011110110\n"
               "  modlights info --grid 5x5\n"
               "  modlights generate --grid 6x6 --states 3 --difficulty hard\n"
               "  modlights daily\n"
               "  modlights play --daily 1\n\n"
               "run 'modlights COMMAND --help' for the options of each command.",
        formatter_class=fmt, allow_abbrev=False)
    from . import __version__
    parser.add_argument("--version", action="version", version=f"modlights {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ps = sub.add_parser("solve", help="find the taps that solve a board",
                        description="Find tap counts that take the board to the target "
                                    "(all tiles 0 by default), with the fewest taps.",
                        epilog=_SOLVE_EPILOG, formatter_class=fmt, allow_abbrev=False)
    _add_board_options(ps)
    g = ps.add_argument_group("puzzle")
    g.add_argument("--state", metavar="STATE",
                   help="the tiles' current states, row by row (default: a random "
                        "solvable state, see --seed)")
    g.add_argument("--seed", type=_int_arg("--seed", 0), metavar="INT",
                   help="seed for the random state when --state is not given")
    g.add_argument("--target", metavar="INT|STATE",
                   help="the state to reach: a value every tile must end in (1 = all "
                        "on) or a state string like --state (default: 0)")
    g = ps.add_argument_group("search")
    g.add_argument("--budget", metavar="COUNT|SECONDSs",
                   help="limit of the fewest-taps search: solutions to examine (e.g. "
                        "100000) or time (e.g. 2s); past it the best found is printed, "
                        "marked not proved minimal")
    g.add_argument("--no-minimal", action="store_true",
                   help="print any solution, skip the search for the fewest taps")
    g = ps.add_argument_group("pictures", "with a picture, the grids of boards of more "
                              "than 10000 tiles are not printed as text")
    g.add_argument("--svg", metavar="FILE", help="write an SVG picture of the state with "
                   "the solution's taps marked (boards up to 200x200 tiles)")
    g.add_argument("--png", metavar="FILE", help="write a PNG, one pixel a tile: the state, "
                   "and the tap counts beside it (needs Pillow: pip install \"modlights[png]\")")
    ps.set_defaults(func=_cmd_solve)

    pi = sub.add_parser("info", help="rank, kernel, invertibility of a board's tap matrix",
                        description="Linear algebra of the board's tap matrix A over Z/nZ.",
                        epilog=_INFO_EPILOG, formatter_class=fmt, allow_abbrev=False)
    _add_board_options(pi)
    pi.set_defaults(func=_cmd_info)
    pg = sub.add_parser("generate", help="make a new puzzle and print its code",
                        description="Generate a puzzle: a start board of the requested "
                                    "difficulty, with its fewest taps, stars and code.",
                        epilog=_GENERATE_EPILOG, formatter_class=fmt, allow_abbrev=False)
    _add_generate_options(pg, "5x5")
    pg.add_argument("--json", action="store_true", help="print one JSON object")
    pg.set_defaults(func=_cmd_generate)

    pd = sub.add_parser("daily", help="the day's three puzzles (same everywhere)",
                        description="The daily puzzles (easy, medium, hard) for a date: "
                                    "identical on every machine.",
                        formatter_class=fmt, allow_abbrev=False,
                        epilog="examples:\n  modlights daily\n  modlights daily 2026-11-22 --json")
    pd.add_argument("date", nargs="?", metavar="DATE",
                    help="YYYY-MM-DD (default: today, UTC)")
    pd.add_argument("--json", action="store_true", help="print one JSON object")
    pd.set_defaults(func=_cmd_daily)

    pc = sub.add_parser("check", help="validate a file of puzzle codes (level packs)",
                        description="Check every puzzle code in FILE: valid, solvable, "
                                    "unique, proved fewest taps; report the bad ones.",
                        epilog=_CHECK_EPILOG, formatter_class=fmt, allow_abbrev=False)
    pc.add_argument("file", metavar="FILE", help="file of puzzle codes, one per line ('-': stdin)")
    pc.add_argument("--allow-multiple", action="store_true",
                    help="accept puzzles with several solutions")
    pc.add_argument("-v", "--verbose", action="store_true", help="list the good puzzles too")
    pc.add_argument("--json", action="store_true", help="print one JSON object")
    pc.set_defaults(func=_cmd_check)

    pp = sub.add_parser("play", help="play a puzzle in the terminal",
                        description="A terminal Lights Out game (curses): cursor, tap "
                                    "preview, undo, reset, hints, tap counter, timer, stars.",
                        epilog=_PLAY_EPILOG, formatter_class=fmt, allow_abbrev=False)
    pp.add_argument("code", nargs="?", metavar="CODE", help="a puzzle code")
    pp.add_argument("--daily", type=_int_arg("--daily", 1, 3), metavar="N", help="play daily puzzle N (1-3)")
    pp.add_argument("--date", metavar="YYYY-MM-DD", help="the day for --daily (default: today)")
    _add_generate_options(pp, None)
    pp.add_argument("--numbers", action="store_true", help="show tile values as numbers")
    pp.add_argument("--keys", metavar="KEYS",
                    help="scripted session: key names (up down left right space u r ? n q "
                         "...) separated by spaces; prints the final screen")
    pp.set_defaults(func=_cmd_play)

    pb = sub.add_parser("bench", help="time large boards (structured solving)",
                        description="Large-board benchmark: Board.grid + Solver + "
                                    "solve(minimal=False) from a random solvable start, "
                                    "median of repeats, peak memory; every answer checked.",
                        formatter_class=fmt, allow_abbrev=False,
                        epilog="examples:\n  modlights bench\n"
                               "  modlights bench --sizes 1000,2000,5000 --states 2\n"
                               "  modlights bench --sizes 1000 --states 3,4 --json")
    pb.add_argument("--sizes", default="250,500,1000,2000", metavar="LIST",
                    help="board sides (or ROWSxCOLS) separated by commas "
                         "(default: 250,500,1000,2000)")
    pb.add_argument("--states", default="2", metavar="LIST",
                    help="values of n separated by commas (default: 2)")
    pb.add_argument("--pattern", default="cross", metavar="NAME|OFFSETS",
                    help="tap pattern (default: cross)")
    pb.add_argument("--repeats", type=_int_arg("--repeats", 1, 1000), default=3, metavar="R",
                    help="timed runs per board; the median is shown (default: 3)")
    pb.add_argument("--seed", type=_int_arg("--seed", 0), default=0, metavar="INT", help="start-state seed")
    pb.add_argument("--packed", action="store_true",
                    help="bit-packed states and the algebraic engine (n = 2; always used "
                         "for boards of more than 2^27 tiles, e.g. --sizes 100000)")
    pb.add_argument("--quiet", action="store_true", help="no progress bar")
    pb.add_argument("--method", choices=("chase", "auto", "algebraic", "lifted", "tensor",
                                         "dense"),
                    default="chase", help="Solver method of the byte-state boards "
                    "(default: chase; auto: what Solver picks)")
    pb.add_argument("--json", action="store_true", help="print one JSON list")
    pb.set_defaults(func=_cmd_bench)

    pw = sub.add_parser("serve", help="run the web service and the browser game",
                        description="Serve the JSON API and the browser game over HTTP "
                                    "(needs the extra: pip install \"modlights[web]\").",
                        formatter_class=fmt, allow_abbrev=False,
                        epilog="examples:\n  modlights serve\n  modlights serve --port 0")
    pw.add_argument("--host", default="127.0.0.1", help="address to listen on "
                    "(default: 127.0.0.1)")
    pw.add_argument("--port", type=int, default=8000,
                    help="port (default: 8000; 0 picks a free one and prints it)")
    pw.set_defaults(func=_cmd_serve)

    ph = sub.add_parser("hardest", help="the board that needs the most taps",
                        description="The largest fewest-taps over every solvable board "
                                    "(target 0) and a board that needs it, proved by "
                                    "integer programming (HiGHS) and the exact coset search.",
                        formatter_class=fmt, allow_abbrev=False,
                        epilog="examples:\n  modlights hardest --grid 9x9\n"
                               "  modlights hardest --grid 19x19 --budget 120\n"
                               "  modlights hardest --grid 3x3 --states 3 --json")
    _add_board_options(ph)
    ph.add_argument("--budget", metavar="SECONDS",
                    help="time limit (e.g. 120 or 120s); past it the best board found is "
                         "printed with its proved bounds, marked not proved")
    ph.set_defaults(func=_cmd_hardest)
    return parser


def _cmd_serve(args: argparse.Namespace, out) -> int:
    from .web.server import serve
    serve(args.host, args.port, out=out)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``modlights`` command; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:          # --help, --version, usage errors
        code = e.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_USAGE)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args, sys.stdout)
    except Unsolvable as e:
        print(f"modlights {args.command}: unsolvable: {e}", file=sys.stderr)
        return EXIT_UNSOLVABLE
    except ValueError as e:
        print(f"modlights {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:          # e.g. `modlights solve ... | head`: stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        print("modlights: interrupted", file=sys.stderr)
        return 130
    except (MemoryError, OverflowError, RecursionError) as e:
        # a limit of this machine or of a number type, met by some input: one line
        what = {MemoryError: "out of memory", OverflowError: "a number is too large",
                RecursionError: "input nested too deeply"}[type(e)]
        print(f"modlights {args.command}: error: {what}" + (f" ({e})" if str(e) else ""),
              file=sys.stderr)
        return EXIT_USAGE
    except Exception as e:          # noqa: BLE001 - a bug: still one line, no traceback
        print(f"modlights {args.command}: internal error: {type(e).__name__}: {e} "
              "(please report it; MODLIGHTS_DEBUG=1 shows the traceback)", file=sys.stderr)
        if os.environ.get("MODLIGHTS_DEBUG"):
            raise
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
