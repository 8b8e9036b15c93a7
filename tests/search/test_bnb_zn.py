"""The C solver's Z/n branch and bound (csrc/search/bnb_zn.c, routed by csrc/api/
solve_bnb.c; checked against the Gray-code enumeration in csrc/tests/t-bnb_zn.c) through
the Solver: the least length as the reference engine's enumeration on random small boards
(MODLIGHTS_SEARCH=bnb routes every Z/n coset to it), its "tree" certificate (bound
"classes") through both checkers, altered certificates rejected by both with the same
message, a board whose coset enumeration cannot reach proved, budgets and Ctrl-C."""

from __future__ import annotations

import copy
import json
import threading
import time

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core


def _random_board(rng: np.random.Generator) -> ml.Board:
    """A small grid board, n in 3..9 (one in eight 12, 16, 25 or 251): any named
    pattern, locks, holes, wrap."""
    n = int(rng.integers(3, 10)) if rng.random() < 0.875 else int(rng.choice([12, 16, 25, 251]))
    rows, cols = int(rng.integers(1, 6)), int(rng.integers(2, 6))
    pattern = str(rng.choice(sorted(ml.PATTERNS)))
    kinds = rng.choice(["t", "t", "t", "t", "l", "h"], size=(rows, cols))
    return ml.Board.grid(
        rows,
        cols,
        states=n,
        pattern=pattern,
        locked=kinds == "l",
        holes=kinds == "h",
        wrap=bool(rng.random() < 0.4),
    )


def _both_verdicts(cert: dict) -> tuple:
    """(Python checker's message or 'ok', C checker's message or 'ok')."""
    try:
        ml.verify(cert, max_work=None)
        py = "ok"
    except ValueError as e:
        py = str(e)
    c = _core.verify_json(json.dumps(cert))
    return py, "ok" if c[0] else c[2]


def _check_boards(seed: int, count: int, monkeypatch) -> tuple[int, int]:
    """(boards searched, those whose kernel has generators of different orders)."""
    monkeypatch.setenv("MODLIGHTS_SEARCH", "bnb")
    rng = np.random.default_rng(seed)
    searched = mixed = 0
    while searched < count:
        b = _random_board(rng)
        s = ml.Solver(b)
        if s.kernel_size == 1 or s.kernel_size > 40000:
            continue
        state = b.random_state(rng=int(rng.integers(1 << 30)))
        if not s.solvable(state):
            continue
        ref = ml.Solver(b, backend="reference").solve(state, budget=10**6)
        sol = s.solve(state)
        assert ref.proven_minimal and sol.proven_minimal, b
        assert sol.length == ref.length, (b, sol.length, ref.length)
        assert not b.apply(state, sol.taps).any()
        cert = sol.certificate()
        assert _both_verdicts(cert) == ("ok", "ok"), b
        mixed += len(set(cert["kernel"]["orders"])) > 1
        searched += 1
    return searched, mixed


def test_as_the_reference_enumeration(monkeypatch):
    """A handful of random boards: the same least length as the reference engine's
    enumeration, a solution, a certificate both checkers accept."""
    assert _check_boards(35, 8, monkeypatch)[0] == 8


@pytest.mark.matrix
def test_many_boards_as_the_reference_enumeration(monkeypatch):
    searched, mixed = _check_boards(3535, 400, monkeypatch)
    assert searched == 400 and mixed >= 5


def test_certificate_altered_is_rejected_by_both(monkeypatch):
    """The proof's bound, a pruned prefix, and the taps (a longer element of the coset:
    its tree reaches the shorter one in a leaf or under a prefix) altered: both checkers
    reject with the same message."""
    b = ml.Board.grid(11, 11, states=3, pattern="square")
    sol = ml.Solver(b).solve(b.random_state(rng=1))
    cert = sol.certificate()
    proof = cert["proof"]
    assert sol.proven_minimal and proof["method"] == "tree" and proof["bound"] == "classes"
    assert _both_verdicts(cert) == ("ok", "ok")
    bad = copy.deepcopy(cert)
    bad["proof"]["bound"] = "columns"  # the weaker bound does not reach the length
    py, c = _both_verdicts(bad)
    assert py == c and "has bound" in py
    bad = copy.deepcopy(cert)
    bad["proof"]["bound"] = "rows"
    py, c = _both_verdicts(bad)
    assert py == c == "proof bound must be 'columns' or 'classes', got 'rows'"
    # a pruned prefix moved onto the answer's own branch (coefficients 0: x itself)
    bad = copy.deepcopy(cert)
    P = bad["proof"]["pruned"]
    i = min(range(len(P)), key=lambda i: len(P[i]))
    P[i] = [0] * len(P[i])
    py, c = _both_verdicts(bad)
    assert py == c and "has bound" in py
    # a longer element of the coset claimed minimal
    H = np.array(cert["kernel"]["generators"], dtype=np.int64)
    bad = copy.deepcopy(cert)
    taps = (np.array(cert["taps"]) + H[-1]) % 3
    bad["taps"] = [int(v) for v in taps]
    bad["length"] = int(taps.sum())
    assert bad["length"] > cert["length"]
    py, c = _both_verdicts(bad)
    assert py == c and ("has bound" in py or "has an element of length" in py)


def test_past_enumeration_proved():
    """11 x 11 square Z/3 (|ker A| = 3^21) and the 12 x 12 horizontal torus (3^24): proved
    within the default budget (enumeration reaches 2^24 elements), certificates checked."""
    for b, length in (
        (ml.Board.grid(11, 11, states=3, pattern="square"), 75),
        (ml.Board.grid(12, 12, states=3, pattern="horizontal", wrap=True), 103),
    ):
        s = ml.Solver(b)
        assert s.kernel_size >= 3**21
        sol = s.solve(b.random_state(rng=1))
        assert sol.proven_minimal and sol.length == length
        assert _both_verdicts(sol.certificate()) == ("ok", "ok")


def test_budget_and_ctrl_c():
    """A count budget stops the search with a solution, the same on every run; Ctrl-C
    (an interrupt requested from another thread) stops it within a second."""
    b = ml.Board.grid(12, 12, states=5, pattern="square", wrap=True)
    s = ml.Solver(b)
    state = b.random_state(rng=2)
    a = s.solve(state, budget=20000)
    assert not a.proven_minimal and not b.apply(state, a.taps).any()
    assert s.solve(state, budget=20000) == a
    timer = threading.Timer(0.3, _core._request_interrupt)
    timer.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.solve(state, budget=float("inf"))
    finally:
        timer.cancel()
        _core._clear_interrupt()
    assert time.perf_counter() - t0 < 1.5
    assert not b.apply(state, s.solve(state, budget=0.2).taps).any()  # still usable
