"""Pictures of boards: SVG for looking at a board, PNG for boards too large for SVG.

SVG (:func:`to_svg`)
    One rounded square per tile, filled with the colour of its state (:func:`palette`);
    holes are left out, so the background shows through where there is no tile.
    ``numbers=True`` writes each tile's value on it in black or white, whichever
    reads better on that fill (:func:`text_colour`). A locked tile carries a padlock
    (with a ``<title>``) in its top-right corner. Tap counts (``taps=``) are marked by
    a ring on every tapped tile, and a badge with the count where it is more than 1.
    Graph boards (``Board.from_effects`` / ``from_matrix``) have no geometry: their
    cells are drawn in index order, row by row, in a near-square grid of
    ``ceil(sqrt(max(n_cells, n_taps)))`` columns; when taps are given, a second grid
    below it (labelled "taps") shows tap j at the j-th place, since a tap of a graph
    board is not a cell. Every picture is a standalone SVG document (``xmlns``,
    ``viewBox``, ``width`` / ``height``) with a ``<title>``, ``role="img"`` and an
    ``aria-label`` describing the board. Boards of more than :data:`MAX_SVG_TILES`
    tiles (about 200 x 200) raise ValueError: use PNG.

PNG (:func:`to_png`, needs Pillow: ``pip install "modlights[png]"``)
    One pixel per tile (``scale`` pixels square with ``scale=``), a palette image
    (mode "P", one byte a pixel: a 10000 x 10000 board is a 100 MB array before
    compression; stored at 1, 2, 4 or 8 bits a pixel, the fewest that hold the
    palette). Pixel value = state, coloured by the same palette as the SVG; holes
    are index n (the first after the states) in the SVG's background colour (not
    transparent: viewers would show white, the colour of state 0). With ``taps=``
    the picture has a second panel to the right of the state, one background tile
    apart, with the same layout: pixel value = tap count (0, white, where a tile is
    not tapped), so both stay exact at one pixel a tile. From ``scale=4`` on, a
    locked tile of the state panel is framed by a one-pixel dark border (index n + 1,
    :data:`LOCK_FRAME`; the background index n when n = 255); at smaller scales a tile is
    too small to mark and locks are not shown. Graph boards use the grid layout of the SVG.

Palette (:func:`palette`)
    State 0 is white (solved). Up to 8 states, hand-picked colours (the Okabe-Ito
    set, which colour-blind readers tell apart too). For more states, colours are
    chosen by farthest-point sampling in OKLab (a perceptually uniform colour space):
    each next colour is the sRGB colour farthest from every colour chosen so far,
    white and the hole background included; the n - 1 chosen colours are then laid
    out as a ramp, lightest to darkest in bands, each band ordered by hue, so near
    values look related. Every two colours of a palette, and each colour and the
    background, differ by at least :data:`MIN_DISTANCE` (n <= 9) or
    :func:`min_distance` (any n) in OKLab.
"""

from __future__ import annotations

import functools
import io
import math
from numbers import Real
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from modlights.model.validation import check_states, in_range

if TYPE_CHECKING:
    from modlights.model.board_matrix import BoardMatrix

__all__ = [
    "to_svg",
    "to_png",
    "palette",
    "text_colour",
    "oklab",
    "min_distance",
    "repr_svg",
    "check_svg_size",
    "MAX_SVG_TILES",
    "BACKGROUND",
]

#: Largest board (tiles of a grid, cells + taps of a graph board) drawn as SVG.
MAX_SVG_TILES = 40_000
#: Colour of the frame around locked tiles in PNGs drawn at ``scale >= 4``.
LOCK_FRAME = "#1b1f2a"
#: Smallest PNG scale at which locked tiles are framed.
LOCK_FRAME_SCALE = 4

#: Largest PNG (pixels, both panels and the scale included).
MAX_PNG_PIXELS = 1 << 28
#: The board's background: the colour between tiles and where holes are.
BACKGROUND = "#363c44"
#: Colour of the tap rings and the count badges.
INK = "#1b1f24"
#: zlib level of PNGs: the fastest level; pictures of giant boards trade a larger
#: file for a much shorter write.
PNG_COMPRESS_LEVEL = 1
PNG_EXTRA = 'pip install "modlights[png]"'

