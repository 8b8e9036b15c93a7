"""The package layout by role: every import follows the layer order and no import
cycle exists (module-level and function-level imports alike; ``if TYPE_CHECKING:``
blocks are annotations, not imports). The CLI is one module per command."""

from __future__ import annotations

import ast
import pathlib
import pickle

import pytest

import modlights as ml

SRC = pathlib.Path(ml.__file__).parent
#: top first: a module may import its own layer and the layers above it, never below.
#: "modlights" is the package itself (__init__.py: the public names of the API), which
#: the front ends (web, cli) use as any user does; __main__ runs the CLI. The extension
#: (native) is on top: the Board of model/ holds a C board.
LAYERS = (
    "native",
    "model",
    "engines",
    "search",
    "solution",
    "solver_budget",
    "solver_native",
    "solver_batch",
    "solver",
    "play",
    "io",
    "modlights",
    "web",
    "cli",
    "__main__",
)


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for p in SRC.rglob("*.py"):
        parts = ["modlights", *p.relative_to(SRC).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _is_type_checking(node: ast.AST) -> bool:
    t = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING")
        or (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")
    )


def _imports(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The modlights modules that module `name` imports anywhere in its body."""
    tree = ast.parse(path.read_text(), str(path))
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _is_type_checking(node):
            for child in getattr(node, "orelse", []):
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod == "modlights" or mod.startswith("modlights."):
                for alias in node.names:
                    sub = f"{mod}.{alias.name}"
                    native = mod == "modlights" and alias.name[:1] == "_" != alias.name[1:2]
                    found.add(sub if sub in known or native else mod)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "modlights" or alias.name.startswith("modlights."):
                    found.add(alias.name)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(name)
    return found


def _layer(mod: str) -> int:
    parts = mod.split(".")
    if len(parts) == 1:
        return LAYERS.index("modlights")
    if parts[1].startswith("_") and not parts[1].startswith("__"):
        return LAYERS.index("native")  # an extension module (modlights._core)
    return LAYERS.index(parts[1])


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {name: _imports(name, path, set(mods)) for name, path in mods.items()}


def test_every_module_has_a_layer():
    for name in _modules():
        parts = name.split(".")
        assert len(parts) == 1 or parts[1] in LAYERS, (
            f"{name} is in no layer; put it in one of {', '.join(LAYERS)}"
        )


def test_no_import_runs_against_the_layer_order():
    upward = sorted(
        f"{a} -> {b}" for a, deps in _graph().items() for b in deps if _layer(b) > _layer(a)
    )
    assert upward == [], "imports against the layer order:\n" + "\n".join(upward)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle():
    assert _cycles(_graph()) == []


def test_the_checks_can_fail():
    """The cycle finder and the layer rule on a made-up graph."""
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(g) == [["a", "b", "c"]]
    assert _layer("modlights.model.board") < _layer("modlights.engines.dense")
    assert _layer("modlights.cli.info") > _layer("modlights.web.app")
    assert _layer("modlights._gf2") == _layer("modlights.native._core")
    assert _layer("modlights.solver") < _layer("modlights") < _layer("modlights.cli.info")


def test_objects_pickle_with_their_module_paths():
    p = ml.generate(3, 3, seed=4)
    q = pickle.loads(pickle.dumps(p))
    assert q.code == p.code and type(q) is ml.Puzzle
    assert type(q).__module__ == "modlights.play.puzzles"
    assert type(ml.Board.grid(2, 2)).__module__ == "modlights.model.board"


def test_every_command_has_its_module():
    from modlights import cli

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = sorted(sub.choices)
    assert names == sorted(m.__name__.rsplit(".", 1)[1] for m in cli.COMMANDS)
    for m in cli.COMMANDS:
        needs_arg = m.__name__.endswith(("check", "verify", "site"))
        args = parser.parse_args([m.__name__.rsplit(".", 1)[1]] + (["x"] if needs_arg else []))
        assert args.func is m.run
    assert cli.main(["info", "--grid", "3x3", "--json"]) == 0


#: the one public header is the C API's declaration list (issue 33: one header), exempt
_LONG_OK = {"csrc/include/modlights.h"}


def _long_sources(root: pathlib.Path, limit: int = 800) -> dict[str, int]:
    """Source files (Python, Cython, C, JavaScript; tests and generated files aside)
    over `limit` lines, by path relative to the repository."""
    out = {}
    for top, exts in (
        ("src/modlights", {".py", ".pyx", ".pxi", ".pxd"}),
        ("csrc", {".c", ".h"}),
        ("js/src", {".js"}),
    ):
        for p in sorted((root / top).rglob("*")):
            rel = p.relative_to(root).as_posix()
            if p.suffix not in exts or "/tests/" in rel or rel in _LONG_OK:
                continue
            n = len(p.read_text(encoding="utf-8").splitlines())
            if n > limit:
                out[rel] = n
    return out


def test_no_source_file_over_800_lines():
    root = pathlib.Path(__file__).resolve().parents[1]
    if not (root / "csrc").is_dir():
        pytest.skip("a source checkout only")
    assert _long_sources(root) == {}, "split along the file's banners"
    assert _long_sources(root, limit=700), "the check can fail: some file is over 700 lines"


def _lines(root: pathlib.Path, top: str, exts: set[str]) -> int:
    return sum(
        len(p.read_text(encoding="utf-8").splitlines())
        for p in (root / top).rglob("*")
        if p.suffix in exts and "/tests/" not in p.as_posix()
    )


def test_the_bindings_stay_thin():
    """Issue 33's budgets: the Python engines' folder (the registry's view and adapters)
    at most 2,500 lines, the JavaScript sources 2,000 (index.d.ts aside), the WebAssembly
    export layer 300 (csrc/wasm: exports.c, exports.list, the pthread shim)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    if not (root / "js" / "src").is_dir():
        pytest.skip("a source checkout only")
    assert _lines(root, "src/modlights/engines", {".py"}) <= 2500
    assert _lines(root, "js/src", {".js"}) <= 2000
    assert _lines(root, "csrc/wasm", {".c", ".h", ".list"}) <= 300


def test_no_merge_conflict_markers():
    """No text file of the checkout keeps a merge's conflict markers (a line starting with
    seven '<', '=' or '>' and, for '<' and '>', a space): docs and code are read as they
    are committed."""
    root = pathlib.Path(__file__).resolve().parents[1]
    if not (root / "csrc").is_dir():
        pytest.skip("a source checkout only")
    found = []
    for folder in ("src", "csrc", "docs", "tests", "js/src", "js/test", "bench", "examples"):
        for p in sorted((root / folder).rglob("*")):
            if p.suffix not in {".py", ".pyx", ".pxi", ".pxd", ".c", ".h", ".md", ".js", ".rst"}:
                continue
            for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
                if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "=======":
                    found.append(f"{p.relative_to(root)}:{i}")
    assert found == []
