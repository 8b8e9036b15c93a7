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


@pytest.fixture(scope="module")
def client():
    """A TestClient on an app with two workers, its lifespan run (workers started)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from modlights.web import create_app

    with TestClient(create_app(workers=2), raise_server_exceptions=False) as c:
        yield c
