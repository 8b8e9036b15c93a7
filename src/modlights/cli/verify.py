"""``modlights verify FILE``: check a certificate (docs/certificates.md) in exact
arithmetic, without the search code that made it, within a bound on the work
(``--max-work``)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from modlights.search.verify import MAX_WORK, FormatError, WorkLimitError, summary

#: Exit code when the certificate does not hold (0: it holds; 2: bad input, or a check
#: refused for its work).
EXIT_DOES_NOT_HOLD = 1

#: Work units a byte of the file costs to read and decode as JSON (a certificate is
#: mostly small integers: about 30 ns a byte measured, rounded up), so that the file's
#: size counts against ``--max-work`` too: 10^9 units read at most 25 MB.
JSON_BYTE = 40


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def max_work_arg(text: str) -> float:
    """``--max-work``: a number of work units >= 0 (``1e12`` and ``inf`` are accepted)."""
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not v >= 0:  # NaN too
        raise argparse.ArgumentTypeError(
            f"must be a number of work units >= 0 (e.g. 1e10; inf: no bound), got {text!r}"
        )
    return v


def _read(f: Any, limit: int | None) -> bytes:
    """The bytes of ``f`` up to EOF, or the first ``limit + 1`` when it has more
    (read in pieces: nothing is allocated for bytes the file does not have)."""
    if limit is None:
        return f.read()
    parts, got = [], 0
    while got <= limit:
        piece = f.read(min(1 << 20, limit + 1 - got))
        if not piece:
            break
        parts.append(piece)
        got += len(piece)
    return b"".join(parts)


def read_certificate(path: str, max_bytes: float = math.inf) -> tuple[Any, int]:
    """(the JSON document in ``path`` ("-": standard input), its size in bytes).
    ValueError (exit 2) when it cannot be read, has more than ``max_bytes`` bytes (read
    no further) or is not JSON (nested too deeply included)."""
    limit = None if math.isinf(max_bytes) else int(max_bytes)
    try:
        if path == "-":
            raw = _read(sys.stdin.buffer, limit)
        else:
            with open(path, "rb") as f:
                raw = _read(f, limit)
        if limit is not None and len(raw) > limit:
            raise ValueError(
                f"{path!r} has more than {limit} bytes: reading it needs more work than "
                f"--max-work allows ({JSON_BYTE} units a byte); raise --max-work to check it"
            )
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path!r}: {getattr(e, 'strerror', None) or e}") from None
    try:
        return json.loads(text, parse_constant=_reject_constant), len(raw)
    except (ValueError, RecursionError) as e:
        raise ValueError(f"{path!r} is not valid JSON: {e}"[:300]) from None


def run(args: argparse.Namespace, out) -> int:
    """Print "certificate holds: ..." (exit 0) or "certificate does not hold: <the
    step that fails>" (exit 1); unreadable files, invalid JSON, documents that are no
    modlights certificate and checks that need more than ``--max-work`` raise
    ValueError (exit 2, one line)."""
    max_work = args.max_work
    cert, size = read_certificate(args.file, max_work / JSON_BYTE)
    bound = None if math.isinf(max_work) else int(max_work)
    try:
        # reading the file counts against the bound: the check gets what is left
        what = summary(cert, max_work=None if bound is None else max(0, bound - JSON_BYTE * size))
    except FormatError:
        raise
    except WorkLimitError as e:
        e.need += JSON_BYTE * size
        e.max_work = bound if bound is not None else e.max_work
        raise ValueError(
            "not checked: " + e.explain("--max-work", "raise --max-work to check it")
        ) from None
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
        "rational arithmetic, no floating point, no search code. The work the check "
        "needs is estimated from the sizes the certificate declares before anything "
        "expensive is done; a check past --max-work is refused (it is no verdict: "
        "raise --max-work to check it).",
        formatter_class=fmt,
        allow_abbrev=False,
        epilog="exit codes:\n  0 the certificate holds, 1 it does not (the "
        "failing step is printed),\n  2 the file cannot be read, is "
        "not JSON or not a modlights certificate,\n    or checking it needs more "
        "work than --max-work allows (one line on stderr).\n\n"
        "examples:\n  modlights solve --grid 9x9 --seed 1 "
        "--certificate sol.json\n  modlights verify sol.json\n"
        "  modlights verify big.json --max-work 1e11",
    )
    p.add_argument("file", metavar="FILE", help="the certificate (JSON; - reads stdin)")
    p.add_argument(
        "--max-work",
        type=max_work_arg,
        default=float(MAX_WORK),
        metavar="N",
        help=f"the most work units the check may take, reading the file included "
        f"({JSON_BYTE} a byte); default {MAX_WORK} (about a second of one core); "
        "'inf': no bound",
    )
    p.set_defaults(func=run)
    return p
