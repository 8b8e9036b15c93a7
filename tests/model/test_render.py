"""Pictures (modlights.model.render): the SVG is parsed back with xml.etree and every tile,
lock, tap mark and number is checked against the state and taps it was drawn from;
PNG pixels are read back with Pillow. Colour distances and contrasts are computed here
from the hex strings, independently of render.py."""
import functools
import io
import json
import math
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.model import render
from modlights.cli import main
from strategies import graph_boards, grid_boards

try:
    from PIL import Image
except ImportError:                       # the SVG tests still run
    Image = None
needs_pillow = pytest.mark.skipif(Image is None,
                                  reason='needs Pillow: pip install "modlights[png]"')

SVG = "{http://www.w3.org/2000/svg}"


# ----------------------------------------------------------------------------- helpers
@functools.lru_cache(maxsize=None)
def srgb_to_oklab(colour: str) -> np.ndarray:
    """OKLab x 100 of '#rrggbb' (Ottosson's matrices, written out again here)."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    r, g, b = lin
    l_ = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m_ = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s_ = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return 100 * np.array([0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                           1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                           0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_])


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two '#rrggbb' colours."""
    def lum(c):
        v = [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
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
        cols = board.shape[1] if board.is_grid else \
            max(1, math.ceil(math.sqrt(max(board.n_cells, board.n_taps, 1))))
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
                self.tiles[pos] = index[rect.get("fill")]       # KeyError: not a state colour
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
        assert len(self.numbers) == sum(t.get("class") == "value"
                                        for t in self.root.iter(SVG + "text"))
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
    assert set(pic.tiles) == set(active)                      # holes drawn as absent
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


# ----------------------------------------------------------------------------- palette
def test_palette_colours_are_far_apart():
    """For every n in 2..255: every two colours (and each colour and the background)
    at least render.min_distance(n) apart in OKLab, which is at least 15 for n <= 9
    and 4.5 (over two just-noticeable differences) for any n; numbers readable."""
    too_close = []
    for n in range(2, 256):
        colours = render.palette(n)
        assert len(colours) == n and colours[0] == "#ffffff"
        labs = np.array([srgb_to_oklab(c) for c in colours + (render.BACKGROUND,)])
        d = np.linalg.norm(labs[:, None] - labs[None], axis=2)
        closest = d[np.triu_indices(n + 1, 1)].min()
        if closest < render.min_distance(n):
            too_close.append((n, closest))
        assert render.min_distance(n) >= (15 if n <= 9 else 4.5)
    assert too_close == []
    for c in set(render.palette(9) + render.palette(255)) | {"#777777", "#808080"}:
        assert contrast(render.text_colour(c), c) >= 4.5


def test_palette_bad_n():
    for bad in (1, 256, 2.0, True, [3]):
        with pytest.raises(ValueError):
            render.palette(bad)


def test_oklab_agrees_with_the_test_implementation():
    colours = ["#000000", "#ffffff", "#0072b2", "#e69f00", "#123456"]
    np.testing.assert_allclose(render.oklab(colours),
                               [srgb_to_oklab(c) for c in colours], atol=1e-9)


# ----------------------------------------------------------------------------- SVG
def test_svg_tiles_locks_holes_taps_numbers():
    b = ml.Board.grid(4, 5, states=5, locked=[(1, 1), (2, 3)], holes=[(0, 4), (3, 0)])
    s = b.random_state(rng=3)
    taps = np.zeros(b.shape, int)
    taps[0, 0], taps[1, 2], taps[3, 4], taps[2, 1] = 1, 2, 4, 3
    pic = check_picture(b, s, taps, numbers=True)
    assert (0, 4) not in pic.tiles and (3, 0) not in pic.tiles
    assert pic.locks == {(1, 1), (2, 3)}
    assert any(v > 1 for v in pic.taps.values())                 # counts shown


def test_svg_default_state_is_white_and_nothing_marked():
    b = ml.Board.grid(3, 3, states=3, holes=[(1, 1)])
    pic = check_picture(b, None, None, numbers=False)
    assert set(pic.tiles.values()) == {0}


def test_svg_counts_reduce_mod_n_and_negatives():
    b = ml.Board.grid(2, 3, states=4)
    taps = np.array([[5, -1, 4], [0, 2, 1]])            # 1, 3, 0 / 0, 2, 1
    pic = check_picture(b, -np.ones((2, 3), int), taps, numbers=True)
    assert pic.taps == {(0, 0): 1, (0, 1): 3, (1, 1): 2, (1, 2): 1}
    assert set(pic.tiles.values()) == {3}


@needs_pillow
def test_svg_and_png_ignore_taps_and_states_at_holes():
    b = ml.Board.grid(2, 2, states=3, holes=[(0, 1)])
    for dtype in (np.uint8, np.int64):
        taps = np.array([[1, 2], [0, 1]], dtype=dtype)
        state = np.array([[2, 1], [1, 0]], dtype=dtype)
        pic = check_picture(b, state, np.where(b.holes, 0, taps), numbers=True)
        assert Picture(b.to_svg(state, taps=taps), b).taps == pic.taps == {(0, 0): 1, (1, 1): 1}
        px, _ = read_png(b.to_png(state, taps=taps))
        np.testing.assert_array_equal(px, [[2, 3, 3, 1, 3], [1, 0, 3, 0, 1]])


def test_svg_graph_board_cells_and_taps():
    b = ml.Board.from_effects([[0, 1], [1, 2, 2], [3], [0, 4], []], states=3, n_cells=5)
    pic = check_picture(b, [0, 1, 2, 1, 0], [1, 2, 0, 1, 0], numbers=True)
    assert pic.taps == {0: 1, 1: 2, 3: 1}
    slots = [c for c in pic.root.iter(SVG + "circle") if c.get("class") == "tap-slot"]
    assert len(slots) == b.n_taps


def test_svg_ids_are_safe_in_one_page():
    """Notebooks inline many SVGs in one page: an id two pictures share must name
    the same shape; pictures of different sizes share none."""
    b = ml.Board.grid(2, 2, locked=[(0, 0)])
    defs = {}
    for tile in (20, 30, 20.5):
        root = ET.fromstring(b.to_svg(taps=[[0, 1], [1, 1]], tile=tile))
        for e in root.find(SVG + "defs"):
            defs.setdefault(e.get("id"), set()).add(ET.tostring(e))
    assert len(defs) == 9 and all(len(v) == 1 for v in defs.values())


def test_svg_escapes_title_and_is_standalone():
    b = ml.Board.grid(2, 2)
    text = b.to_svg(title='a <b> & "c"')
    root = ET.fromstring(text)
    assert root.find(SVG + "title").text == 'a <b> & "c"'
    assert root.get("aria-label") == 'a <b> & "c"'
    assert text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.one_of(grid_boards(max_brute=10**9), graph_boards(max_brute=10**9)),
       seed=st.integers(0, 2**32 - 1), numbers=st.booleans(), with_taps=st.booleans())
