"""The hardest-table workload (bench/workloads/hardest_table.py) on the smallest sizes:
its rows, the certificates it writes and checks, the rule that replaces a file only by
a strictly tighter one, and a bound that contradicts the published table failing the run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.runner import format_run, run_workload  # noqa: E402
from bench.workloads import hardest_table  # noqa: E402

import modlights as ml  # noqa: E402
from bench import registry  # noqa: E402

registry.load_all()


def _run(tmp_path: Path, sizes: str, **params) -> dict:
    w = registry.get("hardest-table")
    p = {
        **w.params,
        "sizes": sizes,
        "budget": 10.0,
        "cert": 1.0,
        "groups": 1.0,
        "out": str(tmp_path / "hardest"),
        "verify_timeout": 120.0,
        "progress": str(tmp_path / "progress.jsonl"),
        **params,
    }
    return run_workload(w, params=p)


def test_sizes_and_the_published_column():
    assert hardest_table.parse_sizes("1-3,2,9") == [1, 2, 3, 9]
    assert [hardest_table.published_text(k) for k in (17, 19, 23, 30, 84)] == [
        "199",
        "197",
        "239..305",
        "180..<900",
        "3579..3591",
    ]
    assert all(hardest_table.PUBLISHED[k] == k * k for k in (1, 10, 100))


@pytest.mark.heavy  # 5-20 s: four runs, each file checked by two subprocesses (a
# Python start each); the default run keeps the table's parsers above
def test_rows_files_and_a_file_replaced_only_by_a_tighter_one(tmp_path):
    rec = _run(tmp_path, "2,5")
    assert "error" not in rec["contenders"]["modlights"], rec["contenders"]
    rows = {r["size"]: r for r in rec["rows"]}
    assert (rows[5]["lower"], rows[5]["upper"], rows[5]["settled"]) == (15, 15, True)
    assert (rows[2]["nullity"], rows[5]["nullity"], rows[5]["published"]) == (0, 2, "15")
    path = tmp_path / "hardest" / "5x5.json"
    assert rows[5]["file"] == "new" and rows[5]["bytes"] == path.stat().st_size
    assert rows[5]["verify_py_ok"] is True and rows[5]["verify_c_ok"] is True
    cert = json.loads(path.read_text())
    assert ml.verify(cert) is True and cert["lower"] == cert["upper"] == 15
    assert len((tmp_path / "progress.jsonl").read_text().splitlines()) == 2
    assert "| size | nullity | published |" in format_run(rec)
    # a looser file (upper 16: true, and checked) is replaced; an as tight one is kept
    path.write_text(json.dumps({**cert, "upper": 16}))
    assert ml.verify(json.loads(path.read_text())) is True
    again = _run(tmp_path, "5")["rows"][0]
    assert (again["file"], again["upper"]) == ("replaced", 15)
    assert _run(tmp_path, "5", keep="5")["rows"][0]["file"] == "kept"
    assert _run(tmp_path, "5")["rows"][0]["file"] == "kept"


@pytest.mark.heavy  # 3-8 s: three runs, each file checked by two subprocesses
def test_a_bound_against_the_published_value_fails_the_run(tmp_path, monkeypatch):
    monkeypatch.setitem(hardest_table.PUBLISHED, 2, 5)
    rec = _run(tmp_path, "2")
    err = rec["contenders"]["modlights"]["error"]
    assert "2x2: published 5" in err and "2x2.json proves 4..4" in err
    missing = _run(tmp_path, "3", keep="3")["contenders"]["modlights"]["error"]
    assert "keep=3: no file" in missing
    # a file that does not check fails the run too
    bad = tmp_path / "hardest" / "2x2.json"
    bad.write_text(json.dumps({**json.loads(bad.read_text()), "lower": 3, "upper": 3}))
    assert "does not check" in _run(tmp_path, "2", keep="2")["contenders"]["modlights"]["error"]
