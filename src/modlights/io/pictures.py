"""Pictures as files, for the command line: check before the work, write after it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from modlights.model.render import _check_png as check_png
from modlights.model.render import _pillow as pillow
from modlights.model.render import check_svg_size, to_png, to_svg

if TYPE_CHECKING:
    from modlights.model.board import Board

__all__ = ["check_pictures", "write_pictures"]


def check_pictures(board: Board, *, svg: Any = None, png: Any = None, png_scale: int = 1) -> None:
    """Check that the pictures asked for (the command line's ``--svg`` / ``--png``) can
    be made, before any work: ValueError for a board too large for SVG, a bad PNG
    scale or a PNG too large (the taps panel counted), or when PNG is asked for and
    Pillow is missing."""
    if svg is not None:
        check_svg_size(board)
    if png is not None:
        check_png(board, True, png_scale)
        pillow()


def write_pictures(
    board: Board,
    state: Any = None,
    taps: Any = None,
    *,
    svg: Any = None,
    png: Any = None,
    png_scale: int = 1,
) -> list[str]:
    """Write the SVG and / or PNG of ``board`` in ``state`` with ``taps`` marked to
    the paths ``svg`` / ``png`` (``png_scale`` pixels a tile); returns the paths
    written. ValueError when a file cannot be written (the message says which and why)."""
    check_pictures(board, svg=svg, png=png, png_scale=png_scale)
    written = []
    try:
        if svg is not None:
            text = to_svg(board, state, taps=taps)
            with open(svg, "w", encoding="utf-8") as f:
                f.write(text)
            written.append(str(svg))
        if png is not None:
            to_png(board, state, taps=taps, path=png, scale=png_scale)
            written.append(str(png))
    except OSError as e:
        raise ValueError(f"cannot write the picture: {e}") from None
    return written
