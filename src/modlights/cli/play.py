"""``modlights play``: play a puzzle in the terminal."""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from typing import Any

from modlights.cli.common import (
    _GENERATE_HELP,
    EXIT_OK,
    _add_code_option,
    _add_date_option,
    _add_generate_options,
    _generate_from_args,
    _int_arg,
    _UserError,
)
from modlights.play.game import Game, PlayScreen
from modlights.play.puzzles import Puzzle, daily

_PLAY_EPILOG = (
    """\
the puzzle:
  A puzzle code (--code CODE, or CODE alone), --daily N, or generate options
  (--grid, --states, --difficulty ...: a new puzzle, as 'modlights generate' makes).

"""
    + _GENERATE_HELP
    + """
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
  modlights play --code CODE --keys "? ? ? q"
                                       a scripted session (prints the last screen)
"""
)


_CURSES_KEYS = {
    259: "up",
    258: "down",
    260: "left",
    261: "right",
    10: "enter",
    13: "enter",
    343: "enter",
    27: "escape",
}


def _play_puzzle(args: argparse.Namespace) -> tuple[Puzzle, str]:
    if args.code_positional is not None:
        if args.code is not None:
            raise _UserError("give the puzzle code once: --code CODE (or CODE alone)")
        args.code = args.code_positional
    if args.code is not None and (args.daily is not None or args.grid is not None):
        raise _UserError("give a puzzle code, --daily N or --grid, one of them")
    if args.code is not None:
        return Puzzle.from_code(args.code), "puzzle"
    if args.date is not None and args.daily is None:
        raise _UserError("--date chooses the day of --daily N: give --daily too")
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
            palette = (
                curses.COLOR_YELLOW,
                curses.COLOR_RED,
                curses.COLOR_MAGENTA,
                curses.COLOR_CYAN,
                curses.COLOR_GREEN,
                curses.COLOR_BLUE,
            )
            for i, col in enumerate(palette, 1):
                curses.init_pair(i, col, -1)
            colours = len(palette)
    except curses.error:
        colours = 0
    stdscr.timeout(250)  # redraw the timer while idle
    while True:
        stdscr.erase()
        h, w = stdscr.getmaxyx()
        # fitted to the window: a larger board scrolls with the cursor, a window too
        # small for one tile says so
        for y, line in enumerate(screen.render(h - 1, w - 1)[: max(0, h - 1)]):
            try:
                stdscr.addnstr(y, 0, line, max(0, w - 1))
            except curses.error:
                pass
        if colours:
            for y, x, width, v in screen.cell_spans(h - 1, w - 1):
                if v and y < h - 1 and x + width < w:
                    try:
                        stdscr.chgat(
                            y, x, width, curses.color_pair(1 + (v - 1) % colours) | curses.A_BOLD
                        )
                    except curses.error:
                        pass
        stdscr.refresh()
        ch = stdscr.getch()
        if ch == -1:
            continue
        key = _CURSES_KEYS.get(ch) or (chr(ch) if 0 <= ch < 256 else "")
        if not screen.handle_key(key.lower() if len(key) == 1 and key != "?" else key):
            break


def run(args: argparse.Namespace, out) -> int:
    """Play a puzzle (a code, ``--daily N`` or generate options) in the terminal with
    curses, or feed ``--keys`` to the same screen and print its last frame to ``out``;
    returns the exit code (0). ValueError (exit 2) without a terminal or curses."""
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
            raise _UserError('play needs a terminal (or --keys "..." for a scripted session)')
        try:
            import curses
        except ImportError:
            raise _UserError(
                "the terminal game needs the curses module (on Windows: pip "
                "install windows-curses); --keys runs a scripted session"
            ) from None
        try:
            curses.wrapper(_curses_main, screen)
        except curses.error as e:
            raise _UserError(f"the terminal cannot run the game ({e}); check TERM") from None
        print("\n".join(screen.render()[:-1]), file=out)
    return EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``play`` subcommand's parser."""
    p = sub.add_parser(
        "play",
        help="play a puzzle in the terminal",
        description="A terminal Lights Out game (curses): cursor, tap "
        "preview, undo, reset, hints, tap counter, timer, stars.",
        epilog=_PLAY_EPILOG,
        formatter_class=fmt,
        allow_abbrev=False,
    )
    p.add_argument(
        "code_positional",
        nargs="?",
        metavar="CODE",
        help="a puzzle code: the same as --code CODE",
    )
    _add_code_option(p, "a puzzle code (from 'modlights generate')")
    p.add_argument(
        "--daily", type=_int_arg("--daily", 1, 3), metavar="N", help="play daily puzzle N (1-3)"
    )
    _add_date_option(p, "the day for --daily (default: today, UTC)")
    _add_generate_options(p, None)
    p.add_argument("--numbers", action="store_true", help="show tile values as numbers")
    p.add_argument(
        "--keys",
        metavar="KEYS",
        help="scripted session: key names (up down left right space u r ? n q "
        "...) separated by spaces; prints the final screen",
    )
    p.set_defaults(func=run)
    return p
