"""``modlights hardest``: the board that needs the most taps, its value and a witness."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from modlights.cli.cluster import add_cluster_options, executor_of, wants_executor
from modlights.cli.common import (
    _BOARD_HELP,
    _add_board_options,
    _board_json,
    _build_board,
    _describe,
    _format_grid,
    _parse_seconds_budget,
    _UserError,
)
from modlights.solver import Solver

_HARDEST_EPILOG = (
    _BOARD_HELP
    + """
budget:
  --budget takes the seconds form of the command's one budget grammar, e.g. 120s. A
  bare number is a count of solutions to examine (modlights solve), which does not
  apply to this search, and is refused.

examples:
  modlights hardest --grid 9x9
  modlights hardest --grid 19x19 --budget 120s
  modlights hardest --grid 3x3 --states 3 --json
  modlights hardest --grid 19x19 --budget 60s --certificate h19.json
  modlights hardest --grid 23x23 --budget 60s --groups 300s --certificate h23.json
  modlights hardest --grid 9x9 --groups 600s --workers 2 --checkpoint t9.json
  modlights verify h19.json
"""
)


def run(args: argparse.Namespace, out) -> int:
    """Print the value, a witness board, its fewest taps and the time (or one JSON
    object with ``--json``); with ``--certificate FILE`` write the certificate of the
    bounds there (docs/certificates.md; its ``upper`` is what the certificate proves,
    which may be above the search's when the proof tree does not close in
    ``CERTIFICATE_SECONDS``). Exit 0."""
    board = _build_board(args)
    if wants_executor(args) and args.groups is None:
        raise _UserError(
            "--workers / --scheduler / --checkpoint run the tree of --groups: give "
            "--groups SECONDSs too"
        )
    solver = Solver(board, backend=args.backend)
    h = solver.hardest(budget=args.budget)
    cert: dict = {}
    groups = None
    if args.certificate is not None or args.groups is not None:
        try:
            cert = h.certificate(budget=CERTIFICATE_SECONDS)
        except ValueError as e:
            raise _UserError(f"--certificate: {e}") from None
        if args.groups is not None and wants_executor(args):
            with executor_of(args) as executor:
                cert, groups = _tree(solver, h, cert, args.groups, executor, args.checkpoint)
        elif args.groups is not None:
            cert, groups = _groups(solver, h, cert, args.groups)
        if args.certificate is not None:
            _write_certificate(args.certificate, cert)
    if args.json:
        doc = {**_board_json(board), **h.to_dict()}
        if args.certificate is not None:
            doc["certificate"] = args.certificate
            doc["certificate_upper"] = cert["upper"]
        if groups is not None:
            doc["groups"] = groups
            doc["certificate_lower"] = cert["lower"]
            doc["certificate_upper"] = cert["upper"]
        print(json.dumps(doc), file=out)
        return 0
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(_describe(board))
    p()
    if h.proven:
        p(
            f"hardest board: {h.min_taps} taps (proved: the largest fewest-taps over all "
            f"{_count(board, solver)} solvable boards)"
        )
    else:
        p(
            f"hardest board: at least {h.min_taps} taps, at most {h.upper} (not proved "
            f"within the budget; raise --budget)"
        )
    p()
    p(f"a board needing {h.min_taps} taps:")
    for line in _format_grid(board, h.state):
        p(line)
    p()
    p("its fewest taps:")
    for line in _format_grid(board, h.taps):
        p(line)
    p()
    p(f"time: {h.seconds:.2f} s, {h.iterations} integer programs")
    if groups is not None:
        p(
            f"group branch and bound: {groups['lower']}..{groups['upper']} proved by "
            f"{groups['nodes']} nodes in {groups['seconds']:.1f} s"
            + (f" ({groups['error']})" if "error" in groups else "")
        )
    if args.certificate is not None:
        proves = (
            "settles the value"
            if cert["lower"] == cert["upper"]
            else f"proves {cert['lower']} <= value <= {cert['upper']}"
        )
        p(
            f"certificate: {args.certificate} ({proves}; check it with 'modlights verify "
            f"{args.certificate}')"
        )
    return 0


#: Seconds ``--certificate`` may spend on a proof tree of the upper bound (needed only
#: when the integer program proved less than the linear program's bound).
CERTIFICATE_SECONDS = 30.0


def _groups(solver: Solver, h: Any, cert: dict, seconds: float) -> tuple[dict, dict]:
    """``--groups``: the group branch and bound (:mod:`modlights.search.hardest_bb`)
    from the search's proved value for ``seconds``; (the certificate, with its upper
    bound when that is lower or its board when harder; figures of the run)."""
    from modlights.search.hardest_bb import group_certificate, group_hardest

    H, orders = solver._kernel().generators()
    try:
        res = group_hardest(solver.board, H, orders, lower=h.lower, budget=seconds)
    except ValueError as e:  # a kernel too large to enumerate
        return cert, {
            "lower": cert["lower"],
            "upper": cert["upper"],
            "nodes": 0,
            "seconds": 0.0,
            "error": str(e),
        }
    figures = {k: res[k] for k in ("lower", "upper", "nodes", "seconds", "settled")}
    if res["upper"] < cert["upper"] or res["lower"] > cert["lower"]:
        try:
            cert = group_certificate(solver, h, res)
        except ValueError as e:
            raise _UserError(f"--groups: {e}") from None
    return cert, figures


def _tree(
    solver: Solver, h: Any, cert: dict, seconds: float, executor: Any, checkpoint: Any
) -> tuple[dict, dict]:
    """``--groups`` with --workers / --scheduler / --checkpoint: the fixed tree of
    :mod:`modlights.search.hardest_tree` proving the search's value over the executor
    for ``seconds``, its checkpoint kept; (the certificate, figures) as :func:`_groups`:
    the tree's upper bound when it closed, a harder board's witness when it met one."""
    from modlights.search.hardest_bb import group_certificate
    from modlights.search.hardest_tree import tree_bound

    H, orders = solver._kernel().generators()
    t0 = time.perf_counter()
    try:
        res = tree_bound(
            solver.board,
            H,
            orders,
            h.lower,
            executor=executor,
            checkpoint=checkpoint,
            budget=seconds,
        )
    except KeyboardInterrupt:
        if checkpoint is not None:
            raise KeyboardInterrupt(
                f"the nodes expanded are in {checkpoint}: the same command resumes"
            ) from None
        raise
    figures: dict = {
        "lower": cert["lower"],
        "upper": cert["upper"],
        "nodes": res["nodes"],
        "seconds": time.perf_counter() - t0,
        "settled": False,
    }
    if res["done"]:
        cert = {**cert, "upper": cert["lower"], "upper_bound": res["upper_bound"]}
        figures.update(upper=cert["lower"], settled=True)
    elif res["harder"] is not None:
        x, value = res["harder"]
        found = {
            "lower": value,
            "board": x,
            "upper": cert["upper"],
            "upper_bound": cert["upper_bound"],
        }
        try:
            cert = group_certificate(solver, h, found)
        except ValueError as e:
            raise _UserError(f"--groups: {e}") from None
        figures.update(lower=cert["lower"], error="a harder board: run again to prove it")
    else:
        figures["error"] = "the tree did not close within --groups"
    return cert, figures


def _write_certificate(path: str, cert: dict) -> None:
    """Write ``cert`` as JSON to ``path``; ValueError (exit 2) when it cannot."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(cert, f)
    except OSError as e:
        raise _UserError(f"cannot write --certificate {path!r}: {e.strerror or e}") from None


