"""Sphinx configuration of the modlights documentation site.

Built offline with warnings as errors by ``.ci/docs``:
``sphinx-build -W --keep-going -b html docs build/docs-html``. Pages are Markdown
(myst-parser); the API reference comes from the numpydoc docstrings (autodoc + numpydoc),
the CLI reference from the argparse parsers and the web API reference from the FastAPI
app's OpenAPI schema (both by the local extensions in ``docs/_ext/``). Nothing is
fetched at build time or at reading time: no intersphinx, no CDN, no math renderer.
"""
from __future__ import annotations

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
SRC = ROOT / "src"

# Document the tree beside this file when its extension module is built in place
# (development: ``cp .../_core*.so src/modlights/native/``); otherwise the installed
# package (CI: ``.ci/run`` installs the package before it builds the docs).
if any((SRC / "modlights" / "native").glob("_core*.so")) and str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))
sys.path.insert(0, str(HERE / "_ext"))

import modlights  # noqa: E402

project = "modlights"
author = "the modlights authors"
copyright = "the modlights authors (MIT licence)"
release = modlights.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "cli_reference",          # docs/_ext: the modlights-cli directive (argparse)
    "openapi_reference",      # docs/_ext: the modlights-openapi directive (app.openapi())
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "README.md"]
templates_path: list[str] = []

# -- MyST --------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- autodoc / numpydoc ------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "none"            # the numpydoc Parameters sections carry the types
autosummary_generate = False          # the reference pages list every name themselves
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# -- HTML --------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"modlights {release}"
html_static_path: list[str] = []
html_last_updated_fmt = None          # deterministic output: no build date in the pages
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": [],
}
