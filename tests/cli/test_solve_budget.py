"""``modlights solve`` without --budget: the library's default (a search of about a
second), so the all-on 39 x 39 board of issue 32 is answered with its proved fewest
taps, and --budget still takes a count or seconds."""

from __future__ import annotations

import numpy as np

import modlights as ml
import modlights.solver as solver_module
from modlights.cli import main


def _field(out: str, name: str) -> str:
    for line in out.splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {name!r} line in:\n{out}")


def test_solve_39x39_all_on_prints_the_proved_minimum(capsys, monkeypatch):
    # the search takes about 0.5 s alone; the test must not depend on the machine's
    # load, so the default's deadline is made roomy (the figure is measured, not tested)
    monkeypatch.setattr(solver_module, "DEFAULT_SECONDS", 60.0)
    # the value independently: an explicit count budget that covers the coset (2^32)
    exact = ml.Solver(ml.Board.grid(39, 39)).solve(np.ones((39, 39), int), budget=2**33)
    assert exact.proven_minimal
    rc = main(["solve", "--grid", "39x39", "--state", "1" * (39 * 39)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert _field(out, "taps") == str(exact.length)
    assert _field(out, "minimal").startswith("yes, proved")


def test_budget_takes_counts_and_seconds(capsys):
    state = "1" * (39 * 39)
    rc = main(["solve", "--grid", "39x39", "--state", state, "--budget", "1000"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert _field(out, "minimal").startswith("not proved")  # 1000 of 2^32 elements
    rc = main(["solve", "--grid", "39x39", "--state", state, "--budget", "60s"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert _field(out, "minimal").startswith("yes, proved")
