"""bench/workloads/patterns.py: the pattern matrix of issue 34 on tiny boards (every
case run in a child, its figures and the cases outside the targets)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.runner import run_workload  # noqa: E402

from bench import registry  # noqa: E402

registry.load_all()


def test_pattern_matrix_records_every_case_and_flags_those_past_the_limits():
    params = {
        "size": 6,
        "states": "3",
        "patterns": "cross",
        "wraps": "0",
        "rounds": 1,
        "limit": 0.0,  # every case is past a limit of 0 s
    }
    w = registry.get("pattern-matrix")
    rec = run_workload(w, params={**w.params, **params}, repeats=1)
    figs = rec["figures"]
    cases = [f"cross Z/3 {par} zero" for par in ("even", "odd")]
    for name in cases:
        assert figs[name]["value"] > 0, (name, figs[name])
    assert "x cross" in figs["cross Z/3 odd zero"]["note"]
    assert "x even" in figs["cross Z/3 odd zero"]["note"]
    assert figs["outside the targets"]["value"] == len(cases)
    assert "MiB" in figs["cross Z/3 even zero"]["note"]


def test_pattern_matrix_runs_the_custom_patterns_by_name_and_refuses_unknown_ones():
    from bench.workloads.patterns import CUSTOM

    w = registry.get("pattern-matrix")
    params = {
        "size": 7,
        "states": "2",
        "patterns": "pinwheel3",
        "wraps": "0",
        "parities": "odd",
        "rounds": 1,
    }
    rec = run_workload(w, params={**w.params, **params}, repeats=1)
    assert rec["figures"]["pinwheel3 Z/2 odd zero"]["value"] > 0
    assert max(max(abs(dr), abs(dc)) for dr, dc in CUSTOM["pinwheel3"]) == 3
    with pytest.raises(ValueError, match="patterns: names among"):
        run_workload(w, params={**w.params, **params, "patterns": "bishop"}, repeats=1)


@pytest.mark.heavy  # one child interpreter per n
def test_nullity_giant_records_the_nullity_beside_the_dense_engine():
    import modlights as ml

    w = registry.get("nullity-giant")
    rec = run_workload(w, params={**w.params, "size": 5, "states": "2,3"}, repeats=1)
    for n in (2, 3):
        want = ml.Solver(ml.Board.grid(5, 5, states=n), method="dense").nullity
        assert rec["figures"][f"nullity Z/{n} 5^2"]["note"].startswith(f"nullity {want}")
