"""``modlights verify FILE``: check a certificate (docs/certificates.md) in exact
arithmetic, without the search code that made it."""

from __future__ import annotations

import argparse
import json
from typing import Any

from modlights.search.verify import FormatError, summary

#: Exit code when the certificate does not hold (0: it holds; 2: bad input).
EXIT_DOES_NOT_HOLD = 1


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_certificate(path: str) -> Any:
    """The JSON document in ``path`` ("-": standard input). ValueError (exit 2) when
    it cannot be read or is not JSON."""
    import sys

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path!r}: {getattr(e, 'strerror', None) or e}") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise ValueError(f"{path!r} is not valid JSON: {e}"[:300]) from None


def run(args: argparse.Namespace, out) -> int:
    """Print "certificate holds: ..." (exit 0) or "certificate does not hold: <the
    step that fails>" (exit 1); unreadable files, invalid JSON and documents that are
    no modlights certificate raise ValueError (exit 2)."""
    cert = read_certificate(args.file)
    try:
        what = summary(cert)
    except FormatError:
        raise
    except ValueError as e:
        print(f"certificate does not hold: {e}", file=out)
        return EXIT_DOES_NOT_HOLD
    print(f"certificate holds: {what}", file=out)
    return 0


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``verify`` subcommand's parser."""
    p = sub.add_parser(
        "verify",
        help="check a certificate in exact arithmetic",
        description="Check a certificate written by sol.certificate(), "
        "h.certificate(), 'modlights solve --certificate' or "
        "'modlights hardest --certificate': exact integer and "
        "rational arithmetic, no floating point, no search code.",
        formatter_class=fmt,
        allow_abbrev=False,
        epilog="exit codes:\n  0 the certificate holds, 1 it does not (the "
        "failing step is printed),\n  2 the file cannot be read, is "
        "not JSON or not a modlights certificate.\n\n"
        "examples:\n  modlights solve --grid 9x9 --seed 1 "
        "--certificate sol.json\n  modlights verify sol.json",
    )
    p.add_argument("file", metavar="FILE", help="the certificate (JSON; - reads stdin)")
    p.set_defaults(func=run)
    return p