def _count(board: Any, solver: Solver) -> str:
    """n^rank as text (the number of solvable boards)."""
    k = solver.kernel_size
    total = board.states**board.n_taps // k
    return str(total) if total < 10**12 else f"{board.states}^{board.n_taps}/{k}"


def add_parser(sub: Any, fmt: Any) -> argparse.ArgumentParser:
    """The ``hardest`` subcommand's parser."""
    p = sub.add_parser(
        "hardest",
        help="the board that needs the most taps",
        description="The largest fewest-taps over every solvable board "
        "(target 0) and a board that needs it, proved by "
        "integer programming (HiGHS) and the exact coset search.",
        formatter_class=fmt,
        allow_abbrev=False,
        epilog=_HARDEST_EPILOG,
    )
    _add_board_options(p)
    p.add_argument(
        "--budget",
        metavar="SECONDSs",
        type=_parse_seconds_budget,
        help="time limit in seconds, written with an 's' (e.g. 120s); past it the best "
        "board found is printed with its proved bounds, marked not proved (a bare "
        "number, a count of solutions in 'modlights solve', is refused)",
    )
    p.add_argument(
        "--certificate",
        metavar="FILE",
        help="write a certificate of the bounds (JSON: the witness with the "
        "proof of its fewest taps, and exact LP dual weights for the "
        "upper bound); check it with 'modlights verify FILE'",
    )
    p.add_argument(
        "--groups",
        metavar="SECONDSs",
        type=_parse_seconds_budget,
        help="then run the group-count branch and bound for that long from the value "
        "found (kernels of at most 2^26 elements x taps); its certificate (an LP tree "
        "branching on tap groups) replaces the search's when its bounds are tighter",
    )
    add_cluster_options(p, checkpoint=True)
    p.set_defaults(func=run)
    return p
