"""A 2^32-element GF(2) coset searched over a ProcessPoolExecutor: 2 workers vs 1.

The board is a random graph board with 32 more taps than cells (each tap advances 5
random cells of 64), so ker A has 2^32 elements and ``solve(minimal=True,
budget=2**32, executor=...)`` walks the whole coset in sub-cubes. Rounds alternate
1 and 2 workers; medians and the in-run ratio are printed, and every answer is checked
to be the same length, proved. On a shared machine the wall-clock ratio says little,
so the CPU seconds each worker process spent (psutil) are printed too: with 2 workers,
1-worker CPU / the busier worker's CPU is the speed-up an idle 2-core machine gives.

    python bench/executors.py [--rounds 3] [--taps 96] [--cells 64] [--dask]
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import statistics
import time

import numpy as np

import modlights as ml


def make_board(cells: int, taps: int, seed: int = 1) -> ml.Board:
    rng = np.random.default_rng(seed)
    effects = [rng.choice(cells, size=5, replace=False).tolist() for _ in range(taps)]
    return ml.Board.from_effects(effects, 2, n_cells=cells)


def worker_cpu(executor) -> list[float]:
    """CPU seconds so far of each process of a ProcessPoolExecutor ([] otherwise)."""
    import psutil
    procs = getattr(executor, "_processes", None) or {}
    return [sum(psutil.Process(pid).cpu_times()[:2]) for pid in sorted(procs)]


def timed_solve(s: ml.Solver, state, executor) -> tuple[float, list[float], ml.Solution]:
    """(wall seconds, CPU seconds per worker process, the solution)."""
    c0 = worker_cpu(executor)
    t0 = time.perf_counter()
    sol = s.solve(state, budget=1 << 40, executor=executor)
    dt = time.perf_counter() - t0
    return dt, [b - a for a, b in zip(c0, worker_cpu(executor))], sol


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cells", type=int, default=64)
    ap.add_argument("--taps", type=int, default=96)
    ap.add_argument("--dask", action="store_true",
                    help="also time a dask.distributed LocalCluster of 2 workers")
    args = ap.parse_args()
    b = make_board(args.cells, args.taps)
    s = ml.Solver(b)
    print(f"graph board: {b.n_cells} cells, {b.n_taps} taps, |ker A| = 2^{s.nullity}")
    state = b.random_state(rng=np.random.default_rng(2))
    pools = {w: cf.ProcessPoolExecutor(w) for w in (1, 2)}
    for ex in pools.values():                    # start the workers (untimed)
        ex.submit(int, 0).result()
    times: dict[str, list[float]] = {"1 worker": [], "2 workers": []}
    cpu: dict[str, list[list[float]]] = {"1 worker": [], "2 workers": []}
    answers = set()
    try:
        if args.dask:
            import distributed
            cluster = distributed.LocalCluster(processes=True, n_workers=2,
                                               threads_per_worker=1,
                                               dashboard_address=None)
            client = distributed.Client(cluster)
            pools["dask"] = client.get_executor()
            times["dask 2 workers"] = []
        for _ in range(args.rounds):
            for name, ex in (("1 worker", pools[1]), ("2 workers", pools[2])) + (
                    (("dask 2 workers", pools["dask"]),) if args.dask else ()):
                dt, cpus, sol = timed_solve(s, state, ex)
                times[name].append(dt)
                cpu.setdefault(name, []).append(cpus)
                answers.add((sol.length, sol.proven_minimal))
                print(f"  {name}: {dt:.2f} s, length {sol.length}, "
                      f"proven {sol.proven_minimal}, worker CPU s "
                      f"{', '.join(f'{c:.1f}' for c in cpus) or '-'}", flush=True)
    finally:
        for ex in (pools[1], pools[2]):
            ex.shutdown()
        if args.dask:
            client.close()
            cluster.close()
    assert len(answers) == 1 and next(iter(answers))[1], answers
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in med.items():
        print(f"{k}: median {v:.2f} s over {len(times[k])} runs")
    ratios = [a / b for a, b in zip(times["1 worker"], times["2 workers"])]
    print(f"speed-up 2 workers / 1: {med['1 worker'] / med['2 workers']:.2f}x "
          f"(medians); in-run ratios {', '.join(f'{r:.2f}' for r in ratios)}")
    one = statistics.median(sum(c) for c in cpu["1 worker"])
    busiest = statistics.median(max(c) for c in cpu["2 workers"])
    total2 = statistics.median(sum(c) for c in cpu["2 workers"])
    print(f"CPU seconds: 1 worker {one:.1f}; 2 workers {total2:.1f} in all, the busier "
          f"{busiest:.1f}: speed-up on an idle 2-core machine {one / busiest:.2f}x")


if __name__ == "__main__":
    main()
