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


def test_engine_costs_records_crossovers_and_the_order_of_shared_boards(monkeypatch):
    monkeypatch.setitem(engine_costs.CASES, "tensor", (3, "square", False, (8, 12), "chase"))
    monkeypatch.setattr(
        engine_costs, "ORDER", [("algebraic-cross", "tensor", 3, "horizontal", False, 24, 24)]
    )
    w = registry.get("engine-costs")
    params = {**w.params, "engines": "tensor", "rounds": 1}
    figs = run_workload(w, params=params, repeats=1)["figures"]
    assert figs["tensor registry_crossover"]["value"] > 0
    assert "tensor 12x12" in figs
    order = figs["order algebraic-cross / tensor"]
    assert "the table chooses" in order["note"]
    assert figs["order disagreements"]["value"] in (0, 1)
    with pytest.raises(ValueError, match="engines: names among"):
        run_workload(w, params={**params, "engines": "bishop"}, repeats=1)
