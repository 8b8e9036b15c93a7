"""The chase on a large grid board with random holes (and locked tiles): the row chase
(modlights.engines.chase.rowchase, online elimination) against the residual-matrix path.

Usage: python bench/holes_large.py [size] [n] [holes] [locked] [repeats] [path]
path: "auto" (ChaseEngine's own choice, default), "row" (the row chase forced),
"matrix" (the residual matrix forced) or "bytes" (auto, GF(3) rows as bytes instead of
bit-sliced: the row chase before its bit-sliced rows). Prints, per run, Board.grid + Solver(method=
'chase') + solve(minimal=False) from a random solvable start (A x for a random x),
and checks the answer with Board.apply outside the timing. Shared 2-core machine:
quote medians.
"""
import sys
import time

import numpy as np

from modlights import Board, Solver


def main(size=2000, n=2, holes=0.01, locked=0.0, repeats=3, path="auto"):
    try:
        import modlights.engines.chase.rowchase as rc
    except ImportError:              # a checkout before the row chase: the matrix path
        rc = None
    if path == "bytes":
        from modlights.native import _core as _rowchase
        _rowchase.set_bitsliced(False)
    if rc is not None and path == "row":
        rc.ROWCHASE_MIN_RATIO = -1
    elif rc is not None and path == "matrix":
        rc.ROWCHASE_MIN_RATIO = 1 << 62
        rc.ROWCHASE_TALL_ENTRIES = 1 << 62
    rng = np.random.default_rng(1)
    u = rng.random((size, size))
    hole = u < holes
    lock = (u >= holes) & (u < holes + locked)
    kw = dict(states=n, pattern="cross", holes=hole if holes else None,
              locked=lock if locked else None)
    b = Board.grid(size, size, **kw)
    x = rng.integers(0, n, size=(size, size), dtype=np.uint8)
    x[hole | lock] = 0
    start = b.apply(np.zeros((size, size), np.uint8), x)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        board = Board.grid(size, size, **kw)
        s = Solver(board, method="chase")
        t1 = time.perf_counter()
        sol = s.solve(start, minimal=False)
        t2 = time.perf_counter()
        times.append(t2 - t0)
        eng = s._engine
        which = "row" if getattr(eng, "_row", None) is not None else "matrix"
        print(f"{size}x{size} n={n} holes={holes:.1%} locked={locked:.1%} [{which}]: build "
              f"{t1 - t0:.2f} s, solve {t2 - t1:.2f} s, total {t2 - t0:.2f} s, residual "
              f"{eng.residual_shape}, kernel {s.kernel_size if s.nullity < 64 else '...'}",
              flush=True)
    assert not b.apply(start, sol.taps).any(), "wrong answer"
    print(f"median {np.median(times):.2f} s over {repeats}")


if __name__ == "__main__":
    a = sys.argv[1:]
    main(int(a[0]) if a else 2000, int(a[1]) if len(a) > 1 else 2,
         float(a[2]) if len(a) > 2 else 0.01, float(a[3]) if len(a) > 3 else 0.0,
         int(a[4]) if len(a) > 4 else 3, a[5] if len(a) > 5 else "auto")
