"""The tutorials (docs/tutorials/): every python block of every page runs as written,
top to bottom; the index lists every page; every picture a page shows is committed and
is what docs/tutorials/make_pictures.py draws from that page's own code, byte for byte.

A page that declares optional modules (``<!-- requires: dask -->``) is skipped, with the
command that installs them, when they are missing."""

from __future__ import annotations

import importlib.util
import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUT = ROOT / "docs" / "tutorials"

_spec = importlib.util.spec_from_file_location("make_pictures", TUT / "make_pictures.py")
mp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mp)

EXTRAS = {"dask": "dask", "fastapi": "web", "httpx": "test"}


def _run(page: str, tmp_path):
    missing = mp.missing_requirements(page)
    if missing:
        extras = sorted({EXTRAS.get(m, m) for m in missing})
        why = (
            f"docs/tutorials/{page}.md not run: it needs {', '.join(missing)}; "
            f'pip install ".[{",".join(extras)}]"'
        )
        warnings.warn(why, UserWarning, stacklevel=2)  # in the warnings summary too
        pytest.skip(why)
    return mp.run_page(page, tmp_path)


def test_the_index_lists_every_page_and_every_page_is_a_tutorial():
    index = (TUT / "index.md").read_text()
    listed = re.findall(
        r"^([a-z][a-z0-9-]+)$", index.split("{toctree}", 1)[1].split("```")[0], re.M
    )
    assert tuple(listed) == mp.PAGES
    on_disk = {p.stem for p in TUT.glob("*.md")} - {"index"}
    assert on_disk == set(mp.PAGES), on_disk ^ set(mp.PAGES)
    assert set(mp.PICTURES) == set(mp.PAGES), "every page has at least one picture"


@pytest.mark.parametrize("page", mp.PAGES)
def test_every_block_runs_and_draws_the_committed_pictures(page, tmp_path):
    assert len(mp.blocks(page)) >= 2, f"{page}: a tutorial has several steps"
    text = (TUT / f"{page}.md").read_text()
    shown = re.findall(r"!\[[^\]]+\]\(pictures/([\w.-]+\.svg)\)", text)
    drawn = [name for name, _ in mp.PICTURES[page]]
    assert shown and sorted(shown) == sorted(drawn), (shown, drawn)
    ns, printed = _run(page, tmp_path)
    assert printed.strip(), f"{page}: the blocks print what they show"
    for name, svg in mp.draw(page, ns).items():
        committed = (TUT / "pictures" / name).read_text(encoding="utf-8")
        assert svg == committed, (
            f"docs/tutorials/pictures/{name} is not what {page}.md "
            "draws: run PYTHONPATH=src python "
            "docs/tutorials/make_pictures.py and commit the output"
        )


def test_index_picture_is_one_of_the_drawn_ones():
    index = (TUT / "index.md").read_text()
    all_drawn = {name for pics in mp.PICTURES.values() for name, _ in pics}
    for name in re.findall(r"\(pictures/([\w.-]+\.svg)\)", index):
        assert name in all_drawn


def test_a_failing_block_names_its_page_and_block(tmp_path, monkeypatch):
    monkeypatch.setattr(mp, "blocks", lambda page: ["x = 1", "raise ValueError('boom')"])
    with pytest.raises(RuntimeError, match=r"solve-a-board\.md, block 2 raised ValueError: boom"):
        mp.run_page("solve-a-board", tmp_path)
