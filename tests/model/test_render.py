"""Pictures (modlights.model.render): the SVG is parsed back with xml.etree and every tile,
lock, tap mark and number is checked against the state and taps it was drawn from;
PNG pixels are read back with Pillow (the readers in tests/picture_checks.py). Colour
distances and contrasts are computed from the hex strings, independently of render.py."""

import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.model import render
from picture_checks import (
    SVG,
    Picture,
    check_picture,
    check_png,
    contrast,
    needs_pillow,
    random_taps,
    read_png,
    srgb_to_oklab,
)
from strategies import graph_boards, grid_boards


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
    np.testing.assert_allclose(
        render.oklab(colours), [srgb_to_oklab(c) for c in colours], atol=1e-9
    )


# ----------------------------------------------------------------------------- SVG
def test_svg_tiles_locks_holes_taps_numbers():
    b = ml.Board.grid(4, 5, states=5, locked=[(1, 1), (2, 3)], holes=[(0, 4), (3, 0)])
    s = b.random_state(rng=3)
    taps = np.zeros(b.shape, int)
    taps[0, 0], taps[1, 2], taps[3, 4], taps[2, 1] = 1, 2, 4, 3
    pic = check_picture(b, s, taps, numbers=True)
    assert (0, 4) not in pic.tiles and (3, 0) not in pic.tiles
    assert pic.locks == {(1, 1), (2, 3)}
    assert any(v > 1 for v in pic.taps.values())  # counts shown


def test_svg_default_state_is_white_and_nothing_marked():
    b = ml.Board.grid(3, 3, states=3, holes=[(1, 1)])
    pic = check_picture(b, None, None, numbers=False)
    assert set(pic.tiles.values()) == {0}


def test_svg_counts_reduce_mod_n_and_negatives():
    b = ml.Board.grid(2, 3, states=4)
    taps = np.array([[5, -1, 4], [0, 2, 1]])  # 1, 3, 0 / 0, 2, 1
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
@given(
    board=st.one_of(grid_boards(max_brute=10**9), graph_boards(max_brute=10**9)),
    seed=st.integers(0, 2**32 - 1),
    numbers=st.booleans(),
    with_taps=st.booleans(),
)
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
    assert big._repr_svg_() is None  # notebooks fall back to repr
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
@given(
    board=grid_boards(max_brute=10**9),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([1, 2, 3, 4, 5, 8]),
    with_taps=st.booleans(),
)
def test_png_frames_locked_tiles_from_scale_4(board, seed, scale, with_taps):
    rng = np.random.default_rng(seed)
    state = board.random_state(rng=rng, solvable=False)
    taps = random_taps(board, rng) if with_taps else None
    check_png(board, state, taps, scale=scale)
    px, img = read_png(board.to_png(state, taps=taps, scale=scale))
    n = board.states
    frame = n + 1 if n < 255 else n
    rows, cols = board.shape
    tiles = px[: rows * scale, : cols * scale].reshape(rows, scale, cols, scale)
    border = np.concatenate(
        [
            tiles[:, 0, :, :],
            tiles[:, -1, :, :],
            tiles[:, :, :, 0].transpose(0, 2, 1),
            tiles[:, :, :, -1].transpose(0, 2, 1),
        ],
        axis=2,
    )
    framed = (border == frame).all(axis=2) & ~(board.holes if n == 255 else False)
    if scale >= render.LOCK_FRAME_SCALE:
        np.testing.assert_array_equal(framed, board.locked)
        if board.locked.any() and n < 255:
            pal = img.getpalette()
            r, g, b = pal[3 * frame : 3 * frame + 3]
            assert f"#{r:02x}{g:02x}{b:02x}" == render.LOCK_FRAME
    else:
        assert not (px == n + 1).any() or n == 255
    # the taps panel is never framed
    if taps is not None:
        assert not (px[:, cols * scale :] == n + 1).any() or n == 255


@needs_pillow
@settings(max_examples=40, deadline=None)
@given(
    board=st.one_of(grid_boards(max_brute=10**9), graph_boards(max_brute=10**9)),
    seed=st.integers(0, 2**32 - 1),
    with_taps=st.booleans(),
)
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
