"""The type stubs of the compiled module (src/modlights/native/_core.pyi) and the module
agree: every public function, class and constant of ``modlights.native._core`` has a
stub entry and every stub entry exists in the module (private ones too), and so for
the members of each class. mypy (.ci/lint) checks the code against the stubs."""

from __future__ import annotations

import ast
import pathlib
import types

import modlights.native._core as core

STUB = pathlib.Path(core.__file__).with_name("_core.pyi")


def _stub_names() -> tuple[set[str], dict[str, set[str]]]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names: set[str] = set()
    members: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {
                n.name if isinstance(n, ast.FunctionDef) else n.target.id
                for n in node.body
                if isinstance(n, ast.FunctionDef)
                or (isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name))
            }
    return names, members


def _own(name: str) -> bool:
    """A name the extension defines (not a module or a function it imported)."""
    obj = getattr(core, name)
    if isinstance(obj, types.ModuleType):
        return False
    return not (
        isinstance(obj, types.BuiltinFunctionType)
        and getattr(obj, "__module__", None) != core.__name__
    )


def test_every_public_name_has_a_stub_and_every_stub_a_name():
    names, _ = _stub_names()
    public = {n for n in dir(core) if not n.startswith("_") and _own(n)}
    assert public - names == set(), "functions / classes / constants without a stub"
    assert names - set(dir(core)) == set(), "stub entries the module does not have"


def test_every_class_member_has_a_stub_and_every_stub_a_member():
    _, members = _stub_names()
    for cls, stubbed in members.items():
        C = getattr(core, cls)
        have = {n for n in dir(C) if not n.startswith("__")}
        public = {n for n in vars(C) if not n.startswith("_")}
        assert public - stubbed == set(), f"{cls}: members without a stub"
        assert {n for n in stubbed if not n.startswith("__")} - have == set(), (
            f"{cls}: stub members the class does not have"
        )


def test_the_stub_names_only_what_is_stubbed_here():
    # a stub that imports the module's own names from elsewhere would hide a mismatch
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    imported = {
        a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names
    }
    assert imported <= {"annotations", "Any", "ClassVar", "Callable", "NoReturn"}
