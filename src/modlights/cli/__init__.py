"""The ``modlights`` command: solve and analyse boards from the shell.

``main(argv)`` parses ``argv`` (default ``sys.argv[1:]``) and returns the exit code:
0 on success, 1 when the board cannot be solved, 2 for bad input (any ValueError
from the library, or arguments argparse rejects). User errors never print a
traceback: a one-line message goes to stderr.

One module per command (``solve``, ``info``, ``generate``, ``daily``, ``check``,
``play``, ``bench``, ``serve``, ``site``, ``hardest``, ``verify``), each with
``add_parser(sub, fmt)`` and ``run(args, out)``; :mod:`.common` holds what they share.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from modlights.cli import (
    bench,
    check,
    daily,
    generate,
    hardest,
    info,
    play,
    serve,
    site,
    solve,
    verify,
)
from modlights.cli.common import EXIT_OK, EXIT_UNSOLVABLE, EXIT_USAGE, _Parser
from modlights.solver import Solver, Unsolvable  # noqa: F401 - Solver: also modlights.cli.Solver

__all__ = ["main", "build_parser"]

#: The subcommands in the order ``modlights --help`` lists them.
COMMANDS = (solve, info, generate, daily, check, play, bench, serve, site, hardest, verify)


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog="modlights",
        description="Solve, analyse, generate and play modular Lights Out puzzles: "
        "tiles with n states; tapping a tile advances every tile of a pattern "
        "around it by one (n-1 wraps to 0).",
        epilog="examples:\n  modlights solve --grid 3x3 --state 011110110\n"
        "  modlights info --grid 5x5\n"
        "  modlights generate --grid 6x6 --states 3 --difficulty hard\n"
        "  modlights daily\n"
        "  modlights play --daily 1\n\n"
        "run 'modlights COMMAND --help' for the options of each command.",
        formatter_class=fmt,
        allow_abbrev=False,
    )
    from modlights import __version__

    parser.add_argument("--version", action="version", version=f"modlights {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    for command in COMMANDS:
        command.add_parser(sub, fmt)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``modlights`` command; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, usage errors
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
    except BrokenPipeError:  # e.g. `modlights solve ... | head`: stop quietly
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
        what = {
            MemoryError: "out of memory",
            OverflowError: "a number is too large",
            RecursionError: "input nested too deeply",
        }[type(e)]
        print(
            f"modlights {args.command}: error: {what}" + (f" ({e})" if str(e) else ""),
            file=sys.stderr,
        )
        return EXIT_USAGE
    except Exception as e:  # noqa: BLE001 - a bug: still one line, no traceback
        print(
            f"modlights {args.command}: internal error: {type(e).__name__}: {e} "
            "(please report it; MODLIGHTS_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        if os.environ.get("MODLIGHTS_DEBUG"):
            raise
        return EXIT_USAGE
