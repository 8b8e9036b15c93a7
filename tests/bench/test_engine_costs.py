"""bench/workloads/engine_costs.py: the registry's cost constants measured and written
back to the one table (csrc/api/registry_costs.h), on tiny sides."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.runner import run_workload  # noqa: E402
from bench.workloads import engine_costs  # noqa: E402

from bench import registry  # noqa: E402

registry.load_all()
TABLE = ROOT / "csrc" / "api" / "registry_costs.h"


def _rows(text: str) -> dict[str, tuple[str, str]]:
    return {m[0]: (m[1], m[2]) for m in re.findall(r'\{"([a-z0-9-]+)", ([^,]+), ([^}]+)\}', text)}


def test_the_table_python_reads_is_the_c_header():
    from modlights.engines import registry as reg

    rows = _rows(TABLE.read_text())
    assert set(rows) == set(reg.PER_TILE) == set(reg.CROSSOVER_TILES)
    for name, (per, cross) in rows.items():
        assert reg.PER_TILE[name] == float(per), name
        assert reg.CROSSOVER_TILES[name] == eval(cross, {}), name  # "96 * 96"


def test_write_table_rewrites_the_crossovers_and_keeps_the_rest(tmp_path):
    path = tmp_path / "costs.h"
    text = TABLE.read_text()
    path.write_text(text)
    engine_costs.write_table(path, {"tensor": 1234, "lifted": 77})
    new, old = _rows(path.read_text()), _rows(text)
    assert new["tensor"] == (old["tensor"][0], "1234")
    assert new["lifted"] == (old["lifted"][0], "77")
    assert {k: v for k, v in new.items() if k not in ("tensor", "lifted")} == {
        k: v for k, v in old.items() if k not in ("tensor", "lifted")
    }
    outside = text.split("/* BEGIN COSTS")[0]
    assert path.read_text().startswith(outside)
    path.write_text("no markers")
    with pytest.raises(ValueError, match="BEGIN COSTS"):
        engine_costs.write_table(path, {"tensor": 1})


def test_write_table_rewrites_lifteds_rules(tmp_path):
    path = tmp_path / "costs.h"
    text = TABLE.read_text()
    path.write_text(text)
    engine_costs.write_table(path, {"lifted-zq": 99}, {2: 4.25, 3: 2.5}, {"cross": 0.5})
    new = path.read_text()
    assert _rows(new)["lifted-zq"][1] == "99"
    assert "#define ML__LIFTED_TORUS_RATIO_2 4.250" in new
    assert "#define ML__LIFTED_TORUS_RATIO_ODD 2.500" in new
    assert "#define ML__LIFTED_ZQ_RHO_CROSS 0.500" in new
    sym = re.search(r"#define ML__LIFTED_ZQ_RHO_SYM .*", text)[0]
    assert sym in new  # not measured: kept


def test_fits_take_the_least_time_lost():
    # lifted from 400 tiles: the boards below lose with it, those above win
    boards = [(100, 2.0, 1.0), (400, 1.0, 2.0), (900, 1.0, 5.0), (225, 3.0, 1.0)]
    assert engine_costs.fit_crossover(boards) == 400
    # the algebra when x <= ratio: it wins at x 1 and 2, loses at 4 -> between 2 and 4
    rs = [
        {"span": s, "k": 1, "algebra": a, "digits": d}
        for s, a, d in ((-2, 1.0, 2.0), (-1, 1.0, 3.0), (1, 3.0, 1.0))
    ]
    assert engine_costs.fit_ratio(rs, 9.0) == 3.0
    assert engine_costs.fit_ratio([], 9.0) == 9.0


def test_engine_costs_times_lifteds_parts(monkeypatch):
    """The Z/p^k figures on tiny boards: lifted against the chase, the torus rule and
    the singular rule with both strategies forced."""
    monkeypatch.setattr(engine_costs, "ZQ_CASES", [(4, "cross", True, (8, 12))])
    monkeypatch.setattr(engine_costs, "TORUS_CASES", [(4, "cross")])
    monkeypatch.setattr(engine_costs, "SINGULAR_CASES", [(4, "cross")])
    w = registry.get("engine-costs")
    params = {
        **w.params,
        "engines": "",
        "order": 0,
        "rounds": 1,
        "torus_side": "30",
        "singular_sides": "16",
    }
    figs = run_workload(w, params=params, repeats=1)["figures"]
    assert "the table chooses" in figs["zq Z/4 cross torus 12x12"]["note"]
    assert figs["lifted-zq crossover (zq)"]["value"] in (64, 144)
    assert "span 2, k 2" in figs["torus Z/4 cross near 30"]["note"]
    assert figs["torus ratio 2"]["value"] > 0
    assert figs["singular Z/4 cross 16x16"]["unit"] == "m / w"
    assert figs["singular rho cross"]["value"] > 0
    assert "MODLIGHTS_LIFTED_PARTS" not in __import__("os").environ


def test_engine_costs_records_crossovers_and_the_order_of_shared_boards(monkeypatch):
    monkeypatch.setitem(engine_costs.CASES, "tensor", (3, "square", False, (8, 12), "chase"))
    monkeypatch.setattr(
        engine_costs, "ORDER", [("algebraic-cross", "tensor", 3, "horizontal", False, 24, 24)]
    )
    w = registry.get("engine-costs")
    params = {**w.params, "engines": "tensor", "rounds": 1, "zq": 0, "torus": 0, "singular": 0}
    figs = run_workload(w, params=params, repeats=1)["figures"]
    assert figs["tensor registry_crossover"]["value"] > 0
    assert "tensor 12x12" in figs
    order = figs["order algebraic-cross / tensor"]
    assert "the table chooses" in order["note"]
    assert figs["order disagreements"]["value"] in (0, 1)
    with pytest.raises(ValueError, match="engines: names among"):
        run_workload(w, params={**params, "engines": "bishop"}, repeats=1)
