"""Quick timings of the GF(2) engine through Python (medians; wall and CPU time).

Run: python bench/gf2_quick.py   (after installing the package)."""
import time, resource, numpy as np, modlights as ml
from modlights.native._core import Gf2Engine, bench_echelonize, set_simd, get_simd
def stats(f, n):
    w, c = [], []
    for _ in range(n):
        t0, p0 = time.perf_counter(), time.process_time(); f(); w.append(time.perf_counter() - t0); c.append(time.process_time() - p0)
    return np.median(w) * 1e3, np.min(w) * 1e3, np.median(c) * 1e3
print("simd", get_simd())
for k in (32, 64, 90):
    b = ml.Board.grid(k, k); st = b.random_state(rng=1)
    def run():
        s = ml.Solver(ml.Board.grid(k, k)); s.solve(st, minimal=False)
    print(f"cross {k}x{k} Solver(board)+solve(minimal=False): wall median %.1f ms, min %.1f, cpu median %.1f" % stats(run, 15))
rng = np.random.default_rng(0)
for N in (1024, 4096, 8192):
    A = (rng.random((N, N)) < .5).astype(np.uint8)
    ts, rk = bench_echelonize(A, full=False, repeats=9 if N < 8192 else 5)
    print(f"dense {N} echelon (rank {rk}): median {np.median(ts)*1e3:.1f} ms, min {np.min(ts)*1e3:.1f}")
b = ml.Board.grid(5, 5); s = ml.Solver(b); e = s._engine
X = rng.integers(0, 2, size=(100000, 25))
R = (X @ b.matrix().T.astype(np.int64)) % 2
med, mn, cpu = stats(lambda: e.solve(R), 15)
print(f"engine.solve R (100000,25) int64: median {med:.1f} ms -> {1e5/med/1e3:.1f} M boards/s (min {mn:.1f} ms)")
states = np.stack([b.random_state(rng=i) for i in range(100000)])
med, mn, cpu = stats(lambda: s.solve_many(states), 7)
print(f"Solver.solve_many 100000 5x5: median {med:.1f} ms -> {1e5/med/1e3:.1f} M boards/s")