#: States 1..8 for n <= 9 (Okabe & Ito's colour-blind-safe set, strongest first).
_HAND = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#f0e442", "#56b4e9", "#d55e00", "#000000")
#: Smallest OKLab distance (x100) between two colours of a hand-picked palette.
MIN_DISTANCE = 15.0
#: sRGB levels per channel of the candidates of the farthest-point palette.
_LEVELS = 24


# ----------------------------------------------------------------------------- colours
def _hex_to_rgb(colours: Any) -> np.ndarray:
    """'#rrggbb' strings -> (k, 3) float array of 0..255."""
    return np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in colours], dtype=float)


def _rgb_to_hex(rgb: np.ndarray) -> list[str]:
    """(k, 3) sRGB values 0..255 -> '#rrggbb' strings (rounded)."""
    return ["#{:02x}{:02x}{:02x}".format(*tuple(int(v) for v in row)) for row in np.rint(rgb)]


def _linear(rgb: np.ndarray) -> np.ndarray:
    """sRGB values 0..255 -> linear light 0..1 (the sRGB transfer function undone)."""
    c = rgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def oklab(colours: Any) -> np.ndarray:
    """OKLab coordinates (L, a, b), each times 100, of '#rrggbb' colours or of a
    (k, 3) array of sRGB values 0..255 (Björn Ottosson's OKLab, 2020). Euclidean
    distances in it are perceptual differences: about 2 is just noticeable."""
    rgb = (
        np.asarray(colours, dtype=float)
        if not isinstance(colours[0], str)
        else _hex_to_rgb(colours)
    )
    lms = (
        _linear(rgb)
        @ np.array(
            [
                [0.4122214708, 0.5363325363, 0.0514459929],
                [0.2119034982, 0.6806995451, 0.1073969566],
                [0.0883024619, 0.2817188376, 0.6299787005],
            ]
        ).T
    )
    lab = (
        np.cbrt(lms)
        @ np.array(
            [
                [0.2104542553, 0.7936177850, -0.0040720468],
                [1.9779984951, -2.4285922050, 0.4505937099],
                [0.0259040371, 0.7827717662, -0.8086757660],
            ]
        ).T
    )
    return lab * 100.0


@functools.lru_cache(maxsize=1)
def _farthest_colours() -> tuple[str, ...]:
    """254 sRGB colours, each the candidate farthest (OKLab) from white, the
    background and every colour before it. Deterministic: ties go to the first."""
    levels = np.rint(np.linspace(0, 255, _LEVELS))
    cand = np.array(np.meshgrid(levels, levels, levels, indexing="ij")).reshape(3, -1).T
    lab = oklab(cand)
    dist = np.full(len(cand), np.inf)
    for seed in oklab(["#ffffff", BACKGROUND]):
        dist = np.minimum(dist, np.linalg.norm(lab - seed, axis=1))
    chosen = []
    for _ in range(254):
        j = int(np.argmax(dist))
        chosen.append(j)
        dist = np.minimum(dist, np.linalg.norm(lab - lab[j], axis=1))
    return tuple(_rgb_to_hex(cand[chosen]))


def palette(n: int) -> tuple[str, ...]:
    """The n colours ('#rrggbb') of states 0..n-1; state 0 is white.

    Parameters
    ----------
    n : int
        Number of states, 2..255.

    Returns
    -------
    tuple of str
        ``palette(n)[s]`` is the fill of a tile in state s (see the module docstring
        for how the colours are chosen).
    """
    return _palette(check_states(n))


