"""The fuzz regression corpus (tests/fuzz_corpus/): every case the fuzzer found and the
hand-made seeds, replayed through fuzz/replay.py in a subprocess, so that a crash of the
native code fails the test that names the case instead of killing pytest.

Each case must end "ok" (every answer equal to the reference engine's and checked with
Board.apply) or "refused" (a ValueError); a wrong answer, another exception or a dead
process fails it. The checks themselves are in fuzz/cases.py (shared with the fuzzer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import modlights

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fuzz_corpus"
REPLAY = ROOT / "fuzz" / "replay.py"
CASES = sorted(p.name for p in CORPUS.glob("*.json"))
#: seconds the whole corpus may take in one subprocess (each case is a small board)
TIMEOUT = 300


def replay(paths: list[Path], timeout: float = TIMEOUT) -> dict[str, dict]:
    """Run fuzz/replay.py on ``paths`` in subprocesses, with the modlights this test
    imports first on the path; {file name: {"result", "detail"}}. A process that dies
    marks the case it had started "crash" (with its exit status and the end of its
    stderr) and the replay goes on from the next case in a new process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(modlights.__file__).resolve().parent.parent)]
        + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    env["PYTHONFAULTHANDLER"] = "1"
    out: dict[str, dict] = {}
    todo = list(paths)
    while todo:
        proc = subprocess.run(
            [sys.executable, str(REPLAY), *map(str, todo)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        started = None
        for line in proc.stdout.splitlines():
            if not line.startswith("{"):
                continue
            d = json.loads(line)
            if "start" in d:
                started = d["start"]
            else:
                out[Path(d["case"]).name] = {"result": d["result"], "detail": d["detail"]}
                started = None
        if started is None:
            if proc.returncode not in (0, 1):
                raise AssertionError(
                    f"replay failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
                )
            break
        out[Path(started).name] = {
            "result": "crash",
            "detail": f"exit status {proc.returncode}\n{proc.stderr[-3000:]}",
        }
        todo = todo[[str(p) for p in todo].index(started) + 1 :]
    return out


@pytest.fixture(scope="module")
def results():
    return replay([CORPUS / c for c in CASES])


def test_corpus_is_there():
    assert len(CASES) >= 20, CASES


@pytest.mark.corpus  # the corpus group: every case replayed (CI: .ci/run)
@pytest.mark.parametrize("name", CASES)
def test_case(results, name):
    r = results[name]
    assert r["result"] in ("ok", "refused"), f"{name}: {r['result']}\n{r['detail']}"


def test_replay_reports_a_crash_as_the_case_that_caused_it(tmp_path, monkeypatch):
    """The subprocess protocol itself: a case that kills its process is named, and the
    cases after it still run."""
    good = CORPUS / "1x1-dense-n16.json"
    crash = tmp_path / "abort.json"
    crash.write_text(json.dumps({"board": {"kind": "abort"}, "method": "auto", "seed": 0}))
    env_hook = tmp_path / "sitecustomize.py"
    # a board kind that makes the replay process die with SIGABRT, as a crash would
    env_hook.write_text(
        "import os, sys\n"
        "sys.path.insert(0, {!r})\n"
        "import cases\n"
        "_make = cases.make_board\n"
        "def make_board(spec):\n"
        "    if spec['kind'] == 'abort':\n"
        "        os.abort()\n"
        "    return _make(spec)\n"
        "cases.make_board = make_board\n".format(str(ROOT / "fuzz"))
    )
    old = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(tmp_path), old) if p))
    out = replay([good, crash, good.with_name("graph-empty.json")])
    assert out["abort.json"]["result"] == "crash"
    assert out["1x1-dense-n16.json"]["result"] == "ok"
    assert out["graph-empty.json"]["result"] in ("ok", "refused")


def test_decode_is_total_and_deterministic():
    """Every byte string decodes, twice to the same case, to a board within the harness'
    limits (so each fuzz input stays small)."""
    sys.path.insert(0, str(ROOT / "fuzz"))
    try:
        import cases
    finally:
        sys.path.pop(0)
    import random

    rnd = random.Random(21)
    for _k in range(300):
        data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 80)))
        a, b = cases.decode(data), cases.decode(data)
        assert a == b
        json.dumps(a)
        spec = a["board"]
        if spec["kind"] == "grid":
            assert spec["rows"] * spec["cols"] <= cases.MAX_TILES
            assert 2 <= spec["states"] <= 255
    from modlights.engines.registry import METHOD_FAMILIES

    assert cases.METHODS == ("auto", *METHOD_FAMILIES)


def test_check_finds_a_wrong_answer(monkeypatch):
    """cases.check is not a smoke test: an engine whose solve() answers one tap off is
    a Finding, and so is an exception other than ValueError."""
    sys.path.insert(0, str(ROOT / "fuzz"))
    try:
        import cases
    finally:
        sys.path.pop(0)
    case = json.loads((CORPUS / "knight-n255-chase.json").read_text())
    assert cases.check(case) == "ok"
    from modlights.solver import Solver

    real = Solver.solve

    def off_by_one(self, *a, **kw):
        sol = real(self, *a, **kw)
        if self.backend == "native":
            sol.taps[0, 0] = (int(sol.taps[0, 0]) + 1) % self.n
        return sol

    monkeypatch.setattr(Solver, "solve", off_by_one)
    with pytest.raises(cases.Finding, match="misses the target"):
        cases.check(case)
    monkeypatch.setattr(Solver, "solve", real)
    monkeypatch.setattr(Solver, "solvable", lambda *a, **kw: 1 / 0)
    with pytest.raises(cases.Finding, match="ZeroDivisionError"):
        cases.check(case)
