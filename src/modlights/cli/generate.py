"""``modlights generate``: make a new puzzle."""

from __future__ import annotations

import argparse
import json
from typing import Any

from modlights.cli.common import (
    _GENERATE_HELP,
    EXIT_OK,
    _add_generate_options,
    _generate_from_args,
    _puzzle_json,
    _puzzle_lines,
)

_GENERATE_EPILOG = (
    _GENERATE_HELP
    + """
output:
  The board (as 'modlights solve' prints it), the fewest taps and whether that is
  proved, the difficulty, the star limits, and the puzzle code: short text holding
  the whole puzzle, for 'modlights play --code CODE', 'modlights solve --code CODE'
  or Puzzle.from_code in Python.

difficulty:
  From the proved fewest taps relative to the board, how many tiles those taps
  touch, and the kernel of the tap matrix (see modlights.play.puzzles).

examples:
  modlights generate
  modlights generate --grid 6x6 --states 3 --difficulty hard --seed 7
  modlights generate --grid 5x5 --locked-count 3 --holes-count 1 --json
  modlights generate --grid 5x5 --locked "0,0;0,1" --seed "level one"
"""
)


def run(args: argparse.Namespace, out) -> int:
    """Generate one puzzle from the board and generate options and print it to ``out``
    (text, or JSON with ``--json``); returns the exit code. ValueError (exit 2) for
    options :func:`modlights.generate` refuses."""
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


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``generate`` subcommand's parser."""
    p = sub.add_parser(
        "generate",
        help="make a new puzzle and print its code",
        description="Generate a puzzle: a start board of the requested "
        "difficulty, with its fewest taps, stars and code.",
        epilog=_GENERATE_EPILOG,
        formatter_class=fmt,
        allow_abbrev=False,
    )
    _add_generate_options(p, "5x5")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
    return p
