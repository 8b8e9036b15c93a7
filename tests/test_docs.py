"""The documents stay true to the tree: every repository path that docs/architecture.md,
the guide (docs/guide/), getting started and the README cite exists, and no file cites
a document outside the repository."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "modlights"
DOCS = (
    ROOT / "docs" / "architecture.md",
    ROOT / "README.md",
    *sorted((ROOT / "docs" / "guide").glob("*.md")),
    ROOT / "docs" / "getting-started.md",
    ROOT / "docs" / "development.md",
    ROOT / "docs" / "reference" / "web.md",
)
#: Folders a cited path may start from: the repository root, or the package for the
#: layer names the documents use on their own (``engines/registry.py``).
ROOTS = (ROOT, SRC)
#: `code` spans that look like repository paths: a known top folder, then more.
PATH = re.compile(
    r"`((?:src|csrc|tests|bench|docs|fuzz|examples|js|\.ci|model|native|engines|"
    r"search|play|io|web|cli)/[A-Za-z0-9_./<>{},-]*)`"
)


def cited_paths(text: str) -> list[str]:
    """The repository paths cited in ``text``, expanded: `engines/{a,b}.py` is two paths;
    placeholders (`t-<module>.c`) and globs are left out."""
    out = []
    for m in PATH.finditer(text):
        path = m.group(1).rstrip(".,")
        if "<" in path or "*" in path:
            continue
        brace = re.search(r"\{([^}]*)\}", path)
        parts = brace.group(1).split(",") if brace else [""]
        for part in parts:
            out.append(path[: brace.start()] + part + path[brace.end() :] if brace else path)
    return out


def _exists(path: str) -> bool:
    return any((root / path).exists() for root in ROOTS)


def test_cited_paths_exist():
    missing = [
        f"{doc.name}: {p}" for doc in DOCS for p in cited_paths(doc.read_text()) if not _exists(p)
    ]
    assert missing == [], "paths cited but not in the tree:\n" + "\n".join(missing)


def test_no_file_cites_a_document_outside_the_repository():
    pattern = re.compile(r"DESIGN\.md|\.\./shared/")
    suffixes = {
        ".py",
        ".pyx",
        ".pxd",
        ".pxi",
        ".c",
        ".h",
        ".md",
        ".txt",
        ".js",
        ".html",
        ".css",
        ".toml",
    }
    found = []
    for folder in ("src", "csrc", "tests", "bench", "docs", "fuzz", "examples"):
        for p in (ROOT / folder).rglob("*"):
            if p.suffix not in suffixes or not p.is_file() or p == pathlib.Path(__file__):
                continue
            lines = p.read_text(errors="replace").splitlines()
            found += [
                f"{p.relative_to(ROOT)}:{i}"
                for i, line in enumerate(lines, 1)
                if pattern.search(line)
            ]
    assert found == [], "cites a document outside the repository:\n" + "\n".join(found)


def test_the_checks_can_fail():
    assert cited_paths("see `engines/{base,registry}.py` and `csrc/tests/t-<module>.c`") == [
        "engines/base.py",
        "engines/registry.py",
    ]
    assert not _exists("engines/no_such_engine.py")
    assert _exists("model/board.py") and _exists("tests/test_docs.py")
