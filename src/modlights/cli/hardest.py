"""``modlights hardest``: the board that needs the most taps."""
from __future__ import annotations

import argparse
from typing import Any

from modlights.cli.common import _build_board, _format_grid, _describe, _board_json, _add_board_options


def run(args: argparse.Namespace, out) -> int:
    from modlights.search.hardest import hardest_command
    return hardest_command(args, _build_board(args), out, _describe, _format_grid,
                           _board_json)


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``hardest`` subcommand's parser."""
    p = sub.add_parser("hardest", help="the board that needs the most taps",
                       description="The largest fewest-taps over every solvable board "
                                   "(target 0) and a board that needs it, proved by "
                                   "integer programming (HiGHS) and the exact coset search.",
                       formatter_class=fmt, allow_abbrev=False,
                       epilog="examples:\n  modlights hardest --grid 9x9\n"
                              "  modlights hardest --grid 19x19 --budget 120\n"
                              "  modlights hardest --grid 3x3 --states 3 --json")
    _add_board_options(p)
    p.add_argument("--budget", metavar="SECONDS",
                   help="time limit (e.g. 120 or 120s); past it the best board found is "
                        "printed with its proved bounds, marked not proved")
    p.set_defaults(func=run)
    return p
