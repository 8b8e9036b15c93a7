"""Giant GF(2) boards on the bit-packed path, and the ``modlights bench`` self-benchmark.

Both call the library's own benchmark functions (modlights.cli.workloads.bench_packed
and bench_large, which ``modlights bench`` runs): one copy of each workload. Each round
is one call timing Board.grid + Solver + solve_packed (or solve) on a solvable start,
the answer checked inside the call outside its timing; the peak resident memory of the
timed run is recorded as a figure.
"""

from __future__ import annotations

from ..registry import Context, Subject, Timed, workload


def _packed(ctx: Context):
    from modlights.cli.workloads import bench_packed

    rows, cols = ctx["rows"], ctx["cols"] or ctx["rows"]
    peaks = []

    def run():
        ((label, _, _, seconds, peak),) = bench_packed(
            [(rows, cols)], pattern=ctx["pattern"], repeats=1, seed=ctx.seed
        )
        peaks.append(peak)
        return Timed(seconds, label)

    def check(label):
        ctx.figure("peak_mb", max(peaks), "MB", "first round, start state included")

    return {"modlights": Subject(run, check, label=f"solve_packed {ctx['pattern']}")}


for _p in ("square", "diagonal", "cross"):
    workload(
        f"packed-{_p}-10000",
        help=f"GF(2) {_p} 10000 x 10000: Board.grid + Solver + solve_packed",
        groups=("packed",),
        repeats=3,
        params={"rows": 10000, "cols": 0, "pattern": _p},
    )(_packed)
workload(
    "packed-giant",
    help="GF(2) 100000 x 100000 (1.25 GB a state): Board.grid + Solver "
    "+ solve_packed (--param pattern=square|diagonal|cross, cols for a kernel)",
    repeats=3,
    warmup=0,
    heavy=True,
    params={"rows": 100000, "cols": 0, "pattern": "cross"},
)(_packed)


@workload(
    "selfbench",
    help="what `modlights bench --sizes S --states N --pattern P --method M` "
    "times: Board.grid + Solver(method) + solve from Board.random_state",
    params={"size": 2000, "states": 2, "pattern": "cross", "method": "auto"},
    repeats=3,
)
def selfbench(ctx: Context):
    from modlights.cli.workloads import bench_large

    def run():
        ((label, _, _, seconds, peak),) = bench_large(
            [ctx["size"]],
            n=ctx["states"],
            pattern=ctx["pattern"],
            repeats=1,
            seed=ctx.seed,
            method=ctx["method"],
        )
        return Timed(seconds, peak)

    def check(peak):
        ctx.figure("peak_mb", peak, "MB", "first round")

    return {"modlights": Subject(run, check, label=f"method={ctx['method']}")}
