"""The JavaScript package against Python: the golden files in js/test/golden/ are what
Python computes now (a stale one fails with the command that refreshes it), the
package's version is Python's, and node's test runner passes on js/test/ (the tests
compare the JavaScript answers with those files: equal, not close)."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

import modlights as ml
import js_golden


@pytest.fixture(scope="module")
def built() -> dict:
    return js_golden.build()


def test_golden_files_are_current(built):
    stale = []
    for name, text in built.items():
        path = os.path.join(js_golden.GOLDEN_DIR, name)
        try:
            with open(path, encoding="utf-8") as f:
                committed = f.read()
        except FileNotFoundError:
            committed = None
        if committed != text:
            stale.append(name)
    assert not stale, (f"stale or missing golden files {stale} in js/test/golden: Python's "
                       f"answers changed; if that is intended, refresh them with "
                       f"`{js_golden.REFRESH}` and commit them")
    extra = set(os.listdir(js_golden.GOLDEN_DIR)) - set(built)
    assert not extra, f"golden files no test writes: {sorted(extra)}"


def test_golden_files_cover_the_issue(built):
    puzzles = json.loads(built["puzzles.json"])
    assert len(puzzles["daily"]) >= 30 and len(puzzles["generate"]) >= 50
    kernels = json.loads(built["solver.json"])["kernels"]
    assert {k["states"] for k in kernels} >= {4, 6, 8}
    errors = json.loads(built["errors.json"])["cases"]
    assert len({c["op"] for c in errors}) >= 9


def test_package_version_is_pythons():
    with open(os.path.join(js_golden.ROOT, "js", "package.json"), encoding="utf-8") as f:
        pkg = json.load(f)
    assert pkg["name"] == "modlights"
    assert pkg["version"] == ml.__version__, (
        f"js/package.json has version {pkg['version']}, Python's modlights is "
        f"{ml.__version__}: keep them equal")


@pytest.mark.node  # 18 CPU s: node --test js/test/ (the default run has test_wasm_solver.py's
# node test)
def test_node_tests_pass(node, js_dir):
    proc = subprocess.run([node, "--test", "test/"], cwd=js_dir, capture_output=True,
                          text=True, timeout=900)
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-60:])
    assert proc.returncode == 0, f"node --test js/test/ failed:\n{tail}"
    assert "# fail 0" in proc.stdout
