"""``modlights solve``: find the taps that solve a board."""

from __future__ import annotations

import argparse
import secrets
import shlex
from typing import Any

import numpy as np

from modlights.cli.cluster import add_cluster_options, executor_of, wants_executor
from modlights.cli.common import (
    _BOARD_HELP,
    _LEGEND,
    _PRINT_TILES_WITH_PICTURE,
    EXIT_OK,
    _add_board_options,
    _add_seed_option,
    _board_json,
    _build_board,
    _count_text,
    _describe,
    _format_grid,
    _int_arg,
    _json_dumps,
    _parse_budget,
    _parse_target,
    _parse_values,
    _rng_seed,
    _UserError,
)
from modlights.io import pictures as pictures_io
from modlights.play.puzzles import Puzzle
from modlights.solver import Solver

_SOLVE_EPILOG = (
    _BOARD_HELP
    + """
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
  modlights solve --grid 9x9 --seed 1 --certificate sol.json
  modlights solve --grid 61x61 --seed 7 --workers 2 --checkpoint s61.json
"""
)


def run(args: argparse.Namespace, out) -> int:
    """Solve the board of the options (its ``--state``, a puzzle code's start, or a
    random solvable state from ``--seed``, a fresh seed when none) and print the board,
    the taps and whether the length is proved minimal (``--json``: one JSON document);
    write ``--svg`` / ``--png`` pictures, checked before the work. Returns 0, or 1 when
    the board cannot be solved. ValueError (exit 2) for bad options."""
    board = _build_board(args)
    rows, cols = board.shape
    n = board.states
    budget = args.budget
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
        s0 = board.random_state(rng=_rng_seed(seed), solvable=True)
        if not (isinstance(target, int) and target == 0):  # int64 only when shifted
            s0 = s0.astype(np.int64) + board.coerce_target(target)
        state = board.coerce_state(s0)
    state = board.coerce_state(state)
    if args.png is None and args.png_scale != 1:
        raise _UserError("--png-scale sets the PNG's pixels per tile: give --png FILE too")
    pictures = dict(svg=args.svg, png=args.png, png_scale=args.png_scale)
    pictures_io.check_pictures(board, **pictures)  # before the work: size, Pillow
    solver = Solver(board, backend=args.backend)
    if wants_executor(args):
        budget = _split_budget(args, solver, budget)
    with executor_of(args) as executor:
        try:
            sol = solver.solve(
                state,
                target,
                minimal=not args.no_minimal,
                budget=budget,
                executor=executor,
                checkpoint=args.checkpoint if executor is not None else None,
            )
        except KeyboardInterrupt:
            if args.checkpoint is not None:
                raise KeyboardInterrupt(
                    f"the tasks finished are in {args.checkpoint}: the same command resumes"
                ) from None
            raise
    cert = sol.certificate() if args.certificate is not None else None  # before output
    taps = np.asarray(sol.taps)
    written = pictures_io.write_pictures(board, state, taps, **pictures)
    if cert is not None:
        _write_certificate(args.certificate, cert)
    if args.json:
        doc = _board_json(board)
        doc.update(
            {
                "state": state.tolist(),
                "seed": seed,
                "target": target if isinstance(target, int) else np.asarray(target).tolist(),
                "minimal_search": not args.no_minimal,
            }
        )
        doc.update(sol.to_dict())
        if cert is not None:
            doc["certificate"] = args.certificate
        print(_json_dumps(doc), file=out)
        return EXIT_OK
    p = lambda *a: print(*a, file=out)  # noqa: E731
    if written and rows * cols > _PRINT_TILES_WITH_PICTURE:  # the picture shows them
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
        p(f"random solvable state, seed {seed} (repeat it with --seed {shlex.quote(str(seed))})")
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
        why = (
            "the solution is unique"
            if solver.is_unique
            else f"all {_count_text(solver.kernel_size)} solutions compared"
        )
        p(f"minimal: yes, proved ({why})")
    elif args.no_minimal:
        p(
            f"minimal: not searched (--no-minimal; {_count_text(solver.kernel_size)} solutions "
            "exist)"
        )
    else:
        p(
            f"minimal: not proved (best found within the search budget; "
            f"{_count_text(solver.kernel_size)} solutions exist; raise --budget to search more)"
        )
    for path in written:
        p(f"picture: {path}")
    if cert is not None:
        p(f"certificate: {args.certificate} (check it with 'modlights verify {args.certificate}')")
    return EXIT_OK


