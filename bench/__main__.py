"""python -m bench: the one benchmark runner.

    python -m bench --list                       the workloads and groups
    python -m bench WORKLOAD|GROUP ... [--repeats N] [--param key=value] [--seed S]
                                                 [--only modlights] [--out DIR] [--no-save]
    python -m bench compare --before DIR --after DIR WORKLOAD|GROUP ... [--rounds N]

A run times each workload's contenders (modlights and the peers it declares) in
interleaved rounds, prints medians and peer / modlights ratios, and writes
bench/results/YYYY-MM-DD-<workload>.json and .md (with the machine and git commits).
``compare`` runs each workload alternately on two source trees, each round in a fresh
subprocess with PYTHONPATH=DIR/src, and reports the after / before ratio of the medians.
Exit status: 0 on success, 1 when a contender failed its check, 2 on bad arguments,
130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import registry
from .runner import RESULTS, format_run, machine, run_workload, write_results


def _list(out) -> None:
    ws = registry.REGISTRY
    width = max((len(n) for n in ws), default=8)
    for n in registry.names():
        w = ws[n]
        peers = f" [peers: {', '.join(w.peers)}]" if w.peers else ""
        heavy = " (heavy)" if w.heavy else ""
        print(f"{n:{width}s}  {w.help}{peers}{heavy}", file=out)
    gs = registry.groups()
    if gs:
        print("\ngroups:", file=out)
        for g in sorted(gs):
            print(f"  {g}: {' '.join(gs[g])}", file=out)


def _run(args, out) -> int:
    ws = registry.select(args.workloads)
    if args.param and len(ws) != 1:
        raise ValueError("--param applies to one workload; name exactly one")
    params = {w.name: registry.parse_params(w, args.param) for w in ws}
    mach = machine()
    print(
        f"machine: {mach['cpu']}, {mach['usable_cores']}/{mach['cores']} cores, load "
        f"{mach['load']}; modlights from {mach.get('modlights_path')} "
        f"({mach.get('modlights_commit')})",
        file=out,
        flush=True,
    )
    failed = False
    for w in ws:
        print(f"\n== {w.name}", file=out, flush=True)
        rec = run_workload(
            w,
            params=params[w.name],
            repeats=args.repeats,
            seed=args.seed,
            only=args.only,
            log=(lambda s: print(s, file=out, flush=True)) if args.verbose else None,
        )
        print(format_run(rec), file=out, flush=True)
        failed |= any(
            "error" in r or r.get("missing", "").startswith("setup failed")
            for r in rec["contenders"].values()
        )
        if args.json:
            print(json.dumps(rec, default=str), file=out)
        if not args.no_save:
            j, m = write_results(rec, mach, args.out)
            print(f"results: {j} and {m.name}", file=out, flush=True)
    return 1 if failed else 0


def _child(args, out) -> int:
    """One run in a compare subprocess: print the record as JSON on the last line."""
    w = registry.get(args.workload)
    params = registry.parse_params(w, args.param)
    rec = run_workload(w, params=params, repeats=args.repeats, seed=args.seed, only=["modlights"])
    rec["machine"] = machine()
    print("BENCH-JSON " + json.dumps(rec, default=str), file=out, flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--list", action="store_true", help="list workloads and groups")
    p.add_argument(
        "workloads", nargs="*", metavar="WORKLOAD", help="workload or group names (see --list)"
    )
    p.add_argument(
        "--repeats", type=int, default=None, help="timed rounds (default: the workload's own)"
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a workload parameter (one workload only)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument(
        "--only",
        action="append",
        default=None,
        metavar="CONTENDER",
        help="time only these contenders (repeatable)",
    )
    p.add_argument("--out", default=str(RESULTS), help="results directory")
    p.add_argument("--no-save", action="store_true", help="write no results files")
    p.add_argument("--json", action="store_true", help="also print each record as JSON")
    p.add_argument("-v", "--verbose", action="store_true", help="print every round")
    return p


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        registry.load_all()
        if argv[:1] == ["compare"]:
            from .beforeafter import main as compare_main

            return compare_main(argv[1:], out)
        if argv[:1] == ["_child"]:
            p = argparse.ArgumentParser(prog="python -m bench _child")
            p.add_argument("workload")
            p.add_argument("--repeats", type=int, default=1)
            p.add_argument("--seed", type=int, default=0)
            p.add_argument("--param", action="append", default=[])
            return _child(p.parse_args(argv[1:]), out)
        args = build_parser().parse_args(argv)
        if args.list or not args.workloads:
            _list(out)
            return 0
        return _run(args, out)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
