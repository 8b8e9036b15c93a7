"""The largest minimal solution over every solvable 5x5 GF(2) cross board.

Known answer: 15 taps. Computed with the library: the 2^23 solvable boards are the
states -A x; solve_many gives one solution x0 of each, and the minimum over its coset
x0 + ker A (4 elements here) is taken with packed popcounts.

    python bench/max_minimum_5x5.py
"""
from __future__ import annotations

import time

import numpy as np

import modlights as ml


def main() -> None:
    t0 = time.perf_counter()
    b = ml.Board.grid(5, 5)
    s = ml.Solver(b)
    K = s.kernel().astype(np.uint32)                      # 2 x 25
    weights = 1 << np.arange(25, dtype=np.uint32)
    kern = [int(v) for v in (K @ weights)]
    coset = [0]
    for k in kern:
        coset += [c ^ k for c in coset]                   # all 4 kernel elements
    # a basis of the image: the solvable states are A x for x over a complement of ker A
    A = b.matrix().astype(np.uint32)
    best = 0
    worst_state = None
    block = 1 << 20
    total = 1 << 25
    for start in range(0, total, block):
        xs = np.arange(start, start + block, dtype=np.uint32)
        bits = ((xs[:, None] >> np.arange(25, dtype=np.uint32)) & 1).astype(np.uint8)
        states = (bits.astype(np.uint32) @ A.T % 2).astype(np.uint8).reshape(-1, 5, 5)
        X = s.solve_many(states)                          # one solution each
        x0 = (X.reshape(len(X), 25).astype(np.uint32) @ weights).astype(np.uint32)
        mins = np.full(len(x0), 99, dtype=np.int64)
        for c in coset:
            v = x0 ^ np.uint32(c)
            pc = np.unpackbits(v.view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1)
            mins = np.minimum(mins, pc)
        i = int(np.argmax(mins))
        if mins[i] > best:
            best, worst_state = int(mins[i]), states[i].copy()
    dt = time.perf_counter() - t0
    sol = s.solve(worst_state)
    assert sol.length == best and sol.proven_minimal
    print(f"largest minimum over all solvable 5x5 GF(2) cross boards: {best} taps "
          f"({dt:.1f} s, 2^25 tap vectors = every solvable board 4 times)")
    print("one of them:\n" + "\n".join("".join(map(str, r)) for r in worst_state))


if __name__ == "__main__":
    main()
