"""Hardest.certificate(): the bounds it claims are the true hardest value (brute force),
and every number in it is recomputed here exactly, independently of the search code
(plain Python loops over Fractions), then checked by ml.verify."""

from __future__ import annotations

import itertools
import json
import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from test_hardest import brute_hardest

import modlights as ml
from modlights.search import lpbound
from modlights.search.hardest import _TapGroups
from oracle import all_tap_vectors
from strategies import graph_boards, grid_boards
from suite_groups import sample


def kernel_elements(cert: dict) -> tuple[list[list[int]], list[int]]:
    return cert["kernel"]["generators"], cert["kernel"]["orders"]


def element(coeffs: list[int], gens: list[list[int]], n: int, r: int) -> list[int]:
    return [sum(a * h[j] for a, h in zip(coeffs, gens)) % n for j in range(r)]


def dual_bound(
    elems: list[list[int]], weights: list[Fraction], n: int, fixed: dict[int, int], r: int
) -> Fraction:
    total = Fraction(0)
    for j in range(r):
        sums = [
            sum((w * ((v + c[j]) % n) for c, w in zip(elems, weights)), Fraction(0))
            for v in range(n)
        ]
        total += sums[fixed[j]] if j in fixed else max(sums)
    return total


def frac(text: str) -> Fraction:
    return Fraction(text)


def recheck(board: ml.Board, cert: dict) -> None:
    """Every claim of the certificate, recomputed by brute force and plain loops."""
    n = board.states
    A = board.matrix().astype(np.int64)
    r = board.n_taps
    gens, orders = kernel_elements(cert)
    assert cert["kind"] == "hardest" and cert["board"] == board.to_dict()
    # the kernel: every element by brute force is one combination
    X = all_tap_vectors(r, n)
    kernel = {tuple(int(v) for v in x) for x in X[~((X @ A.T) % n).any(axis=1)]}
    combos = {
        tuple(element(list(c), gens, n, r)) for c in itertools.product(*[range(o) for o in orders])
    }
    assert combos == kernel and len(kernel) == int(np.prod(orders, dtype=np.int64))
    # the witness: its taps solve rhs with `length` taps, and nothing in its coset less
    w = cert["witness"]
    x = np.array(w["taps"], dtype=np.int64)
    assert ((A @ x - np.array(w["rhs"])) % n == 0).all()
    assert int(x.sum()) == w["length"] == cert["lower"]
    assert min(sum((xi + ci) % n for xi, ci in zip(x, c)) for c in kernel) == w["length"]
    # the upper bound, exactly
    ub = cert["upper_bound"]
    if ub["method"] == "lp-dual":
        elems = [element(e, gens, n, r) for e in ub["elements"]]
        weights = [frac(t) for t in ub["weights"]]
        assert all(v >= 0 for v in weights) and sum(weights) == 1
        B = dual_bound(elems, weights, n, {}, r)
        assert B.numerator // B.denominator <= cert["upper"]
    else:
        assert ub["method"] == "lp-tree"
        elems = [element(e, gens, n, r) for e in ub["elements"]]
        nodes = iter(ub["nodes"])

        def walk(fixed: dict[int, int]) -> None:
            node = next(nodes)
            if "branch" in node:
                for v in range(n):
                    walk({**fixed, node["branch"]: v})
                return
            ws = {int(i): frac(t) for i, t in node["weights"].items()}
            assert all(v >= 0 for v in ws.values()) and sum(ws.values()) == 1
            B = dual_bound([elems[i] for i in ws], list(ws.values()), n, fixed, r)
            assert B.numerator // B.denominator <= cert["upper"]

        walk({j: 0 for j in ub["pinned"]})
        with pytest.raises(StopIteration):
            next(nodes)
    assert ml.verify(json.loads(json.dumps(cert)))


def check(board: ml.Board, **kw) -> dict:
    value, _ = brute_hardest(board)
    h = ml.Solver(board).hardest()
    cert = h.certificate(**kw)
    assert cert["lower"] == h.lower == value
    assert cert["upper"] >= value
    recheck(board, cert)
    return cert


