"""search/hardest_sym.py and the symmetry pruning of search/hardest_bb.py: the group of
a board's symmetries (permutations of cells and taps that commute with A, checked
entry by entry against the dense matrix on random grids: every named pattern, custom
patterns, locks, holes, wrap, n 2..6) and how it permutes the units; the pruned search
against brute force and against the search without symmetry (equal values, and
certificates with ``symmetry`` nodes that both checkers accept with the same summary);
certificates with one altered permutation entry, target node, symmetry index, weight
or witness tap rejected by both checkers with the same message. Deterministic; the
sweep is in the matrix group."""

from __future__ import annotations

import copy
import json
import pathlib

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core
from modlights.search import verify as V
from modlights.search.hardest_bb import GroupSearch, group_certificate, group_hardest
from modlights.search.hardest_sym import UnitGroup, pinned_subgroup, symmetric_pinned
from oracle import BruteForce

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATTERNS = ["cross", "square", "diagonal", "knight", "horizontal", "vertical"]


def symmetric_board(rng: np.random.Generator, max_brute: int | None = None) -> ml.Board:
    """A grid whose locks and holes are symmetric under the rectangle's dihedral
    group (so the board keeps every symmetry its pattern has), n in 2..6, wrap
    sometimes; with ``max_brute``, at most that many tap vectors n^taps."""
    while True:
        n = int(rng.choice([2, 2, 2, 3, 4, 5, 6]))
        rows, cols = int(rng.integers(2, 6)), int(rng.integers(2, 6))
        if rng.random() < 0.5:
            cols = rows
        kinds = rng.choice(["t", "t", "t", "l", "h"], size=(rows, cols))
        locked, holes = kinds == "l", kinds == "h"
        for f in (np.flipud, np.fliplr) + ((np.transpose,) if rows == cols else ()):
            locked, holes = locked | f(locked), holes | f(holes)
        locked &= ~holes
        b = ml.Board.grid(
            rows,
            cols,
            states=n,
            pattern=str(rng.choice(PATTERNS)),
            locked=locked,
            holes=holes,
            wrap=bool(rng.random() < 0.25),
        )
        if max_brute is None or (b.n_taps and n**b.n_taps <= max_brute):
            return b


def dense(b: ml.Board) -> np.ndarray:
    return np.asarray(b.matrix(), dtype=np.int64) % b.states


def search(b: ml.Board) -> GroupSearch:
    H, orders = ml.Solver(b)._kernel().generators()
    return GroupSearch(b, H, orders)


@pytest.mark.parametrize("seed", range(12))
def test_the_group_commutes_with_A_and_permutes_the_units(seed):
    """Every element g is a pair of permutations with g A g^-1 = A (the dense matrix,
    entry by entry), maps ker A onto itself, every unit onto a unit of the same size
    and the untouched taps onto themselves; its unit permutation is the one its taps
    induce."""
    rng = np.random.default_rng(seed)
    b = symmetric_board(rng)
    if ml.Solver(b).kernel_size == 1 or ml.Solver(b).kernel_size * b.n_taps > 1 << 20:
        b = ml.Board.grid(4, 4, states=int(rng.choice([2, 3])))
    S = search(b)
    G = UnitGroup(b, S.units, S.untouched, S.r)
    A = dense(b)
    n = b.states
    for cells, taps, pu in G.elements:
        assert sorted(cells) == list(range(b.n_cells)) and sorted(taps) == list(range(S.r))
        moved = np.zeros_like(A)
        moved[np.ix_(cells, taps)] = A
        assert np.array_equal(moved, A)
        for h in S.H.astype(np.int64):  # g maps the kernel onto itself
            gh = np.empty_like(h)
            gh[taps] = h
            assert not (A @ gh % n).any()
        for u, members in enumerate(S.units):
            assert sorted(taps[members]) == sorted(S.units[pu[u]])
        assert sorted(taps[S.untouched]) == sorted(S.untouched)


def test_an_asymmetric_pattern_gives_a_smaller_group():
    """The square keeps all 8 maps (7 listed, the identity left out); a rectangle 4;
    a pattern symmetric under one flip only keeps that flip; one with no symmetry,
    none; a lock off the axes breaks all but what maps it onto itself."""

    def size(b):
        S = search(b)
        return len(UnitGroup(b, S.units, S.untouched, S.r))

    assert size(ml.Board.grid(4, 4)) == 7
    assert size(ml.Board.grid(4, 6)) == 3
    assert size(ml.Board.grid(4, 4, pattern=[(0, 0), (0, 1), (0, -1), (1, 0)])) == 1
    assert size(ml.Board.grid(4, 4, pattern=[(0, 0), (0, 1), (2, 0)])) == 0
    assert size(ml.Board.grid(4, 4, locked=[(0, 0), (3, 3)])) == 3  # the diagonal's maps


