"""The browser game as static files: what ``modlights site DIR`` writes and what
``modlights serve`` serves at ``/`` (one list, so both give the same bytes).

The game needs no server: the page (``static/``: index.html, style.css, app.js and the
game's modules in ``game/``, solve-worker.js) imports the JavaScript package
(``js/src/*.js``, the npm package "modlights") as ES modules,
and the package loads the C core compiled to WebAssembly (``js/dist/modlights.wasm``).
The one piece of data is ``campaign.json``: the campaign's levels as Python's
:class:`~modlights.play.campaign.Campaign` generates them (each level's
``Puzzle.to_dict()``), written from Python so that the levels are Python's by
construction (their seeds are 64-bit numbers drawn from the campaign's seed).

Layout of a site (paths relative to its root)::

    index.html  style.css  app.js  solve-worker.js  campaign.json
    game/state.js  game/...            the game's modules (app.js imports them)
    js/src/index.js  js/src/...        the package's modules, as in the repository
    js/dist/modlights.wasm

Importing this module needs no web framework (``modlights site`` works without the
``web`` extra).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from modlights.play.campaign import LEVELS_PER_GROUP, MAP_SIZE, STARS_TO_OPEN, Campaign

__all__ = [
    "STATIC_DIR",
    "MEDIA_TYPES",
    "js_package_dir",
    "campaign_json",
    "site_files",
    "write_site",
]

#: The page's own files (index.html, style.css, app.js, game/*.js, solve-worker.js).
STATIC_DIR = Path(__file__).with_name("static")

#: Content types by file suffix (module scripts need a JavaScript type, streaming
#: WebAssembly compilation application/wasm).
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
}

#: A file of the site: a file on disk, or bytes made on first use.
Source = Path | Callable[[], bytes]

_CAMPAIGN_FORMAT = "modlights-campaign-levels"


def js_package_dir() -> Path | None:
    """The JavaScript package's directory (holding ``src/index.js``): ``modlights/web/js``
    in an installed wheel, ``js/`` at the root of a source checkout; None when neither
    holds it."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "js", here.parents[2] / "js"):
        if (candidate / "src" / "index.js").is_file():
            return candidate
    return None


def campaign_json(seed: str | int = "modlights-campaign-v1") -> bytes:
    """The campaign's map and every level as JSON: ``{"format", "seed", "map_size",
    "levels_per_group", "stars_to_open", "levels"}`` with ``levels[row][col][level]``
    the level's ``Puzzle.to_dict()``. Deterministic (the same bytes for the same seed)."""
    campaign = Campaign(seed)
    levels = [
        [
            [campaign.level((r, c), i).to_dict() for i in range(LEVELS_PER_GROUP)]
            for c in range(MAP_SIZE)
        ]
        for r in range(MAP_SIZE)
    ]
    doc = {
        "format": _CAMPAIGN_FORMAT,
        "seed": campaign.seed,
        "map_size": MAP_SIZE,
        "levels_per_group": LEVELS_PER_GROUP,
        "stars_to_open": STARS_TO_OPEN,
        "levels": levels,
    }
    return json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()


def site_files(static_dir: Path | None = None, js_dir: Path | None = None) -> dict[str, Source]:
    """Every file of the site: ``{relative path (with "/"): Path or bytes maker}``.

    ``static_dir`` defaults to :data:`STATIC_DIR`, ``js_dir`` to :func:`js_package_dir`.
    Every file under ``static_dir`` (its folders too: the game's modules are in
    ``game/``) whose suffix has a type in :data:`MEDIA_TYPES` is served at its path
    there. The package contributes ``js/src/**/*.js``, ``js/dist/modlights.wasm`` and
    ``js/dist/modlights-baseline.wasm`` (the build without WebAssembly SIMD) where they
    exist (tests and node_modules stay out); :func:`write_site` refuses an incomplete set.
    """
    static_dir = STATIC_DIR if static_dir is None else Path(static_dir)
    files: dict[str, Source] = {}
    if static_dir.is_dir():
        for path in sorted(static_dir.rglob("*")):
            if path.is_file() and path.suffix in MEDIA_TYPES:
                files[path.relative_to(static_dir).as_posix()] = path
    js_dir = js_package_dir() if js_dir is None else Path(js_dir)
    if js_dir is not None and (js_dir / "src").is_dir():
        for path in sorted((js_dir / "src").rglob("*.js")):
            files["js/" + path.relative_to(js_dir).as_posix()] = path
        for name in ("modlights.wasm", "modlights-baseline.wasm"):  # SIMD and without
            wasm = js_dir / "dist" / name
            if wasm.is_file():
                files["js/dist/" + name] = wasm
    files["campaign.json"] = campaign_json
    return files


def _read(source: Source) -> bytes:
    return source.read_bytes() if isinstance(source, Path) else source()


def write_site(directory: str | os.PathLike, files: dict[str, Source] | None = None) -> list[str]:
    """Write the site into ``directory`` (created if missing; files of the same names are
    replaced, others left alone); returns the relative paths written.

    ValueError (one line, saying what is wrong) when ``directory`` is an existing file or
    cannot be created or written, or when the site is incomplete (no index.html, no
    ``js/src/index.js`` or no ``js/dist/modlights.wasm``: a source checkout without
    the JavaScript package built).
    """
    files = site_files() if files is None else files
    for need in ("index.html", "app.js", "js/src/index.js", "js/dist/modlights.wasm"):
        if need not in files:
            raise ValueError(
                f"the site is incomplete: {need} is missing (the JavaScript "
                f"package is looked for in modlights/web/js and js/)"
            )
    root = Path(directory)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{str(root)!r} is a file, not a directory")
    written = []
    try:
        root.mkdir(parents=True, exist_ok=True)
        for rel, source in files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_bytes(_read(source))
            os.replace(tmp, target)
            written.append(rel)
    except OSError as e:
        raise ValueError(f"cannot write the site into {str(root)!r}: {e.strerror or e}") from None
    return written
