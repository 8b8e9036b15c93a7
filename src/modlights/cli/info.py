"""``modlights info``: rank, kernel and invertibility of the tap matrix."""

from __future__ import annotations

import argparse
from typing import Any

from modlights.cli.common import (
    _BOARD_HELP,
    EXIT_OK,
    _add_board_options,
    _board_json,
    _build_board,
    _count_text,
    _describe,
    _json_dumps,
)
from modlights.solver import Solver

_INFO_EPILOG = (
    _BOARD_HELP
    + """
output:
  n (states), tiles (rows of the tap matrix A), taps (columns of A), rank and
  nullity of A (for composite n, nullity counts the generators of ker A), |ker A|
  (how many tap combinations leave every tile unchanged; every solvable state has
  exactly that many solutions), whether solutions are unique, whether A is
  invertible, and det A mod n (only for a square A).

  engine: the engine that answers, with the method asked for and the backend.
  --explain adds why it was chosen ('why:') and, one line each, why every other
  registered engine was passed over ('not NAME: ...').

examples:
  modlights info --grid 5x5
  modlights info --grid 300x300 --states 3 --explain
  modlights info --grid 4x4 --states 3 --pattern diagonal
  modlights info --grid 6x6 --states 6 --wrap --json
"""
)


def run(args: argparse.Namespace, out) -> int:
    board = _build_board(args)
    solver = Solver(board, backend=args.backend, method=args.method)
    n = board.states
    square = board.n_cells == board.n_taps
    det, det_note = None, "n/a (not square)"
    if square:
        try:
            det = solver.det()
        except ValueError:  # a chase-solved board too large for a dense det
            det_note = "n/a (the board is too large for a dense determinant)"
    info: dict[str, Any] = {
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
        if args.explain:
            doc["plan"] = solver.plan.to_dict()
        print(_json_dumps(doc), file=out)
        return EXIT_OK
    plan = solver.plan
    prime = all(n % d for d in range(2, int(n**0.5) + 1))
    yn = lambda v: "yes" if v else "no"  # noqa: E731
    rows = [
        ("board", _describe(board)),
        ("n", str(n)),
        ("tiles", str(board.n_cells)),
        ("taps", str(board.n_taps)),
        ("rank", str(info["rank"]) + ("" if prime else " (n_taps - nullity)")),
        (
            "nullity",
            str(info["nullity"]) + ("" if prime else " (generators of ker A; n is not prime)"),
        ),
        ("|ker A|", _count_text(info["kernel_size"])),
        ("unique", yn(info["unique"])),
        ("invertible", yn(info["invertible"])),
        ("det", str(det) + f" (mod {n})" if det is not None else det_note),
        ("engine", f"{solver.engine} (method {plan.method!r}, backend {plan.backend!r})"),
    ]
    if args.explain:
        rows.append(("why", plan.reason))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{(k + ':').ljust(width + 1)} {v}", file=out)
    if args.explain:  # the engines passed over, after the one 'engine:' line
        for name, why in plan.rejected.items():
            print(f"  not {name}: {why}", file=out)
    return EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``info`` subcommand's parser."""
    p = sub.add_parser(
        "info",
        help="rank, kernel, invertibility of a board's tap matrix",
        description="Linear algebra of the board's tap matrix A over Z/nZ.",
        epilog=_INFO_EPILOG,
        formatter_class=fmt,
        allow_abbrev=False,
    )
    _add_board_options(p)
    p.add_argument(
        "--method",
        default="auto",
        metavar="NAME",
        help="the engine: 'auto' (default), a family (dense, chase, algebraic, "
        "lifted, tensor) or a registered name (see --explain)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="print the plan: which engine answers, why, and why not the others",
    )
    p.set_defaults(func=run)
    return p
