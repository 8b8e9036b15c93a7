"""``modlights serve``: run the web service and the browser game."""
from __future__ import annotations

import argparse
from typing import Any

from .common import EXIT_OK


def run(args: argparse.Namespace, out) -> int:
    from ..web.server import serve
    serve(args.host, args.port, out=out)
    return EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``serve`` subcommand's parser."""
    p = sub.add_parser("serve", help="run the web service and the browser game",
                       description="Serve the JSON API and the browser game over HTTP "
                                   "(needs the extra: pip install \"modlights[web]\").",
                       formatter_class=fmt, allow_abbrev=False,
                       epilog="examples:\n  modlights serve\n  modlights serve --port 0")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on "
                   "(default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000,
                   help="port (default: 8000; 0 picks a free one and prints it)")
    p.set_defaults(func=run)
    return p