def _split_budget(args: argparse.Namespace, solver: Solver, budget: Any) -> int:
    """The budget of a search split by --workers / --scheduler: the whole coset (a
    count of at least |ker A|; none given: that count), else a _UserError."""
    ks = solver.kernel_size
    if args.no_minimal:
        raise _UserError(
            "--workers / --scheduler split the fewest-taps search: leave out --no-minimal"
        )
    if args.backend != "native":
        raise _UserError(
            "--workers / --scheduler split the native search: leave out --backend reference"
        )
    if not 1 < ks < 1 << 62:
        why = "nothing to search" if ks <= 1 else "at most 2^62 are searched whole"
        raise _UserError(
            f"--workers / --scheduler split a search of the whole coset: this board has "
            f"{_count_text(ks)} solutions ({why})"
        )
    if budget is None:
        return ks
    if isinstance(budget, float) or budget < ks:
        raise _UserError(
            f"--workers / --scheduler split a search of the whole coset: give --budget as "
            f"a count of at least {ks} (the number of solutions) or leave it out"
        )
    return budget


def _write_certificate(path: str, cert: dict) -> None:
    """Write ``cert`` as JSON to ``path``; ValueError (exit 2) when it cannot."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(_json_dumps(cert))
    except OSError as e:
        raise _UserError(f"cannot write --certificate {path!r}: {e.strerror or e}") from None


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``solve`` subcommand's parser."""
    p = sub.add_parser(
        "solve",
        help="find the taps that solve a board",
        description="Find tap counts that take the board to the target "
        "(all tiles 0 by default), with the fewest taps.",
        epilog=_SOLVE_EPILOG,
        formatter_class=fmt,
        allow_abbrev=False,
    )
    _add_board_options(p)
    g = p.add_argument_group("puzzle")
    g.add_argument(
        "--state",
        metavar="STATE",
        help="the tiles' current states, row by row (default: a random solvable state, see --seed)",
    )
    _add_seed_option(
        g,
        "seed for the random state when --state is not given: a whole number or text "
        "(default: random)",
    )
    g.add_argument(
        "--target",
        metavar="INT|STATE",
        help="the state to reach: a value every tile must end in (1 = all "
        "on) or a state string like --state (default: 0)",
    )
    g = p.add_argument_group("search")
    g.add_argument(
        "--budget",
        metavar="COUNT|SECONDSs",
        type=_parse_budget,
        help="limit of the fewest-taps search: solutions to examine (e.g. "
        "100000) or time (e.g. 2s); past it the best found is printed, "
        "marked not proved minimal (default: about a second, 1s; a board "
        "with few solutions has them all compared)",
    )
    g.add_argument(
        "--no-minimal",
        action="store_true",
        help="print any solution, skip the search for the fewest taps",
    )
    g.add_argument(
        "--certificate",
        metavar="FILE",
        help="write a certificate that no solution has fewer taps (JSON; "
        "check it with 'modlights verify FILE'); an error when the "
        "search does not prove the fewest taps",
    )
    g = p.add_argument_group(
        "pictures",
        "with a picture, the grids of boards of more than 10000 tiles are not printed as text",
    )
    g.add_argument(
        "--svg",
        metavar="FILE",
        help="write an SVG picture of the state with "
        "the solution's taps marked (boards up to 200x200 tiles)",
    )
    g.add_argument(
        "--png",
        metavar="FILE",
        help="write a PNG, one pixel a tile: the state, "
        'and the tap counts beside it (needs Pillow: pip install "modlights[png]")',
    )
    g.add_argument(
        "--png-scale",
        metavar="K",
        type=_int_arg("--png-scale", 1, 64),
        default=1,
        help="pixels per tile side in the PNG, 1..64 (default 1); from 4 on, "
        "locked tiles get a dark frame",
    )
    add_cluster_options(p, checkpoint=True)
    p.set_defaults(func=run)
    return p
