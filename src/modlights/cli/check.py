"""``modlights check``: validate a file of puzzle codes."""

from __future__ import annotations

import argparse
import json
from typing import Any

from modlights.cli.common import EXIT_OK, EXIT_UNSOLVABLE, _count_text, _UserError
from modlights.model.validation import read_limited
from modlights.play.puzzles import Puzzle

#: the most bytes ``modlights check`` reads from a file or standard input (a pack of
#: thousands of the longest puzzle codes); more is refused, never read without end
MAX_CHECK_BYTES = 64 << 20


_CHECK_EPILOG = """\
file format:
  One puzzle code per line; blank lines and text after '#' are ignored.
  FILE '-' reads standard input.

a puzzle is bad when:
  the code is malformed, the start cannot be solved, it is already solved, it has
  several solutions (unless --allow-multiple), or its fewest taps cannot be proved.

exit codes:
  0 every puzzle is good, 1 some are bad, 2 bad input: an unreadable file, or one
  that lists no code (only the error is printed, on stderr).
"""


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
        problems.append(f"not unique: |ker A| = {_count_text(s.kernel_size)} (several solutions)")
    if not p.proven:
        problems.append(f"minimum not proved (best found {p.min_taps} taps)")
    return problems, p


def run(args: argparse.Namespace, out) -> int:
    """Check every puzzle code of ``args.file`` (one a line; blank lines and '#'
    comments skipped; ``-`` reads standard input, at most :data:`MAX_CHECK_BYTES`),
    print one line a code and a summary to ``out``; returns 0 when every code is good,
    1 otherwise. ValueError (exit 2, nothing printed to ``out``) for an unreadable or
    oversized file, or one that lists no code: an empty pack is an error (most likely
    the wrong file), not a pack with nothing bad in it."""
    data = read_limited(args.file, MAX_CHECK_BYTES, "level pack")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _UserError(
            f"cannot read {args.file}: not UTF-8 text ({e.reason} at byte {e.start})"
        ) from None
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
    if total == 0:  # an error, and only the error: no summary of nothing on stdout
        raise _UserError(f"{args.file} lists no puzzle codes (one per line; '#' starts a comment)")
    if args.json:
        print(
            json.dumps(
                {
                    "file": args.file,
                    "puzzles": total,
                    "bad": bad,
                    "results": [
                        {
                            "line": ln,
                            "code": c,
                            "ok": not pr,
                            "problems": pr,
                            **(
                                {
                                    "min_taps": p.min_taps,
                                    "proven": p.proven,
                                    "difficulty": p.difficulty,
                                    "stars": {str(k): v for k, v in p.stars.items()},
                                }
                                if p is not None
                                and not any(x.startswith(("bad", "unsolvable")) for x in pr)
                                else {}
                            ),
                        }
                        for ln, c, pr, p in results
                    ],
                }
            ),
            file=out,
        )
    else:
        for ln, c, pr, p in results:
            short = c if len(c) <= 40 else c[:37] + "..."
            if pr:
                print(f"line {ln}: BAD  {short}: " + "; ".join(pr), file=out)
            elif args.verbose:
                assert p is not None  # a line without problems has its puzzle
                st = p.stars
                print(
                    f"line {ln}: ok   {short}: {p.board.shape[0]}x{p.board.shape[1]} "
                    f"n={p.board.states}, fewest {p.min_taps} (proved), {p.difficulty}, "
                    f"stars {st[3]}/{st[2]}/{st[1]}",
                    file=out,
                )
        print(f"{args.file}: {total} puzzle{'s' * (total != 1)}, {bad} bad", file=out)
    return EXIT_UNSOLVABLE if bad else EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``check`` subcommand's parser."""
    p = sub.add_parser(
        "check",
        help="validate a file of puzzle codes (level packs)",
        description="Check every puzzle code in FILE: valid, solvable, "
        "unique, proved fewest taps; report the bad ones.",
        epilog=_CHECK_EPILOG,
        formatter_class=fmt,
        allow_abbrev=False,
    )
    p.add_argument("file", metavar="FILE", help="file of puzzle codes, one per line ('-': stdin)")
    p.add_argument(
        "--allow-multiple", action="store_true", help="accept puzzles with several solutions"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="list the good puzzles too")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
    return p