def test_svg_random_boards(board, seed, numbers, with_taps):
    rng = np.random.default_rng(seed)
    state = board.random_state(rng=rng, solvable=False)
    taps = random_taps(board, rng) if with_taps else None
    check_picture(board, state, taps, numbers)


def test_svg_bad_input():
    b = ml.Board.grid(3, 3, states=3, locked=[(0, 0)])
    with pytest.raises(ValueError, match="shape"):
        b.to_svg(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="shape"):
        b.to_svg(taps=np.zeros(9))
    with pytest.raises(ValueError, match="locked"):
        b.to_svg(taps=np.eye(3, dtype=int))
    with pytest.raises(ValueError, match="tile"):
        b.to_svg(tile=0)
    with pytest.raises(ValueError, match="title"):
        b.to_svg(title=5)
    with pytest.raises(ValueError, match="Board"):
        render.to_svg("5x5")


def test_svg_size_guard():
    ok = ml.Board.grid(200, 200)
    assert ET.fromstring(ok.to_svg()).get("role") == "img"
    big = ml.Board.grid(200, 201)
    with pytest.raises(ValueError, match="PNG") as e:
        big.to_svg()
    assert "40000" in str(e.value) and "modlights[png]" in str(e.value)
    assert big._repr_svg_() is None                     # notebooks fall back to repr
    with pytest.raises(ValueError, match="PNG"):
        ml.Board.from_effects([[0]] * 20001, 2, n_cells=20000).to_svg()


