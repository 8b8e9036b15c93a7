"""The game's files as ``site.site_files`` lists them (what ``modlights site`` writes and
``modlights serve`` serves), read without a browser: every module the page loads,
followed from index.html through the imports, is in the list (the game's modules sit in
``static/game/``); every JavaScript file of ``static/`` is loaded by the page; and each
stays within the project's 800 lines."""

from __future__ import annotations

import posixpath
import re

import pytest

from modlights.web import site

needs_package = pytest.mark.skipif(
    site.js_package_dir() is None,
    reason="the JavaScript package (js/src) is not here",
)

#: What a module loads: `import ... from "x"`, `export ... from "x"`, `import "x"`,
#: `import("x")` and `new URL("x", import.meta.url)` (workers, the .wasm).
SPECIFIER = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\bnew\s+URL\(\s*)["']([^"']+)["']""")
#: What index.html loads: scripts and stylesheets.
HTML_REF = re.compile(r"""<(?:script|link)\b[^>]*\b(?:src|href)=["']([^"']+)["']""")


def _source(files: dict, rel: str) -> str:
    source = files[rel]
    data = source.read_bytes() if hasattr(source, "read_bytes") else source()
    return data.decode("utf-8")


def loaded_from(files: dict, rel: str) -> list[str]:
    """The site paths that file ``rel`` of the site loads by a relative reference
    (bare specifiers such as "node:fs", and data: URLs, are not files of the site)."""
    text = _source(files, rel)
    refs = HTML_REF.findall(text) if rel.endswith(".html") else SPECIFIER.findall(text)
    here = posixpath.dirname(rel)
    return [
        posixpath.normpath(posixpath.join(here, ref))
        for ref in refs
        if ref.startswith(("./", "../")) or (rel.endswith(".html") and ":" not in ref)
    ]


def reached(files: dict) -> dict[str, str]:
    """{path: the file that loads it} for everything index.html loads, transitively."""
    seen = {"index.html": ""}
    todo = ["index.html"]
    while todo:
        rel = todo.pop()
        if not rel.endswith((".html", ".js")) or rel not in files:
            continue
        for target in loaded_from(files, rel):
            if target not in seen:
                seen[target] = rel
                todo.append(target)
    return seen


@needs_package
def test_every_file_the_page_loads_is_a_file_of_the_site():
    files = site.site_files()
    seen = reached(files)
    missing = sorted(
        f"{target} (loaded by {by})" for target, by in seen.items() if target not in files
    )
    assert missing == [], "loaded by the page but not served:\n" + "\n".join(missing)
    # the page's own modules are all among them: app.js and game/, the solver thread
    game = {p.relative_to(site.STATIC_DIR).as_posix() for p in site.STATIC_DIR.rglob("*.js")}
    assert {"app.js", "solve-worker.js", "game/state.js", "game/events.js"} <= game
    assert game <= set(seen), f"not loaded by the page: {sorted(game - set(seen))}"
    for rel in game:
        assert site.MEDIA_TYPES[posixpath.splitext(rel)[1]].startswith("text/javascript")


def test_a_folder_of_the_static_files_is_part_of_the_site(tmp_path):
    (tmp_path / "index.html").write_text("<title>t</title>")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "a.js").write_text("export const a = 1;")
    (tmp_path / "game" / "notes.txt").write_text("not a file of the site")
    files = site.site_files(tmp_path, js_dir=tmp_path / "no-package")
    assert files["game/a.js"] == tmp_path / "game" / "a.js"
    assert "game/notes.txt" not in files and "notes.txt" not in files


def test_static_files_stay_within_800_lines():
    long = {
        p.relative_to(site.STATIC_DIR).as_posix(): n
        for p in site.STATIC_DIR.rglob("*")
        if p.suffix in site.MEDIA_TYPES
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > 800
    }
    assert long == {}, f"split along the file's subjects: {long}"
