"""The fixture the browser tests of tests/web share: one headless Chromium per module
(tests/browser_pages.py launches it; the modules skip without it)."""

from __future__ import annotations

import pytest

from browser_pages import launch_chromium


@pytest.fixture(scope="module")
def browser():
    pw, b = launch_chromium()
    yield b
    b.close()
    pw.stop()