# ----------------------------------------------------------------------------- notebooks
def test_repr_svg_of_every_object():
    p = ml.generate(4, 4, states=3, seed=5)
    b = p.board
    pic = Picture(b._repr_svg_(), b)
    assert set(pic.tiles.values()) == {0} and pic.taps == {}

    pic = Picture(p._repr_svg_(), b)
    assert all(pic.tiles[pos] == p.start[pos] for pos in b.cells)
    assert p.code in pic.root.find(SVG + "title").text

    sol = p.solver.solve(p.start)
    pic = Picture(sol._repr_svg_(), b)
    want = {tuple(map(int, q)): int(sol.taps[tuple(q)]) for q in np.argwhere(sol.taps)}
    assert pic.taps == want and f"{sol.length} taps" in pic.root.get("aria-label")

    g = ml.Game(p)
    g.tap(b.taps[0])
    pic = Picture(g._repr_svg_(), b)
    assert all(pic.tiles[pos] == g.state[pos] for pos in b.cells)
    assert "1 tap used, unsolved" in pic.root.get("aria-label")
    assert "hinted" not in pic.root.get("aria-label")
    while not g.solved:
        g.hint()
    label = Picture(g._repr_svg_(), b).root.get("aria-label")
    assert "solved" in label and "unsolved" not in label and "hinted" in label


# ----------------------------------------------------------------------------- PNG
def read_png(data) -> tuple[np.ndarray, "Image.Image"]:
    img = Image.open(io.BytesIO(data) if isinstance(data, bytes) else data)
    img.load()
    return np.array(img), img


