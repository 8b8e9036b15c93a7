"""``modlights bench``: time large boards (the installed package's self-benchmark).

The timed work is :func:`modlights.cli.workloads.bench_large` and ``bench_packed``; the
project's benchmark runner (``python -m bench`` in a source checkout) registers the same
functions as its ``selfbench`` and ``packed-*`` workloads, so there is one copy of each.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from modlights.cli.common import (
    EXIT_OK,
    _add_seed_option,
    _int_arg,
    _isatty,
    _parse_pattern,
    _rng_seed,
    _UserError,
)


def _parse_sizes(text: str) -> list[tuple[int, int]]:
    sizes: list[tuple[int, int]] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            if "x" in part.lower():
                rs, cs = part.lower().split("x")
                sizes.append((int(rs), int(cs)))
            else:
                sizes.append((int(part), int(part)))
        except ValueError:
            raise ValueError(
                f"--sizes takes sides or ROWSxCOLS separated by commas, got {part!r}"
            ) from None
    if not sizes:
        raise ValueError("--sizes is empty")
    for r, c in sizes:
        if r < 1 or c < 1:
            raise ValueError(f"board sides must be >= 1, got {r}x{c}")
    return sizes


_STATES = _int_arg("--states", 2, 255)


def _states_list(text: str) -> list[int]:
    """``--states N[,N...]``: values of ``--states`` (each 2..255, the parser every
    command uses) separated by commas. argparse ``type``."""
    values = [_STATES(v) for v in text.split(",") if v.strip()]
    if not values:
        raise argparse.ArgumentTypeError(f"--states needs at least one value, got {text!r}")
    return values


def run(args: argparse.Namespace, out) -> int:
    from modlights.cli.workloads import bench_large

    sizes = _parse_sizes(args.sizes)
    states = args.states
    seed = _rng_seed(args.seed)
    pattern = _parse_pattern(args.pattern)
    total = len(sizes) * len(states)
    done = [0]
    bar_out = sys.stderr
    # the bar redraws one line with '\r': only on a terminal (not in logs or pipes)
    show_bar = not args.quiet and _isatty(bar_out)

    def progress(i: int, n: int, label: str) -> None:
        if not show_bar or i >= n:
            return
        k = done[0] + i
        width = 30
        fill = int(width * k / total)
        print(
            f"\r[{'#' * fill}{'.' * (width - fill)}] {k}/{total} {label} n={cur_n[0]}   ",
            end="",
            file=bar_out,
            flush=True,
        )

    cur_n = [0]
    rows = []
    # boards past MAX_TILES (or all with --packed) run bit-packed (GF(2) solve_packed)
    from modlights.model.board import MAX_TILES

    packed = [s for s in sizes if args.packed or s[0] * s[1] > MAX_TILES]
    if packed and states != [2]:
        raise _UserError(
            f"boards of more than {MAX_TILES} tiles (or --packed) run the "
            "bit-packed path, which needs --states 2"
        )
    for n in states:
        cur_n[0] = n
        if packed:
            from modlights.cli.workloads import bench_packed

            rows += bench_packed(
                packed, pattern=pattern, progress=progress, repeats=args.repeats, seed=seed
            )
            done[0] += len(packed)
        bytewise = [s for s in sizes if s not in packed]
        if bytewise:
            rows += bench_large(
                bytewise,
                n=n,
                pattern=pattern,
                progress=progress,
                repeats=args.repeats,
                seed=seed,
                method=args.method,
            )
            done[0] += len(bytewise)
    if show_bar:
        print(f"\r[{'#' * 30}] {total}/{total} done" + " " * 20, file=bar_out, flush=True)
    if args.json:
        print(
            json.dumps(
                [dict(board=b, n=n, pattern=p, seconds=t, peak_mb=m) for b, n, p, t, m in rows]
            ),
            file=out,
        )
        return EXIT_OK
    print(f"{'board':>12} {'n':>4} {'pattern':>10} {'seconds':>9} {'peak MB':>9}", file=out)
    for b, n, p, t, m in rows:
        print(f"{b:>12} {n:>4} {p:>10} {t:>9.3f} {m:>9.0f}", file=out)
    print(
        f"(Board.grid + Solver + solve(minimal=False) (solve_packed on the bit-packed "
        f"path), median of {args.repeats}; every "
        "answer checked by applying it to the board)",
        file=out,
    )
    return EXIT_OK


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``bench`` subcommand's parser."""
    p = sub.add_parser(
        "bench",
        help="time large boards (structured solving)",
        description="Large-board benchmark: Board.grid + Solver + "
        "solve(minimal=False) from a random solvable start, "
        "median of repeats, peak memory; every answer checked.",
        formatter_class=fmt,
        allow_abbrev=False,
        epilog="examples:\n  modlights bench\n"
        "  modlights bench --sizes 1000,2000,5000 --states 2\n"
        "  modlights bench --sizes 1000 --states 3,4 --json\n\n"
        "In a source checkout, `python -m bench` runs the project's "
        "benchmark registry (this command is its 'selfbench' and "
        "'packed-*' workloads; peers, before/after comparisons, "
        "dated result files).",
    )
    p.add_argument(
        "--sizes",
        default="250,500,1000,2000",
        metavar="LIST",
        help="board sides (or ROWSxCOLS) separated by commas (default: 250,500,1000,2000)",
    )
    p.add_argument(
        "--states",
        default=[2],
        metavar="N[,N...]",
        type=_states_list,
        help="states per tile, 2..255, one value or several separated by commas (default: 2)",
    )
    p.add_argument(
        "--pattern", default="cross", metavar="NAME|OFFSETS", help="tap pattern (default: cross)"
    )
    p.add_argument(
        "--repeats",
        type=_int_arg("--repeats", 1, 1000),
        default=3,
        metavar="R",
        help="timed runs per board; the median is shown (default: 3)",
    )
    _add_seed_option(p, "seed of the start states: a whole number or text (default: 0)", 0)
    p.add_argument(
        "--packed",
        action="store_true",
        help="bit-packed states and solve_packed (n = 2; the algebraic "
        "engine for cross-like and symmetric 3x3 patterns such as "
        "diagonal, the tensor engine for square and other products; "
        "always used for boards of more than 2^27 tiles, e.g. "
        "--sizes 100000)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--method",
        default="chase",
        metavar="NAME",
        help="Solver method of the byte-state boards: any name Solver(method=) "
        "accepts (default: chase; auto: what Solver picks); a method that "
        "does not cover a board exits 2",
    )
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.set_defaults(func=run)
    return p
