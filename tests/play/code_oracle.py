"""The puzzle codes of version 1 written out in Python: the independent oracle the tests
compare the C library's codes with (csrc/play/codes.c, puzzle.c; modlights.play.codes
binds them). This is the code modlights.play.puzzles ran before the codes moved to C,
kept apart from the package (it imports only the board and pattern helpers it needs) so
that a change to the C side is checked against a second implementation."""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from typing import Any

import numpy as np

from modlights.model.board import Board
from modlights.model.patterns import Offsets, pattern_name

CODE_VERSION = 1
_NAMED = ("cross", "diagonal", "square", "horizontal", "vertical", "knight")
MAX_CODE_CHARS = 120_000
MAX_CODE_SIDE = 255


def _bits_for(k: int) -> int:
    """Bits that hold the values 0..k-1 (0 for k <= 1)."""
    return (k - 1).bit_length() if k > 1 else 0


def _pattern_bytes(offs: Offsets) -> bytes:
    """A pattern as a code writes it: [0, id] for a named one, else [1, count] and the
    signed-byte (dr, dc) pairs; ValueError past 255 offsets or outside -128..127."""
    name = pattern_name(offs)
    if name in _NAMED:
        return bytes([0, _NAMED.index(name)])
    if len(offs) > 255:
        raise ValueError(f"a puzzle code holds patterns of up to 255 offsets, got {len(offs)}")
    out = bytearray([1, len(offs)])
    for dr, dc in offs:
        if not (-128 <= dr <= 127 and -128 <= dc <= 127):
            raise ValueError(f"a puzzle code holds offsets in -128..127, got {(dr, dc)}")
        out += bytes([dr & 0xFF, dc & 0xFF])
    return bytes(out)


def _bits_of(values: np.ndarray, width: int) -> np.ndarray:
    """The ``width`` low bits of each value, most significant first, as one 0/1 array."""
    if width == 0 or values.size == 0:
        return np.zeros(0, dtype=np.uint8)
    v = values.astype(np.int64).reshape(-1, 1)
    shifts = np.arange(width - 1, -1, -1, dtype=np.int64)
    return ((v >> shifts) & 1).astype(np.uint8).reshape(-1)


def encode(board: Board, start: np.ndarray) -> str:
    """The puzzle code of a grid board and a start state (format in the module docstring).

    ValueError for a graph board, a side over ``MAX_CODE_SIDE``, a board that is all
    holes, or a pattern a code cannot hold (more than 255 offsets, offsets outside
    -128..127). O(tiles).
    """
    if not board.is_grid:
        raise ValueError("only grid boards have puzzle codes")
    rows, cols = board.shape
    if rows > MAX_CODE_SIDE or cols > MAX_CODE_SIDE:
        raise ValueError(
            f"a puzzle code holds boards up to {MAX_CODE_SIDE}x{MAX_CODE_SIDE}, got {rows}x{cols}"
        )
    n = board.states
    locked, holes = board.locked, board.holes
    if holes.all():
        raise ValueError(
            "a board whose every tile is a hole has no puzzle code (a code needs at least one tile)"
        )
    mixed = board.mixed
    flags = int(board.wrap) | (int(locked.any()) << 1) | (int(holes.any()) << 2)
    head = bytearray()
    bits = []
    if mixed is None:
        assert board.pattern is not None  # a uniform grid has its offsets
        pb = _pattern_bytes(board.pattern)
        kind = pb[0]
        head += pb[1:]
    else:
        kind = 2
        palette: list[Offsets] = []
        index: dict[Offsets, int] = {}
        idx = np.zeros(rows * cols, dtype=np.int64)
        for r in range(rows):
            for c in range(cols):
                o = tuple(mixed[r][c])
                if o not in index:
                    index[o] = len(palette)
                    palette.append(o)
                idx[r * cols + c] = index[o]
        if len(palette) > 255:
            raise ValueError(
                f"a puzzle code holds mixed boards of up to 255 distinct "
                f"patterns, got {len(palette)}"
            )
        head.append(len(palette))
        for o in palette:
            head += _pattern_bytes(o)
        bits.append(_bits_of(idx, _bits_for(len(palette))))
    flags |= kind << 3
    if locked.any():
        bits.append(locked.reshape(-1).astype(np.uint8))
    if holes.any():
        bits.append(holes.reshape(-1).astype(np.uint8))
    vals = np.asarray(start).reshape(-1)[~holes.reshape(-1)]
    bits.append(_bits_of(vals, _bits_for(n)))
    stream = np.concatenate(bits) if bits else np.zeros(0, np.uint8)
    payload = (
        bytes([CODE_VERSION, flags, rows, cols, n]) + bytes(head) + np.packbits(stream).tobytes()
    )
    payload += zlib.crc32(payload).to_bytes(4, "big")
    return base64.urlsafe_b64encode(payload).rstrip(b"=").decode("ascii")