def check_png(board, state, taps, scale=1):
    data = board.to_png(state, taps=taps, scale=scale)
    px, img = read_png(data)
    n = board.states
    assert img.mode == "P" and "transparency" not in img.info
    pal = np.array(img.getpalette()[:3 * (n + 1)]).reshape(-1, 3)
    want = [[int(c[i:i + 2], 16) for i in (1, 3, 5)]
            for c in render.palette(n) + (render.BACKGROUND,)]
    assert pal.tolist() == want
    px = px[scale // 2::scale, scale // 2::scale]          # tile centres (not lock frames)
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
            out[:len(v)] = v
            return out.reshape(h, cols)
        expect = panel(s)
        if taps is not None:
            expect = np.hstack([expect, np.full((h, 1), n), panel(np.asarray(taps) % n)])
    assert px.shape == expect.shape
    np.testing.assert_array_equal(px, expect)


@needs_pillow
def test_png_pixels_are_states_and_taps():
    b = ml.Board.grid(6, 7, states=6, holes=[(0, 0), (5, 6)], locked=[(2, 2)])
    s = b.random_state(rng=1)
    sol = ml.Solver(b).solve(s)
    check_png(b, s, sol.taps)
    check_png(b, s, None)
    check_png(b, s, sol.taps, scale=3)
    check_png(ml.Board.grid(3, 3, states=255), np.arange(9).reshape(3, 3) * 30, None)


@needs_pillow
@settings(max_examples=30, deadline=None)
@given(board=grid_boards(max_brute=10**9), seed=st.integers(0, 2**32 - 1),
       scale=st.sampled_from([1, 2, 3, 4, 5, 8]), with_taps=st.booleans())
def test_png_frames_locked_tiles_from_scale_4(board, seed, scale, with_taps):
    rng = np.random.default_rng(seed)
    state = board.random_state(rng=rng, solvable=False)
    taps = random_taps(board, rng) if with_taps else None
    check_png(board, state, taps, scale=scale)
    px, img = read_png(board.to_png(state, taps=taps, scale=scale))
    n = board.states
    frame = n + 1 if n < 255 else n
    rows, cols = board.shape
    tiles = px[:rows * scale, :cols * scale].reshape(rows, scale, cols, scale)
    border = np.concatenate([tiles[:, 0, :, :], tiles[:, -1, :, :],
                             tiles[:, :, :, 0].transpose(0, 2, 1),
                             tiles[:, :, :, -1].transpose(0, 2, 1)], axis=2)
    framed = (border == frame).all(axis=2) & ~(board.holes if n == 255 else False)
    if scale >= render.LOCK_FRAME_SCALE:
        np.testing.assert_array_equal(framed, board.locked)
        if board.locked.any() and n < 255:
            pal = img.getpalette()
            assert "#%02x%02x%02x" % tuple(pal[3 * frame:3 * frame + 3]) == render.LOCK_FRAME
    else:
        assert not (px == n + 1).any() or n == 255
    # the taps panel is never framed
    if taps is not None:
        assert not (px[:, cols * scale:] == n + 1).any() or n == 255


@needs_pillow
@settings(max_examples=40, deadline=None)
@given(board=st.one_of(grid_boards(max_brute=10**9), graph_boards(max_brute=10**9)),
       seed=st.integers(0, 2**32 - 1), with_taps=st.booleans())
def test_png_random_boards(board, seed, with_taps):
    rng = np.random.default_rng(seed)
    state = board.random_state(rng=rng, solvable=False)
    check_png(board, state, random_taps(board, rng) if with_taps else None)


@needs_pillow
def test_png_to_path_and_bad_input(tmp_path):
    b = ml.Board.grid(2, 3)
    assert b.to_png([[1, 0, 1], [0, 1, 1]], path=tmp_path / "x.png") is None
    px, _ = read_png(tmp_path / "x.png")
    np.testing.assert_array_equal(px, [[1, 0, 1], [0, 1, 1]])
    with pytest.raises(ValueError, match="shape"):
        b.to_png(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="scale"):
        b.to_png(scale=0)
    with pytest.raises(ValueError, match="pixels"):
        ml.Board.grid(10000, 10000).to_png(scale=2)


def test_png_without_pillow(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r'pip install "modlights\[png\]"') as e:
        ml.Board.grid(2, 2).to_png()
    assert isinstance(e.value, ValueError)


# ----------------------------------------------------------------------------- CLI
@needs_pillow
def test_cli_svg_and_png(tmp_path, capsys):
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    args = ["solve", "--grid", "4x5", "--states", "3", "--seed", "4", "--holes", "0,0",
            "--locked", "1,1", "--svg", str(svg), "--png", str(png)]
    assert main(args + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    b = ml.Board.grid(4, 5, 3, holes=[(0, 0)], locked=[(1, 1)])
    state, taps = np.array(doc["state"]), np.array(doc["taps"])
    pic = Picture(svg.read_text(), b)
    assert all(pic.tiles[p] == state[p] for p in b.cells) and set(pic.tiles) == set(b.cells)
    assert pic.taps == {tuple(map(int, q)): int(taps[tuple(q)]) for q in np.argwhere(taps)}
    assert pic.locks == {(1, 1)}
    px, _ = read_png(png)
    np.testing.assert_array_equal(px[:, :5], np.where(b.holes, 3, state))
    np.testing.assert_array_equal(px[:, 6:], np.where(b.holes, 3, taps))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"picture: {svg}" in out and f"picture: {png}" in out


@needs_pillow
def test_cli_png_scale_frames_locks(tmp_path, capsys):
    png = tmp_path / "s.png"
    args = ["solve", "--grid", "4x5", "--states", "3", "--seed", "4", "--locked", "1,1 2,3",
            "--png", str(png), "--png-scale", "6", "--json"]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    b = ml.Board.grid(4, 5, 3, locked=[(1, 1), (2, 3)])
    check_png(b, np.array(doc["state"]), np.array(doc["taps"]), scale=6)
    px, _ = read_png(png)
    assert px.shape == (4 * 6, 11 * 6)
    tiles = px[:24, :30].reshape(4, 6, 5, 6)
    np.testing.assert_array_equal((tiles[:, 0, :, :] == 4).all(axis=2), b.locked)
    for bad in ("0", "65", "x"):
        rc = main(args[:-2] + ["--png-scale", bad])
        err = capsys.readouterr().err
        assert rc == 2 and len(err.strip().splitlines()) == 1 and "--png-scale" in err
    rc = main(["solve", "--grid", "2000x2000", "--seed", "1", "--png", str(png),
               "--png-scale", "64"])
    err = capsys.readouterr().err
    assert rc == 2 and "smaller scale" in err


def test_cli_picture_errors(tmp_path, capsys, monkeypatch):
    out = tmp_path / "big.svg"
    rc = main(["solve", "--grid", "201x200", "--seed", "1", "--svg", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "PNG" in err
    assert not out.exists()
    rc = main(["solve", "--grid", "3x3", "--seed", "1", "--svg", str(tmp_path / "no" / "x.svg")])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "cannot write" in err
    monkeypatch.setitem(sys.modules, "PIL", None)
    rc = main(["solve", "--grid", "3x3", "--seed", "1", "--png", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert rc == 2 and 'pip install "modlights[png]"' in err and len(err.strip().splitlines()) == 1


def test_cli_large_boards_leave_the_grids_to_the_picture(tmp_path, capsys):
    svg = tmp_path / "b.svg"
    base = ["solve", "--seed", "2", "--no-minimal", "--svg", str(svg)]
    assert main(base + ["--grid", "101x100"]) == 0
    out = capsys.readouterr().out
    assert out.count("(not printed: 10100 tiles; see") == 2 and f"picture: {svg}" in out
    assert len(Picture(svg.read_text(), ml.Board.grid(101, 100)).tiles) == 10100
    assert main(base + ["--grid", "100x100"]) == 0
    out = capsys.readouterr().out
    assert "not printed" not in out and len(out.splitlines()) > 200
