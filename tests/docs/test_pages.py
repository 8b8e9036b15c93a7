"""The Python examples of the site's own pages run as written: the front page, getting
started, the guide, development and the web API reference (the tutorials have their own
test, the reference's examples are doctests)."""

from __future__ import annotations

import pathlib
import traceback

import pytest

from page_blocks import python_blocks, run_blocks

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
PAGES = [
    "index.md",
    "getting-started.md",
    "development.md",
    "reference/web.md",
    *sorted(p.relative_to(DOCS).as_posix() for p in (DOCS / "guide").glob("*.md")),
]


@pytest.mark.parametrize("page", PAGES)
def test_page_examples_run(page, tmp_path, monkeypatch):
    text = (DOCS / page).read_text()
    if "fastapi" in text:
        pytest.importorskip("fastapi")
    monkeypatch.chdir(tmp_path)  # pictures and files land in a scratch dir
    run_blocks(DOCS / page, text)  # a failure names the page's line (tests/page_blocks.py)


def test_blocks_are_found():
    text = "x\n```python\na = 1\n```\n```bash\nls\n```\n```python\nb = 2\nc = 3\n```\n"
    assert python_blocks(text) == [(3, "a = 1\n"), (9, "b = 2\nc = 3\n")]
    assert python_blocks((DOCS / "getting-started.md").read_text())


def test_a_failure_names_the_page_line_of_its_statement(tmp_path):
    """The traceback of a failing example points at the page's line of the failing
    statement (not at the line of that number counted from the block's start)."""
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\nSome prose.\n\n```python\nx = 1\n```\n\nMore prose.\n\n"
        "```python\ny = 2\n\n\ndef f(d):\n    return d['taps']\n\n\nf({})\n```\n"
    )
    with pytest.raises(KeyError) as info:
        run_blocks(page)
    frames = traceback.extract_tb(info.value.__traceback__)[-2:]
    assert [(f.filename, f.lineno, f.line) for f in frames] == [
        (str(page), 19, "f({})"),
        (str(page), 16, "return d['taps']"),
    ]
    # pytest shows the block from its first line (12), not the page from line 1
    entry = info.traceback[-2]
    assert entry.frame.code.firstlineno == 11  # 0-based
    assert str(entry.getsource()).splitlines()[0] == "y = 2"
