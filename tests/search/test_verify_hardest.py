"""search/verify/ (the package) on "hardest" claims and malformed certificates: LP dual
bounds with uniform and moved weights, big denominators, LP trees, witnesses, every
value of a certificate replaced by a wrong one, and real certificates of the
hardest-board search, each accepted when true and rejected when tampered with (against
brute force over every board of a tiny size). Deterministic."""

import copy
import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest
from verify_certs import BOARDS, kernel_of, minimal_cert, rejects

import modlights as ml
from modlights.search import verify as V
from oracle import BruteForce


# ------------------------------------------------------------------ hardest
def brute_hardest(b: ml.Board):
    """(value, x0 of a hardest coset, its least-length element) by brute force."""
    n = b.states
    bf = BruteForce(b.matrix(), n)
    best = {}
    for x, ax in zip(bf.X, bf.AX):
        key = ax.tobytes()
        if key not in best or x.sum() < best[key].sum():
            best[key] = x
    x = max(best.values(), key=lambda v: int(v.sum()))
    return int(x.sum()), x


def kernel_elements(H, orders, n):
    coeffs = list(itertools.product(*[range(o) for o in orders]))
    C = np.array(
        [[0] * H.shape[1]] if not coeffs[0] else [np.asarray(c) @ H % n for c in coeffs]
    ).reshape(len(coeffs), -1)
    return [list(c) for c in coeffs], C % n


def uniform_bound(C, n, fixed=None):
    """sum_j max_v mean_c ((v + c_j) mod n), taps in ``fixed`` at their value."""
    fixed = fixed or {}
    total = Fraction(0)
    for j in range(C.shape[1]):
        sums = [Fraction(int(((v + C[:, j]) % n).sum()), len(C)) for v in range(n)]
        total += sums[fixed[j]] if j in fixed else max(sums)
    return total


def hardest_cert(b, upper_bound, upper=None):
    value, x = brute_hardest(b)
    H, orders = kernel_of(b)
    w = minimal_cert(b, x, None, H, orders)
    return {
        **{k: w[k] for k in ("format", "version", "board", "kernel")},
        "kind": "hardest",
        "lower": value,
        "upper": value if upper is None else upper,
        "witness": {k: w[k] for k in ("rhs", "taps", "length", "proof")},
        "upper_bound": upper_bound,
    }


HARD = [b for b in BOARDS if b.n_taps >= 2 and ml.Solver(b).kernel_size == 1][:4] + [
    b for b in BOARDS if ml.Solver(b).kernel_size >= 3
][:8]


@pytest.mark.parametrize("idx", range(12))
def test_lp_dual_uniform_weights(idx):
    """Uniform weights over every kernel element are a dual: the checker accepts the
    floor of their bound (computed here plainly, and >= the brute-force value) and
    rejects one less; altered weights are rejected."""
    b = HARD[idx]
    n = b.states
    H, orders = kernel_of(b)
    coeffs, C = kernel_elements(H.astype(np.int64), orders, n)
    B = uniform_bound(C, n)
    value, _ = brute_hardest(b)
    assert value <= B
    E = len(coeffs)
    w = [f"1/{E}"] * E
    up = {"method": "lp-dual", "elements": coeffs, "weights": w}
    fl = B.numerator // B.denominator
    cert = json.loads(json.dumps(hardest_cert(b, up, fl)))
    assert V.verify(cert)
    if fl - 1 >= value:
        c = copy.deepcopy(cert)
        c["upper"] = fl - 1
        rejects(c, f"lp-dual: floor(bound) {fl} > upper {fl - 1}")
    c = copy.deepcopy(cert)
    c["upper"] = value - 1
    rejects(c)
    c = copy.deepcopy(cert)
    c["upper_bound"]["weights"][0] = f"2/{E}"
    rejects(c, "sum to")
    if E > 1:
        c["upper_bound"]["weights"][1] = f"-1/{E}"  # sum 1 again, one negative
        rejects(c, "negative")
    c = copy.deepcopy(cert)
    c["upper_bound"]["weights"][0] = "1/0"
    rejects(c, "denominator 0")
    c = copy.deepcopy(cert)
    c["upper_bound"]["elements"][0] = [o for o in orders]
    if orders:
        rejects(c, "element 0")


def test_lp_dual_weight_moved_past_upper_is_rejected():
    """All weight on the zero element gives the bound sum_j (n-1) = r (n-1): above a
    tight upper, rejected."""
    b = [b for b in HARD if ml.Solver(b).kernel_size > 1][0]
    n = b.states
    H, orders = kernel_of(b)
    coeffs, C = kernel_elements(H.astype(np.int64), orders, n)
    E = len(coeffs)
    B = uniform_bound(C, n)
    fl = B.numerator // B.denominator
    w = ["1"] + ["0"] * (E - 1)
    cert = hardest_cert(b, {"method": "lp-dual", "elements": coeffs, "weights": w}, fl)
    if b.n_taps * (n - 1) > fl:
        rejects(cert, f"floor(bound) {b.n_taps * (n - 1)} > upper {fl}")


