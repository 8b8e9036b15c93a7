"""``modlights info --explain``: the plan of the Solver (engine, why, the others)."""

from __future__ import annotations

import json

import modlights as ml
from modlights import cli


def test_explain_prints_the_plan(capsys):
    assert cli.main(["info", "--grid", "30x30", "--states", "3", "--explain"]) == 0
    text = capsys.readouterr().out
    plan = ml.Solver(ml.Board.grid(30, 30, states=3)).plan
    assert [line for line in text.splitlines() if line.startswith("engine:")] == [
        f"engine:     {plan.engine} (method 'auto', backend 'native')"
    ]
    assert f"why:        {plan.reason}" in text
    for name in plan.rejected:
        assert f"not {name}:" in text
    assert cli.main(["info", "--grid", "30x30", "--states", "3"]) == 0
    assert "not dense-zn" not in capsys.readouterr().out  # only with --explain


def test_explain_json_and_method(capsys):
    assert (
        cli.main(
            [
                "info",
                "--grid",
                "20x20",
                "--pattern",
                "knight",
                "--method",
                "chase-rowsolve",
                "--explain",
                "--json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["engine"] == doc["plan"]["engine"] == "chase-rowsolve"
    assert doc["plan"]["reason"] and "dense-gf2" in doc["plan"]["rejected"]
    assert cli.main(["info", "--grid", "5x5", "--method", "tensor"]) == 2
    err = capsys.readouterr().err
    assert "method='tensor' does not cover" in err and "\n" == err[-1] and err.count("\n") == 1
