"""The API reference covers the public API and its examples run.

Every public name of the API contract (``API`` below: the names tests outside the
repository call) has an entry in the reference pages (``docs/reference/api.md``: an
autodoc directive naming it) and an Examples section in its docstring (for data
attributes without a docstring of their own: the owner's Attributes section and
Examples); and every example in the docstrings of the modules that hold those names
runs as a doctest, with ``np`` and ``ml`` (``import numpy as np``, ``import modlights
as ml``) predefined, as the reference page says.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pathlib
import re

import numpy as np
import pytest

import modlights as ml

ROOT = pathlib.Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference" / "api.md"

#: The public names of the API contract, as ``documented object: [members]``. The
#: documented object is the dotted path the reference page's autodoc directive names.
API: dict[str, list[str]] = {
    "modlights.model.patterns.PATTERNS": [],
    "modlights.Board": [
        "grid",
        "from_effects",
        "states",
        "shape",
        "n_cells",
        "n_taps",
        "cells",
        "taps",
        "matrix",
        "press",
        "apply",
        "random_state",
        "to_dict",
        "from_dict",
        "to_svg",
    ],
    "modlights.Solver": [
        "kernel_size",
        "nullity",
        "rank",
        "kernel",
        "is_unique",
        "is_invertible",
        "det",
        "inverse",
        "pseudo_inverse",
        "solvable",
        "solve",
        "solvable_many",
        "solve_many",
        "solutions",
        "min_taps_many",
        "solve_packed",
        "plan",
        "hardest",
    ],
    "modlights.Solution": ["taps", "length", "proven_minimal", "moves", "to_dict", "certificate"],
    "modlights.Unsolvable": [],
    "modlights.generate": [],
    "modlights.daily": [],
    "modlights.Puzzle": [
        "board",
        "start",
        "min_taps",
        "proven",
        "stars",
        "code",
        "from_code",
        "to_dict",
        "from_dict",
    ],
    "modlights.Game": [
        "tap",
        "undo",
        "reset",
        "hint",
        "state",
        "taps_used",
        "solved",
        "stars",
        "hinted",
    ],
    "modlights.Campaign": [],
    "modlights.engines.registry.engines": [],
    "modlights.engines.registry.Plan": ["engine", "reason", "rejected"],
    "modlights.search.hardest.Hardest": [
        "min_taps",
        "state",
        "proven",
        "lower",
        "upper",
        "certificate",
    ],
    "modlights.verify": [],
    "modlights.web.create_app": [],
}

#: The modules whose docstrings' examples run (every module holding a name of API).
MODULES = [
    "modlights",
    "modlights.model.board",
    "modlights.model.board_geometry",
    "modlights.model.board_matrix",
    "modlights.model.patterns",
    "modlights.solver",
    "modlights.solver_batch",
    "modlights.solution",
    "modlights.play.puzzles",
    "modlights.play.game",
    "modlights.play.campaign",
    "modlights.search.hardest",
    "modlights.search.verify",
    "modlights.engines.registry",
    "modlights.web",
    "modlights.web.app",
]

FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def resolve(path: str):
    """The object at a dotted path (modules imported as needed)."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


def _section(doc: str, title: str) -> str | None:
    """The body of a numpydoc section (up to the next section), or None."""
    m = re.search(
        rf"^{title}\n-{{{len(title)}}}\n(.*?)(?=^\w[\w ]*\n-{{3,}}\n|\Z)", doc, re.M | re.S
    )
    return m.group(1) if m else None


def _doc_comment(module: str, name: str) -> str:
    """The ``#:`` comment above ``name = ...`` in a module's source (autodoc's doc
    comment for data), without the ``#:`` markers."""
    lines = inspect.getsource(importlib.import_module(module)).splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(rf"{name}\b.*=", line))
    block = []
    for line in reversed(lines[:at]):
        if not line.startswith("#:"):
            break
        block.append(line[3:] if line.startswith("#: ") else line[2:])
    return "\n".join(reversed(block))


def docstring(path: str, member: str | None = None) -> str:
    """The documentation of an API name: its docstring, or for a data object its
    ``#:`` doc comment; '' when it has none of its own."""
    obj = resolve(path)
    if member is None:
        if isinstance(obj, (dict, type(ml.PATTERNS))):
            return _doc_comment(_defining_module(path), path.rsplit(".", 1)[1])
        return inspect.getdoc(obj) or ""
    attr = inspect.getattr_static(obj, member, None)  # None: a dataclass field
    if isinstance(attr, (classmethod, staticmethod)):
        attr = attr.__func__
    if inspect.isfunction(attr) or isinstance(attr, property):
        return inspect.getdoc(attr) or ""
    return ""  # a slot or a dataclass field: no docstring


