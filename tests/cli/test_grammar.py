"""One grammar for the ``modlights`` command: a flag means the same in every command
(docs/reference/cli.md), old spellings whose meaning changed are refused with a message
naming the new one, and every error is one line on stderr with exit 2.

The command runs in this process (``cli.main``, what the console script calls, with
its own stdin, stdout and stderr; tests/cli/test_cli.py starts it as a process); expected
answers come from the library (generate, Solver, seed_from).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pathlib
import re
import subprocess
import sys
from unittest import mock

import pytest

import modlights as ml
from modlights.cli import build_parser, common, main
from modlights.model.patterns import pattern_name
from modlights.play.prng import seed_from

# the repository (examples/, docs/): this file's, wherever modlights is installed
ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``modlights ARGS`` run in this process (``cli.main``, as the console script runs
    it; the process start is tests/cli/test_cli.py's subject): its exit code, stdout and
    stderr, from the repository's root."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            mock.patch.object(sys, "stdin", io.StringIO(stdin or "")),
        ):
            code = main(list(args))
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["modlights", *args], code, out.getvalue(), err.getvalue())


def one_error_line(p: subprocess.CompletedProcess) -> str:
    """The error of a run that must fail as bad input: exit 2, nothing on stdout, one
    line on stderr (no traceback); returns that line."""
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stdout == "", p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    return lines[0]


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def options(flag: str) -> dict[str, argparse.Action]:
    """{command: its action for ``flag``} over every command that takes ``flag``."""
    out = {}
    for name, sub in subparsers().items():
        for action in sub._actions:
            if flag in action.option_strings:
                out[name] = action
    return out


# ------------------------------------------------------------------- a flag, one meaning
#: flags whose value has a second form in one command: bench takes a list of --states
#: values, hardest the seconds form of --budget (checked by the tests below)
SECOND_FORMS = {"--states": {"N[,N...]"}, "--budget": {"SECONDSs"}}


def test_every_shared_flag_has_one_metavar():
    seen: dict[str, set] = {}
    for sub in subparsers().values():
        for action in sub._actions:
            for flag in action.option_strings:
                seen.setdefault(flag, set()).add(action.metavar)
    for flag, metavars in seen.items():
        assert len(metavars - SECOND_FORMS.get(flag, set())) == 1, (flag, metavars)
    assert seen["--locked"] == seen["--holes"] == {"MASK|POSITIONS"}
    assert seen["--seed"] == {"INT|TEXT"} and seen["--code"] == {"CODE"}


def test_shared_flags_use_the_one_parser_of_common():
    assert {a.type for a in options("--seed").values()} == {common._parse_seed}
    budgets = options("--budget")
    assert budgets["solve"].type is common._parse_budget
    assert budgets["hardest"].type is common._parse_seconds_budget
    assert {a.type for a in options("--locked").values()} == {None}  # parsed per board


def test_locked_and_holes_name_tiles_in_generate_and_play():
    locked, holes, seed = [(0, 0), (0, 1)], [(4, 4)], "level one"
    want = ml.generate(5, 5, locked=locked, holes=holes, seed=seed)
    p = run(
        "generate",
        "--grid",
        "5x5",
        "--locked",
        "0,0;0,1",
        "--holes",
        "4,4",
        "--seed",
        seed,
        "--json",
    )
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["code"] == want.code
    # the same tiles as a 0/1 mask
    mask = "11000/00000/00000/00000/00000"
    p = run(
        "generate", "--grid", "5x5", "--locked", mask, "--holes", "4,4", "--seed", seed, "--json"
    )
    assert p.returncode == 0 and json.loads(p.stdout)["code"] == want.code, p.stderr
    # play: the puzzle generate makes, as its code plays
    a = run(
        "play",
        "--grid",
        "5x5",
        "--locked",
        "0,0;0,1",
        "--holes",
        "4,4",
        "--seed",
        seed,
        "--keys",
        "right space q",
    )
    b = run("play", "--code", want.code, "--keys", "right space q")
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert a.stdout.splitlines()[1:] == b.stdout.splitlines()[1:]  # all but the title


def test_counts_have_their_own_flags():
    want = ml.generate(6, 6, 3, "cross", "hard", locked=2, holes=1, seed=7)
    p = run(
        "generate",
        "--grid",
        "6x6",
        "--states",
        "3",
        "--difficulty",
        "hard",
        "--locked-count",
        "2",
        "--holes-count",
        "1",
        "--seed",
        "7",
        "--json",
    )
    assert p.returncode == 0 and json.loads(p.stdout)["code"] == want.code, p.stderr
    a = run(
        "play",
        "--grid",
        "6x6",
        "--states",
        "3",
        "--difficulty",
        "hard",
        "--locked-count",
        "2",
        "--holes-count",
        "1",
        "--seed",
        "7",
        "--keys",
        "q",
    )
    b = run("play", "--code", want.code, "--keys", "q")
    assert a.returncode == 0 and a.stdout.splitlines()[1:] == b.stdout.splitlines()[1:]


@pytest.mark.parametrize("command", ["generate", "play"])
@pytest.mark.parametrize("flag", ["--locked", "--holes"])
def test_a_count_given_to_locked_or_holes_is_refused_naming_the_count_flag(command, flag):
    extra = ["--keys", "q"] if command == "play" else []
    line = one_error_line(run(command, "--grid", "5x5", flag, "2", "--seed", "1", *extra))
    assert f"{flag}-count 2" in line


def test_locked_and_locked_count_together_are_refused():
    line = one_error_line(run("generate", "--locked", "0,0", "--locked-count", "1", "--seed", "1"))
    assert "--locked" in line and "--locked-count" in line and "not both" in line


def test_play_takes_code_as_an_option_and_positional_alias():
    p = ml.generate(4, 4, 3, locked=2, seed=5)
    keys = " ".join(["?"] * p.min_taps)
    a = run("play", "--code", p.code, "--keys", keys)
    b = run("play", p.code, "--keys", keys)
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert a.stdout == b.stdout and f"SOLVED in {p.min_taps} taps" in a.stdout
    assert "code once" in one_error_line(run("play", p.code, "--code", p.code, "--keys", "q"))
    out = run("generate", "--grid", "4x4", "--states", "3", "--locked-count", "2", "--seed", "5")
    assert f"play:        modlights play --code {p.code}" in out.stdout  # what it prints works


def test_daily_takes_date_as_an_option_and_positional_alias():
    a = run("daily", "--date", "2026-11-22", "--json")
    b = run("daily", "2026-11-22", "--json")
    assert a.returncode == 0 and a.stdout == b.stdout, a.stderr
    codes = [d["code"] for d in json.loads(a.stdout)["puzzles"]]
    assert codes == [p.code for p in ml.daily("2026-11-22")]
    assert "date once" in one_error_line(run("daily", "2026-11-22", "--date", "2026-11-23"))
    assert "--daily" in one_error_line(run("play", "--date", "2026-11-22", "--keys", "q"))


# ------------------------------------------------------------------------------ --budget
def test_budget_is_count_or_seconds_in_solve():
    for budget in ("100000", "2s", "0.5s"):
        p = run(
            "solve", "--grid", "5x5", "--states", "3", "--seed", "1", "--budget", budget, "--json"
        )
        assert p.returncode == 0, p.stderr
        doc = json.loads(p.stdout)
        assert not ml.Board.grid(5, 5, 3).apply(doc["state"], doc["taps"]).any()


def test_hardest_takes_seconds_and_refuses_a_bare_number_naming_the_seconds_form():
    p = run("hardest", "--grid", "3x3", "--states", "3", "--budget", "30s", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    h = ml.Solver(ml.Board.grid(3, 3, 3)).hardest()
    assert doc["proven"] and doc["min_taps"] == h.min_taps
    line = one_error_line(run("hardest", "--grid", "3x3", "--budget", "30"))
    assert "--budget 30s" in line and "count" in line
    line = one_error_line(run("hardest", "--grid", "3x3", "--budget", "soon"))
    assert "seconds" in line and "count" not in line  # only what hardest allows


def test_budget_parsers():
    assert common._parse_budget("12") == 12 and isinstance(common._parse_budget("12"), int)
    assert common._parse_budget("1.5s") == 1.5 and common._parse_budget(" 3S ") == 3.0
    assert common._parse_seconds_budget("120s") == 120.0
    for bad in ("-1", "x", "infs", "nans", "-1s", "1.5", "", "s"):
        with pytest.raises(argparse.ArgumentTypeError, match="--budget"):
            common._parse_budget(bad)
    for bad in ("12", "x", "infs"):
        with pytest.raises(argparse.ArgumentTypeError, match="--budget"):
            common._parse_seconds_budget(bad)


# -------------------------------------------------------------------------------- --seed
def test_seed_is_int_or_text_in_every_command_that_takes_one():
    board = ml.Board.grid(4, 4, 3)
    for seed, rng in (("7", 7), ("hello", seed_from("hello")), ("-1", seed_from(-1))):
        p = run("solve", "--grid", "4x4", "--states", "3", "--seed", seed, "--json")
        assert p.returncode == 0, p.stderr
        doc = json.loads(p.stdout)
        assert doc["state"] == board.random_state(rng=rng, solvable=True).tolist()
    p = run("bench", "--sizes", "12", "--repeats", "1", "--seed", "hello", "--quiet", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)[0]["board"] == "12x12", p.stderr
    p = run("generate", "--grid", "4x4", "--no-unique", "--seed", "hello", "--json")
    assert json.loads(p.stdout)["code"] == ml.generate(4, 4, unique=False, seed="hello").code
    for command in ("solve", "generate", "play", "bench"):
        assert "--seed INT|TEXT" in subparsers()[command].format_help()
    assert "--seed" in one_error_line(run("solve", "--grid", "3x3", "--seed", "   "))


def test_seed_parser():
    assert common._parse_seed("12") == 12 and common._parse_seed("-3") == -3
    assert common._parse_seed(" a b ") == "a b" and common._parse_seed("1e3") == "1e3"
    assert common._rng_seed(5) == 5 and common._rng_seed("x") == seed_from("x")
    for bad in ("", " ", "x" * (common.MAX_SEED_TEXT + 1)):
        with pytest.raises(argparse.ArgumentTypeError, match="--seed"):
            common._parse_seed(bad)


# ------------------------------------------------------------------ help and error text
@pytest.mark.parametrize("command", ["solve", "info", "hardest"])
def test_help_says_grid_or_code_in_every_place(command):
    text = run(command, "--help").stdout
    required = [line for line in text.splitlines() if "required" in line]
    assert required and all("--code" in line for line in required), required


@pytest.mark.parametrize(
    "argv,flag,allowed",
    [
        (["solve", "--grid", "3x3", "--states", "1"], "--states", "2 to 255"),
        (["info", "--grid", "3x3", "--states", "256"], "--states", "2 to 255"),
        (["generate", "--states", "1"], "--states", "2 to 255"),
        (["hardest", "--grid", "3x3", "--states", "x"], "--states", "whole number"),
        (["bench", "--states", "2,1"], "--states", "2 to 255"),
        (["play", "--daily", "4", "--keys", "q"], "--daily", "1 to 3"),
        (["solve", "--grid", "3x3", "--png-scale", "0"], "--png-scale", "1 to 64"),
        (["generate", "--locked-count", "-1"], "--locked-count", ">= 0"),
        (["solve", "--grid", "3x3", "--budget", "lots"], "--budget", "2s"),
    ],
)
def test_bad_option_values_are_one_line_naming_the_flag_once(argv, flag, allowed):
    line = one_error_line(run(*argv))
    assert line.count(flag) == 1 and allowed in line, line


def test_info_explain_prints_one_engine_line():
    p = run("info", "--grid", "5x5", "--states", "3", "--explain")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    plan = ml.Solver(ml.Board.grid(5, 5, 3)).plan
    engine = [line for line in lines if "engine:" in line]
    assert engine == [f"engine:     {plan.engine} (method 'auto', backend 'native')"]
    assert f"why:        {plan.reason}" in lines
    assert [line for line in lines if line.startswith("  not ")] == [
        f"  not {name}: {why}" for name, why in plan.rejected.items()
    ]
    plain = run("info", "--grid", "5x5", "--states", "3").stdout.splitlines()
    assert [line for line in plain if line.startswith("engine:")] == engine


# ------------------------------------------------------------------------------- check
def test_check_of_an_empty_pack_is_an_error_and_only_that(tmp_path):
    f = tmp_path / "empty.txt"
    for text, flags in (("", []), ("\n\n", ["--json"]), ("# a comment\n  # another\n", ["-v"])):
        f.write_text(text)
        assert "lists no puzzle codes" in one_error_line(run("check", str(f), *flags))
    assert "lists no puzzle codes" in one_error_line(run("check", "-", stdin="\n# x\n"))


def test_shipped_level_labels_agree_with_check():
    """examples/levels.txt: each code's comment ("N: RxC, S states, PATTERN, DIFFICULTY,
    fewest K taps") says what `modlights check -v` computes for it."""
    path = ROOT / "examples" / "levels.txt"
    p = run("check", str(path), "-v")
    assert p.returncode == 0, p.stdout + p.stderr
    computed = {}
    for line in p.stdout.splitlines():
        m = re.match(
            r"line (\d+): ok +(\S+): (\d+)x(\d+) n=(\d+), fewest (\d+) \(proved\), (\w+),", line
        )
        if m:
            ln, code, r, c, n, k, difficulty = m.groups()
            computed[code] = (f"{r}x{c}", int(n), int(k), difficulty)
    labels = 0
    for line in path.read_text().splitlines():
        m = re.match(
            r"(\S+)\s+# \d+: (\d+x\d+), (\d+) states, (\w+), (\w+), fewest (\d+) taps$", line
        )
        if not m:
            continue
        code, shape, n, pattern, difficulty, k = m.groups()
        labels += 1
        assert computed[code] == (shape, int(n), int(k), difficulty), (line, computed[code])
        assert pattern == pattern_name(ml.Puzzle.from_code(code).board.pattern), line
    assert labels == len(computed) == 8
