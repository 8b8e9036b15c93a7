"""Reading pictures back for the tests: an SVG drawn by model/render.py parsed with
xml.etree (tiles, locks, taps and numbers by place), PNG pixels read with Pillow, and
colour distances and contrasts computed here from the hex strings, independently of
render.py."""

from __future__ import annotations

import functools
import io
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import modlights as ml
from modlights.model import render

try:
    from PIL import Image
except ImportError:  # the SVG tests still run
    Image = None


needs_pillow = pytest.mark.skipif(
    Image is None, reason='needs Pillow: pip install "modlights[png]"'
)


SVG = "{http://www.w3.org/2000/svg}"


@functools.cache
def srgb_to_oklab(colour: str) -> np.ndarray:
    """OKLab x 100 of '#rrggbb' (Ottosson's matrices, written out again here)."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    r, g, b = lin
    l_ = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m_ = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s_ = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return 100 * np.array(
        [
            0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
            1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
            0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
        ]
    )


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two '#rrggbb' colours."""

    def lum(c):
        v = [int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        v = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


class Picture:
    """An SVG from render.to_svg read back: tiles, locks, taps and numbers by place.
    Layout (documented in render.py): a margin of a quarter tile, tiles in a grid;
    graph boards row by row in ceil(sqrt(max(cells, taps))) columns, the taps in a
    second grid one row below the cells."""

    def __init__(self, text: str, board: ml.Board):
        self.text = text
        self.root = ET.fromstring(text)
        w = float(self.root.get("width"))
        cols = (
            board.shape[1]
            if board.is_grid
            else max(1, math.ceil(math.sqrt(max(board.n_cells, board.n_taps, 1))))
        )
        self.cols = cols
        self.tile = w / (cols + 0.5)
        self.pad = self.tile / 4
        self.board = board
        index = {c: i for i, c in enumerate(render.palette(board.states))}
        self.tiles = {}
        for rect in self.root.iter(SVG + "rect"):
            if rect.get("class") == "tile":
                cx = float(rect.get("x")) + float(rect.get("width")) / 2
                cy = float(rect.get("y")) + float(rect.get("height")) / 2
                pos = self.place(cx, cy)
                assert pos not in self.tiles, f"two tiles at {pos}"
                self.tiles[pos] = index[rect.get("fill")]  # KeyError: not a state colour
        self.fills = {}
        for rect in self.root.iter(SVG + "rect"):
            if rect.get("class") == "tile":
                cx = float(rect.get("x")) + float(rect.get("width")) / 2
                cy = float(rect.get("y")) + float(rect.get("height")) / 2
                self.fills[self.place(cx, cy)] = rect.get("fill")
        self.locks = set()
        self.taps = {}
        for g in self.root.iter(SVG + "g"):
            if g.get("class") == "lock":
                use = g.find(SVG + "use")
                assert "padlock" in use.get("href") and g.find(SVG + "title") is not None
                self.locks.add(self.place(float(use.get("x")), float(use.get("y"))))
            if g.get("class") == "tap":
                ring = g.find(SVG + "use")
                assert "ring" in ring.get("href")
                pos = self.place(float(ring.get("x")), float(ring.get("y")), taps=True)
                label = [t.text for t in g.iter(SVG + "text") if t.get("class") == "count"]
                assert pos not in self.taps
                self.taps[pos] = int(label[0]) if label else 1
        self.numbers = {}
        for g in self.root.iter(SVG + "g"):
            if g.get("class") == "values":
                for t in g.iter(SVG + "text"):
                    pos = self.place(float(t.get("x")), float(t.get("y")))
                    assert pos not in self.numbers
                    self.numbers[pos] = (int(t.text), g.get("fill"))
        assert len(self.numbers) == sum(
            t.get("class") == "value" for t in self.root.iter(SVG + "text")
        )
        ids = {e.get("id") for e in self.root.iter() if e.get("id")}
        assert {u.get("href")[1:] for u in self.root.iter(SVG + "use")} <= ids

    def place(self, x: float, y: float, taps: bool = False):
        c = int((x - self.pad) // self.tile)
        r = int((y - self.pad) // self.tile)
        if self.board.is_grid:
            return (r, c)
        if taps:
            r -= math.ceil(self.board.n_cells / self.cols) + 1
        return r * self.cols + c


def random_taps(board: ml.Board, rng) -> np.ndarray:
    """Random tap counts (shaped as Solution.taps), zero at locked tiles and holes."""
    x = rng.integers(0, board.states, size=board.n_taps)
    x[rng.random(board.n_taps) < 0.4] = 0
    return board.from_tap_vector(x)


def check_picture(board: ml.Board, state, taps, numbers: bool) -> Picture:
    """Draw and read back; every tile, lock, tap and number must be where it belongs."""
    pic = Picture(board.to_svg(state, taps=taps, numbers=numbers), board)
    s = np.zeros(board.shape, np.int64) if state is None else np.asarray(state) % board.states
    active = board.cells
    assert set(pic.tiles) == set(active)  # holes drawn as absent
    for pos in active:
        assert pic.tiles[pos] == s[pos]
    want_locks = {tuple(map(int, p)) for p in np.argwhere(board.locked)} if board.is_grid else set()
    assert pic.locks == want_locks
    if taps is None:
        assert pic.taps == {}
    else:
        t = np.asarray(taps) % board.states
        if board.is_grid:
            want = {tuple(map(int, p)): int(t[tuple(p)]) for p in np.argwhere(t)}
        else:
            want = {int(j): int(t[j]) for j in np.flatnonzero(t)}
        assert pic.taps == want
    if numbers:
        assert set(pic.numbers) == set(active)
        for pos in active:
            value, fill = pic.numbers[pos]
            assert value == s[pos]
            assert contrast(fill, pic.fills[pos]) >= 4.5
    else:
        assert pic.numbers == {}
    root = pic.root
    assert root.get("role") == "img" and root.get("aria-label")
    assert root.find(SVG + "title").text == root.get("aria-label")
    vb = root.get("viewBox").split()
    assert vb[2:] == [root.get("width"), root.get("height")]
    return pic


def read_png(data) -> tuple[np.ndarray, Image.Image]:
    img = Image.open(io.BytesIO(data) if isinstance(data, bytes) else data)
    img.load()
    return np.array(img), img


def check_png(board, state, taps, scale=1):
    data = board.to_png(state, taps=taps, scale=scale)
    px, img = read_png(data)
    n = board.states
    assert img.mode == "P" and "transparency" not in img.info
    pal = np.array(img.getpalette()[: 3 * (n + 1)]).reshape(-1, 3)
    want = [
        [int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in render.palette(n) + (render.BACKGROUND,)
    ]
    assert pal.tolist() == want
    px = px[scale // 2 :: scale, scale // 2 :: scale]  # tile centres (not lock frames)
    s = np.asarray(state) % n
    if board.is_grid:
        rows, cols = board.shape
        expect = np.where(board.holes, n, s)
        if taps is not None:
            t = np.where(board.holes, n, np.asarray(taps) % n)
            expect = np.hstack([expect, np.full((rows, 1), n), t])
    else:
        cols = max(1, math.ceil(math.sqrt(max(board.n_cells, board.n_taps, 1))))
        h = max(1, math.ceil(max(board.n_cells, board.n_taps) / cols))

        def panel(v):
            out = np.full(h * cols, n)
            out[: len(v)] = v
            return out.reshape(h, cols)

        expect = panel(s)
        if taps is not None:
            expect = np.hstack([expect, np.full((h, 1), n), panel(np.asarray(taps) % n)])
    assert px.shape == expect.shape
    np.testing.assert_array_equal(px, expect)