def test_lp_dual_big_denominators():
    """Weights with denominators past 2^64 (limbs in the exact sum)."""
    b = [b for b in HARD if ml.Solver(b).kernel_size >= 3][0]
    n = b.states
    H, orders = kernel_of(b)
    coeffs, C = kernel_elements(H.astype(np.int64), orders, n)
    E = len(coeffs)
    big = 3**90
    ws = [Fraction(1, E) + Fraction(1, big), Fraction(1, E) - Fraction(1, big)] + [
        Fraction(1, E)
    ] * (E - 2)
    exact = Fraction(0)
    for j in range(C.shape[1]):
        exact += max(sum(w * ((v + int(C[e, j])) % n) for e, w in enumerate(ws)) for v in range(n))
    fl = exact.numerator // exact.denominator
    up = {"method": "lp-dual", "elements": coeffs, "weights": [str(w) for w in ws]}
    assert V.verify(hardest_cert(b, up, fl))
    if fl - 1 >= brute_hardest(b)[0]:
        rejects(hardest_cert(b, up, fl - 1), "floor(bound)")


def surjective_taps(H, orders, n, r):
    """Taps P on which the kernel's restriction is onto (Z/n)^P, greedily, by brute
    force over the kernel."""
    _, C = kernel_elements(H.astype(np.int64), orders, n)
    P = []
    for j in range(r):
        cand = P + [j]
        if len({tuple(row) for row in C[:, cand]}) == n ** len(cand):
            P = cand
    return P, C


