"""Fewest-taps search: one hard board, and many small boards at once.

Public API only (Board.grid, Solver, solve(minimal=True), solve_many, min_taps), so the
same workload runs on any tree. Answers are checked outside the timing: every solution
clears its board, and the reported fewest taps equals the number of taps of the
solution the library returns (and, for the batch, the brute force over the coset on a
sample).
"""

from __future__ import annotations

import itertools

import numpy as np

from ..registry import Context, Subject, workload


@workload(
    "minimal-39",
    help="GF(2) cross 39 x 39: Solver + solve(minimal=True) of a random "
    "solvable start (kernel 2^32, the default budget)",
    groups=("issue22",),
    params={"size": 39},
    repeats=5,
)
def minimal_39(ctx: Context):
    import modlights as ml

    k = ctx["size"]
    board = ml.Board.grid(k, k)
    rng = np.random.default_rng(ctx.seed)
    start = np.asarray(
        board.apply(np.zeros((k, k), np.uint8), rng.integers(0, 2, (k, k), dtype=np.uint8)),
        np.uint8,
    )

    def run():
        return ml.Solver(board).solve(start)

    def check(sol):
        assert not np.asarray(board.apply(start, sol.taps)).any(), "does not clear the board"

    return {"modlights": Subject(run, check)}


