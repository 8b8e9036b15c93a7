"""search/hardest_bb.py, the group-count branch and bound of the hardest board: its
value against brute force over every board (random tiny grids and graph boards, n 2..6,
8, 9, locks, holes, wrap) and against the integer-program search
(search/hardest.py) on larger grids; its certificates (``lp-tree`` with
``branch-group`` nodes) accepted by both checkers (search/verify/ and csrc/verify/)
with the same summary, and rejected by both with the same message when one weight,
split, bound or witness tap is altered. Deterministic (fixed seeds); the sweep and the
stored certificates of large boards are in the matrix and heavy groups."""

from __future__ import annotations

import copy
import json
import pathlib

import numpy as np
import pytest
from verify_certs import random_board

import modlights as ml
from modlights.native import _core
from modlights.search import verify as V
from modlights.search.hardest_bb import group_certificate, group_hardest
from oracle import BruteForce

ROOT = pathlib.Path(__file__).resolve().parents[2]


def brute_value(b: ml.Board) -> int:
    """max over boards of the fewest taps, by enumerating every tap vector."""
    bf = BruteForce(b.matrix(), b.states)
    best: dict[bytes, int] = {}
    for x, ax in zip(bf.X, bf.AX):
        key = ax.tobytes()
        s = int(x.sum())
        if key not in best or s < best[key]:
            best[key] = s
    return max(best.values())


def both(cert) -> tuple:
    """(C's verdict, Python's) as (True, summary) or (False, message)."""
    got = _core.verify_json(json.dumps(cert))
    got = (True, got[1]) if got[0] else (False, got[2])
    try:
        want = (True, V.summary(cert, max_work=None))
    except ValueError as e:
        want = (False, str(e))
    return got, want


def settle(b: ml.Board, **kw):
    s = ml.Solver(b)
    H, orders = s._kernel().generators()
    h = s.hardest()
    res = group_hardest(b, H, orders, **kw)
    return s, h, res, json.loads(json.dumps(group_certificate(s, h, res)))


def tiny_boards(count: int) -> list:
    """``count`` random boards brute force covers (n^taps <= 2000) whose kernel is not
    trivial (the search then has groups to branch on), in seed order."""
    out = []
    seed = 0
    while len(out) < count:
        b = random_board(np.random.default_rng(1000 + seed), max_brute=2000)
        seed += 1
        if b.n_taps and ml.Solver(b).kernel_size > 1:
            out.append(b)
    return out


BOARDS = tiny_boards(60)


@pytest.mark.parametrize("idx", range(8))
def test_equals_brute_force(idx):
    """Settled with no lower bound handed over (the search finds the hardest board
    itself) and equal to brute force; its certificate checks in both checkers."""
    _check_one(BOARDS[idx])


@pytest.mark.matrix
@pytest.mark.parametrize("idx", range(8, len(BOARDS)))
def test_equals_brute_force_sweep(idx):
    _check_one(BOARDS[idx])


def _check_one(b):
    value = brute_value(b)
    s, h, res, cert = settle(b, lower=0)
    assert res["settled"] and res["lower"] == res["upper"] == value, b.to_dict()
    got, want = both(cert)
    assert got == want and got[0], (got, want)
    assert cert["lower"] == cert["upper"] == value


@pytest.mark.parametrize(
    "board",
    [
        ml.Board.grid(4, 4),
        ml.Board.grid(5, 5),
        ml.Board.grid(2, 3, states=3),
        ml.Board.grid(3, 3, states=4, wrap=True),
        ml.Board.grid(6, 1, states=2, pattern="horizontal"),
    ],
    ids=lambda b: f"{b.shape}-{b.states}",
)
def test_equals_the_integer_program(board):
    """The search handed the integer program's value settles on it (the published
    small sizes are that search's values)."""
    s, h, res, cert = settle(board, lower=0)
    assert h.proven and res["settled"] and res["lower"] == h.lower
    got, want = both(cert)
    assert got == want and got[0]


def _grouped_cert():
    """A settled certificate of the 4 x 4 board with branch-group nodes of several
    taps (4 x 4's groups hold 2 taps) and leaves."""
    s, h, res, cert = settle(ml.Board.grid(4, 4), lower=0)
    nodes = cert["upper_bound"]["nodes"]
    assert any(len(nd.get("branch-group", [])) > 1 for nd in nodes)
    return cert


def test_altered_certificates_are_rejected_by_both():
    """One altered weight, split, bound or witness tap: both checkers reject it with
    the same message."""
    cert = _grouped_cert()
    assert both(cert)[0][0]
    nodes = cert["upper_bound"]["nodes"]
    leaf = next(i for i, nd in enumerate(nodes) if "weights" in nd and len(nd["weights"]) > 1)
    split = next(i for i, nd in enumerate(nodes) if "branch-group" in nd)
    changes = {
        "weight": lambda c: c["upper_bound"]["nodes"][leaf]["weights"].__setitem__(
            next(iter(c["upper_bound"]["nodes"][leaf]["weights"])), "1"
        ),
        "moved weight": lambda c: _move_weight(c["upper_bound"]["nodes"][leaf]["weights"]),
        "split": lambda c: c["upper_bound"]["nodes"][split].__setitem__("splits", [0]),
        "dropped child": lambda c: c["upper_bound"]["nodes"].pop(),
        "upper": lambda c: c.__setitem__("upper", c["upper"] - 1),
        "witness tap": lambda c: c["witness"]["taps"].__setitem__(
            0, (c["witness"]["taps"][0] + 1) % 2
        ),
        "element": lambda c: c["upper_bound"]["elements"][0].__setitem__(
            0, 1 - c["upper_bound"]["elements"][0][0]
        ),
    }
    for label, change in changes.items():
        c = copy.deepcopy(cert)
        change(c)
        got, want = both(c)
        assert got == want, label
        assert not got[0], label


