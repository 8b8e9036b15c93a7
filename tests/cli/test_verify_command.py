"""``modlights verify FILE`` and ``modlights solve --certificate FILE``: exit 0 when the
certificate holds, 1 when it does not (the failing step printed), 2 for files that
cannot be read, are not JSON or not a certificate; one line each, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import modlights as ml
from modlights.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def cert_file(tmp_path):
    b = ml.Board.grid(5, 5, states=3, pattern="cross", locked=[(0, 0)], holes=[(4, 4)])
    sol = ml.Solver(b).solve(b.random_state(rng=5))
    path = tmp_path / "sol.json"
    path.write_text(json.dumps(sol.certificate()))
    return path


def test_holds(capsys, cert_file):
    rc, out, err = run(capsys, "verify", str(cert_file))
    assert rc == 0 and err == ""
    assert out.startswith("certificate holds: ") and out.count("\n") == 1


@pytest.mark.parametrize("field", ["taps", "rhs", "length"])
def test_does_not_hold(capsys, cert_file, field):
    cert = json.loads(cert_file.read_text())
    if field == "length":
        cert["length"] -= 1
    else:
        cert[field][3] = (cert[field][3] + 1) % 3
    cert_file.write_text(json.dumps(cert))
    rc, out, err = run(capsys, "verify", str(cert_file))
    assert rc == 1 and err == ""
    assert out.startswith("certificate does not hold: ") and out.count("\n") == 1


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[1, 2]",
        '{"format": "x"}',
        '{"format": "modlights-certificate", "version": 9}',
        "NaN",
        "\xff",
    ],
)
def test_bad_input(capsys, tmp_path, text):
    path = tmp_path / "c.json"
    path.write_bytes(text.encode("latin-1"))
    rc, out, err = run(capsys, "verify", str(path))
    assert rc == 2 and out == ""
    assert err.startswith("modlights verify: error: ") and err.count("\n") == 1


def test_missing_file(capsys, tmp_path):
    rc, out, err = run(capsys, "verify", str(tmp_path / "none.json"))
    assert rc == 2 and "cannot read" in err


def test_help(capsys):
    rc, out, _ = run(capsys, "verify", "--help")
    assert rc == 0 and "exit codes" in out
    rc, out, _ = run(capsys, "--help")
    assert "verify" in out


def test_solve_writes_a_certificate_that_verify_accepts(capsys, tmp_path):
    path = tmp_path / "s.json"
    rc, out, _ = run(
        capsys, "solve", "--grid", "6x6", "--states", "4", "--seed", "3", "--certificate", str(path)
    )
    assert rc == 0 and f"certificate: {path}" in out
    cert = json.loads(path.read_text())
    assert cert["kind"] == "minimal" and ml.verify(cert)
    assert f"taps: {cert['length']}" in out
    rc, out, _ = run(capsys, "verify", str(path))
    assert rc == 0
    rc, out, _ = run(
        capsys, "solve", "--grid", "4x4", "--seed", "3", "--json", "--certificate", str(path)
    )
    assert rc == 0 and json.loads(out)["certificate"] == str(path)


def test_solve_certificate_needs_a_proof(capsys, tmp_path):
    path = tmp_path / "s.json"
    rc, out, err = run(
        capsys, "solve", "--grid", "5x5", "--seed", "1", "--no-minimal", "--certificate", str(path)
    )
    assert rc == 2 and "not proved minimal" in err and not path.exists()
    assert out == ""


def test_stdin_and_subprocess(tmp_path, cert_file):
    """The installed entry point reads '-' as standard input; exit codes as above."""
    r = subprocess.run(
        [sys.executable, "-m", "modlights", "verify", "-"],
        input=cert_file.read_text(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and r.stdout.startswith("certificate holds")
    r = subprocess.run(
        [sys.executable, "-m", "modlights", "verify", "-"],
        input="{",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr


# ------------------------------------------------------------------ the work bound (issue 31)
def one_line_error(rc, out, err, *words):
    assert rc == 2 and out == "", (rc, out, err)
    assert err.startswith("modlights verify: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err


def test_the_2_45_enumeration_is_refused_in_one_line(tmp_path):
    """The reproducer of issue 31 (a 120 KB certificate claiming an enumeration of 2^45
    coset elements) through the installed entry point: exit 2 at once, one line naming
    --max-work (it ran for days before the bound)."""
    from big_certificates import enumeration_over_2_45

    path = tmp_path / "huge.json"
    path.write_text(json.dumps(enumeration_over_2_45()))
    try:
        r = subprocess.run(
            [sys.executable, "-m", "modlights", "verify", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("modlights verify ran for more than 60 s")
    one_line_error(r.returncode, r.stdout, r.stderr, "--max-work", "2^45", "not checked")


def test_max_work(capsys, cert_file):
    rc, out, err = run(capsys, "verify", str(cert_file), "--max-work", "1e4")
    one_line_error(rc, out, err, "--max-work", "raise --max-work")
    for bound in ("inf", "1e12", "5000000000"):
        rc, out, err = run(capsys, "verify", str(cert_file), "--max-work", bound)
        assert rc == 0 and out.startswith("certificate holds") and err == ""


@pytest.mark.parametrize("bad", ["-1", "abc", "nan", ""])
def test_bad_max_work(capsys, cert_file, bad):
    rc, out, err = run(capsys, "verify", str(cert_file), f"--max-work={bad}")
    assert rc == 2 and out == "" and "--max-work" in err and err.count("\n") == 1


def test_the_file_size_counts_against_max_work(capsys, tmp_path, cert_file):
    """40 units a byte: a bound of 10^4 reads at most 250 bytes, of a file or stdin."""
    rc, out, err = run(capsys, "verify", str(cert_file), "--max-work", "10000")
    one_line_error(rc, out, err, "more than 250 bytes", "--max-work")
    r = subprocess.run(
        [sys.executable, "-m", "modlights", "verify", "-", "--max-work", "10000"],
        input=cert_file.read_text(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    one_line_error(r.returncode, r.stdout, r.stderr, "more than 250 bytes")


def test_deeply_nested_json_is_one_line(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    rc, out, err = run(capsys, "verify", str(path))
    one_line_error(rc, out, err, "not valid JSON")


def test_help_names_the_bound(capsys):
    rc, out, _ = run(capsys, "verify", "--help")
    assert rc == 0 and "--max-work N" in out
    assert "needs more work than --max-work allows" in " ".join(out.split())
