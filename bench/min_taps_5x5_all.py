"""The fewest taps of every solvable 5x5 GF(2) cross board, by Solver.min_taps_many.

The 2^23 solvable boards (the image of A) are enumerated as bit masks, unpacked into
(k, 5, 5) stacks of 2^20 boards and handed to ``min_taps_many`` (one C batch search
a call: the particular solutions by one packed product, then min popcount(x0 ^ k) over
the 4 kernel elements per board). Writes the distribution (fewest taps -> boards) as
JSON and checks it: 2^23 boards, the maximum 15 (bench/max_minimum_5x5.py), and a
sample of boards against the single-board search.

    python bench/min_taps_5x5_all.py [--out bench/min_taps_5x5_all.json]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import modlights as ml

BLOCK = 1 << 20


def image_basis(A: np.ndarray) -> list[int]:
    """A basis of the column space of A (GF(2)), each vector as a bit mask (bit j:
    cell j)."""
    basis: dict[int, int] = {}                 # leading bit -> vector
    for col in A.T:
        v = int(sum(1 << j for j in np.flatnonzero(col)))
        while v:
            top = v.bit_length() - 1
            if top not in basis:
                basis[top] = v
                break
            v ^= basis[top]
    return list(basis.values())


def all_solvable_masks(A: np.ndarray) -> np.ndarray:
    """Every vector of the column space of A, as uint32 masks (2^rank of them)."""
    masks = np.zeros(1, dtype=np.uint32)
    for v in image_basis(A):
        masks = np.concatenate([masks, masks ^ np.uint32(v)])
    return masks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).with_name("min_taps_5x5_all.json")))
    args = ap.parse_args()
    t0 = time.perf_counter()
    b = ml.Board.grid(5, 5)
    s = ml.Solver(b)
    masks = all_solvable_masks(b.matrix())
    counts = np.zeros(26, dtype=np.int64)
    t_search = 0.0
    worst = (-1, None)
    for start in range(0, len(masks), BLOCK):
        m = masks[start:start + BLOCK]
        states = np.unpackbits(m.astype("<u4").view(np.uint8).reshape(-1, 4), axis=1,
                               bitorder="little")[:, :25].reshape(-1, 5, 5)
        t1 = time.perf_counter()
        lengths, proven = s.min_taps_many(states)
        t_search += time.perf_counter() - t1
        assert proven.all() and (lengths >= 0).all()
        counts += np.bincount(lengths, minlength=26)
        i = int(np.argmax(lengths))
        if lengths[i] > worst[0]:
            worst = (int(lengths[i]), states[i].copy())
        if start == 0:                           # spot check against one-by-one
            for j in range(0, len(states), len(states) // 200):
                assert s.solve(states[j]).length == lengths[j]
    total = time.perf_counter() - t0
    assert counts.sum() == len(masks) == 1 << 23
    top = int(np.flatnonzero(counts).max())
    assert top == worst[0] == 15 and s.solve(worst[1]).length == 15
    dist = {int(k): int(v) for k, v in enumerate(counts) if v}
    Path(args.out).write_text(json.dumps({
        "board": "5x5 cross, GF(2)", "boards": int(counts.sum()), "max_min_taps": top,
        "distribution": dist, "seconds_min_taps_many": round(t_search, 3),
        "seconds_total": round(total, 3)}, indent=1) + "\n")
    print(f"{counts.sum()} solvable 5x5 boards: min_taps_many {t_search:.2f} s "
          f"({counts.sum() / t_search / 1e6:.2f} M boards/s), {total:.2f} s in all "
          f"(enumeration and unpacking included)")
    print("fewest taps: boards")
    for k, v in dist.items():
        print(f"{k:11d}: {v}")
    print(f"largest: {top} taps, e.g.\n" +
          "\n".join("".join(map(str, r)) for r in worst[1]))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