@functools.cache
def _palette(n: int) -> tuple[str, ...]:
    """:func:`palette` without the argument check (n in 2..255)."""
    if n - 1 <= len(_HAND):
        return ("#ffffff",) + _HAND[: n - 1]
    colours = _farthest_colours()[: n - 1]
    lab = oklab(colours)
    order = list(np.argsort(-lab[:, 0], kind="stable"))  # lightest first
    band = math.ceil(math.sqrt(n - 1))
    ramp = []
    for k in range(0, n - 1, band):  # each band by hue,
        part = order[k : k + band]  # alternating direction
        hue = [math.atan2(lab[i, 2], lab[i, 1]) for i in part]
        part = [i for _, i in sorted(zip(hue, part), reverse=bool(k // band % 2))]
        ramp += part
    return ("#ffffff",) + tuple(colours[i] for i in ramp)


def min_distance(n: int) -> float:
    """The smallest OKLab distance (x100) the palette of n states keeps between any
    two of its colours and between each colour and the background (a floor that
    falls with n: 15 up to 9 states, 30 / cbrt(n - 1) beyond, 4.7 at 255)."""
    n = check_states(n)
    return MIN_DISTANCE if n - 1 <= len(_HAND) else min(MIN_DISTANCE, 30.0 / (n - 1) ** (1 / 3))


def _luminance(colour: str) -> float:
    """WCAG relative luminance of '#rrggbb'."""
    return float(_linear(_hex_to_rgb([colour])[0]) @ np.array([0.2126, 0.7152, 0.0722]))


def text_colour(fill: str) -> str:
    """'#000000' or '#ffffff', whichever has the higher WCAG contrast ratio on
    ``fill`` (at least 4.5 on every colour)."""
    y = _luminance(fill)
    return "#000000" if (y + 0.05) / 0.05 >= 1.05 / (y + 0.05) else "#ffffff"


# ----------------------------------------------------------------------------- input
def _check_board(board: Any) -> None:
    """ValueError unless board is a modlights Board (checked by its interface: this
    module draws boards without importing their class)."""
    if not all(hasattr(board, a) for a in ("is_grid", "shape", "states", "coerce_state")):
        raise ValueError(f"board must be a modlights Board, got {type(board).__name__}")


def _state(board: BoardMatrix, state: Any) -> np.ndarray:
    """Board-shaped uint8 state (all zeros when None); ValueError for a bad one."""
    if state is None:
        return np.zeros(board.shape, dtype=np.uint8)
    return board.coerce_state(state)


def _taps(board: BoardMatrix, taps: Any) -> np.ndarray | None:
    """Tap counts mod n shaped as in the API (board-shaped for grids, (n_taps,) for
    graph boards); None when None. ValueError for a bad shape or a locked tap."""
    if taps is None:
        return None
    if (
        board.is_grid
        and isinstance(taps, np.ndarray)
        and taps.dtype == np.uint8
        and taps.shape == board.shape
        and in_range(taps, board.states)
        and not (board.any_locked and taps[board.locked_mask].any())
        and not (board.any_holes and taps[board.holes_mask].any())
    ):
        return taps  # already checked counts (a solution's): no 100 MB copies
    return board.from_tap_vector(board.tap_vector(taps))


def _graph_cols(board: BoardMatrix) -> int:
    """Columns of the grid a graph board's cells (and taps) are laid out in."""
    return max(1, math.ceil(math.sqrt(max(board.n_cells, board.n_taps, 1))))


def _svg_tiles(board: BoardMatrix) -> int:
    """Tiles an SVG of ``board`` draws (a graph board's cells and taps both count)."""
    return board.shape[0] * board.shape[1] if board.is_grid else board.n_cells + board.n_taps


def check_svg_size(board: BoardMatrix) -> None:
    """ValueError when ``board`` has more than :data:`MAX_SVG_TILES` tiles."""
    k = _svg_tiles(board)
    if k > MAX_SVG_TILES:
        what = (
            "x".join(map(str, board.shape)) + " board"
            if board.is_grid
            else f"graph board ({board.n_cells} cells + {board.n_taps} taps)"
        )
        raise ValueError(
            f"the {what} has {k} tiles, too many for SVG (at most "
            f"{MAX_SVG_TILES}, about 200 x 200); draw it as PNG instead "
            f"(to_png / --png, one pixel a tile; {PNG_EXTRA})"
        )


def _describe(board: BoardMatrix, taps: np.ndarray | None) -> str:
    """The default ``<title>`` / ``aria-label``: size, states, pattern, locks, holes, taps."""
    n = board.states
    if board.is_grid:
        from modlights.model.patterns import pattern_name

        rows, cols = board.shape
        offs = board.pattern
        pat = "mixed" if offs is None else (pattern_name(offs) or "custom")
        text = f"{rows}x{cols} board, {n} states, {pat} pattern"
        if board.wrap:
            text += ", wrapped"
        k = int(np.count_nonzero(board.locked))
        if k:
            text += f", {k} locked"
        k = int(np.count_nonzero(board.holes))
        if k:
            text += f", {k} hole{'s' * (k != 1)}"
    else:
        text = f"graph board, {board.n_cells} cells, {board.n_taps} taps, {n} states"
    if taps is not None:
        total = int(taps.sum(dtype=np.int64))
        text += f"; {total} tap{'s' * (total != 1)} marked"
    return text


# ----------------------------------------------------------------------------- SVG
def _fmt(v: float) -> str:
    """A coordinate for SVG: at most two decimals, no trailing zeros."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _ids(tile: float) -> tuple[str, str, str]:
    """Element ids of the ring, badge and padlock of pictures of this tile size.
    Notebooks put many SVGs in one HTML page, where ids are global: these depend on
    the tile size alone, so where two pictures share an id they share the shape."""
    k = _fmt(tile).replace(".", "_")
    return f"modlights-ring-{k}", f"modlights-badge-{k}", f"modlights-padlock-{k}"


def _defs(tile: float) -> str:
    """The shapes every picture reuses (``<use href="#...">``), sized for ``tile``:
    the tap ring (a white halo under a dark ring: visible on every fill), the count
    badge and the padlock (drawn in ``currentColor``)."""
    ring, badge, padlock = _ids(tile)
    r, w = 0.36 * tile, max(1.0, 0.07 * tile)
    k = 0.3 * tile / 12  # the padlock is 12 units high
    return (
        f"<defs>"
        f'<g id="{ring}"><circle r="{_fmt(r)}" fill="none" stroke="#ffffff" '
        f'stroke-width="{_fmt(2.4 * w)}"/><circle r="{_fmt(r)}" fill="none" '
        f'stroke="{INK}" stroke-width="{_fmt(w)}"/></g>'
        f'<circle id="{badge}" r="{_fmt(0.2 * tile)}" fill="{INK}" stroke="#ffffff" '
        f'stroke-width="{_fmt(0.4 * w)}"/>'
        f'<g id="{padlock}" transform="scale({_fmt(k)})"><path d="M3.5 6V4.2a2.5 2.5 0 0 1 '
        f'5 0V6" fill="none" stroke="currentColor" stroke-width="1.6"/><rect x="1.5" '
        f'y="5.5" width="9" height="6.5" rx="1.2" fill="currentColor"/></g>'
        f"</defs>"
    )


def _tap_mark(cx: float, cy: float, tile: float, count: int, label: str) -> str:
    """A ring over a tapped tile and, for more than one tap, a badge with the count."""
    ring, badge, _ = _ids(tile)
    mark = (
        f'<g class="tap"><title>{escape(label)}: tap {count} time{"s" * (count != 1)}'
        f'</title><use href="#{ring}" x="{_fmt(cx)}" y="{_fmt(cy)}"/>'
    )
    if count > 1:
        bx, by = _fmt(cx + 0.3 * tile), cy + 0.3 * tile
        mark += (
            f'<use href="#{badge}" x="{bx}" y="{_fmt(by)}"/>'
            f'<text class="count" x="{bx}" y="{_fmt(by + 0.1 * tile)}">{count}</text>'
        )
    return mark + "</g>"


def _default_tile(board: BoardMatrix) -> float:
    """Tile size in px: the picture about 480 px across, tiles 8..40 px."""
    rows, cols = board.shape if board.is_grid else (1, _graph_cols(board))
    return float(min(40, max(8, 480 // max(rows, cols))))


def to_svg(
    board: BoardMatrix,
    state: Any = None,
    *,
    taps: Any = None,
    numbers: bool = False,
    tile: float | None = None,
    title: str | None = None,
) -> str:
    """An SVG picture of ``board`` in ``state`` with ``taps`` marked.

    Parameters
    ----------
    board : Board
    state : array_like, optional
        Board-shaped states (any integers, reduced mod n); all 0 (white) by default.
    taps : array_like, optional
        Tap counts shaped as ``Solution.taps`` (board-shaped for grids, (n_taps,) for
        graph boards), reduced mod n; every non-zero count is marked.
    numbers : bool
        Write each tile's state on it.
    tile : float, optional
        Tile size in px (default: about 480 px across, tiles 8..40 px).
    title : str, optional
        The picture's ``<title>`` and ``aria-label`` (default: a description of the
        board).

    Returns
    -------
    str
        A standalone SVG document.

    Raises
    ------
    ValueError
        For a state or taps of the wrong shape, a tap on a locked tile, a bad tile
        size, or a board of more than :data:`MAX_SVG_TILES` tiles (use :func:`to_png`).

    O(tiles) time; the document grows by a few hundred bytes a tile.
    """
    _check_board(board)
    check_svg_size(board)
    s = _state(board, state)
    t = _taps(board, taps)
    if tile is None:
        tile = _default_tile(board)
    elif isinstance(tile, (bool, np.bool_)) or not isinstance(tile, Real) or not 4 <= tile <= 400:
        raise ValueError(f"tile must be a size in px from 4 to 400, got {tile!r}")
    tile = float(tile)
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title must be a str, got {type(title).__name__}")
    colours = palette(board.states)
    inks = [text_colour(c) for c in colours]
    label = title if title is not None else _describe(board, t)
    pad, gap = 0.25 * tile, max(1.0, 0.08 * tile)
    side, rx = _fmt(tile - gap), _fmt(0.12 * tile)
    tiles: list[str] = []
    values: dict[str, list[str]] = {"#000000": [], "#ffffff": []}  # grouped by ink
    marks: list[str] = []
    padlock = _ids(tile)[2]
    font = (0.42 if board.states <= 100 else 0.32) * tile  # three digits fit too
    value_dy = 0.35 * font  # baseline of a centred digit

    def square(x: float, y: float, value: int, locked: bool) -> None:
        tiles.append(
            f'<rect class="tile" x="{_fmt(x + gap / 2)}" y="{_fmt(y + gap / 2)}" '
            f'width="{side}" height="{side}" rx="{rx}" fill="{colours[value]}"/>'
        )
        if numbers:
            values[inks[value]].append(
                f'<text class="value" x="{_fmt(x + tile / 2)}" '
                f'y="{_fmt(y + tile / 2 + value_dy)}">{value}</text>'
            )
        if locked:
            marks.append(
                f'<g class="lock" color="{inks[value]}"><title>locked: changed by '
                f'taps, cannot be tapped</title><use href="#{padlock}" '
                f'x="{_fmt(x + 0.62 * tile)}" y="{_fmt(y + 0.08 * tile)}"/></g>'
            )

    if board.is_grid:
        rows, cols = board.shape
        locked, holes = board.locked, board.holes
        for r, c in zip(*np.nonzero(~holes)):
            square(pad + c * tile, pad + r * tile, int(s[r, c]), bool(locked[r, c]))
        if t is not None:
            for r, c in zip(*np.nonzero(t)):
                marks.append(
                    _tap_mark(
                        pad + (c + 0.5) * tile,
                        pad + (r + 0.5) * tile,
                        tile,
                        int(t[r, c]),
                        f"tile ({r}, {c})",
                    )
                )
        height = rows * tile
    else:
        cols = _graph_cols(board)
        for i in range(board.n_cells):
            square(pad + i % cols * tile, pad + i // cols * tile, int(s[i]), False)
        height = math.ceil(board.n_cells / cols) * tile
        if t is not None:
            top = height + tile  # one row of space, with the label
            tiles.append(
                f'<text class="label" x="{_fmt(pad)}" y="{_fmt(pad + top - 0.3 * tile)}" '
                f'text-anchor="start" font-size="{_fmt(0.5 * tile)}" fill="#ffffff">'
                f"taps</text>"
            )
            for j in range(board.n_taps):
                x, y = pad + j % cols * tile, pad + top + j // cols * tile
                tiles.append(
                    f'<circle class="tap-slot" cx="{_fmt(x + tile / 2)}" '
                    f'cy="{_fmt(y + tile / 2)}" r="{_fmt(0.18 * tile)}" '
                    f'fill="#ffffff" stroke="{INK}" stroke-width="1"/>'
                )
                if t[j]:
                    marks.append(_tap_mark(x + tile / 2, y + tile / 2, tile, int(t[j]), f"tap {j}"))
            height = top + math.ceil(board.n_taps / cols) * tile
    width, height = cols * tile + 2 * pad, height + 2 * pad
    w, h = _fmt(width), _fmt(height)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
        f'height="{h}" role="img" aria-label={quoteattr(label)}>',
        f"<title>{escape(label)}</title>",
        _defs(tile),
        f'<rect class="background" width="{w}" height="{h}" rx="{_fmt(pad)}" fill="{BACKGROUND}"/>',
        '<g font-family="DejaVu Sans, Arial, sans-serif" text-anchor="middle" font-weight="bold">',
        *tiles,
    ]
    for ink, texts in values.items():
        if texts:
            parts += [f'<g class="values" font-size="{_fmt(font)}" fill="{ink}">', *texts, "</g>"]
    parts += [
        f'<g class="marks" font-size="{_fmt(0.27 * tile)}" fill="#ffffff">',
        *marks,
        "</g>",
        "</g>",
        "</svg>",
        "",
    ]
    return "\n".join(parts)


def repr_svg(
    board: BoardMatrix, state: Any = None, taps: Any = None, title: str | None = None
) -> str | None:
    """``to_svg`` for notebooks' ``_repr_svg_``: None (no picture, the notebook shows
    the text repr) for boards too large for SVG."""
    if _svg_tiles(board) > MAX_SVG_TILES:
        return None
    return to_svg(board, state, taps=taps, title=title)


# ----------------------------------------------------------------------------- PNG
class MissingPillow(ImportError, ValueError):
    """PNG pictures need Pillow (the ``png`` extra). A ValueError too, so the
    command line reports it as bad input."""


def _pillow():
    """Pillow's ``Image`` module; :class:`MissingPillow` when it is not installed."""
    try:
        from PIL import Image
    except ImportError:
        raise MissingPillow(f"PNG pictures need Pillow: {PNG_EXTRA}") from None
    return Image


def _panel_shape(board: BoardMatrix) -> tuple[int, int]:
    """(rows, cols) of one panel in tiles: the grid itself, or a graph board's layout."""
    if board.is_grid:
        rows, cols = board.shape
        return rows, cols
    cols = _graph_cols(board)
    return max(1, math.ceil(max(board.n_cells, board.n_taps) / cols)), cols


def _fill_panel(out: np.ndarray, board: BoardMatrix, values: np.ndarray | None) -> None:
    """Write checked values (None: all 0) into ``out``, one panel: board-shaped uint8
    for grids, a flat vector (cells or taps) laid out row by row for graph boards;
    index n (background) at holes and at the unused places of a graph layout."""
    n = board.states
    if board.is_grid:
        out[...] = 0 if values is None else values
        if board.any_holes:
            out[board.holes_mask] = n
        return
    flat = np.full(out.size, n, dtype=np.uint8)
    k = board.n_cells if values is None else values.size
    flat[:k] = 0 if values is None else values
    out[...] = flat.reshape(out.shape)


def _checked_state(board: BoardMatrix, state: Any) -> np.ndarray | None:
    """``state`` coerced (None stays None); a uint8 array already in 0..n-1 is used
    as it is, without a copy (a 10000 x 10000 state is 100 MB)."""
    if state is None or (
        isinstance(state, np.ndarray)
        and state.dtype == np.uint8
        and state.shape == board.shape
        and in_range(state, board.states)
    ):
        return state
    return board.coerce_state(state)


def _frame_locks(pixels: np.ndarray, locked: np.ndarray, scale: int, index: int) -> None:
    """Draw a one-pixel border of palette ``index`` inside every locked tile of the
    state panel (the first ``locked.shape[1]`` tiles of each row of ``pixels``, drawn
    ``scale`` pixels square)."""
    h, w = locked.shape
    panel = pixels[: h * scale, : w * scale].reshape(h, scale, w, scale)
    rows, cols = np.nonzero(locked)
    for edge in (0, scale - 1):
        panel[rows, edge, cols, :] = index
        panel[rows, :, cols, edge] = index


def _check_png(board: BoardMatrix, with_taps: bool, scale: Any) -> None:
    """ValueError for a bad ``scale`` or a picture past :data:`MAX_PNG_PIXELS`."""
    if isinstance(scale, bool) or not isinstance(scale, (int, np.integer)) or not 1 <= scale <= 64:
        raise ValueError(f"scale must be an int from 1 to 64 (pixels per tile), got {scale!r}")
    ph, pw = _panel_shape(board)
    width = pw if not with_taps else 2 * pw + 1
    if ph * width * scale * scale > MAX_PNG_PIXELS:
        raise ValueError(
            f"the picture would have {ph * scale}x{width * scale} pixels, "
            f"more than {MAX_PNG_PIXELS}; use a smaller scale"
        )


def to_png(
    board: BoardMatrix, state: Any = None, *, taps: Any = None, path: Any = None, scale: int = 1
) -> bytes | None:
    """A PNG picture of ``board``: one pixel a tile (palette image, state = index).

    Parameters
    ----------
    board : Board
    state : array_like, optional
        Board-shaped states (reduced mod n); all 0 (white) by default.
    taps : array_like, optional
        Tap counts as in :func:`to_svg`: drawn as a second panel to the right of the
        state, one background tile apart, pixel value = count (white = not tapped).
    path : str or path-like, optional
        Write the PNG there and return None; by default the PNG bytes are returned.
    scale : int
        Pixels per tile side (1..64).

    Returns
    -------
    bytes or None

    Raises
    ------
    ValueError
        Bad state / taps / scale, a picture of more than :data:`MAX_PNG_PIXELS`
        pixels, or Pillow missing (``MissingPillow``, also an ImportError).

    O(tiles x scale^2) time and bytes (one byte a pixel before compression); a
    uint8 state already in range is read without a copy.
    """
    _check_board(board)
    _check_png(board, taps is not None, scale)
    Image = _pillow()
    ph, pw = _panel_shape(board)
    width = pw if taps is None else 2 * pw + 1
    n = board.states
    t = _taps(board, taps)  # checked before the big allocation
    state = _checked_state(board, state)
    pixels = np.empty((ph, width), dtype=np.uint8)
    _fill_panel(pixels[:, :pw], board, state)
    if t is not None:
        pixels[:, pw] = n
        _fill_panel(pixels[:, pw + 1 :], board, t)
        del t
    if scale > 1:
        pixels = np.repeat(np.repeat(pixels, scale, axis=0), scale, axis=1)
    # the frame's own colour needs a palette index past the background's (n + 1 <= 255)
    framed = scale >= LOCK_FRAME_SCALE and board.is_grid and board.any_locked
    framed_own = framed and n + 2 <= 256
    if framed:
        _frame_locks(pixels, board.locked_mask, scale, n + 1 if framed_own else n)
    h, w = pixels.shape
    img = Image.frombuffer("P", (w, h), pixels, "raw", "P", 0, 1)
    colours = n + 1 + framed_own
    bits = next(b for b in (1, 2, 4, 8) if colours <= 1 << b)
    pal = np.zeros((1 << bits, 3), dtype=np.uint8)
    pal[:n] = _hex_to_rgb(palette(n))
    pal[n] = _hex_to_rgb([BACKGROUND])[0]
    if framed_own:
        pal[n + 1] = _hex_to_rgb([LOCK_FRAME])[0]
    img.putpalette(pal.tobytes())
    options = dict(format="PNG", bits=bits, compress_level=PNG_COMPRESS_LEVEL)
    if path is not None:
        img.save(path, **options)
        return None
    buf = io.BytesIO()
    img.save(buf, **options)
    return buf.getvalue()