@pytest.mark.parametrize(
    "side", [4, 9, pytest.param(19, marks=pytest.mark.matrix)], ids=lambda s: f"{s}x{s}"
)
def test_a_pinned_set_is_mapped_onto_itself(side):
    """The pinned set of a subgroup is a union of its orbits, and ker A maps onto it
    (full rank); 19 x 19's Klein group keeps all 16 of the plain search's pins."""
    for b in (ml.Board.grid(side, side),):
        S = search(b)
        G = UnitGroup(b, S.units, S.untouched, S.r)
        sub, pinned = pinned_subgroup(S.H, S.n, S.units, G, len(S.pinned))
        assert len(sub) and len(pinned) == len(S.pinned)
        for _, taps, _ in sub.elements:
            assert sorted(taps[pinned]) == pinned
        assert symmetric_pinned(S.H, S.n, S.units, sub) == pinned
        assert np.linalg.matrix_rank(S.H[:, pinned].astype(float)) == len(pinned)  # n = 2


def brute_value(b: ml.Board) -> int:
    bf = BruteForce(b.matrix(), b.states)
    best: dict[bytes, int] = {}
    for x, ax in zip(bf.X, bf.AX):
        key = ax.tobytes()
        s = int(x.sum())
        if key not in best or s < best[key]:
            best[key] = s
    return max(best.values())


def both(cert) -> tuple:
    got = _core.verify_json(json.dumps(cert))
    got = (True, got[1]) if got[0] else (False, got[2])
    try:
        want = (True, V.summary(cert, max_work=None))
    except ValueError as e:
        want = (False, str(e))
    return got, want


def _compare(b: ml.Board) -> int:
    """Brute force == the search with symmetry == without; the certificate of the
    symmetric search holds in both checkers. Returns the nodes closed by symmetry."""
    value = brute_value(b)
    s = ml.Solver(b)
    H, orders = s._kernel().generators()
    h = s.hardest()
    plain = group_hardest(b, H, orders, lower=0, symmetry=False, budget=60)
    res = group_hardest(b, H, orders, lower=0, symmetry=True, budget=60)
    assert plain["settled"] and res["settled"], b.to_dict()
    assert res["lower"] == res["upper"] == plain["lower"] == value, b.to_dict()
    cert = json.loads(json.dumps(group_certificate(s, h, res)))
    got, want = both(cert)
    assert got == want and got[0], (got, want, b.to_dict())
    assert cert["lower"] == cert["upper"] == value
    return res["by_symmetry"]


SMALL = [
    ml.Board.grid(4, 4),
    ml.Board.grid(3, 3, states=3, pattern="square"),
    ml.Board.grid(5, 5, locked=[(r, c) for r in range(5) for c in range(5) if (r + c) % 2]),
    ml.Board.grid(2, 5, pattern="horizontal"),
    ml.Board.grid(3, 3, states=4, wrap=True),  # 12 s: in the matrix group
]


@pytest.mark.parametrize(
    "idx", [0, 1, 2, 3, pytest.param(4, marks=pytest.mark.matrix)], ids=lambda i: f"board{i}"
)
def test_equals_brute_force_and_the_plain_search(idx):
    _compare(SMALL[idx])


def test_the_pruning_is_exercised():
    """Some of the small boards close nodes by symmetry (the tests above then check
    certificates with symmetry nodes)."""
    s = ml.Solver(SMALL[0])
    H, orders = s._kernel().generators()
    res = group_hardest(SMALL[0], H, orders, lower=0)
    assert res["by_symmetry"] > 0 and any("symmetry" in nd for nd in res["upper_bound"]["nodes"])


@pytest.mark.matrix
def test_equals_brute_force_sweep():
    rng = np.random.default_rng(35)
    mapped = 0
    for _ in range(40):
        b = symmetric_board(rng, max_brute=4096)
        if ml.Solver(b).kernel_size > 1:
            mapped += _compare(b)
    assert mapped > 0


def _cert() -> dict:
    b = ml.Board.grid(4, 4)
    s = ml.Solver(b)
    H, orders = s._kernel().generators()
    res = group_hardest(b, H, orders, lower=0)
    cert = json.loads(json.dumps(group_certificate(s, s.hardest(), res)))
    assert both(cert)[0][0]
    return cert


