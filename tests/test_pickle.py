"""Every public object pickles (every protocol) and copies after use: the copies compare
equal to the originals and give the same answers (Board.apply checks them)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import modlights as ml


def _round_trips(obj):
    """Copies of obj by every pickle protocol (0 and 1 too), deepcopy and copy."""
    return [
        pickle.loads(pickle.dumps(obj, protocol=proto))
        for proto in range(pickle.HIGHEST_PROTOCOL + 1)
    ] + [copy.deepcopy(obj), copy.copy(obj)]


@pytest.mark.parametrize(
    "make",
    [
        lambda: ml.Board.grid(4, 5, 3, "square", locked=[(0, 0)], holes=[(3, 4)], wrap=True),
        lambda: ml.Board.grid(2, 2, 5, [["cross", "horizontal"], [[(0, 0), (1, 1)], "vertical"]]),
        lambda: ml.Board.from_effects([[0, 1], [1, 2], [2]], 4),
        lambda: ml.Board.from_matrix([[1, 2], [3, 4]], 6),
    ],
)
def test_boards_pickle_and_copy_after_use(make):
    b = make()
    b.matrix(), b.coo(), b.cells, b.taps, b.locked  # caches filled
    for c in _round_trips(b):
        assert c == b and hash(c) == hash(b)
        assert np.array_equal(c.matrix(), b.matrix())


@pytest.mark.parametrize(
    "make,method",
    [
        (lambda: ml.Board.grid(5, 5), "dense"),
        (lambda: ml.Board.grid(4, 4, 4), "dense"),
        (lambda: ml.Board.grid(30, 30, 3), "chase"),
        (lambda: ml.Board.from_effects([[0, 1], [1, 2], [2, 0]], 6), "dense"),
    ],
)
@pytest.mark.parametrize("backend", ["native", "reference"])
def test_solvers_pickle_as_board_backend_method_and_refactor(make, method, backend):
    b = make()
    if backend == "reference" and method == "chase":
        return
    s = ml.Solver(b, backend=backend, method=method)
    state = b.random_state(rng=1)
    sol = s.solve(state)  # used: engine factored
    s.kernel()
    blob = pickle.dumps(s)
    assert len(blob) < 64 * 1024 + 2 * b.n_cells * b.n_taps  # no engine memory inside
    for c in _round_trips(s):
        assert (c.board, c.backend, c.method) == (b, backend, method)
        assert c.kernel_size == s.kernel_size and c.nullity == s.nullity
        csol = c.solve(state)
        assert csol == sol
        assert repr(c) == repr(s)


def test_solution_equality_and_copies():
    b = ml.Board.grid(3, 3, 3)
    s = ml.Solver(b)
    st = b.random_state(rng=2)
    a, a2 = s.solve(st), s.solve(st)
    assert a == a2 and a is not a2
    other = s.solve(b.random_state(rng=3))
    assert a != other or np.array_equal(a.taps, other.taps)
    assert a != s.solve(st, minimal=False) or a.proven_minimal
    assert a != object() and (a == 1) is False
    for c in _round_trips(a):
        assert c == a and c.moves() == a.moves()


def test_puzzle_game_campaign_pickle_after_use():
    p = ml.generate(4, 4, 3, seed=4)
    _ = p.min_taps, p.stars, p.code, p.solution  # measured
    for c in _round_trips(p):
        assert c == p and c.min_taps == p.min_taps and c.proven == p.proven
        assert c.code == p.code
    g = ml.Game(p)
    g.tap(p.board.taps[0])
    g.hint()  # a plan in progress
    for c in _round_trips(g):
        assert c.puzzle == p and c.moves == g.moves and c.hinted
        assert np.array_equal(c.state, g.state)
        while not c.solved:
            c.hint()
        assert not p.board.apply(p.start, _counts(p.board, c.moves)).any()
    camp = ml.Campaign(seed=7)
    game = camp.play((0, 0), 0)
    for pos in game.puzzle.solution.moves():
        game.tap(pos)
    camp.record((0, 0), 0, game)
    for c in _round_trips(camp):
        assert c.to_json() == camp.to_json()
        assert c.level((0, 0), 0) == camp.level((0, 0), 0)


def test_every_object_pickles_with_every_protocol_after_use():
    """Solution, a measured Puzzle, Game (after taps, undo and a hint),
    Campaign, Hardest and the seeded generator pickle with protocols 0 and 1 too, and
    the copies behave as the originals."""
    from modlights.play.prng import SplitMix64

    b = ml.Board.grid(4, 4, 3, locked=[(1, 1)])
    s = ml.Solver(b)
    st = b.random_state(rng=5)
    sol = s.solve(st)
    p = ml.generate(4, 4, 3, seed=9)
    _ = p.min_taps, p.stars, p.difficulty, p.solution  # measured
    g = ml.Game(p)
    taps = [q for q in p.board.taps]
    g.tap(taps[0])
    g.tap(taps[1])
    g.undo()
    g.hint()
    camp = ml.Campaign(seed="s")
    _ = camp.level((0, 0), 1).min_taps  # a measured level cached
    h = ml.Solver(ml.Board.grid(4, 4, 2)).hardest()
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        c = pickle.loads(pickle.dumps(sol, protocol=proto))
        assert c == sol and c.examined == sol.examined and c.moves() == sol.moves()
        assert not b.apply(st, c.taps).any()
        c = pickle.loads(pickle.dumps(p, protocol=proto))
        assert c == p and (c.min_taps, c.stars, c.difficulty) == (p.min_taps, p.stars, p.difficulty)
        c = pickle.loads(pickle.dumps(g, protocol=proto))
        assert c.moves == g.moves and c.hints_used == g.hints_used
        assert np.array_equal(c.state, g.state)
        assert c.undo() == g.undo() and np.array_equal(c.state, g.state)
        c = pickle.loads(pickle.dumps(camp, protocol=proto))
        assert c.to_json() == camp.to_json() and c.level((0, 0), 1) == camp.level((0, 0), 1)
        c = pickle.loads(pickle.dumps(h, protocol=proto))
        assert c.to_dict() == h.to_dict()
    for seed in (0, "x"):  # a zero state too (a falsy state skips __setstate__)
        r = SplitMix64(seed)
        r.next_u64()
        if seed == 0:
            r._state = 0
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            c = pickle.loads(pickle.dumps(r, protocol=proto))
            d = copy.deepcopy(r)
            ref = SplitMix64(seed)
            ref._state = r._state
            want = [ref.next_u64() for _ in range(4)]
            assert [c.next_u64() for _ in range(4)] == want
            assert [d.next_u64() for _ in range(4)] == want


def _counts(board, moves):
    x = np.zeros(board.shape, dtype=np.int64)
    for r, c in moves:
        x[r, c] += 1
    return x % board.states
