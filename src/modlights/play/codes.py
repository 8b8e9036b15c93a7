"""Puzzle codes (version 1): short URL-safe text holding a whole puzzle, the C library's
(csrc/play/codes.c and puzzle.c, the same codes the WebAssembly core and C programs read
and write).

A code is the base64url text (no padding) of: version (1 byte), flags (bit 0 wrap,
bit 1 locks, bit 2 holes, bits 3-4 pattern kind: 0 named, 1 custom offsets, 2 mixed),
rows, cols, n (1 byte each), the pattern (named: its id; custom: a count and
signed-byte (dr, dc) pairs; mixed: a palette of such patterns), then one bit stream,
zero padded to a byte: mixed palette indices (ceil(log2 P) bits per tile), lock mask,
hole mask (1 bit per tile each), and the start values of the tiles that are not holes
(ceil(log2 n) bits each), row-major; then the CRC32 of all that (4 bytes, big endian).
Decoding checks length, alphabet, checksum and every declared size against the
payload before it builds anything, and that the code is canonical (the one encoding
writes for that puzzle).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.model.board import Board
from modlights.native import _core

__all__ = ["encode", "decode", "CODE_VERSION", "MAX_CODE_CHARS", "MAX_CODE_SIDE"]

#: the version codes are written in (and the only one read)
CODE_VERSION = 1
#: the longest code read, in characters
MAX_CODE_CHARS = 120_000
#: the longest side of a board a code holds
MAX_CODE_SIDE = 255


def encode(board: Board, start: np.ndarray) -> str:
    """The puzzle code of a grid board and a start state (values reduced mod n, holes'
    ignored). ValueError for a graph board, a side over ``MAX_CODE_SIDE``, a board that
    is all holes, or a pattern a code cannot hold (more than 255 offsets, offsets
    outside -128..127, more than 255 distinct patterns). O(tiles)."""
    return str(_core.capi_code_encode(board._c, start))


def decode(code: Any) -> tuple[Board, np.ndarray]:
    """(board, start) of a puzzle code (surrounding whitespace ignored); ValueError for
    anything that is not a valid code, saying what is wrong with it. O(length of the
    code)."""
    if not isinstance(code, str):
        raise ValueError(f"a puzzle code is a str, got {type(code).__name__}")
    p = _core.CPuzzle.from_code(code)
    return Board._from_c(p.board), p.start
