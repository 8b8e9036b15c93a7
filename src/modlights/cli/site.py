"""``modlights site DIR``: write the browser game as static files that need no server."""

from __future__ import annotations

import argparse
from typing import Any

from modlights.cli.common import EXIT_OK


def run(args: argparse.Namespace, out) -> int:
    """Write the site (:func:`modlights.web.site.write_site`) and print one line: how
    many files, how many bytes, where. A DIR that is a file or cannot be written, or a
    source checkout without the JavaScript package built, is a ValueError (exit 2)."""
    from modlights.web.site import write_site

    written = write_site(args.dir)
    from pathlib import Path

    size = sum((Path(args.dir) / rel).stat().st_size for rel in written)
    print(
        f"wrote {len(written)} files ({size / 1024:.0f} KiB) to {args.dir}: open "
        f"index.html through any static web server",
        file=out,
    )
    return EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``site`` subcommand's parser."""
    p = sub.add_parser(
        "site",
        help="write the browser game as static files",
        description="Write the browser game into DIR as static files "
        "(index.html, CSS, the game's JavaScript, the "
        "modlights JavaScript package with its WebAssembly "
        "core, and the campaign's levels as JSON): every mode "
        "plays in the browser with no server behind it. DIR "
        "is created if missing; files of the same names are "
        "replaced. Serve DIR with any static web server (the "
        "page loads ES modules, so file:// URLs will not do).",
        formatter_class=fmt,
        allow_abbrev=False,
        epilog="examples:\n  modlights site public/\n"
        "  modlights site /tmp/game && python -m http.server "
        "-d /tmp/game 8000",
    )
    p.add_argument("dir", metavar="DIR", help="the directory to write the site into")
    p.set_defaults(func=run)
    return p
