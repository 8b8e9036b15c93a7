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


def test_metadata_names_the_authors_and_the_project_urls():
    """`pip show modlights` has an author and the project's addresses: the repository,
    its issues, the documentation (the pages under docs/, which the README says read as
    Markdown there too) and the changelog, all in one repository."""
    project = PYPROJECT["project"]
    assert project["authors"] == [{"name": "the modlights developers"}]
    urls = project["urls"]
    repo = urls["Repository"]
    assert re.fullmatch(r"https://github\.com/modlights/modlights", repo)
    assert urls["Homepage"] == repo and urls["Issues"] == f"{repo}/issues"
    for key, path in (("Documentation", "docs"), ("Changelog", "CHANGELOG.md")):
        prefix = f"{repo}/{'tree' if key == 'Documentation' else 'blob'}/main/"
        assert urls[key] == prefix + path and (ROOT / path).exists(), key
    assert "docs/" in (ROOT / "README.md").read_text()  # where the README sends readers too


def test_the_test_extra_gives_starlettes_test_client_its_client():
    """fastapi.testclient imports without Starlette's deprecation warning for httpx:
    the test extra installs httpx2, the client Starlette's TestClient wants."""
    import pytest

    pytest.importorskip("fastapi")
    test_extra = PYPROJECT["project"]["optional-dependencies"]["test"]
    assert any(re.match(r"httpx2\b", req) for req in test_extra), test_extra
    out = subprocess.run(
        [sys.executable, "-c", _IMPORT_TEST_CLIENT], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout == "", out.stdout + out.stderr[-2000:]


#: Imports fastapi.testclient in a fresh interpreter and prints every deprecation warning
#: it raises (StarletteDeprecationWarning is a UserWarning: matched by its name).
_IMPORT_TEST_CLIENT = """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import fastapi.testclient
for w in caught:
    if "Deprecation" in w.category.__name__:
        print(w.category.__name__, w.message)
"""