@workload(
    "batch-5x5",
    help="GF(2) cross 5 x 5: solve_many(minimal=True) of 2^17 random solvable boards",
    groups=("issue22",),
    params={"boards": 1 << 17},
    repeats=5,
)
def batch_5x5(ctx: Context):
    import modlights as ml

    board = ml.Board.grid(5, 5)
    solver = ml.Solver(board)
    rng = np.random.default_rng(ctx.seed)
    X = rng.integers(0, 2, (ctx["boards"], 25), dtype=np.uint8)
    A = board.matrix().astype(np.int64)
    S = ((X.astype(np.int64) @ A.T) % 2).astype(np.uint8).reshape(-1, 5, 5)
    kernel = _kernel_gf2(A)

    def check(taps):
        taps = np.asarray(taps, np.int64).reshape(len(S), 25)
        assert not ((taps @ A.T + S.reshape(len(S), 25)) % 2).any(), "an answer is wrong"
        for i in range(0, len(S), max(1, len(S) // 64)):  # fewest taps: brute force
            best = min(int(((taps[i] + kvec) % 2).sum()) for kvec in kernel)
            assert taps[i].sum() == best, f"board {i}: {taps[i].sum()} taps, fewest {best}"

    return {"modlights": Subject(lambda: solver.solve_many(S, minimal=True), check)}


def _kernel_gf2(A: np.ndarray) -> list[np.ndarray]:
    """Every x with A x = 0 over GF(2), by elimination (small A only)."""
    M = A.copy() % 2
    rows, cols = M.shape
    pivots = []
    r = 0
    for c in range(cols):
        p = next((i for i in range(r, rows) if M[i, c]), None)
        if p is None:
            continue
        M[[r, p]] = M[[p, r]]
        for i in range(rows):
            if i != r and M[i, c]:
                M[i] ^= M[r]
        pivots.append(c)
        r += 1
    free = [c for c in range(cols) if c not in pivots]
    basis = []
    for f in free:
        x = np.zeros(cols, np.int64)
        x[f] = 1
        for i, pc in enumerate(pivots):
            x[pc] = M[i, f]
        basis.append(x)
    return [
        sum((c * v for c, v in zip(coeffs, basis)), np.zeros(cols, np.int64)) % 2
        for coeffs in itertools.product((0, 1), repeat=len(basis))
    ]


# ---------------------------------------------------------------- batches of small boards
BATCH_CASES = {
    "5x5-gf2": (5, 5, 2),
    "6x6-gf2": (6, 6, 2),
    "5x5-z3": (5, 5, 3),
    "4x4-z4": (4, 4, 4),
    "5x5-z4": (5, 5, 4),
    "9x9-gf2": (9, 9, 2),
}


@workload(
    "batch-many",
    help="solve_many / min_taps_many on a stack of random solvable "
    "boards (case: 5x5-gf2, 6x6-gf2, 5x5-z3, 4x4-z4, 5x5-z4, 9x9-gf2; call: "
    "solve_many, solve_many_min, min_taps_many)",
    params={"case": "5x5-gf2", "call": "min_taps_many", "boards": 1 << 20},
    repeats=5,
)
def batch_many(ctx: Context):
    import modlights as ml

    if ctx["case"] not in BATCH_CASES:
        raise ValueError(f"case is one of {', '.join(BATCH_CASES)}, got {ctx['case']!r}")
    rows, cols, n = BATCH_CASES[ctx["case"]]
    board = ml.Board.grid(rows, cols, states=n)
    solver = ml.Solver(board)
    rng = np.random.default_rng(ctx.seed)
    A = board.matrix().astype(np.int64)
    X = rng.integers(0, n, (ctx["boards"], rows * cols))
    S = ((-(X @ A.T)) % n).astype(np.uint8).reshape(-1, rows, cols)
    del X
    solver.solve_many(S[:100], minimal=True)  # factor outside the timing
    call = ctx["call"]
    flat = S.reshape(len(S), -1).astype(np.int64)

    def clears(taps):
        taps = np.asarray(taps, np.int64).reshape(len(S), -1)
        assert not ((taps @ A.T + flat) % n).any(), "an answer does not clear its board"
        return taps

    def sample_minimal(lengths):
        for i in range(0, len(S), max(1, len(S) // 32)):
            assert solver.solve(S[i]).length == lengths[i], f"board {i}"

    if call == "solve_many":
        run, check = (lambda: solver.solve_many(S)), clears
    elif call == "solve_many_min":
        run = lambda: solver.solve_many(S, minimal=True)  # noqa: E731

        def check(taps):
            sample_minimal(np.count_nonzero(clears(taps), axis=1))
    elif call == "min_taps_many":
        run = lambda: solver.min_taps_many(S)  # noqa: E731

        def check(ans):
            lengths, proven = ans
            assert np.asarray(proven).all()
            sample_minimal(np.asarray(lengths))
    else:
        raise ValueError(f"call is solve_many, solve_many_min or min_taps_many, got {call!r}")
    ctx.figure("kernel_size", solver.kernel_size)
    return {"modlights": Subject(run, check, label=f"{call}, {len(S)} boards")}


@workload(
    "min-taps-5x5-all",
    help="the fewest taps of every solvable 5x5 GF(2) cross "
    "board by min_taps_many (2^23 boards; the largest is 15)",
    repeats=1,
    warmup=0,
    heavy=True,
)
def min_taps_5x5_all(ctx: Context):
    import modlights as ml

    board = ml.Board.grid(5, 5)
    solver = ml.Solver(board)
    masks = np.zeros(1, dtype=np.uint32)
    for v in _image_basis(board.matrix()):
        masks = np.concatenate([masks, masks ^ np.uint32(v)])
    block = 1 << 20

    def run():
        counts = np.zeros(26, dtype=np.int64)
        worst = (-1, None)
        for start in range(0, len(masks), block):
            m = masks[start : start + block]
            states = np.unpackbits(
                m.astype("<u4").view(np.uint8).reshape(-1, 4), axis=1, bitorder="little"
            )[:, :25].reshape(-1, 5, 5)
            lengths, proven = solver.min_taps_many(states)
            assert proven.all()
            counts += np.bincount(lengths, minlength=26)
            i = int(np.argmax(lengths))
            if lengths[i] > worst[0]:
                worst = (int(lengths[i]), states[i].copy())
        return counts, worst

    def check(ans):
        counts, (top, state) = ans
        assert counts.sum() == len(masks) == 1 << 23
        assert int(np.flatnonzero(counts).max()) == top == 15
        assert solver.solve(state).length == 15
        for k, v in enumerate(counts):
            if v:
                ctx.figure(f"boards_with_{k}_taps", int(v))

    return {"modlights": Subject(run, check)}


def _image_basis(A: np.ndarray) -> list[int]:
    """A basis of the column space of A over GF(2), each vector a bit mask."""
    basis: dict[int, int] = {}
    for col in np.asarray(A).T:
        v = int(sum(1 << int(j) for j in np.flatnonzero(col)))
        while v:
            top = v.bit_length() - 1
            if top not in basis:
                basis[top] = v
                break
            v ^= basis[top]
    return list(basis.values())


@workload(
    "hardest",
    help="Solver.hardest on the k x k GF(2) cross board (5: 15 taps, 9: 37, "
    "the published value), every witness re-solved",
    params={"size": 5, "budget": 0.0},
    repeats=3,
)
def hardest(ctx: Context):
    import modlights as ml

    k, budget = ctx["size"], ctx["budget"] or None

    def run():
        s = ml.Solver(ml.Board.grid(k, k))
        return s, s.hardest(budget=budget)

    def check(ans):
        s, h = ans
        sol = s.solve(h.state)
        assert sol.length == h.min_taps and sol.proven_minimal, "the witness does not check"
        ctx.figure(
            "min_taps",
            h.min_taps,
            note=f"proved {h.proven}, bounds {h.lower}..{h.upper}, {h.iterations} rounds",
        )
        ctx.figure("nullity", s.nullity)

    return {"modlights": Subject(run, check)}


@workload(
    "executors",
    help="a 2^32-element GF(2) coset searched over a ProcessPoolExecutor "
    "of 1 and of 2 workers (graph board, 64 cells, 96 taps)",
    peers=("2-workers",),
    params={"cells": 64, "taps": 96},
    repeats=3,
    warmup=0,
    heavy=True,
)
def executors(ctx: Context):
    import concurrent.futures as cf

    import modlights as ml

    rng = np.random.default_rng(ctx.seed + 1)
    effects = [rng.choice(ctx["cells"], size=5, replace=False).tolist() for _ in range(ctx["taps"])]
    board = ml.Board.from_effects(effects, 2, n_cells=ctx["cells"])
    solver = ml.Solver(board)
    state = board.random_state(rng=np.random.default_rng(ctx.seed + 2))
    pools = {w: cf.ProcessPoolExecutor(w) for w in (1, 2)}
    for ex in pools.values():
        ctx.on_exit(ex.shutdown)
        ex.submit(int, 0).result()  # start the workers (untimed)
    ctx.figure("nullity", solver.nullity)
    answers = set()

    def check(sol):
        answers.add(sol.length)
        assert sol.proven_minimal and len(answers) == 1, answers
        assert not np.asarray(board.apply(state, sol.taps)).any()

    # "modlights" is the 1-worker pool; the ratio is the 2-worker speed-up (< 1: faster)
    return {
        "modlights": Subject(
            lambda: solver.solve(state, budget=1 << 40, executor=pools[1]), check, "1 worker"
        ),
        "2-workers": Subject(
            lambda: solver.solve(state, budget=1 << 40, executor=pools[2]), check, "2 workers"
        ),
    }
