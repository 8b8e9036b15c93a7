"""The benchmark report (bench/report.py): the committed figures under docs/figures are
the ones the script draws from the committed results, every figure docs/benchmarks.md
shows is one of them, and a malformed result file stops the report with a message
naming the file and the field."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import FIGURES, ReportError, load_results  # noqa: E402

from bench import report  # noqa: E402

FIG = ROOT / "docs" / "figures"
MANIFEST = json.loads((FIG / "figures.json").read_text())


def test_every_figure_of_the_benchmarks_page_is_drawn_by_the_report():
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    shown = set(re.findall(r"figures/([\w.-]+\.svg)", page))
    assert shown, "docs/benchmarks.md embeds no figure"
    assert shown == set(FIGURES), f"page shows {sorted(shown)}, the report draws {sorted(FIGURES)}"
    assert "figures/tables.md.inc" in page, "the page includes the report's tables"
    for name in shown:
        assert (FIG / name).is_file(), f"docs/figures/{name} is not committed"


def test_committed_figures_match_the_manifest_and_their_sources_exist():
    assert set(MANIFEST["figures"]) == set(FIGURES)
    for name, entry in MANIFEST["figures"].items():
        data = (FIG / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], (
            f"docs/figures/{name} differs from what bench/report.py wrote (edited by hand?)"
        )
        assert entry["sources"], name
        for src in entry["sources"]:
            assert (ROOT / "bench" / "results" / src).is_file(), f"{name}: {src} missing"
        text = data.decode()
        assert "measured on" in text or "<path" in text
        assert "<dc:date>" not in text, f"{name} carries a date in its metadata"


def test_the_committed_results_load_and_every_figure_has_runs():
    runs = load_results()
    for name, workloads in FIGURES.items():
        assert any(runs[w] for w in workloads), f"{name}: no run of {workloads}"


@pytest.mark.heavy  # 10 CPU s: every figure drawn twice with matplotlib
def test_report_regenerates_the_committed_files(tmp_path):
    mpl = pytest.importorskip(
        "matplotlib",
        reason="matplotlib is needed to draw the figures: pip install matplotlib (or '.[bench]')",
    )
    files = report.build_report()
    assert set(files) == set(FIGURES) | {"tables.md.inc", "figures.json"}
    for name, data in files.items():
        assert data, name
        (tmp_path / name).write_bytes(data)
    again = report.build_report()
    assert again == files, "two runs of the report differ: it is not deterministic"
    if mpl.__version__ != MANIFEST["matplotlib"]:
        pytest.skip(
            f"figures drawn with matplotlib {MANIFEST['matplotlib']}, this is "
            f"{mpl.__version__}: byte comparison skipped (the set of files matched)"
        )
    for name, data in files.items():
        committed = (FIG / name).read_bytes()
        assert data == committed, (
            f"docs/figures/{name} is not what `python -m bench.report` "
            "draws from bench/results: run it and commit the output"
        )


def _copy_results(tmp_path: Path) -> Path:
    d = tmp_path / "results"
    shutil.copytree(ROOT / "bench" / "results", d)
    return d


def _edit_one(d: Path, workload: str, edit) -> str:
    path = sorted(d.glob(f"*-{workload}.json"))[-1]
    data = json.loads(path.read_text())
    edit(data["runs"][-1])
    path.write_text(json.dumps(data))
    return path.name


@pytest.mark.parametrize(
    "workload, edit, field",
    [
        ("scaling-cross", lambda r: r.pop("machine"), "machine"),
        ("scaling-cross", lambda r: r["machine"].pop("cpu"), "machine.cpu"),
        ("scaling-cross", lambda r: r.pop("date"), "date"),
        ("minimal-rate", lambda r: r["contenders"]["modlights"].update(median="fast"), "median"),
        ("minimal-rate", lambda r: r["contenders"]["modlights"].update(median=-1.0), "median"),
        ("peers-cross", lambda r: r["contenders"].update(galois=[1, 2]), "not an object"),
        ("peers-cross", lambda r: r.update(params=None), "params"),
        ("scaling-cross", lambda r: r["figures"].update(x={"value": "big"}), "value"),
        ("minimal-rate", lambda r: r.update(workload="other"), "workload"),
    ],
)
def test_a_malformed_result_stops_the_report_naming_file_and_field(tmp_path, workload, edit, field):
    d = _copy_results(tmp_path)
    fname = _edit_one(d, workload, edit)
    with pytest.raises(ReportError) as e:
        load_results(d)
    assert fname in str(e.value) and field in str(e.value), str(e.value)
    assert report.main(["--results", str(d), "--out", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out").exists(), "nothing is written from a malformed result"


def test_a_result_file_that_is_not_json_or_not_the_runner_shape(tmp_path):
    d = _copy_results(tmp_path)
    (d / "2030-01-01-minimal-rate.json").write_text("{not json")
    with pytest.raises(ReportError, match="2030-01-01-minimal-rate.json: not a readable JSON"):
        load_results(d)
    (d / "2030-01-01-minimal-rate.json").write_text(json.dumps([1, 2]))
    with pytest.raises(ReportError, match="not a runner result file"):
        load_results(d)


@pytest.mark.heavy  # 3 s: the report draws every figure before the one without runs
def test_a_figure_without_runs_is_an_error_not_an_empty_picture(tmp_path):
    pytest.importorskip("matplotlib", reason="pip install matplotlib")
    d = _copy_results(tmp_path)
    for p in d.glob("*-minimal-rate.json"):
        p.unlink()
    with pytest.raises(ReportError, match="no minimal-rate run"):
        report.build_report(d)


def test_select_latest_keeps_the_latest_run_per_params():
    runs = [
        {"params": {"size": 8}, "date": "2026-01-01T00:00:00"},
        {"params": {"size": 8}, "date": "2026-02-01T00:00:00"},
        {"params": {"size": 16}, "date": "2025-01-01T00:00:00"},
    ]
    got = report.select_latest(runs)
    assert sorted((r["params"]["size"], r["date"][:7]) for r in got) == [
        (8, "2026-02"),
        (16, "2025-01"),
    ]
    assert report.select_latest(runs, size=16) == [runs[2]]
