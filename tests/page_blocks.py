"""The Python examples of a Markdown page, run so that a failure names the page and the
line of the failing statement (tests/docs/test_pages.py, tests/test_readme.py)."""

from __future__ import annotations

import re
from pathlib import Path
from types import CodeType

_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line of the block's first statement in ``text``, counted from 1; the block's
    code) for every fenced ```python block, in page order."""
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in _BLOCK.finditer(text)]


def _at_line(code: CodeType, shift: int) -> CodeType:
    """``code`` (and the functions and classes defined in it) moved ``shift`` lines down:
    line numbers are stored relative to ``co_firstlineno``."""
    consts = tuple(_at_line(c, shift) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno + shift, co_consts=consts)


def compile_block(code: str, path: Path, line: int) -> CodeType:
    """``code`` compiled under ``path`` with its first line at ``line`` of the page: a
    traceback names the page's line of a failing statement, and pytest shows the block
    from its first line to that statement."""
    return _at_line(compile(code, str(path), "exec"), line - 1)


def run_blocks(path: Path, text: str | None = None) -> int:
    """Run every python block of the page at ``path`` (its text, or ``text``), each in a
    namespace of its own, top to bottom (compile_block: a failure names the page's
    line); returns how many ran."""
    text = path.read_text() if text is None else text
    blocks = python_blocks(text)
    for line, code in blocks:
        exec(compile_block(code, path, line), {})
    return len(blocks)
