"""The package's metadata: the version is written once (``__version__`` in
src/modlights/__init__.py); pyproject.toml declares it dynamic and reads it from there
with scikit-build-core's regex provider, the CLI prints it, and CHANGELOG.md has an
entry for it."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import tomllib

import modlights as ml

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_is_dynamic_and_read_from_the_package():
    project = PYPROJECT["project"]
    assert "version" not in project, "the version is written once, in src/modlights/__init__.py"
    assert "version" in project["dynamic"]
    provider = PYPROJECT["tool"]["scikit-build"]["metadata"]["version"]
    assert provider["provider"] == "scikit_build_core.metadata.regex"
    source = (ROOT / provider["input"]).read_text(encoding="utf-8")
    # the provider's own search: re.search(regex, text, re.MULTILINE)
    found = re.findall(provider["regex"], source, re.MULTILINE)
    assert found == [ml.__version__], (provider["regex"], found)


def test_version_is_pep440():
    # the public version forms of PEP 440 (no local part: an index refuses those)
    assert re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", ml.__version__)


def test_cli_prints_the_version():
    out = subprocess.run(
        [sys.executable, "-m", "modlights", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == f"modlights {ml.__version__}"


def test_changelog_has_an_entry_for_the_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    versions = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    assert versions and versions[0] == "Unreleased", versions
    assert ml.__version__ in versions, versions
    # Keep a Changelog: each released version has its release date
    for v in versions[1:]:
        assert re.search(rf"^## \[{re.escape(v)}\] - \d{{4}}-\d\d-\d\d$", text, re.MULTILINE), v
