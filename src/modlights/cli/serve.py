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


def _memory(text: str) -> int:
    """An argparse ``type`` for --worker-memory: a size with a unit (limits.parse_memory)."""
    from modlights.web.limits import parse_memory

    try:
        return parse_memory(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e).replace("memory must", "it must", 1)) from None


_memory.__name__ = "--worker-memory"


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
        cheap_workers=args.cheap_workers,
        cheap_queue=args.cheap_queue,
        memory_bytes=args.worker_memory,
        worker_nice=args.worker_nice,
        cors_origins=args.cors_origin or (),
        shutdown_timeout=args.shutdown_timeout,
        keep_alive=args.keep_alive,
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        max_connections=args.max_connections,
        max_client_connections=args.max_client_connections,
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
        "Solver work runs in worker processes in two lanes (requests estimated cheap "
        "never wait behind expensive ones), each worker with a memory cap and each "
        "request with a deadline on its work; GET /api/health answers while the server "
        "lives, GET /api/ready while it can do solver work; GET /metrics serves "
        "Prometheus metrics.",
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
        metavar="N",
        type=_int_arg("--workers", 1, 1024),
        default=None,
        help="solver worker processes of the heavy lane (default: one a CPU)",
    )
    p.add_argument(
        "--queue",
        type=_int_arg("--queue", 0, 100_000),
        default=None,
        help="requests that may wait for a heavy-lane worker; past them the service "
        "answers 503 busy (default: twice the workers)",
    )
    p.add_argument(
        "--cheap-workers",
        type=_int_arg("--cheap-workers", 1, 1024),
        default=None,
        metavar="N",
        help="worker processes of the cheap lane, where requests estimated cheap run "
        "(default: one per two CPUs, at least 1)",
    )
    p.add_argument(
        "--cheap-queue",
        type=_int_arg("--cheap-queue", 0, 100_000),
        default=None,
        metavar="N",
        help="requests that may wait for a cheap-lane worker (default: 16 a worker)",
    )
    p.add_argument(
        "--worker-memory",
        type=_memory,
        default=None,
        metavar="SIZE",
        help="address-space cap of each worker, with a unit: 512M, 2G (K, M, G, T are "
        "powers of 1024; from 256M to 1T, or 0 for none; default: 2G or a share of the RAM)",
    )
    p.add_argument(
        "--worker-nice",
        type=_int_arg("--worker-nice", 0, 19),
        default=0,
        metavar="N",
        help="niceness added to the workers, 0..19 (default 0: the server's priority; "
        "a higher value lets other work on the machine go first)",
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
        default=5.0,
        metavar="SECONDS",
        help="seconds a connection may take to send a request's headers, from its "
        "opening or its last answer (default: 5)",
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
        default=None,
        metavar="N",
        help="connections at once; a new one past them closes the oldest connection "
        "that has sent no request for a second (or has been idle that long), and gets 503 "
        "only when there is none (default: 4096, or fewer when ulimit -n allows fewer)",
    )
    p.add_argument(
        "--max-client-connections",
        type=_int_arg("--max-client-connections", 0, 100_000),
        default=512,
        metavar="N",
        help="connections of one client address at once, enforced the same way "
        "(default: 512; 0: no limit; behind a reverse proxy all clients share its address)",
    )
    p.add_argument(
        "--no-access-log",
        action="store_true",
        help="no access-log line (method, path, status, ms) on stderr",
    )
    p.set_defaults(func=run)
    return p
