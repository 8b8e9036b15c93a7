"""modlights.play.codes (the C library's puzzle codes behind Puzzle.code and
Puzzle.from_code) against the Python encoder and decoder kept as the oracle
(tests/play/code_oracle.py): random grid puzzles (named, random and mixed patterns,
locks, holes, wrap, n 2..255, odd and even sides) give the oracle's code and read back
to the oracle's board and start; mutated codes (a character changed, inserted or
dropped, cut short, doubled, characters from outside base64url) are read or refused as
the oracle reads or refuses them, message for message; boards a code cannot hold are
refused with the oracle's message. Deterministic."""

from __future__ import annotations

import code_oracle
import numpy as np
import pytest

import modlights as ml
from modlights.play import codes

NAMES = list(ml.PATTERNS)


def _random_board(rng) -> ml.Board:
    rows, cols = int(rng.integers(1, 14)), int(rng.integers(1, 14))
    n = int(rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 16, 101, 255]))

    def pattern():
        if rng.random() < 0.5:
            return NAMES[rng.integers(len(NAMES))]
        k = int(rng.integers(0, 7))
        return [(int(rng.integers(-4, 5)), int(rng.integers(-4, 5))) for _ in range(k)]

    if rng.random() < 0.3:
        pal = [pattern() for _ in range(int(rng.integers(1, 5)))]
        pat = [[pal[rng.integers(len(pal))] for _ in range(cols)] for _ in range(rows)]
    else:
        pat = pattern()
    kind = rng.integers(0, 7, size=(rows, cols)) if rng.random() < 0.5 else np.full((rows, cols), 6)
    kind.flat[int(rng.integers(rows * cols))] = 6
    return ml.Board.grid(
        rows, cols, n, pat, locked=kind == 0, holes=kind == 1, wrap=bool(rng.random() < 0.3)
    )


def _outcome(decode, code):
    try:
        board, start = decode(code)
    except ValueError as e:
        return str(e)
    return board, np.asarray(start, dtype=np.uint8)


@pytest.mark.parametrize("seed", range(3))
def test_codes_are_the_oracles_both_ways(seed):
    rng = np.random.default_rng(seed)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for _ in range(80):
        board = _random_board(rng)
        start = ml.Puzzle(board, rng.integers(0, 256, size=board.shape)).start
        code = codes.encode(board, start)
        assert code == code_oracle.encode(board, start)
        got, want = _outcome(codes.decode, code), _outcome(code_oracle.decode, code)
        assert got[0] == want[0] and (got[1] == want[1]).all()
        for _ in range(6):
            s = list(code)
            i = int(rng.integers(len(s)))
            roll = rng.random()
            if roll < 0.4:
                s[i] = alphabet[rng.integers(len(alphabet))]
            elif roll < 0.6:
                s = s[:i]
            elif roll < 0.7:
                s.insert(i, str(rng.choice([" ", "=", "é", "\0", "+", "\ud800"])))
            elif roll < 0.85:
                del s[i]
            else:
                s = s + s
            bad = "".join(s)
            got, want = _outcome(codes.decode, bad), _outcome(code_oracle.decode, bad)
            if isinstance(want, str):
                assert got == want, bad
            else:
                assert got[0] == want[0] and (got[1] == want[1]).all()


def test_what_a_code_cannot_hold_is_refused_with_the_oracles_message():
    cases = [
        ml.Board.grid(256, 2),
        ml.Board.grid(2, 2, holes=[(0, 0), (0, 1), (1, 0), (1, 1)]),
        ml.Board.grid(3, 3, 2, [(0, 0), (0, 128)]),
        ml.Board.grid(3, 3, 2, [(0, 0)] * 256),
        ml.Board.grid(1, 256, 2, [[[(0, k)] for k in range(256)]]),
        ml.Board.from_effects([[0]], 2),
    ]
    for board in cases:
        start = np.zeros(board.shape, np.uint8)
        with pytest.raises(ValueError) as want:
            code_oracle.encode(board, start)
        with pytest.raises(ValueError) as got:
            codes.encode(board, start)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="a puzzle code is a str, got int"):
        codes.decode(5)


def test_a_giant_board_is_refused_before_anything_per_tile():
    with pytest.raises(ValueError, match="up to 255x255, got 100000x100000"):
        codes.encode(ml.Board.grid(100_000, 100_000), np.zeros(1, np.uint8))
