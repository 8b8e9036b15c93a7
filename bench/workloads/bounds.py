"""The work bounds of issue 31, measured: the seconds a work unit of the certificate
checker (``modlights.search.verify``, ``MAX_WORK``) and of the reference backend
(``modlights.engines.reference``, ``REFERENCE_MAX_WORK``) take on this machine.

- verify-costs: certificates of every kind the checker reads, each sized to take a
  fraction of a second to a few seconds: enumerations over GF(2) (the Walsh-Hadamard
  path) and Z/3, Z/4, Z/5; kernel checks of k x k grids mod 2, 3, 4, 6, 30; tree proofs
  (leaves of every dimension, pruned prefixes, torus translations as symmetries); LP
  duals and LP trees (with 200-digit weights: metered limbs). For each, the CPU seconds
  of ``verify(cert, max_work=None)`` (median of ``rounds``) over the work the check
  counts (its estimate plus the metered work past it): figures ``<case> ns/unit``, and
  ``ns/unit min`` / ``max`` over the cases. The constants of verify.py are the measured
  cost of each step per element, rounded up, so these stay near 1 (about a second per
  10^9 units): well above 1 would mean the bound lets through checks longer than it
  says.
- reference-costs: factoring k x k cross boards by the reference engine over n = 2, 3,
  4 (p^2), 6 (two primes), 16 (p^4), 128 (p^7), 210 (four primes), CPU seconds over
  ``reference_work``: figures ``<case> ns/unit`` and the seconds of the largest board
  the bound takes (a 500 x 500 matrix mod a prime is REFERENCE_MAX_WORK).
"""

from __future__ import annotations

import itertools
import statistics
import time
from fractions import Fraction

import numpy as np

from ..registry import Context, workload


def _effects_board(cells: int, nullity: int, n: int, seed: int = 0):
    """cells x (cells + nullity) taps, a kernel of exactly ``nullity`` generators."""
    import modlights as ml

    rng = np.random.default_rng(seed)
    eff = [[j, j + 1] if j + 1 < cells else [j] for j in range(cells)]
    eff += [sorted(int(c) for c in rng.choice(cells, 3, replace=False)) for _ in range(nullity)]
    return ml.Board.from_effects(eff, n, n_cells=cells)


def _minimal(board, x, proof: dict) -> dict:
    import modlights as ml

    s = ml.Solver(board)
    A = board.matrix().astype(np.int64)
    x = np.asarray(x, dtype=np.int64)
    return {
        "format": "modlights-certificate",
        "version": 1,
        "kind": "minimal",
        "board": board.to_dict(),
        "kernel": {
            "generators": s.kernel().astype(int).tolist(),
            "orders": [int(o) for o in s.kernel_orders],
        },
        "rhs": ((A @ x) % board.states).tolist(),
        "taps": x.tolist(),
        "length": int(x.sum()),
        "proof": proof,
    }


def _least(board, state=None, target=0):
    import modlights as ml

    state = board.random_state(rng=1) if state is None else state
    sol = ml.Solver(board).solve(state, target, budget=1 << 40)
    assert sol.proven_minimal
    return board.tap_vector(sol.taps)


def _enumeration(cells: int, nullity: int, n: int):
    b = _effects_board(cells, nullity, n)
    return f"enumeration n={n} k={nullity} r={b.n_taps}", _minimal(
        b, _least(b), {"method": "enumeration"}
    )


def _kernel(k: int, n: int):
    import modlights as ml

    b = ml.Board.grid(k, k, states=n)
    zero = np.zeros(b.n_taps, dtype=np.int64)
    return f"kernel checks {k}x{k} n={n}", _minimal(b, zero, {"method": "enumeration"})


def _tree(cells: int, nullity: int, n: int, leaf_dim: int):
    b = _effects_board(cells, nullity, n)
    proof = {"method": "tree", "leaf_dim": leaf_dim, "pruned": []}
    return f"tree n={n} k={nullity} leaf_dim={leaf_dim}", _minimal(b, _least(b), proof)


def _pruned(cells: int, nullity: int, n: int, depth: int):
    import modlights as ml
    from modlights.search import verify as V

    b = _effects_board(cells, nullity, n)
    x = _least(b)
    s = ml.Solver(b)
    H, orders = s.kernel().astype(np.int64), s.kernel_orders
    k, L = len(orders), int(x.sum())
    pruned = []
    for P in itertools.product(*[range(orders[k - 1 - t]) for t in range(depth)]):
        y = x.copy()
        for t, c in enumerate(P):
            y = (y + c * H[k - 1 - t]) % n
        if V._prefix_bound(y, *V._groups(H[: k - depth]), n) >= L:
            pruned.append(list(P))
    proof = {"method": "tree", "leaf_dim": 0, "pruned": pruned}
    return f"tree n={n} k={k} {len(pruned)} pruned", _minimal(b, x, proof)