def _move_weight(w: dict) -> None:
    """All the weight onto the lightest-looking element: the weights still sum to 1,
    but the bound of a leaf that needed the mixture exceeds the upper bound."""
    keys = list(w)
    for k in keys:
        w[k] = "0"
    w[keys[-1]] = "1"


@pytest.mark.parametrize(
    "node,words",
    [
        ({"branch-group": [], "splits": [1]}, "at least one tap"),
        ({"branch-group": ["A", "A"], "splits": [1]}, "lists a tap twice"),
        ({"branch-group": ["PINNED"], "splits": [1]}, "already fixed"),
        ({"branch-group": ["A", "B"]}, "no field 'splits'"),
        ({"branch-group": ["A", "B"], "splits": [3]}, "splits[0] = 3 is outside 1..2"),
        ({"branch-group": ["A", "B"], "splits": [2, 1]}, "non-empty increasing"),
        ({"branch-group": ["A", "B"], "splits": []}, "non-empty increasing"),
        ({"branch-group": [99], "splits": [1]}, "is outside 0..15"),
        ({"branch-group": [1.5], "splits": [1]}, "integers only"),
    ],
)
def test_malformed_branch_group_nodes(node, words):
    """Each malformed branch-group root: the same message from both checkers."""
    cert = _grouped_cert()
    ub = cert["upper_bound"]
    free = [j for j in range(16) if j not in ub["pinned"]]
    names = {"PINNED": ub["pinned"][0], "A": free[0], "B": free[1]}
    node = dict(node)
    node["branch-group"] = [names.get(t, t) for t in node["branch-group"]]
    ub["nodes"] = [node] + [{"weights": {"0": "1"}}] * 3
    got, want = both(cert)
    assert got == want and not got[0] and words in got[1], got


def test_counts_nest_and_cross():
    """A count narrowed by a second branch-group on the same taps is accepted; one on
    part of a count, or a plain branch on a counted tap, is rejected (both)."""
    cert = _grouped_cert()
    ub = cert["upper_bound"]
    ub["pinned"] = []
    uniform = {str(i): f"1/{len(ub['elements'])}" for i in range(len(ub["elements"]))}
    leaf = {"weights": uniform}
    cert["upper"] = 16
    ok = [
        {"branch-group": [0, 1], "splits": [1]},
        leaf,
        {"branch-group": [1, 0], "splits": [2]},
        leaf,
        leaf,
    ]
    ub["nodes"] = ok
    got, want = both(cert)
    assert got == want and got[0], (got, want)
    for bad in (
        [{"branch-group": [0, 1], "splits": [1]}, {"branch-group": [0], "splits": [1]}],
        [{"branch-group": [0, 1], "splits": [1]}, {"branch": 0}],
        [{"branch-group": [0, 1], "splits": [1]}, {"branch-group": [0, 1, 2], "splits": [1]}],
        [{"branch-group": [0, 1], "splits": [1]}, leaf, {"branch-group": [0, 1], "splits": [1]}],
    ):
        ub["nodes"] = bad + [leaf] * 4
        got, want = both(cert)
        assert got == want and not got[0], (bad, got)


def test_a_count_bound_is_the_max_over_its_interval():
    """A leaf's count term is the best sum within its interval: with upper one less
    than what the best value in the interval needs, rejected; with it, accepted."""
    b = ml.Board.grid(1, 3, states=3, pattern=[(0, 0)])  # A = I: ker A = 0
    cert = {
        "format": "modlights-certificate",
        "version": 1,
        "kind": "hardest",
        "board": b.to_dict(),
        "kernel": {"generators": [], "orders": []},
        "lower": 0,
        "upper": 3,
        "witness": {
            "rhs": [0, 0, 0],
            "taps": [0, 0, 0],
            "length": 0,
            "proof": {"method": "enumeration"},
        },
        "upper_bound": {
            "method": "lp-tree",
            "elements": [[]],
            "pinned": [],
            "nodes": [
                {"branch-group": [0, 1, 2], "splits": [2, 4]},
                {"weights": {"0": "1"}},  # sum 0..1: at most 1
                {"weights": {"0": "1"}},  # sum 2..3: at most 3
                {"weights": {"0": "1"}},  # sum 4..6: 6
            ],
        },
    }
    got, want = both(cert)
    assert got == want and not got[0] and "node 3" in got[1]
    cert["upper"] = 6
    got, want = both(cert)
    assert got == want and got[0] and "largest bound 6" in got[1]


def test_subtrees_are_independent_tasks():
    """The root split into its two children, each searched alone from a pickled node
    (as a worker would), joined: the same value and a certificate both checkers accept
    with the same upper bound as the search in one piece."""
    import pickle

    from modlights.search.hardest_bb import join, split_root

    b = ml.Board.grid(4, 4)
    s, h, whole, cert = settle(b, lower=0)
    H, orders = s._kernel().generators()
    taps, cut, low, high = split_root(b, H, orders)
    parts = [
        group_hardest(b, H, orders, lower=h.lower, start=pickle.loads(pickle.dumps(node)))
        for node in (low, high)
    ]
    assert all(p["settled"] or p["upper"] <= h.lower for p in parts)
    joined = dict(
        cert, upper_bound=join(taps, cut, parts[0]["upper_bound"], parts[1]["upper_bound"])
    )
    joined = json.loads(json.dumps(joined))
    got, want = both(joined)
    assert got == want and got[0] and joined["upper"] == whole["upper"] == h.lower
