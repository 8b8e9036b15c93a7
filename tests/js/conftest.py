"""Fixtures of the JavaScript package's tests: where node and npm are, and the package
directory. The node tests need Node 20 (Debian: ``apt-get install nodejs``)."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JS_DIR = os.path.join(ROOT, "js")


def _node_major(node: str) -> int:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
        return int(out.stdout.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return 0


@pytest.fixture(scope="session")
def node() -> str:
    """The node executable (version 20 or later); a loud skip when there is none."""
    exe = shutil.which("node")
    if exe is None:
        pytest.skip("NODE NOT FOUND: the JavaScript package's tests did not run; install "
                    "Node 20 with `apt-get install nodejs` (as .ci/run does)")
    if _node_major(exe) < 20:
        pytest.skip(f"node at {exe} is older than 20: the JavaScript package's tests did not "
                    "run; install Node 20 with `apt-get install nodejs`")
    return exe


@pytest.fixture(scope="session")
def js_dir() -> str:
    """The npm package's directory (js/)."""
    return JS_DIR