def _torus(size: int, n: int):
    import modlights as ml

    b = ml.Board.grid(size, size, states=n, wrap=True)
    x = _least(b, np.zeros((size, size), np.uint8), 1)

    def perm(a, d):
        return [((r + a) % size) * size + (c + d) % size for r in range(size) for c in range(size)]

    syms = [{"cells": perm(a, d), "taps": perm(a, d)} for a in range(size) for d in range(size)]
    proof = {"method": "tree", "leaf_dim": 0, "symmetries": syms[1:]}
    return f"tree torus {size}x{size} n={n} symmetries", _minimal(b, x, proof)


def _lp(cells: int, nullity: int, n: int, digits: int = 0, tree: bool = False):
    b = _effects_board(cells, nullity, n)
    w = _minimal(b, _least(b), {"method": "enumeration"})
    coeffs = [list(c) for c in itertools.product(*[range(o) for o in w["kernel"]["orders"]])]
    E = len(coeffs)
    if digits:
        dens = [10**digits + 2 * i + 1 for i in range(E - 1)]
        rest = 1 - sum(Fraction(1, d) for d in dens)
        weights = [f"1/{d}" for d in dens] + [f"{rest.numerator}/{rest.denominator}"]
    else:
        weights = [f"1/{E}"] * E
    ub: dict = {"method": "lp-dual", "elements": coeffs, "weights": weights}
    if tree:
        leaf = {"weights": {str(i): v for i, v in enumerate(weights)}}
        ub = {"method": "lp-tree", "elements": coeffs, "pinned": [], "nodes": [{"branch": 0}]}
        ub["nodes"] += [dict(leaf) for _ in range(n)]
    cert = {k: w[k] for k in ("format", "version", "board", "kernel")}
    cert.update(
        kind="hardest",
        lower=w["length"],
        upper=b.n_taps * (n - 1),
        witness={k: w[k] for k in ("rhs", "taps", "length", "proof")},
        upper_bound=ub,
    )
    return f"{ub['method']} E={E} digits={digits or 'few'}", cert


def verify_cases() -> list:
    return [
        _enumeration(100, 24, 2),
        _enumeration(300, 11, 3),
        _enumeration(40, 9, 4),
        _enumeration(200, 8, 5),
        _kernel(40, 2),
        _kernel(24, 3),
        _kernel(20, 4),
        _kernel(16, 6),
        _kernel(16, 30),
        _tree(60, 16, 2, 0),
        _tree(300, 18, 2, 4),
        _tree(60, 24, 2, 12),
        _tree(200, 10, 3, 5),
        _pruned(60, 16, 2, 8),
        _pruned(300, 14, 2, 10),
        _torus(5, 3),
        _torus(6, 2),
        _lp(60, 12, 2),
        _lp(60, 7, 3),
        _lp(100, 10, 2, tree=True),
        _lp(200, 6, 2, digits=40, tree=True),
    ]


def _cpu(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


@workload(
    "verify-costs",
    help="seconds per work unit of the certificate checker's bound (MAX_WORK) on "
    "certificates of every kind (figures only)",
    params={"rounds": 3},
    repeats=1,
    warmup=0,
    heavy=True,
)
def verify_costs(ctx: Context):
    from modlights.search import verify as V

    ratios = []
    for name, cert in verify_cases():
        meter = V._Meter(None)
        V._guarded(V._check, cert, meter)  # the units the check counts, metered parts too
        cpu = _cpu(lambda cert=cert: V.verify(cert, max_work=None), int(ctx["rounds"]))
        ratios.append(cpu * 1e9 / meter.need)
        ctx.figure(f"{name} ns/unit", ratios[-1], "ns", f"{meter.need:.3g} units, {cpu:.3f} s")
    ctx.figure("ns/unit min", min(ratios), "ns")
    ctx.figure("ns/unit max", max(ratios), "ns")
    return {}


@workload(
    "reference-costs",
    help="seconds per work unit of the reference backend's bound (REFERENCE_MAX_WORK) "
    "factoring cross boards over n = 2 .. 210 (figures only)",
    params={"rounds": 3, "side": 16},
    repeats=1,
    warmup=0,
    heavy=True,
)
def reference_costs(ctx: Context):
    import modlights as ml
    from modlights.engines.reference import REFERENCE_MAX_WORK, ReferenceEngine, reference_work

    k = int(ctx["side"])
    ratios = []
    for n in (2, 3, 4, 6, 16, 128, 210):
        A = ml.Board.grid(k, k, states=n).matrix()
        cpu = _cpu(lambda A=A, n=n: ReferenceEngine(A, n), int(ctx["rounds"]))
        ratios.append(cpu / reference_work(A.shape[0], A.shape[1], n))
        ctx.figure(f"{k}x{k} n={n} ns/unit", ratios[-1] * 1e9, "ns", f"{cpu:.3f} s")
    ctx.figure("ns/unit max", max(ratios) * 1e9, "ns")
    ctx.figure(
        "seconds at REFERENCE_MAX_WORK",
        max(ratios) * REFERENCE_MAX_WORK,
        "s",
        "the most a board the bound takes should need, at the worst rate measured",
    )
    return {}