def test_altered_certificates_are_rejected_by_both():
    """One altered permutation entry (taps or cells), symmetry index, target node,
    weight or witness tap: both checkers reject it, with the same message."""
    cert = _cert()
    ub = cert["upper_bound"]
    nodes = ub["nodes"]
    sym = next(i for i, nd in enumerate(nodes) if "symmetry" in nd)
    leaf = next(i for i, nd in enumerate(nodes) if "weights" in nd and len(nd["weights"]) > 1)

    def swap(perm):
        perm[0], perm[1] = perm[1], perm[0]

    changes = {
        "taps entry": lambda c: swap(c["upper_bound"]["symmetries"][0]["taps"]),
        "cells entry": lambda c: swap(c["upper_bound"]["symmetries"][0]["cells"]),
        "not a permutation": lambda c: c["upper_bound"]["symmetries"][0]["taps"].__setitem__(
            0, c["upper_bound"]["symmetries"][0]["taps"][1]
        ),
        "index": lambda c: c["upper_bound"]["nodes"][sym].__setitem__(
            "symmetry", len(c["upper_bound"]["symmetries"])
        ),
        "no symmetries": lambda c: c["upper_bound"].pop("symmetries"),
        "to itself": lambda c: c["upper_bound"]["nodes"][sym].__setitem__("to", sym),
        "to the root": lambda c: c["upper_bound"]["nodes"][sym].__setitem__("to", 0),
        "to later": lambda c: c["upper_bound"]["nodes"][sym].__setitem__("to", len(nodes) - 1),
        "to string": lambda c: c["upper_bound"]["nodes"][sym].__setitem__("to", "1"),
        "weight": lambda c: c["upper_bound"]["nodes"][leaf]["weights"].__setitem__(
            next(iter(c["upper_bound"]["nodes"][leaf]["weights"])), "1"
        ),
        "upper": lambda c: c.__setitem__("upper", c["upper"] - 1),
        "witness tap": lambda c: c["witness"]["taps"].__setitem__(
            0, (c["witness"]["taps"][0] + 1) % 2
        ),
    }
    for label, change in changes.items():
        c = copy.deepcopy(cert)
        change(c)
        got, want = both(c)
        assert got == want, (label, got, want)
        assert not got[0], label


def test_every_other_target_agrees():
    """Each symmetry node pointed at every earlier node in turn: both checkers give
    the same verdict, and a node the image does not lie in is rejected ("does not map
    it into")."""
    cert = _cert()
    nodes = cert["upper_bound"]["nodes"]
    rejected = 0
    for i, nd in enumerate(nodes):
        if "symmetry" not in nd:
            continue
        for t in range(i):
            c = copy.deepcopy(cert)
            c["upper_bound"]["nodes"][i]["to"] = t
            got, want = both(c)
            assert got == want, (i, t, got, want)
            rejected += "does not map it into" in got[1]
    assert rejected > 0


@pytest.mark.parametrize("side", [4, 5, 6])
def test_a_symmetric_board_is_fixed_and_its_value_exact(side):
    """symmetric_board's board is fixed by every symmetry of the board, its value is
    its fewest taps (brute force over the coset) and at most the hardest value; 23 x
    23's search (seed 1, 20000 flips) finds the board of value 249 that
    certificates/hardest/23x23.json's witness proves (in the matrix group)."""
    from modlights.search.hardest_sym import symmetric_board
    from modlights.search.symmetry import symmetries

    b = ml.Board.grid(side, side)
    s = ml.Solver(b)
    H, orders = s._kernel().generators()
    x, value = symmetric_board(b, H, orders, moves=2000, seed=0)
    for _, taps in symmetries(b):
        assert np.array_equal(x[taps], x)
    state = b.apply(np.zeros(b.shape, dtype=np.uint8), b.from_tap_vector(x))
    sol = s.solve(state)
    assert sol.proven_minimal and sol.length == value <= s.hardest().upper
    if b.n_taps <= 16:
        assert value <= brute_value(b)


@pytest.mark.matrix
def test_the_23x23_symmetric_board():
    from modlights.search.hardest_sym import symmetric_board

    b = ml.Board.grid(23, 23)
    H, orders = ml.Solver(b)._kernel().generators()
    _, value = symmetric_board(b, H, orders, moves=20000, seed=1)
    cert = json.loads((ROOT / "certificates" / "hardest" / "23x23.json").read_text())
    assert value == cert["lower"] == 249
