"""The algebraic engine's internals on giant uniform GF(2) cross boards.

- algebraic-nullity: Solver(Board.grid(k, k)).nullity (the gcd alone), and the
  gcd(F, chi) of degree k inside it as a figure.
- algebraic-stages: where the time of one packed solve goes (chase pass 1, chi_T and F,
  extended gcd, the residual conversions and product, chase pass 2), each stage timed
  on its own, beside the memory-bandwidth floor of this machine (a numpy copy and XOR of
  the packed state). Every stage's figure is recorded; the solve is checked.

These read the engine's private parts (AlgebraicEngine._rec, _conv, _poly_F; the engine
built through the registry as "algebraic-cross"): when they move, the workload reports
the error instead of a figure. The whole solves
are the grid and packed workloads (gf2-cross-10000, packed-cross-10000, packed-giant).
"""

from __future__ import annotations

import gc
import time
from typing import Any

import numpy as np

from ..registry import Context, Subject, Timed, workload


def _median(f, repeats):
    ts, out = [], None
    for _ in range(repeats):
        out = None  # the last result only: one output array alive
        gc.collect()
        t0 = time.perf_counter()
        out = f()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts)), ts, out


def bench_nullity(k, repeats):
    import modlights as ml
    from modlights.engines import registry

    t, ts, nul = _median(lambda: ml.Solver(ml.Board.grid(k, k)).nullity, repeats)
    eng: Any = registry.build_named(ml.Board.grid(k, k), "algebraic-cross")
    chi, F = eng._poly_F()
    tg, tgs, _ = _median(lambda: F.gcd(chi), repeats)
    return [
        dict(work=f"nullity GF(2) cross {k}^2", seconds=t, runs=ts, nullity=nul),
        dict(work=f"  of which gcd(F, chi) of degree {k}", seconds=tg, runs=tgs),
    ]


def bench_stages(k, repeats):
    """One packed solve taken apart (the engine's own steps, timed one by one)."""
    import modlights as ml
    from modlights.cli.workloads import random_packed
    from modlights.engines import registry

    b = ml.Board.grid(k, k)
    eng: Any = registry.build_named(b, "algebraic-cross")
    x0 = random_packed(k, k, np.random.default_rng(7))
    start, _ = eng.apply_packed(x0)
    del x0
    gc.collect()
    rec, conv = eng._rec, eng._conv
    rows = []

    def stage(name, f):
        t, ts, out = _median(f, repeats)
        rows.append(dict(work=f"  {name}", seconds=t, runs=ts))
        return out

    x = np.empty_like(start)
    _, last = stage(
        "chase pass 1 (z = 0, read-only: the residual row only)",
        lambda: rec.chase_gf2(start, True, 0, None, None, False),
    )
    chi = stage("chi_T (three-term recurrence)", conv.charpoly)
    F = stage("F = P_h mod chi_T", lambda: conv.residual_poly(chi))
    g, s, _ = stage("extended gcd(F, chi_T)", lambda: F.xgcd(chi, with_t=False))
    cp = stage("c -> c(x) (Clenshaw)", lambda: conv.vec_to_poly(last))
    q, r = stage("c(x) / g", lambda: cp.divmod(g))
    assert r.degree < 0
    zp = stage("z(x) = s q mod chi_T (Karatsuba + division)", lambda: (s * q).divmod(chi)[1])
    z = stage("z(x) -> z (Horner)", lambda: conv.poly_to_vec(zp))
    _, last2 = stage("chase pass 2 (z)", lambda: rec.chase_gf2(start, True, 0, z, x))
    assert not last2.any()
    assert eng.apply_packed(x, start, write=False)[1] == 0
    dst = np.empty_like(start)
    stage(
        f"floor: numpy copy of the packed state ({start.nbytes / 2**20:.0f} MiB)",
        lambda: np.copyto(dst, start),
    )
    stage(
        "floor: numpy XOR of two packed arrays into a third",
        lambda: np.bitwise_xor(start, x, out=dst),
    )
    return [
        dict(
            work=f"stages GF(2) cross {k}^2 packed",
            seconds=sum(r["seconds"] for r in rows if "floor" not in r["work"]),
            runs=[],
        )
    ] + rows


@workload(
    "algebraic-nullity",
    help="Solver(Board.grid(k, k)).nullity, GF(2) cross k = 100000 "
    "(the gcd of degree k inside it as a figure)",
    params={"size": 100000},
    repeats=5,
)
def algebraic_nullity(ctx: Context):
    k = ctx["size"]

    def run():
        rows = bench_nullity(k, 1)
        return Timed(rows[0]["seconds"], rows)

    def check(rows):
        ctx.figure("nullity", rows[0]["nullity"])
        ctx.figure("gcd_seconds", rows[1]["seconds"], "s", "gcd(F, chi) alone, first round")

    return {"modlights": Subject(run, check)}


@workload(
    "algebraic-stages",
    help="the stages of one packed GF(2) cross solve (k = 30000), "
    "each timed, beside the memory-bandwidth floor (figures only)",
    params={"size": 30000, "stage_repeats": 3},
    repeats=1,
)
def algebraic_stages(ctx: Context):
    for row in bench_stages(ctx["size"], ctx["stage_repeats"]):
        ctx.figure(row["work"].strip(), row["seconds"], "s", "median")
    return {}