BOARDS = [
    ml.Board.grid(4, 4),
    ml.Board.grid(3, 4),
    ml.Board.grid(4, 4, 2, "diagonal"),
    ml.Board.grid(3, 3, 3, "square"),
    ml.Board.grid(2, 3, 4, "cross"),
    ml.Board.grid(2, 3, 6, "cross"),
    ml.Board.grid(2, 2, 5, "square"),
    ml.Board.grid(3, 3, 4, "cross", wrap=True, holes=[(1, 1)]),
    ml.Board.grid(4, 4, 2, "cross", locked=[(0, 0), (2, 1)], holes=[(3, 3)]),
    ml.Board.grid(3, 3, 3, "square", locked=[(1, 1)], holes=[(0, 2)]),
    ml.Board.from_effects([[0, 0, 1], [1, 2], [0, 2], [1]], 3),
    ml.Board.from_effects([[0, 1], [0, 1], [0, 1], [2]], 4),
    ml.Board.from_effects([], 3, n_cells=2),
    ml.Board.grid(3, 3, 3, "cross"),
]


@pytest.mark.parametrize("board", sample(BOARDS, 5, ids=repr))
def test_certificates_of_small_boards_are_exact_and_settled(board):
    cert = check(board)
    # these small trees close: the certificate settles the value the search proved
    assert cert["lower"] == cert["upper"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_boards(max_brute=1024))
def test_random_grid_board_certificates(board):
    check(board, budget=10)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph_boards(max_brute=1024))
def test_random_graph_board_certificates(board):
    check(board, budget=10)


def test_without_a_tree_the_program_bound_stands():
    # 6 x 6 Z/4 wrap... any board whose program is above the value: a tree of no nodes
    # leaves the lp-dual bound, valid and above the value
    board = ml.Board.grid(4, 4, 2, "cross", wrap=True)
    h = ml.Solver(board).hardest()
    data = h._certificate
    data.tree, data.tree_failed = None, True
    cert = h.certificate()
    assert cert["upper_bound"]["method"] == "lp-dual"
    assert cert["upper"] >= h.upper
    recheck(board, cert)


def test_tampered_certificates_are_rejected():
    board = ml.Board.grid(3, 3, 4, "cross", wrap=True, holes=[(1, 1)])
    cert = ml.Solver(board).hardest().certificate()
    assert ml.verify(cert)
    bad = json.loads(json.dumps(cert))
    bad["witness"]["taps"][0] = (bad["witness"]["taps"][0] + 1) % 4
    with pytest.raises(ValueError):
        ml.verify(bad)
    bad = json.loads(json.dumps(cert))
    bad["upper"] -= 1
    with pytest.raises(ValueError):
        ml.verify(bad)


def test_certificate_survives_pickling_and_is_json():
    h = ml.Solver(ml.Board.grid(5, 5, 3)).hardest()
    h2 = pickle.loads(pickle.dumps(h))
    assert h2.certificate() == h.certificate()
    json.dumps(h.certificate())


def test_no_certificate_without_a_proved_witness():
    h = ml.Solver(ml.Board.grid(4, 4)).hardest()
    h._certificate.proof = None
    with pytest.raises(ValueError, match="not proved"):
        h.certificate()
    with pytest.raises(ValueError, match="budget"):
        ml.Solver(ml.Board.grid(4, 4)).hardest().certificate(budget=-1)


