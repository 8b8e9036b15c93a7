"""``modlights serve``: run the web service and the browser game."""

from __future__ import annotations

import argparse
import math
from typing import Any

from modlights.cli.common import EXIT_OK, _int_arg


def _seconds(what: str):
    """An argparse ``type`` for seconds: a number above 0, at most 3600."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            v = math.nan
        if not 0 < v <= 3600:
            raise argparse.ArgumentTypeError(
                f"{what} must be seconds above 0 and at most 3600, got {text!r}"
            )
        return v

    parse.__name__ = what
    return parse


def run(args: argparse.Namespace, out) -> int:
    """Serve the web service until SIGINT / SIGTERM (see
    :func:`modlights.web.server.serve`); returns the exit code (0 after a shutdown)."""
    from modlights.web.server import serve

    serve(
        args.host,
        args.port,
        out=out,
        workers=args.workers,
        queue=args.queue,
        memory_mb=args.worker_memory,
        cors_origins=args.cors_origin or (),
        shutdown_timeout=args.shutdown_timeout,
        keep_alive=args.keep_alive,
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        max_connections=args.max_connections,
        access_log=not args.no_access_log,
    )
    return EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``serve`` subcommand's parser."""
    p = sub.add_parser(
        "serve",
        help="run the web service and the browser game",
        description="Serve the JSON API and the browser game over HTTP "
        '(needs the extra: pip install "modlights[web]"). '
        "Solver work runs in worker processes, each with a "
        "memory cap and a deadline per request; GET /metrics "
        "serves Prometheus metrics.",
        formatter_class=fmt,
        allow_abbrev=False,
        epilog="examples:\n  modlights serve\n  modlights serve --port 0\n"
        "  modlights serve --workers 4 --cors-origin "
        "https://example.org",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument(
        "--port",
        type=int,
        default=8000,
        help="port (default: 8000; 0 picks a free one and prints it)",
    )
    p.add_argument(
        "--workers",
        type=_int_arg("--workers", 1, 1024),
        default=None,
        help="solver worker processes (default: one a CPU)",
    )
    p.add_argument(
        "--queue",
        type=_int_arg("--queue", 0, 100_000),
        default=None,
        help="requests that may wait for a worker; past them the service "
        "answers 503 busy (default: twice the workers)",
    )
    p.add_argument(
        "--worker-memory",
        type=_int_arg("--worker-memory", 0, 1 << 40),
        default=None,
        metavar="MIB",
        help="address-space cap of each worker in MiB (default: 2048 or a "
        "share of the RAM; 0: none)",
    )
    p.add_argument(
        "--cors-origin",
        action="append",
        metavar="ORIGIN",
        help="an origin allowed to call the API from a browser, e.g. "
        "https://example.org, or * for any (repeatable; default: none)",
    )
    p.add_argument(
        "--shutdown-timeout",
        type=_seconds("--shutdown-timeout"),
        default=5.0,
        metavar="SECONDS",
        help="seconds requests in flight get to finish on Ctrl-C / SIGTERM (default: 5)",
    )
    p.add_argument(
        "--keep-alive",
        type=_seconds("--keep-alive"),
        default=5.0,
        metavar="SECONDS",
        help="seconds an idle connection stays open (default: 5)",
    )
    p.add_argument(
        "--header-timeout",
        type=_seconds("--header-timeout"),
        default=10.0,
        metavar="SECONDS",
        help="seconds a connection may take to send a request's headers (default: 10)",
    )
    p.add_argument(
        "--body-timeout",
        type=_seconds("--body-timeout"),
        default=10.0,
        metavar="SECONDS",
        help="seconds a client may take to send a request's body; past it: 408 (default: 10)",
    )
    p.add_argument(
        "--max-connections",
        type=_int_arg("--max-connections", 1, 100_000),
        default=256,
        metavar="N",
        help="connections at once; past them new requests get 503 (default: 256)",
    )
    p.add_argument(
        "--no-access-log",
        action="store_true",
        help="no access-log line (method, path, status, ms) on stderr",
    )
    p.set_defaults(func=run)
    return p