class _Reader:
    """Reads a code's payload byte by byte; ValueError naming the field it ends before."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def left(self) -> int:
        return len(self.data) - self.pos

    def byte(self, what: str) -> int:
        if self.pos >= len(self.data):
            raise ValueError(f"puzzle code is truncated (ends before the {what})")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def signed(self, what: str) -> int:
        b = self.byte(what)
        return b - 256 if b > 127 else b


def _read_pattern(rd: _Reader, kind: int, what: str) -> Any:
    """A pattern as :func:`_pattern_bytes` wrote it (``kind`` 0: a named id, else offsets)."""
    if kind == 0:
        i = rd.byte(f"{what} id")
        if i >= len(_NAMED):
            raise ValueError(
                f"puzzle code names pattern id {i}; known ids are 0..{len(_NAMED) - 1}"
            )
        return _NAMED[i]
    k = rd.byte(f"{what} offset count")
    if rd.left() < 2 * k:
        raise ValueError(f"puzzle code is truncated (declares {k} offsets in the {what})")
    return tuple((rd.signed(what), rd.signed(what)) for _ in range(k))


_CODE_RE = re.compile(r"[A-Za-z0-9_-]+")


def decode(code: Any) -> tuple[Board, np.ndarray]:
    """(board, start) of a puzzle code; ValueError for anything invalid.

    Checks the alphabet, the length, the CRC32 and every declared size against the
    payload before building anything, and that the code is canonical (the one
    :func:`encode` writes for that puzzle). O(length of the code).
    """
    if not isinstance(code, str):
        raise ValueError(f"a puzzle code is a str, got {type(code).__name__}")
    text = code.strip()
    if not text:
        raise ValueError("empty puzzle code")
    if len(text) > MAX_CODE_CHARS:
        raise ValueError(f"puzzle code too long: {len(text)} characters, at most {MAX_CODE_CHARS}")
    if not _CODE_RE.fullmatch(text):
        bad = next(ch for ch in text if not (ch.isascii() and (ch.isalnum() or ch in "-_")))
        raise ValueError(
            f"puzzle code has a character {bad!r} that is not base64url (A-Z a-z 0-9 - _)"
        )
    if len(text) % 4 == 1:
        raise ValueError("puzzle code has an impossible length (truncated or garbled)")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("puzzle code is not valid base64url") from None
    if len(data) < 5 + 1 + 4:
        raise ValueError(f"puzzle code too short ({len(data)} bytes): truncated or not a code")
    body, crc = data[:-4], int.from_bytes(data[-4:], "big")
    if zlib.crc32(body) != crc:
        raise ValueError(
            "puzzle code checksum mismatch: the code is mistyped, truncated or corrupted"
        )
    rd = _Reader(body)
    version = rd.byte("version")
    if version != CODE_VERSION:
        raise ValueError(
            f"unsupported puzzle code version {version} (this modlights reads "
            f"version {CODE_VERSION})"
        )
    flags = rd.byte("flags")
    if flags & ~0x1F:
        raise ValueError(f"puzzle code has unknown flags 0x{flags:02x}")
    wrap, has_lock, has_hole = bool(flags & 1), bool(flags & 2), bool(flags & 4)
    kind = (flags >> 3) & 3
    if kind == 3:
        raise ValueError("puzzle code has an unknown pattern kind 3")
    rows, cols, n = rd.byte("rows"), rd.byte("cols"), rd.byte("states")
    if rows < 1 or cols < 1:
        raise ValueError(f"puzzle code declares a {rows}x{cols} board (sides are 1..255)")
    if n < 2:
        raise ValueError(f"puzzle code declares {n} states (2..255 allowed)")
    tiles = rows * cols
    palette = None
    if kind == 2:
        P = rd.byte("palette size")
        if P < 1:
            raise ValueError("puzzle code declares a mixed board with an empty palette")
        palette = []
        for i in range(P):
            tag = rd.byte("palette entry")
            if tag > 1:
                raise ValueError(f"puzzle code palette entry {i} has unknown kind {tag}")
            palette.append(_read_pattern(rd, tag, f"palette entry {i}"))
        pattern = None
    else:
        pattern = _read_pattern(rd, kind, "pattern")
    # Sizes before allocation: the bit stream must hold exactly what the header declares.
    ib = _bits_for(len(palette)) if palette is not None else 0
    vb = _bits_for(n)
    fixed = tiles * ib + tiles * (has_lock + has_hole)
    left_bits = rd.left() * 8
    if fixed > left_bits:
        raise ValueError(
            f"puzzle code is truncated: a {rows}x{cols} board needs more "
            f"data than the {rd.left()} bytes left"
        )
    if not has_hole and (fixed + tiles * vb + 7) // 8 != rd.left():
        raise ValueError(
            f"puzzle code length does not match its {rows}x{cols} board with "
            f"{n} states (truncated or padded)"
        )
    bits = np.unpackbits(np.frombuffer(body, dtype=np.uint8, offset=rd.pos))
    at = 0

    def take(count: int, width: int) -> np.ndarray:
        nonlocal at
        need = count * width
        if at + need > bits.size:
            raise ValueError("puzzle code is truncated (the tile data ends early)")
        chunk = (
            bits[at : at + need].reshape(count, width) if width else np.zeros((count, 0), np.uint8)
        )
        at += need
        if width == 0:
            return np.zeros(count, dtype=np.int64)
        w = 1 << np.arange(width - 1, -1, -1, dtype=np.int64)
        return chunk.astype(np.int64) @ w

    mixed = None
    if palette is not None:
        idx = take(tiles, ib)
        if idx.size and idx.max() >= len(palette):
            raise ValueError(
                f"puzzle code uses palette entry {int(idx.max())}, the palette has {len(palette)}"
            )
        mixed = [[palette[int(idx[r * cols + c])] for c in range(cols)] for r in range(rows)]
    lock = (
        take(tiles, 1).astype(bool).reshape(rows, cols)
        if has_lock
        else np.zeros((rows, cols), bool)
    )
    hole = (
        take(tiles, 1).astype(bool).reshape(rows, cols)
        if has_hole
        else np.zeros((rows, cols), bool)
    )
    if has_lock and not lock.any():
        raise ValueError("puzzle code declares locked tiles but marks none")
    if has_hole and not hole.any():
        raise ValueError("puzzle code declares holes but marks none")
    if has_hole and hole.all():
        raise ValueError("puzzle code makes every tile a hole")
    if (lock & hole).any():
        r, c = map(int, np.argwhere(lock & hole)[0])
        raise ValueError(f"puzzle code marks tile ({r}, {c}) both locked and a hole")
    active = int((~hole).sum())
    if (fixed + active * vb + 7) // 8 * 8 != bits.size:
        raise ValueError("puzzle code length does not match its board (truncated or padded)")
    vals = take(active, vb)
    if bits[at:].any():
        raise ValueError("puzzle code has non-zero padding bits (garbled)")
    if vals.size and vals.max() >= n:
        raise ValueError(
            f"puzzle code has a tile value {int(vals.max())}, out of range for {n} states"
        )
    flat = np.zeros(tiles, dtype=np.int64)
    flat[~hole.reshape(-1)] = vals
    board = Board.grid(
        rows, cols, n, mixed if mixed is not None else pattern, locked=lock, holes=hole, wrap=wrap
    )
    start = flat.reshape(rows, cols)
    # One puzzle, one code: base64 padding bits, a named pattern written as offsets,
    # a mixed palette in another order... would all decode to the same puzzle.
    if encode(board, start) != text:
        raise ValueError(
            "puzzle code is not canonical (a mistyped character, or not "
            "written by modlights): a valid code re-encodes to itself"
        )
    return board, start
