"""model/ imports in one direction: no module of ``modlights.model`` imports another in
a circle, counting every import in its body (module level, inside functions and inside
``if TYPE_CHECKING:`` blocks alike: an annotation import is still a dependency, and the
board's helpers, ``board_dict.py`` and ``render.py``, need only a board's public
properties and the constructors they are handed). tests/test_layout.py checks the
whole package (annotation imports left out); this is the stricter rule for model/.
"""

from __future__ import annotations

import ast
import pathlib

import modlights.model

MODEL = pathlib.Path(modlights.model.__file__).parent


def _model_imports(path: pathlib.Path) -> set[str]:
    """The modlights.model modules that the file imports anywhere in its body."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the model package
                mod = ".".join(["modlights.model"] + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod == "modlights.model":
                found.update(f"{mod}.{alias.name}" for alias in node.names)
            elif mod.startswith("modlights.model."):
                found.add(mod)
        elif isinstance(node, ast.Import):
            found.update(
                alias.name for alias in node.names if alias.name.startswith("modlights.model.")
            )
    return found


def _graph() -> dict[str, set[str]]:
    mods = {f"modlights.model.{p.stem}": p for p in MODEL.glob("*.py") if p.stem != "__init__"}
    return {name: _model_imports(path) & set(mods) - {name} for name, path in mods.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph as [a, b, ..., a], or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(v: str) -> list[str]:
        state[v] = 1
        path.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return path[path.index(w) :] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return []

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return []


def test_no_import_cycle_in_model():
    graph = _graph()
    assert "modlights.model.board" in graph and graph["modlights.model.board"]
    cycle = _cycle(graph)
    assert cycle == [], "model/ imports in a circle: " + " -> ".join(cycle)


def test_the_cycle_check_can_fail(tmp_path):
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "from modlights.model import patterns\n"
        "if TYPE_CHECKING:\n    from modlights.model.board import Board\n"
        "def f():\n    from modlights.model.render import to_svg\n"
        "    import modlights.model.ring\n"
        "from .validation import as_int\n"
    )
    assert _model_imports(src) == {
        "modlights.model.patterns",
        "modlights.model.board",
        "modlights.model.render",
        "modlights.model.ring",
        "modlights.model.validation",
    }