def _defining_module(path: str) -> str:
    name = path.rsplit(".", 1)[1]
    for module in MODULES:
        mod = importlib.import_module(module)
        if name in vars(mod) and f"\n{name}" in "\n" + inspect.getsource(mod):
            return module
    raise LookupError(path)


def has_examples(doc: str, name: str | None = None) -> bool:
    """The docstring has an Examples section with a doctest (mentioning ``.name``
    when given)."""
    body = _section(doc, "Examples")
    if body is None or ">>>" not in body:
        return False
    return name is None or re.search(rf"\.{name}\b", body) is not None


API_NAMES = [(path, None) for path in API] + [(path, m) for path, ms in API.items() for m in ms]


@pytest.mark.parametrize(
    "path, member", API_NAMES, ids=[p + ("." + m if m else "") for p, m in API_NAMES]
)
def test_every_api_name_has_an_example(path, member):
    if path.startswith("modlights.web"):
        pytest.importorskip("fastapi")
    doc = docstring(path, member)
    if doc:
        assert has_examples(doc), f"{path}.{member or ''}: no Examples section with a doctest"
        return
    # a data attribute: described and shown by its class
    owner = inspect.getdoc(resolve(path)) or ""
    attributes = _section(owner, "Attributes") or ""
    assert re.search(rf"^{member}\b|^\w[\w, ]*\b{member}\b.*:", attributes, re.M), (
        f"{path}.{member}: not in the Attributes section of {path}"
    )
    assert has_examples(owner, member), f"{path}.{member}: not shown by {path}'s Examples"


def reference_entries(text: str) -> dict[str, set[str] | None]:
    """{documented path: its listed members (None: every member)} from the autodoc
    directives of a reference page."""
    out: dict[str, set[str] | None] = {}
    for m in re.finditer(
        r"^\.\. auto(?:class|function|data|exception|module):: (\S+)\n"
        r"((?:   :.*\n)*)",
        text,
        re.M,
    ):
        opts = m.group(2)
        members = re.search(r":members:(.*)", opts)
        out[m.group(1)] = (
            None
            if members and not members.group(1).strip()
            else {s.strip() for s in members.group(1).split(",")}
            if members
            else set()
        )
    return out


def test_every_api_name_is_in_the_reference():
    entries = reference_entries(REFERENCE.read_text())
    missing = []
    for path, members in API.items():
        if path not in entries:
            missing.append(path)
            continue
        listed = entries[path]
        missing += [
            f"{path}.{m}"
            for m in members
            if listed is not None and m not in listed and docstring(path, m)
        ]  # data attributes: the class shows them
    assert missing == [], "not in docs/reference/api.md:\n" + "\n".join(missing)


def _comment_tests(module: str) -> list[doctest.DocTest]:
    """Doctests in the ``#:`` doc comments of a module (documented data)."""
    mod = importlib.import_module(module)
    source = inspect.getsource(mod)
    out = []
    for m in re.finditer(r"((?:^#:.*\n)+)(\w+)\b", source, re.M):
        text = "\n".join(
            line[3:] if line.startswith("#: ") else line[2:] for line in m.group(1).splitlines()
        )
        if ">>>" in text:
            out.append(
                doctest.DocTestParser().get_doctest(
                    text, {"ml": ml, "np": np}, f"{module}.{m.group(2)}", mod.__file__, 0
                )
            )
    return out


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module):
    if module.startswith("modlights.web"):
        pytest.importorskip("fastapi")
    mod = importlib.import_module(module)
    tests = doctest.DocTestFinder().find(mod, module, globs={"ml": ml, "np": np})
    tests += _comment_tests(module)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{module} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {module} fail"


def test_the_checks_can_fail():
    assert has_examples("Text.\n\nExamples\n--------\n>>> 1 + 1\n2\n")
    assert not has_examples("Text.\n\nExamples\n--------\nnone here\n")
    assert not has_examples("Text without examples.")
    assert not has_examples("Examples\n--------\n>>> s.rank\n1\n", "nullity")
    assert reference_entries(".. autoclass:: modlights.Board\n   :members: grid, press\n") == {
        "modlights.Board": {"grid", "press"}
    }
    failing = doctest.DocTestParser().get_doctest(">>> 1 + 1\n3\n", {}, "bad", None, 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(failing, out=lambda s: None)
    assert runner.summarize(verbose=False).failed == 1
