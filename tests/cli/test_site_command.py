"""``modlights site DIR``: the browser game as static files (the same files ``modlights
serve`` serves); exit 2 with one line for a DIR that is a file or cannot be written,
and for a checkout without the JavaScript package built."""

from __future__ import annotations

import json

import pytest

from modlights.cli import main
from modlights.play.campaign import LEVELS_PER_GROUP, MAP_SIZE, Campaign
from modlights.web import site


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


needs_package = pytest.mark.skipif(
    site.js_package_dir() is None
    or not (site.js_package_dir() / "dist" / "modlights.wasm").is_file(),
    reason="the JavaScript package (js/src, js/dist/modlights.wasm) is not built here",
)


@needs_package
def test_site_writes_every_file_of_the_served_site(capsys, tmp_path):
    rc, out, err = run(capsys, "site", str(tmp_path / "game"))
    assert rc == 0 and err == "" and out.startswith("wrote ")
    files = site.site_files()
    written = sorted(
        p.relative_to(tmp_path / "game").as_posix()
        for p in (tmp_path / "game").rglob("*")
        if p.is_file()
    )
    assert written == sorted(files)
    for rel in (
        "index.html",
        "style.css",
        "app.js",
        "campaign.json",
        "js/src/index.js",
        "js/dist/modlights.wasm",
    ):
        assert rel in written
    for rel, source in files.items():
        want = source.read_bytes() if hasattr(source, "read_bytes") else source()
        assert (tmp_path / "game" / rel).read_bytes() == want, rel
    # the page loads the package by a relative import that resolves inside the site
    assert "./js/src/index.js" in (tmp_path / "game" / "app.js").read_text()
    # again into the same directory: replaced, nothing else touched
    (tmp_path / "game" / "mine.txt").write_text("keep")
    assert run(capsys, "site", str(tmp_path / "game"))[0] == 0
    assert (tmp_path / "game" / "mine.txt").read_text() == "keep"


def test_campaign_json_is_pythons_campaign():
    doc = json.loads(site.campaign_json())
    assert doc["map_size"] == MAP_SIZE and doc["levels_per_group"] == LEVELS_PER_GROUP
    campaign = Campaign(doc["seed"])
    for r, c, i in ((0, 0, 0), (1, 3, 5), (4, 4, 2)):
        assert doc["levels"][r][c][i] == campaign.level((r, c), i).to_dict()
    assert site.campaign_json() == site.campaign_json()


def test_bad_directories_exit_2_with_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(
        site,
        "site_files",
        lambda: {
            "index.html": lambda: b"<html>",
            "app.js": lambda: b"",
            "js/src/index.js": lambda: b"",
            "js/dist/modlights.wasm": lambda: b"\0asm",
        },
    )
    a_file = tmp_path / "f"
    a_file.write_text("x")
    rc, out, err = run(capsys, "site", str(a_file))
    assert rc == 2 and out == "" and err.count("\n") == 1 and "is a file" in err
    rc, out, err = run(capsys, "site", str(a_file / "sub"))
    assert rc == 2 and err.count("\n") == 1 and "cannot write the site" in err
    rc, out, err = run(capsys, "site")
    assert rc == 2 and "DIR" in err
    assert run(capsys, "site", str(tmp_path / "ok"))[0] == 0
    assert (tmp_path / "ok" / "js" / "dist" / "modlights.wasm").read_bytes() == b"\0asm"


def test_incomplete_package_exits_2(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(site, "js_package_dir", lambda: None)
    rc, out, err = run(capsys, "site", str(tmp_path / "game"))
    assert rc == 2 and err.count("\n") == 1 and "js/src/index.js is missing" in err
    assert not (tmp_path / "game").exists()


def test_package_is_found_in_a_wheel_layout_first(tmp_path):
    """Installed, the package sits in modlights/web/js (CMake installs js/src and
    js/dist/modlights.wasm there); that copy wins over a js/ three levels up."""
    import importlib.util
    import shutil

    for root in (tmp_path / "lib" / "modlights" / "web" / "js", tmp_path / "js"):
        (root / "src").mkdir(parents=True)
        (root / "src" / "index.js").write_text("export {};")
    web = tmp_path / "lib" / "modlights" / "web"
    shutil.copy(site.__file__, web / "site.py")
    spec = importlib.util.spec_from_file_location("wheel_site", web / "site.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.js_package_dir() == (web / "js").resolve()
    shutil.rmtree(web / "js")
    assert mod.js_package_dir() == (tmp_path / "js").resolve()
    shutil.rmtree(tmp_path / "js")
    assert mod.js_package_dir() is None
