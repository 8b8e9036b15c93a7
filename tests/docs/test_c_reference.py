"""docs/reference/c.md stays true to the C API: its message table lists every entry of
``ML_MESSAGES`` in csrc/include/modlights.h (id, status and template, in the header's
order), its status table every ``ml_status``, and each program of examples/c appears in
it verbatim. Plain text checks: no C compiler needed."""

from __future__ import annotations

import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = ROOT / "csrc" / "include" / "modlights.h"
PAGE = ROOT / "docs" / "reference" / "c.md"
EXAMPLES = ROOT / "examples" / "c"


def header_messages(text: str) -> list[tuple[str, str, str]]:
    """(id, status, template) of every X(...) entry of ML_MESSAGES, in order."""
    block = text[text.index("#define ML_MESSAGES(X)") : text.index("/* The message ids")]
    block = re.sub(r"/\*.*?\*/", "", block, flags=re.S).replace("\\\n", "\n")
    out = []
    for m in re.finditer(
        r"X\(\s*(ML_[MR]_\w+),\s*(ML_\w+),((?:\s*\"(?:[^\"\\]|\\.)*\")+)\s*\)", block
    ):
        parts = re.findall(r"\"(?:[^\"\\]|\\.)*\"", m.group(3))
        out.append((m.group(1), m.group(2), "".join(json.loads(s) for s in parts)))
    return out


def page_messages(text: str) -> list[tuple[str, str, str]]:
    """(id, status, template) of every row of the page's message table."""
    rows = re.findall(r"^\| `(ML_[MR]_\w+)` \| `(ML_\w+)` \| `(.*)` \| [^|]*\|$", text, re.M)
    return [(i, s, t.replace("\\|", "|")) for i, s, t in rows]


def header_statuses(text: str) -> list[tuple[str, int]]:
    block = text[text.index("typedef enum ml_status") : text.index("} ml_status;")]
    return [(n, int(v)) for n, v in re.findall(r"(ML_\w+) = (\d+),", block)]


def test_the_message_table_is_the_headers():
    want = [m for m in header_messages(HEADER.read_text()) if m[0] != "ML_M_NONE"]
    got = page_messages(PAGE.read_text())
    assert len(want) > 150
    assert got == want, (
        "docs/reference/c.md's message table differs from ML_MESSAGES in modlights.h: "
        + ", ".join(a[0] for a, b in zip(want, got) if a != b)[:500]
        + f" (rows {len(got)}, entries {len(want)})"
    )


def test_the_status_table_is_the_headers():
    page = PAGE.read_text()
    statuses = [s for s in header_statuses(HEADER.read_text()) if s[0] != "ML_STATUS_COUNT"]
    assert len(statuses) == 16
    for name, value in statuses:
        assert re.search(rf"^\| `{name}` \| {value} \|", page, re.M), f"{name} = {value}"


def test_every_example_is_on_the_page_verbatim():
    page = PAGE.read_text()
    examples = sorted(EXAMPLES.glob("*.c"))
    assert len(examples) >= 6
    for path in examples:
        assert f"```c\n{path.read_text()}```" in page, f"{path.name} is not on the page as it is"


def test_the_checks_can_fail():
    text = HEADER.read_text()
    entries = header_messages(text)
    assert entries[0] == ("ML_M_NONE", "ML_OK", "")
    assert ("ML_M_UNSOLVABLE", "ML_EUNSOLVABLE") == entries[
        [e[0] for e in entries].index("ML_M_UNSOLVABLE")
    ][:2]
    row = "| `ML_M_X` | `ML_EINVAL` | `a \\| b` | somewhere |"
    assert page_messages(row) == [("ML_M_X", "ML_EINVAL", "a | b")]
    other = row.replace("ML_EINVAL", "ML_ERANGE")
    assert page_messages(other) != [("ML_M_X", "ML_EINVAL", "a | b")]
