"""``modlights daily``: the day's three puzzles."""

from __future__ import annotations

import argparse
import datetime
import json
from typing import Any

from modlights.cli.common import EXIT_OK, _add_date_option, _puzzle_json, _puzzle_lines, _UserError
from modlights.play.puzzles import daily


def run(args: argparse.Namespace, out) -> int:
    """Print the day's three puzzles (``args.date``, default today in UTC) to ``out``,
    as text or with ``--json`` as one JSON document; returns the exit code (0).
    ValueError (exit 2) for a bad date, or a date given twice."""
    if args.date_positional is not None:
        if args.date is not None:
            raise _UserError("give the date once: --date YYYY-MM-DD (or the date alone)")
        args.date = args.date_positional
    day = args.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    ps = daily(day)
    if args.json:
        print(json.dumps({"date": str(day), "puzzles": [_puzzle_json(p) for p in ps]}), file=out)
        return EXIT_OK
    print(
        f"daily puzzles for {day} (the same everywhere; play one with "
        f"'modlights play --daily N{' --date ' + str(day) if args.date else ''}')",
        file=out,
    )
    for i, (name, p) in enumerate(zip(("easy", "medium", "hard"), ps), 1):
        print(file=out)
        print("\n".join(_puzzle_lines(p, f"{i}. {name}")), file=out)
    return EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``daily`` subcommand's parser."""
    p = sub.add_parser(
        "daily",
        help="the day's three puzzles (same everywhere)",
        description="The daily puzzles (easy, medium, hard) for a date: "
        "identical on every machine.",
        formatter_class=fmt,
        allow_abbrev=False,
        epilog="examples:\n  modlights daily\n  modlights daily --date 2026-11-22 --json",
    )
    p.add_argument(
        "date_positional",
        nargs="?",
        metavar="YYYY-MM-DD",
        help="the day: the same as --date YYYY-MM-DD",
    )
    _add_date_option(p, "the day (default: today, UTC)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
    return p
