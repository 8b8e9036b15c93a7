#!/usr/bin/env python
"""algebraic.py: the algebraic engine on giant uniform boards (issue 14).

    python bench/algebraic.py                  # 10000^2 GF(2)/(3)/(5), nullity 10^5, stages at 30000^2
    python bench/algebraic.py --giant          # + the 100000 x 100000 GF(2) solve and its stages
    python bench/algebraic.py --only nullity   # one workload (solve2, solvep, nullity, stages, giant)

Workloads (medians of --repeats runs, every answer checked outside the timing):

- solve2: GF(2) cross 10000 x 10000 from a random uint8 start (nullity 0: every start is
  solvable): Board.grid + Solver + solve(minimal=False) on bytes, and solve_packed on
  np.packbits rows; checked by Board.apply (bytes) / a streamed packed apply.
- solvep: GF(3), GF(5) cross 10000 x 10000 from Board.random_state (solvable): Board.grid
  + Solver + solve(minimal=False); checked by Board.apply.
- nullity: Solver(Board.grid(k, k)).nullity for k = 100000 (GF(2)); the gcd alone.
- stages: where the time of one packed solve goes (chase pass 1, chi_T and F, extended
  gcd, the residual conversions and product, chase pass 2) beside the memory-bandwidth
  floor of this machine: a numpy copy of the packed state (reads and writes the bytes
  one chase pass reads and writes).
- giant: Board.grid + Solver + solve_packed at 100000 x 100000 with the peak RSS.

The machine is shared (2 cores, several developers): quote medians and in-run ratios.
"""
from __future__ import annotations

import argparse
import gc
import json
import time

import numpy as np

import modlights as ml
from modlights.cli.workloads import random_packed
from modlights.cli.workloads import _peak_mb, _reset_peak
from modlights.engines.algebraic.cross import AlgebraicEngine


def _median(f, repeats):
    ts, out = [], None
    for _ in range(repeats):
        out = None                      # the last result only: one output array alive
        gc.collect()
        t0 = time.perf_counter()
        out = f()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts)), ts, out


def bench_solve2(k, repeats):
    rng = np.random.default_rng(1)
    s = rng.integers(0, 2, size=(k, k), dtype=np.uint8)
    t, ts, sol = _median(lambda: ml.Solver(ml.Board.grid(k, k)).solve(s, minimal=False),
                         repeats)
    b = ml.Board.grid(k, k)
    assert not b.apply(s, sol.taps).any()
    del sol
    packed = np.packbits(s, axis=1)
    tp, tps, x = _median(lambda: ml.Solver(ml.Board.grid(k, k)).solve_packed(packed),
                         repeats)
    assert AlgebraicEngine(b).apply_packed(x, packed, write=False)[1] == 0
    return [dict(work=f"GF(2) cross {k}^2 bytes", seconds=t, runs=ts),
            dict(work=f"GF(2) cross {k}^2 packed", seconds=tp, runs=tps)]


def bench_solvep(k, repeats):
    rows = []
    for n in (3, 5):
        b = ml.Board.grid(k, k, states=n)
        s = b.random_state(rng=n)
        t, ts, sol = _median(lambda: ml.Solver(ml.Board.grid(k, k, states=n)).solve(
            s, minimal=False), repeats)
        assert not b.apply(s, sol.taps).any()
        rows.append(dict(work=f"GF({n}) cross {k}^2 bytes", seconds=t, runs=ts))
    return rows


def bench_nullity(k, repeats):
    t, ts, nul = _median(lambda: ml.Solver(ml.Board.grid(k, k)).nullity, repeats)
    eng = AlgebraicEngine(ml.Board.grid(k, k))
    chi, F = eng._poly_F()
    tg, tgs, _ = _median(lambda: F.gcd(chi), repeats)
    return [dict(work=f"nullity GF(2) cross {k}^2", seconds=t, runs=ts, nullity=nul),
            dict(work=f"  of which gcd(F, chi) of degree {k}", seconds=tg, runs=tgs)]


def bench_stages(k, repeats):
    """One packed solve taken apart (the engine's own steps, timed one by one)."""
    b = ml.Board.grid(k, k)
    eng = AlgebraicEngine(b)
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
    _, last = stage("chase pass 1 (z = 0, read-only: the residual row only)",
                    lambda: rec.chase_gf2(start, True, 0, None, None, False))
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
    stage(f"floor: numpy copy of the packed state ({start.nbytes / 2**20:.0f} MiB)",
          lambda: np.copyto(dst, start))
    stage("floor: numpy XOR of two packed arrays into a third",
          lambda: np.bitwise_xor(start, x, out=dst))
    return [dict(work=f"stages GF(2) cross {k}^2 packed", seconds=sum(
        r["seconds"] for r in rows if "floor" not in r["work"]), runs=[])] + rows


def bench_giant(k, repeats):
    b = ml.Board.grid(k, k)
    eng = AlgebraicEngine(b)
    x0 = random_packed(k, k, np.random.default_rng(11))
    start, _ = eng.apply_packed(x0)
    del x0
    gc.collect()
    _reset_peak()
    t, ts, x = _median(lambda: ml.Solver(ml.Board.grid(k, k)).solve_packed(start), repeats)
    peak = _peak_mb()
    bad = eng.apply_packed(x, start, write=False)[1]
    assert bad == 0, bad
    return [dict(work=f"GF(2) cross {k}^2 packed (giant)", seconds=t, runs=ts,
                 peak_mb=peak)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--giant", action="store_true", help="also 100000 x 100000 (heavy)")
    ap.add_argument("--only", default=None)
    ap.add_argument("--stage-size", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    work = {
        "solve2": lambda: bench_solve2(10000, args.repeats),
        "solvep": lambda: bench_solvep(10000, args.repeats),
        "nullity": lambda: bench_nullity(100000, args.repeats),
        "stages": lambda: bench_stages(args.stage_size or (100000 if args.giant else 30000),
                                       max(1, args.repeats if not args.giant else 3)),
        "giant": lambda: bench_giant(100000, max(1, min(args.repeats, 3))),
    }
    names = [args.only] if args.only else [w for w in work if w != "giant" or args.giant]
    rows = []
    for name in names:
        rows += work[name]()
    if args.json:
        print(json.dumps(rows))
        return
    for r in rows:
        extra = "".join(f"  {k}={v}" for k, v in r.items()
                        if k in ("nullity", "peak_mb"))
        print(f"{r['work']:<62} {r['seconds']:9.3f} s{extra}")
    print("(medians; the machine is shared: 2 cores, other work running)")


if __name__ == "__main__":
    main()
