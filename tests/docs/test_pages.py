"""The Python examples of the site's own pages run as written: the front page, getting
started, the guide, development and the web API reference (the tutorials have their own
test, the reference's examples are doctests)."""

from __future__ import annotations

import pathlib
import re

import pytest

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
PAGES = [
    "index.md",
    "getting-started.md",
    "development.md",
    "reference/web.md",
    *sorted(p.relative_to(DOCS).as_posix() for p in (DOCS / "guide").glob("*.md")),
]


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


@pytest.mark.parametrize("page", PAGES)
def test_page_examples_run(page, tmp_path, monkeypatch):
    text = (DOCS / page).read_text()
    if "fastapi" in text:
        pytest.importorskip("fastapi")
    monkeypatch.chdir(tmp_path)  # pictures and files land in a scratch dir
    for code in python_blocks(text):
        exec(compile(code, str(DOCS / page), "exec"), {})


def test_blocks_are_found():
    assert python_blocks("x\n```python\na = 1\n```\n```bash\nls\n```\n") == ["a = 1\n"]
    assert python_blocks((DOCS / "getting-started.md").read_text())
