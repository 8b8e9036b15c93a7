"""``modlights hardest --certificate FILE`` and ``modlights verify FILE`` together."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import modlights as ml


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "modlights", *args], capture_output=True, text=True
    )


def test_certificate_is_written_and_verifies(tmp_path):
    path = tmp_path / "h.json"
    out = run("hardest", "--grid", "4x4", "--states", "3", "--certificate", str(path))
    assert out.returncode == 0, out.stderr
    assert "certificate:" in out.stdout and "settles the value" in out.stdout
    cert = json.loads(path.read_text())
    assert cert["kind"] == "hardest" and cert["lower"] == cert["upper"] == 16
    assert ml.verify(cert)
    ok = run("verify", str(path))
    assert ok.returncode == 0 and "certificate holds" in ok.stdout
    cert["witness"]["taps"][0] = (cert["witness"]["taps"][0] + 1) % 3
    path.write_text(json.dumps(cert))
    bad = run("verify", str(path))
    assert bad.returncode == 1 and "does not hold" in bad.stdout


@pytest.mark.heavy  # 5 CPU s: a 19 x 19 search for 3 s in a subprocess
def test_certificate_of_unsettled_bounds_with_json(tmp_path):
    path = tmp_path / "h.json"
    out = run("hardest", "--grid", "19x19", "--budget", "3s", "--certificate", str(path), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    cert = json.loads(path.read_text())
    assert doc["certificate"] == str(path) and doc["certificate_upper"] == cert["upper"]
    assert cert["lower"] == doc["min_taps"] and cert["upper"] == doc["upper"] <= 181
    assert run("verify", str(path)).returncode == 0


def test_unwritable_certificate_is_exit_2(tmp_path):
    out = run("hardest", "--grid", "3x3", "--certificate", str(tmp_path / "no" / "h.json"))
    assert out.returncode == 2 and "--certificate" in out.stderr
    assert "Traceback" not in out.stderr


def test_groups_writes_the_group_certificate(tmp_path):
    """--groups: the group branch and bound after the search; its figures in --json, and
    the certificate it writes verifies (settled: 5 x 5 over GF(2) needs 15), and the
    text output names the run."""
    path = tmp_path / "h.json"
    out = run("hardest", "--grid", "5x5", "--groups", "20s", "--json", "--certificate", str(path))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["groups"]["settled"] and doc["groups"]["lower"] == doc["groups"]["upper"] == 15
    assert doc["certificate_lower"] == doc["certificate_upper"] == 15
    assert ml.verify(json.loads(path.read_text()))
    text = run("hardest", "--grid", "5x5", "--groups", "20s")
    assert text.returncode == 0 and "group branch and bound: 15..15" in text.stdout
