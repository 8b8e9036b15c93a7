"""The benchmark runner (bench/): the registry, a run with a missing peer, the results
files, bad arguments and the before/after comparison. Only tiny workloads run here."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.__main__ import main  # noqa: E402
from bench.registry import Missing, Subject, Timed  # noqa: E402
from bench.runner import run_workload  # noqa: E402

import bench  # noqa: E402
from bench import registry  # noqa: E402

assert Path(bench.__file__).resolve().parent == ROOT / "bench", bench.__file__

registry.load_all()


@pytest.fixture
def stub():
    """A registered stub workload: modlights and one peer with fixed self-measured
    times (0.2 s and 0.5 s: the ratio is 2.5 exactly), a peer that is not installed
    and a peer the workload forgets to provide."""
    calls = {"modlights": 0, "fast": 0}

    def fn(ctx):
        k = ctx["k"]

        def ml():
            calls["modlights"] += 1
            return Timed(0.2, k * k)

        def fast():
            calls["fast"] += 1
            return Timed(0.5, k * k)

        def check(ans):
            assert ans == k * k, "wrong answer"

        return {
            "modlights": Subject(ml, check),
            "fast": Subject(fast, check),
            "gone": Missing("stubpeer is not installed"),
        }

    registry.workload(
        "test-stub",
        help="a stub",
        peers=("fast", "gone", "forgotten"),
        groups=("test-group",),
        params={"k": 3},
        repeats=3,
    )(fn)
    yield calls
    del registry.REGISTRY["test-stub"]


def test_registry_lists_the_issue_group_and_every_workload(capsys):
    names = registry.names()
    assert {
        "gf2-cross-2000",
        "gf2-cross-10000",
        "knight-5000",
        "square-5000",
        "cross-z3-5000",
        "cross-z4-5000",
        "cross-z5-5000",
        "dense-gf2-4096",
        "dense-gf3-2000",
        "minimal-39",
        "batch-5x5",
    } <= set(registry.groups()["issue22"])
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    for n in names:
        assert n in out
    assert "issue22:" in out


def test_a_duplicate_name_is_refused():
    w = registry.get("smoke-cross")
    with pytest.raises(ValueError, match="registered twice"):
        registry.workload("smoke-cross", help="again")(lambda ctx: {})
    assert registry.get("smoke-cross") is w


def test_run_medians_ratios_and_missing_peers(stub):
    rec = run_workload(registry.get("test-stub"))
    c = rec["contenders"]
    assert stub == {"modlights": 4, "fast": 4}  # one warm-up round, untimed
    assert c["modlights"]["times"] == [0.2] * 3 and c["modlights"]["median"] == 0.2
    assert c["fast"]["ratio_to_modlights"] == pytest.approx(2.5)
    assert c["gone"] == {"missing": "stubpeer is not installed"}
    assert "did not provide" in c["forgotten"]["missing"]
    only = run_workload(registry.get("test-stub"), repeats=1, only=["modlights"])
    assert only["contenders"]["fast"] == {"missing": "not selected"}


def test_a_wrong_answer_is_reported_and_fails_the_run(stub, tmp_path, capsys):
    assert main(["test-stub", "--param", "k=4", "--out", str(tmp_path)]) == 0
    registry.get("test-stub").params["k"] = 5
    inner = registry.get("test-stub").func

    def wrong(ctx):
        out = inner(ctx)
        out["fast"] = Subject(lambda: Timed(0.1, -1), out["fast"].check)
        return out

    registry.get("test-stub").func = wrong
    rec = run_workload(registry.get("test-stub"))
    assert "wrong answer" in rec["contenders"]["fast"]["error"]
    assert "median" not in rec["contenders"]["fast"]
    assert main(["test-stub", "--no-save"]) == 1


def test_results_files_carry_the_machine_and_every_run(stub, tmp_path, capsys):
    for _ in range(2):
        assert main(["test-group", "--out", str(tmp_path), "--repeats", "2"]) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 2 and files[0].endswith("-test-stub.json"), files
    assert files[0][:4].isdigit() and files[0][4] == "-"
    doc = json.loads((tmp_path / files[0]).read_text())
    assert len(doc["runs"]) == 2
    run = doc["runs"][-1]
    assert run["repeats"] == 2 and run["params"] == {"k": 3}
    m = run["machine"]
    assert m["cores"] >= 1 and m["cpu"] and "load" in m and "bench_commit" in m
    assert "modlights_commit" in m
    md = (tmp_path / files[1]).read_text()
    assert "missing" in md and "stubpeer is not installed" in md and "2.50x" in md


@pytest.mark.parametrize(
    "argv, message",
    [
        (["no-such-workload"], "unknown workload"),
        (["test-stub", "--param", "k=x"], "takes a int"),
        (["test-stub", "--param", "nope=1"], "no parameter"),
        (["test-stub", "--param", "k"], "key=value"),
        (["test-stub", "--repeats", "0"], "repeats must be >= 1"),
        (
            ["compare", "--before", "/nonexistent", "--after", "/nonexistent", "test-stub"],
            "not a modlights source tree",
        ),
    ],
)
def test_bad_arguments_exit_2_with_a_message(stub, argv, message, capsys):
    assert main(argv + ["--no-save"]) == 2
    assert message in capsys.readouterr().err


def test_smoke_workload_runs_against_the_library(tmp_path, capsys):
    rec = run_workload(registry.get("smoke-cross"), params={"size": 6, "states": 3}, repeats=1)
    for name in ("modlights", "reference"):
        assert rec["contenders"][name]["times"], rec
        assert "error" not in rec["contenders"][name]


def _built(tree: Path) -> bool:
    return any((tree / "src" / "modlights").rglob("*.so"))


@pytest.mark.heavy  # 1.7 s: two subprocess trees timed twice; the default run keeps
# the runner's in-process tests
@pytest.mark.skipif(not _built(ROOT), reason="the source tree has no compiled module")
def test_compare_runs_both_trees_in_subprocesses(tmp_path, capsys):
    assert (
        main(
            [
                "compare",
                "--before",
                str(ROOT),
                "--after",
                str(ROOT),
                "--rounds",
                "1",
                "--repeats",
                "2",
                "smoke-cross",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "after/before" in out
    doc = json.loads(next(tmp_path.glob("*-compare-smoke-cross.json")).read_text())
    row = doc["runs"][0]["rows"][0]
    assert row["errors"] == {} and len(row["times"]["before"]) == 2
    assert row["after_over_before"] > 0


def test_ctrl_c_stops_the_run_with_status_130(capsys):
    def interrupted(ctx):
        def run():
            raise KeyboardInterrupt

        return {"modlights": run}

    registry.workload("test-interrupted", help="raises KeyboardInterrupt")(interrupted)
    try:
        assert main(["test-interrupted", "--no-save"]) == 130
        assert "interrupted" in capsys.readouterr().err
    finally:
        del registry.REGISTRY["test-interrupted"]


def test_a_failing_setup_is_reported_for_every_contender(stub, capsys):
    def broken(ctx):
        raise ImportError("no module named modlights.engines.nothing")

    registry.workload("test-broken", help="setup fails", peers=("fast",))(broken)
    try:
        rec = run_workload(registry.get("test-broken"), repeats=1)
        for name in ("modlights", "fast"):
            assert "setup failed: ImportError" in rec["contenders"][name]["missing"]
        assert main(["test-broken", "--no-save"]) == 1
    finally:
        del registry.REGISTRY["test-broken"]


def test_a_foreign_file_at_the_results_name_is_kept_aside(stub, tmp_path, capsys):
    assert main(["test-stub", "--out", str(tmp_path), "--repeats", "1"]) == 0
    path = next(tmp_path.glob("*-test-stub.json"))
    path.write_text('{"board": "not a results file"}')
    assert main(["test-stub", "--out", str(tmp_path), "--repeats", "1"]) == 0
    aside = list(tmp_path.glob("*-test-stub.unreadable-*.json"))
    assert len(aside) == 1 and "not a results file" in aside[0].read_text()
    assert len(json.loads(path.read_text())["runs"]) == 1