@pytest.mark.parametrize("idx", range(12))
def test_lp_tree(idx):
    """Pinned taps (onto, found by brute force) and one branching with uniform
    weights per leaf: accepted with upper = the largest leaf floor; one less
    rejected; broken trees rejected."""
    b = HARD[idx]
    n = b.states
    r = b.n_taps
    H, orders = kernel_of(b)
    P, C = surjective_taps(H, orders, n, r)
    coeffs, _ = kernel_elements(H.astype(np.int64), orders, n)
    E = len(coeffs)
    free = [j for j in range(r) if j not in P]
    uni = {str(i): f"1/{E}" for i in range(E)}
    if free:
        j = free[0]
        nodes = [{"branch": j}] + [{"weights": uni} for _ in range(n)]
        bounds = [uniform_bound(C, n, {**{p: 0 for p in P}, j: v}) for v in range(n)]
    else:
        nodes = [{"weights": uni}]
        bounds = [uniform_bound(C, n, {p: 0 for p in P})]
    U = max(B.numerator // B.denominator for B in bounds)
    value, _ = brute_hardest(b)
    assert value <= U
    up = {"method": "lp-tree", "elements": coeffs, "pinned": P, "nodes": nodes}
    cert = json.loads(json.dumps(hardest_cert(b, up, U)))
    assert V.verify(cert)
    c = copy.deepcopy(cert)
    c["upper"] = U - 1
    if U - 1 >= value:
        rejects(c, "lp-tree: node")
    c = copy.deepcopy(cert)
    c["upper_bound"]["nodes"] = nodes[:-1]
    rejects(c, "ends early")
    c["upper_bound"]["nodes"] = nodes + [{"weights": uni}]
    rejects(c, "after the end")
    if free:
        c["upper_bound"]["nodes"] = [{"branch": free[0]}, {"branch": free[0]}] + nodes[1:]
        rejects(c, "already fixed")
    bad = [j for j in range(r) if j not in P]
    if bad and len({tuple(row) for row in C[:, P + bad[:1]]}) < n ** (len(P) + 1):
        c = copy.deepcopy(cert)
        c["upper_bound"]["pinned"] = P + bad[:1]
        rejects(c, "does not map onto")


def test_hardest_witness_is_checked():
    b = [b for b in HARD if ml.Solver(b).kernel_size > 1][0]
    H, orders = kernel_of(b)
    coeffs, C = kernel_elements(H.astype(np.int64), orders, b.states)
    E = len(coeffs)
    up = {"method": "lp-dual", "elements": coeffs, "weights": [f"1/{E}"] * E}
    B = uniform_bound(C, b.states)
    cert = hardest_cert(b, up, B.numerator // B.denominator)
    assert V.verify(cert)
    c = copy.deepcopy(cert)
    c["lower"] += 1
    rejects(c)
    c = copy.deepcopy(cert)
    c["lower"] = c["upper"] + 1
    rejects(c, "lower")
    c = copy.deepcopy(cert)
    c["upper_bound"]["method"] = "guess"
    rejects(c, "unknown")


# ------------------------------------------------------------------ malformed input
def test_format_errors():
    good = ml.Solver(BOARDS[0]).solve(BOARDS[0].random_state(rng=0)).certificate()
    for bad in [
        None,
        [],
        "x",
        3,
        {},
        {**good, "format": "other"},
        {**good, "version": 2},
        {**good, "kind": "other"},
    ]:
        with pytest.raises(V.FormatError):
            V.verify(bad)


def mutations(v, rng, path=()):
    """Every path into v (dicts and lists), for replacing one value."""
    yield path
    if isinstance(v, dict):
        for k in v:
            yield from mutations(v[k], rng, path + (k,))
    elif isinstance(v, list):
        for i in rng.sample(range(len(v)), min(3, len(v))):
            yield from mutations(v[i], rng, path + (i,))


@pytest.mark.parametrize("kind", ["minimal", "tree", "hardest"])
def test_malformed_values_raise_value_error_only(kind):
    """Every value replaced by a wrong type or out-of-range one: ValueError (or the
    certificate still holds), never another exception."""
    b = [b for b in HARD if ml.Solver(b).kernel_size > 1][0]
    sol = ml.Solver(b).solve(b.random_state(rng=1))
    good = sol.certificate()
    if kind == "tree":
        good["proof"] = {
            "method": "tree",
            "leaf_dim": 0,
            "pruned": [[0]],
            "symmetries": [{"cells": list(range(b.n_cells)), "taps": list(range(b.n_taps))}],
        }
        good["proof"]["pruned"] = []
    if kind == "hardest":
        H, orders = kernel_of(b)
        coeffs, C = kernel_elements(H.astype(np.int64), orders, b.states)
        good = hardest_cert(
            b,
            {
                "method": "lp-tree",
                "elements": coeffs,
                "pinned": [],
                "nodes": [{"weights": {"0": "1"}}],
            },
            b.n_taps * (b.states - 1),
        )
    assert V.verify(good)
    rng = random.Random(kind)
    junk = [
        None,
        True,
        1.5,
        "x",
        "1/0",
        -1,
        10**30,
        [],
        {},
        [[1]],
        {"a": 1},
        2**63,
        float("nan"),
        "-1",
    ]
    for path in list(mutations(good, rng)):
        for j in rng.sample(junk, 4):
            c = copy.deepcopy(good)
            if not path:
                c = j
            else:
                tgt = c
                for p in path[:-1]:
                    tgt = tgt[p]
                tgt[path[-1]] = j
            try:
                V.verify(c)
            except ValueError:
                pass


# ------------------------------------------------------------------ real hardest certificates
@pytest.mark.parametrize(
    "grid,n",
    [((3, 3), 2), ((4, 4), 2), ((5, 5), 2), ((3, 3), 3), ((4, 4), 3), ((3, 4), 4), ((5, 5), 3)],
)
def test_hardest_certificates_hold_and_tampering_is_rejected(grid, n):
    """h.certificate() of Solver.hardest (lp-dual or lp-tree): accepted, its lower
    bound the brute-force value; an upper one below the bound's floor, an altered
    weight or element, a flipped witness tap: rejected."""
    b = ml.Board.grid(*grid, states=n)
    h = ml.Solver(b).hardest()
    cert = json.loads(json.dumps(h.certificate()))
    assert V.verify(cert)
    assert cert["lower"] == brute_hardest(b)[0] if n**b.n_taps <= 1 << 16 else True
    ub = cert["upper_bound"]
    c = copy.deepcopy(cert)
    c["upper"] -= 1
    rejects(c)
    weights = (
        ub["weights"]
        if ub["method"] == "lp-dual"
        else next(nd["weights"] for nd in ub["nodes"] if "weights" in nd)
    )
    key = next(iter(weights)) if isinstance(weights, dict) else 0
    c = copy.deepcopy(cert)
    wc = (
        c["upper_bound"]["weights"]
        if ub["method"] == "lp-dual"
        else next(nd["weights"] for nd in c["upper_bound"]["nodes"] if "weights" in nd)
    )
    wc[key] = "-" + str(wc[key]) if not str(wc[key]).startswith("-") else "1"
    rejects(c)
    c = copy.deepcopy(cert)
    j = next(t for t, v in enumerate(c["witness"]["taps"]) if v)
    c["witness"]["taps"][j] -= 1
    rejects(c)
    if cert["kernel"]["generators"]:
        c = copy.deepcopy(cert)
        e = c["upper_bound"]["elements"][0]
        e[0] = (e[0] + 1) % cert["kernel"]["orders"][0]
        try:  # another element: a valid dual only by chance
            V.verify(c)
        except ValueError:
            pass
