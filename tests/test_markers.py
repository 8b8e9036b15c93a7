"""The default run and CI's runs together hold every test (tests/suite_groups.py).

The README's ``python -m pytest`` runs what pyproject's ``addopts`` selects; .ci/run
runs it, then the groups it leaves out. Every test that is not ``slow`` or ``explore``
must be in one of those runs, a ``props`` test in a run of the ``full`` profile (its
every example), and each test file must keep a test in the default run. The tests'
markers come from this session's collection when it collected the whole suite (the
README's command does), else from a ``--collect-only`` subprocess.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st

import suite_groups
from suite_groups import COLLECTED, DEFAULT_EXAMPLES, GROUPS, cap_examples, sample, spread

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
INI = PYPROJECT["tool"]["pytest"]["ini_options"]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI_RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
#: CI's whole suite: every test but these
OUTSIDE_CI = "slow or explore"
#: files whose every test is in a group, and why the default run needs none of them
ALL_IN_GROUPS = {
    f"tests/web/{name}.py": "the static site in Chromium: test_browser.py keeps the "
    "default run's browser test, tests/cli/test_site_command.py checks the site's files"
    for name in ("test_site", "test_site_play", "test_site_workers")
}
#: the one Chromium test of the default run (Chromium's start costs seconds)
DEFAULT_BROWSER_TEST = "tests/web/test_browser.py::test_daily_played_to_the_end_earns_three_stars"


def matches(expr: str, marks: frozenset[str]) -> bool:
    """Whether a test with these markers is selected by the ``-m`` expression ``expr``
    (names, ``and``, ``or``, ``not``, parentheses; an empty expression selects all)."""
    if not expr.strip():
        return True
    tokens = re.findall(r"\(|\)|[\w.-]+", expr)
    if "".join(tokens) != re.sub(r"\s+", "", expr):
        raise ValueError(f"cannot read the -m expression {expr!r}")
    py = " ".join(t if t in ("(", ")", "and", "or", "not") else str(t in marks) for t in tokens)
    return bool(eval(py, {"__builtins__": {}}))  # noqa: S307 - True/False/and/or/not only


def default_expr() -> str:
    """The ``-m`` expression of the default run (pyproject's addopts)."""
    args = shlex.split(INI["addopts"])
    return args[args.index("-m") + 1]


def ci_runs() -> list[tuple[dict[str, str], str]]:
    """(environment, -m expression) of each ``python -m pytest`` line of .ci/run (the
    default run's expression for a line without ``-m``)."""
    runs = []
    for line in CI_RUN.splitlines():
        line = line.split("#", 1)[0].strip()
        if "python -m pytest" not in line:
            continue
        words = shlex.split(line.split("&&")[-1])
        env = {}
        while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
            k, v = words.pop(0).split("=", 1)
            env[k] = v
        assert words[:3] == ["python", "-m", "pytest"], line
        args = words[3:]
        expr = args[args.index("-m") + 1] if "-m" in args else default_expr()
        runs.append((env, expr))
    return runs


def _test_files() -> set[str]:
    """The test files under tests/ that define a test function."""
    return {
        p.relative_to(ROOT).as_posix()
        for p in TESTS.rglob("test_*.py")
        if re.search(r"^\s*(async )?def test_", p.read_text(encoding="utf-8"), re.M)
    }


_DUMP = """
import json, sys
import pytest

class Dump:
    def pytest_collection_finish(self, session):
        from suite_groups import COLLECTED
        with open(sys.argv[1], "w") as f:
            json.dump({k: sorted(v) for k, v in COLLECTED.items()}, f)

sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-m", "", "tests"],
                     plugins=[Dump()]))
"""


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> dict[str, frozenset[str]]:
    """{node id: markers} of every test of the suite."""
    files = {nodeid.split("::")[0] for nodeid in COLLECTED}
    if _test_files() <= files:
        return dict(COLLECTED)
    out = tmp_path_factory.mktemp("markers") / "collected.json"
    proc = subprocess.run(
        [sys.executable, "-c", _DUMP, str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, HYPOTHESIS_PROFILE="deterministic"),
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return {k: frozenset(v) for k, v in json.loads(out.read_text()).items()}


def test_the_readme_commands_are_cis():
    top = README.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    assert top[1] == 'pip install ".[test]" && python -m pytest', top
    assert top[1] in CI_RUN.splitlines(), "CI runs the README's test command as written"


def test_every_test_outside_slow_and_explore_runs_in_ci(collected):
    runs = ci_runs()
    missed, props_capped = [], []
    for nodeid, marks in collected.items():
        if matches(OUTSIDE_CI, marks):
            continue
        if not any(matches(expr, marks) for _, expr in runs):
            missed.append(nodeid)
        elif "props" in marks and not any(
            env.get("HYPOTHESIS_PROFILE") == "full" and matches(expr, marks) for env, expr in runs
        ):
            props_capped.append(nodeid)
    assert not missed, f"{len(missed)} tests no run of .ci/run selects, e.g. {missed[:5]}"
    assert not props_capped, (
        f"{len(props_capped)} props tests CI runs with {DEFAULT_EXAMPLES} examples only, "
        f"e.g. {props_capped[:5]}"
    )


def test_every_group_is_declared_left_out_of_the_default_run_and_run_by_ci(collected):
    declared = {m.split(":", 1)[0].strip() for m in INI["markers"]}
    assert set(GROUPS) <= declared, set(GROUPS) - declared
    assert "--strict-markers" in shlex.split(INI["addopts"]), "a misspelt marker must fail"
    for g in GROUPS:
        alone = frozenset({g})
        assert matches(default_expr(), alone) == (g == "props"), g  # props: capped, not out
        groups_runs = [expr for _, expr in ci_runs() if expr != default_expr()]
        assert any(matches(expr, alone) for expr in groups_runs), f".ci/run omits {g}"
        assert any(g in marks for marks in collected.values()), f"no test is marked {g}"


def test_every_test_file_keeps_a_test_in_the_default_run(collected):
    default = default_expr()
    files: dict[str, bool] = {}
    for nodeid, marks in collected.items():
        f = nodeid.split("::")[0]
        files[f] = files.get(f, False) or matches(default, marks)
    without = sorted(f for f, kept in files.items() if not kept and f not in ALL_IN_GROUPS)
    assert not without, f"test files with no test in the default run: {without}"
    assert set(ALL_IN_GROUPS) <= set(files), "ALL_IN_GROUPS names a file without tests"


def test_tests_that_drive_chromium_are_in_the_browser_group(collected):
    """A test of a module that drives Chromium (launches it, browser_pages.launch_chromium,
    or takes tests/web/conftest.py's ``browser`` fixture) is marked ``browser``, but for
    DEFAULT_BROWSER_TEST."""
    drivers = {
        p.relative_to(ROOT).as_posix()
        for p in TESTS.rglob("test_*.py")
        if re.search(
            r"=\s*launch_chromium\(|^(?:async )?def \w+\([^)]*\bbrowser\b",
            p.read_text(encoding="utf-8"),
            re.M,
        )
    }
    assert "tests/web/test_browser.py" in drivers
    unmarked = [
        nodeid
        for nodeid, marks in collected.items()
        if nodeid.split("::")[0] in drivers
        and "browser" not in marks
        and nodeid != DEFAULT_BROWSER_TEST
    ]
    assert not unmarked, f"Chromium tests not marked browser (pytest.mark.browser): {unmarked}"
    assert "browser" not in collected[DEFAULT_BROWSER_TEST]


def test_matches_reads_marker_expressions():
    ab = frozenset({"a", "b"})
    assert matches("a and b", ab) and not matches("a and not b", ab)
    assert matches("(c or b) and not (c)", ab) and matches("", ab)
    assert not matches("not slow and not matrix", frozenset({"matrix"}))
    with pytest.raises(ValueError):
        matches("a; import os", ab)


def test_sample_keeps_the_spread_cases_and_marks_the_rest():
    assert spread(10, 3) == [0, 4, 9] and spread(3, 5) == [0, 1, 2] and spread(4, 1) == [0]
    params = sample(["x", "y", "z", "w"], 2, ids=str.upper)
    assert [p.id for p in params] == ["X", "Y", "Z", "W"]
    assert [[m.name for m in p.marks] for p in params] == [[], ["matrix"], ["matrix"], []]
    heavy = sample([(1, 2), (3, 4)], 1, mark=pytest.mark.heavy, unpack=True)
    assert [p.values for p in heavy] == [(1, 2), (3, 4)]
    assert [m.name for m in heavy[1].marks] == ["heavy"] and not heavy[0].marks


def test_the_default_run_caps_the_examples_of_a_props_test():
    drawn = []

    @settings(max_examples=50)
    @given(st.integers())
    def prop(x):
        drawn.append(x)

    assert (
        cap_examples(prop, full=True) and prop._hypothesis_internal_use_settings.max_examples == 50
    )
    assert cap_examples(prop, full=False)
    prop()
    assert 1 <= len(drawn) <= DEFAULT_EXAMPLES, len(drawn)
    assert cap_examples(prop, full=False)  # a second call: still a props test, still capped
    assert prop._hypothesis_internal_use_settings.max_examples == DEFAULT_EXAMPLES

    @settings(max_examples=DEFAULT_EXAMPLES)
    @given(st.integers())
    def small(x):
        pass

    assert not cap_examples(small, full=False)
    assert suite_groups.DEFAULT_EXAMPLES == DEFAULT_EXAMPLES