# ----------------------------------------------------------------------------- lpbound
@pytest.mark.parametrize("seed", range(20))
def test_exact_bound_matches_fractions(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    m, r = int(rng.integers(1, 6)), int(rng.integers(1, 7))
    values = rng.integers(0, n, (m, r)).astype(np.uint8)
    q = rng.integers(0, 1000, m)
    q[0] += 1
    fixed = {
        int(j): int(rng.integers(0, n))
        for j in rng.choice(r, int(rng.integers(0, r)), replace=False)
    }
    weights = [Fraction(int(v), int(q.sum())) for v in q]
    want = dual_bound(values.astype(int).tolist(), weights, n, fixed, r)
    assert lpbound.exact_bound(values, q, n, fixed) == want
    # huge weights take the Python-int path: same value
    big = np.array([int(v) << 70 for v in q], dtype=object)
    assert lpbound.exact_bound(values, big, n, fixed) == want


@pytest.mark.parametrize(
    "board",
    [
        ml.Board.grid(2, 3, 4, "cross"),
        ml.Board.grid(2, 3, 6, "cross"),
        ml.Board.grid(3, 3, 4, "cross", wrap=True),
        ml.Board.grid(2, 3, 6, "square"),
        ml.Board.from_effects([[0, 1], [0, 1], [0, 1], [2]], 4),
    ],
    ids=repr,
)
def test_program_bound_is_the_full_linear_program(board):
    """The constraint-generated program's exact bound equals the optimum of the linear
    program with every kernel element's row, solved at once (up to the rounding of
    its duals), and is at least the hardest value."""
    import highspy

    s = ml.Solver(board)
    H, orders = s._generators()
    n, r = board.states, board.n_taps
    groups = _TapGroups(np.asarray(H, dtype=np.uint8), r)
    E = lpbound.KernelElements.build(H, orders, n, r)
    assert E.complete
    B, idx, q, opt = lpbound.lp_bound(E, groups, {}, n)
    # the whole program over taps (no grouping) at once
    h = lpbound._new_lp()
    inf = highspy.kHighsInf
    h.addVars(r * n + 1, np.zeros(r * n + 1), np.append(np.ones(r * n), inf))
    h.changeColCost(r * n, 1.0)
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    for j in range(r):
        h.addRow(1.0, 1.0, n, np.arange(j * n, j * n + n, dtype=np.int32), np.ones(n))
    for c in E.values.astype(np.int64):
        coef = ((np.arange(n)[None, :] + c[:, None]) % n).reshape(-1)
        h.addRow(
            -inf,
            0.0,
            r * n + 1,
            np.arange(r * n + 1, dtype=np.int32),
            np.append(-coef, 1.0).astype(float),
        )
    h.run()
    full = h.getInfo().objective_function_value
    assert abs(float(B) - full) < 1e-6 and abs(opt - full) < 1e-6
    assert B.numerator // B.denominator >= brute_hardest(board)[0]


@pytest.mark.parametrize("k", [9, 19, 23, 30, 39])
def test_gf2_program_bound_is_half_the_touched_taps(k):
    """For n = 2 the program's optimum is (touched taps) / 2 + untouched taps, met by the
    uniform weights over a small subgroup touching every touched tap (found without
    enumerating the kernel on 30 x 30 and 39 x 39)."""
    s = ml.Solver(ml.Board.grid(k, k))
    H, orders = s._generators()
    r = k * k
    groups = _TapGroups(np.asarray(H, dtype=np.uint8), r)
    cover = lpbound.KernelElements.cover(H, orders, 2, r)
    assert len(cover) <= 1 << 12
    B, E, idx, q = lpbound.root_bound(None, cover, groups, 2)
    touched = int(np.asarray(H).any(axis=0).sum())
    assert B == Fraction(touched, 2) + (r - touched)


@pytest.mark.heavy  # 7 CPU s: linear programs of a 9 x 9 board in a child process
def test_pinned_root_lowers_the_bound_as_a_one_leaf_tree():
    """9 x 9: the program with the pinned taps at 0 is below the plain one (touched / 2
    + untouched); the certificate carries it as an lp-tree of one closed leaf when no
    deeper tree is asked for, and the checker accepts it."""
    board = ml.Board.grid(9, 9)
    s = ml.Solver(board)
    H, _ = s._generators()
    touched = int(np.asarray(H).any(axis=0).sum())
    plain = touched // 2 + (board.n_taps - touched)
    h = s.hardest()
    assert h.proven and h.upper < plain
    data = h._certificate
    data.tree_failed = True  # no deeper tree: the root's bound
    cert = h.certificate()
    ub = cert["upper_bound"]
    assert ub["method"] == "lp-tree" and ub["pinned"] and len(ub["nodes"]) == 1
    assert h.upper <= cert["upper"] < plain
    assert ml.verify(json.loads(json.dumps(cert)))
