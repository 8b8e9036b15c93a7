"""The tutorials' pictures, drawn from the tutorials' own code.

    PYTHONPATH=src python docs/tutorials/make_pictures.py [--out docs/tutorials/pictures]

Each tutorial page (``docs/tutorials/<page>.md``) is a sequence of fenced ``python``
blocks that run top to bottom in one namespace (:func:`run_page`); :data:`PICTURES`
says, per page, which SVG files to draw from the names that page defines (its boards,
states and solutions), with ``Board.to_svg``. So a picture always shows what the code
beside it computes. The output is deterministic (the pages use fixed seeds and
``to_svg`` writes no date): ``tests/docs/test_tutorials.py`` runs every page and checks
that this script redraws the committed pictures byte for byte.

A page may declare the optional modules it needs in a comment
``<!-- requires: dask -->``; :func:`missing_requirements` lists those not installed.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "pictures"
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)
REQUIRES = re.compile(r"<!--\s*requires:\s*([^>]*?)\s*-->")

__all__ = ["PAGES", "PICTURES", "blocks", "requirements", "missing_requirements", "run_page",
           "draw", "main"]

#: the tutorial pages, in reading order (docs/tutorials/index.md lists the same)
PAGES = ("solve-a-board", "minimal-solutions", "rings", "big-boards", "puzzles-and-play",
         "hardest-boards", "parallel-and-dask", "web-api")


def _corner(board_name: str, state_name: str, taps_name: str, k: int) -> Callable:
    """The top-left k x k corner of a grid board, as a board of its own with the same
    pattern, states, holes and locks, drawn with its state and taps."""
    def draw_corner(ns: dict[str, Any]) -> str:
        import modlights as ml
        b = ns[board_name]
        d = b.to_dict()
        sub = ml.Board.grid(k, k, states=d["states"], pattern=d["pattern"],
                            holes=[(r, c) for r, c in d["holes"] if r < k and c < k],
                            locked=[(r, c) for r, c in d["locked"] if r < k and c < k])
        return sub.to_svg(ns[state_name][:k, :k], taps=ns[taps_name][:k, :k])
    return draw_corner


#: page -> [(file name, draw(namespace) -> SVG text)]
PICTURES: dict[str, list[tuple[str, Callable[[dict[str, Any]], str]]]] = {
    "solve-a-board": [
        ("solve-before.svg", lambda ns: ns["board"].to_svg(ns["state"])),
        ("solve-taps.svg", lambda ns: ns["board"].to_svg(ns["state"], taps=ns["sol"].taps,
                                                         numbers=True)),
        ("solve-after.svg", lambda ns: ns["board"].to_svg(ns["after"])),
    ],
    "minimal-solutions": [
        ("minimal-any.svg", lambda ns: ns["board"].to_svg(ns["state"],
                                                          taps=ns["any_sol"].taps)),
        ("minimal-best.svg", lambda ns: ns["board"].to_svg(ns["state"], taps=ns["best"].taps)),
    ],
    "rings": [
        ("rings-z4.svg", lambda ns: ns["b4"].to_svg(ns["state"], taps=ns["sol"].taps,
                                                    numbers=True)),
    ],
    "big-boards": [
        ("big-holes.svg", _corner("ring", "start", "taps", 32)),
    ],
    "puzzles-and-play": [
        ("play-start.svg", lambda ns: ns["p"].board.to_svg(ns["p"].start)),
        ("play-hint.svg", lambda ns: _replay_first_hint(ns)),
    ],
    "hardest-boards": [
        ("hardest-state.svg", lambda ns: ns["solver"].board.to_svg(ns["h"].state)),
        ("hardest-taps.svg", lambda ns: ns["solver"].board.to_svg(ns["h"].state,
                                                                  taps=ns["sol"].taps)),
    ],
    "parallel-and-dask": [
        ("parallel-torus.svg", lambda ns: ns["board"].to_svg(ns["state"],
                                                             taps=ns["alone"].taps)),
    ],
    "web-api": [
        ("web-solve.svg", lambda ns: ns["board"].to_svg(ns["state"], taps=ns["sol"]["taps"],
                                                        numbers=True)),
    ],
}


def _replay_first_hint(ns: dict[str, Any]) -> str:
    """The puzzle after the page's first hint (a fresh Game given the same hint)."""
    import numpy as np

    import modlights as ml
    p = ns["p"]
    g = ml.Game(p)
    pos = g.hint()
    assert tuple(pos) == tuple(ns["pos"]), (pos, ns["pos"])
    taps = np.zeros(p.board.shape, np.uint8)
    taps[tuple(pos)] = 1
    return p.board.to_svg(g.state, taps=taps)


def page_path(page: str) -> Path:
    return HERE / f"{page}.md"


def blocks(page: str) -> list[str]:
    """The fenced ``python`` blocks of a tutorial page, in order."""
    return FENCE.findall(page_path(page).read_text(encoding="utf-8"))


def requirements(page: str) -> list[str]:
    """The optional modules a page declares (``<!-- requires: a, b -->``)."""
    m = REQUIRES.search(page_path(page).read_text(encoding="utf-8"))
    return [s.strip() for s in m.group(1).split(",") if s.strip()] if m else []


def missing_requirements(page: str) -> list[str]:
    """The declared modules of ``page`` that are not installed."""
    return [m for m in requirements(page) if importlib.util.find_spec(m) is None]


def run_page(page: str, workdir: str | os.PathLike | None = None) -> tuple[dict[str, Any], str]:
    """Run every python block of ``page`` in order in one fresh namespace, in
    ``workdir`` (a temporary directory when None). Returns the namespace and what the
    blocks printed. An exception names the page and the block (1-based) that raised."""
    code = blocks(page)
    if not code:
        raise ValueError(f"docs/tutorials/{page}.md has no python block")
    ns: dict[str, Any] = {"__name__": f"tutorial_{page.replace('-', '_')}"}
    out = io.StringIO()
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = stack.enter_context(tempfile.TemporaryDirectory())
        cwd = os.getcwd()
        os.chdir(workdir)
        stack.callback(os.chdir, cwd)
        stack.enter_context(contextlib.redirect_stdout(out))
        for i, src in enumerate(code, 1):
            try:
                exec(compile(src, f"docs/tutorials/{page}.md [block {i}]", "exec"), ns)
            except Exception as e:
                raise RuntimeError(f"docs/tutorials/{page}.md, block {i} raised "
                                   f"{type(e).__name__}: {e}") from e
    return ns, out.getvalue()


def draw(page: str, ns: dict[str, Any]) -> dict[str, str]:
    """The pictures of ``page`` (file name -> SVG text) from its namespace."""
    return {name: fn(ns) for name, fn in PICTURES[page]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for page in PAGES:
        missing = missing_requirements(page)
        if missing:
            print(f"{page}: needs {', '.join(missing)} (pip install it); not drawn",
                  file=sys.stderr)
            return 1
        ns, _ = run_page(page)
        for name, svg in draw(page, ns).items():
            (args.out / name).write_text(svg, encoding="utf-8")
            print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
