"""Without Chromium or Playwright the browser tests skip loudly: each skip reason and a
line of the run's summary name the one command that fixes it (tests/browser_pages.py,
tests/conftest.py's pytest_terminal_summary)."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

import browser_pages
from browser_pages import BROWSER_SKIP, browser_missing

TESTS = pathlib.Path(__file__).resolve().parent.parent


def test_missing_chromium_names_the_fix(tmp_path):
    why = browser_missing(str(tmp_path / "chromium"))
    assert why.startswith(BROWSER_SKIP) and str(tmp_path / "chromium") in why
    assert "apt-get install -y chromium" in why


def test_missing_playwright_names_the_fix(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        browser_pages.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "playwright" else real(name, *a),
    )
    why = browser_missing()
    assert why.startswith(BROWSER_SKIP) and 'pip install ".[test]"' in why


def test_a_present_browser_is_not_skipped(tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    if importlib.util.find_spec("playwright") is not None:
        assert browser_missing(str(fake)) is None


@pytest.mark.browser  # 4 CPU s: a pytest run of test_browser.py in a subprocess
def test_the_run_summary_says_how_many_were_skipped_and_the_fix(tmp_path):
    env = dict(os.environ, MODLIGHTS_CHROMIUM=str(tmp_path / "no-chromium"))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow and not explore",  # every test of the file, the browser group's too
            str(TESTS / "web" / "test_browser.py"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=TESTS.parent,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    lines = [ln for ln in out.stdout.splitlines() if "browser tests skipped" in ln]
    assert len(lines) == 1, out.stdout[-2000:]
    skipped = int(lines[0].strip("! ").split()[0])
    assert f"{skipped} skipped" in out.stdout.splitlines()[-1]
    assert "apt-get install -y chromium" in lines[0] and str(tmp_path / "no-chromium") in lines[0]
