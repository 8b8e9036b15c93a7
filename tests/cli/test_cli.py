"""The `modlights` command: printed taps really solve the board, exit codes, JSON, info.

Expected results are computed with the library (Board.apply, Solver), never hard-coded.
"""

import io
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import modlights as ml
from modlights.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def section(out, header):
    """The grid printed under a line starting with ``header``: (values, holes, locked)."""
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[i + 1 :]:
        if not line.strip():
            break
        rows.append(line)
    vals, holes, locked = [], [], []
    for line in rows:
        toks = line.split()
        vals.append([0 if t == "." else int(t.rstrip("*")) for t in toks])
        holes.append([t == "." for t in toks])
        locked.append([t.endswith("*") for t in toks])
    return np.array(vals), np.array(holes), np.array(locked)


def field(out, name):
    for line in out.splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {name!r} line in:\n{out}")


# Each case: CLI arguments, and the same board built with the library.
CASES = [
    (["--grid", "3x3", "--state", "011110110"], lambda: ml.Board.grid(3, 3), 0),
    (["--grid", "5x5", "--states", "3", "--seed", "7"], lambda: ml.Board.grid(5, 5, 3), 0),
    (["--grid", "5x5", "--seed", "11"], lambda: ml.Board.grid(5, 5), 0),
    (
        ["--grid", "4x4", "--holes", "0,0;3,3", "--locked", "0100000000000000", "--seed", "2"],
        lambda: ml.Board.grid(4, 4, holes=[(0, 0), (3, 3)], locked=[(0, 1)]),
        0,
    ),
    (
        ["--grid", "4x5", "--states", "4", "--pattern", "square", "--wrap", "--seed", "5"],
        lambda: ml.Board.grid(4, 5, 4, "square", wrap=True),
        0,
    ),
    (
        [
            "--grid",
            "3x4",
            "--states",
            "5",
            "--pattern=-1,0;1,0;0,1",
            "--seed",
            "3",
            "--backend",
            "reference",
        ],
        lambda: ml.Board.grid(3, 4, 5, [(-1, 0), (1, 0), (0, 1)]),
        0,
    ),
    (
        ["--grid", "2x3", "--states", "12", "--state", "5,8,6 / 10,3,11", "--target", "1"],
        lambda: ml.Board.grid(2, 3, 12),
        1,
    ),
    (
        [
            "--grid",
            "3x3",
            "--states",
            "3",
            "--state",
            "000/000/000",
            "--target",
            "012/120/201",
            "--locked",
            "010/000/000",
            "--holes",
            "2,2",
        ],
        lambda: ml.Board.grid(3, 3, 3, locked=[(0, 1)], holes=[(2, 2)]),
        np.array([[0, 1, 2], [1, 2, 0], [2, 0, 0]]),
    ),
]


@pytest.mark.parametrize("args,make,target", CASES)
def test_solve_text_taps_solve_the_board(capsys, args, make, target):
    rc, out, err = run(capsys, "solve", *args)
    assert rc == 0, err
    board = make()
    state, holes, locked = section(out, "state:")
    taps, taps_holes, taps_locked = section(out, "taps (")
    assert state.shape == taps.shape == board.shape
    assert (holes == board.holes).all() and (taps_holes == board.holes).all()
    assert (locked == board.locked).all() and (taps_locked == board.locked).all()
    expected = board.coerce_target(target)
    assert np.array_equal(board.apply(state, taps), expected)
    n_taps = int(field(out, "taps"))
    assert n_taps == int(taps.sum())
    sol = ml.Solver(board).solve(state, target)
    proved = field(out, "minimal").startswith("yes")
    assert proved == sol.proven_minimal
    if proved:
        assert n_taps == sol.length


def test_solve_classic_state_given_digits_with_row_separators(capsys):
    rc, out, _ = run(capsys, "solve", "--grid", "3x3", "--state", "011\n110 / 110")
    assert rc == 0
    state, _, _ = section(out, "state:")
    b = ml.Board.grid(3, 3)
    assert np.array_equal(state, b.coerce_state([[0, 1, 1], [1, 1, 0], [1, 1, 0]]))


def test_seed_is_reproducible_and_state_is_solvable(capsys):
    a = run(capsys, "solve", "--grid", "4x4", "--states", "3", "--seed", "42")
    b = run(capsys, "solve", "--grid", "4x4", "--states", "3", "--seed", "42")
    assert a == b and a[0] == 0
    rc, out, _ = run(capsys, "solve", "--grid", "4x4", "--states", "3")
    assert rc == 0 and "--seed" in out  # the random seed is shown for repeating


def test_solve_json(capsys):
    rc, out, err = run(
        capsys, "solve", "--grid", "5x5", "--states", "3", "--seed", "9", "--holes", "2,2", "--json"
    )
    assert rc == 0, err
    doc = json.loads(out)
    board = ml.Board.grid(5, 5, 3, holes=[(2, 2)])
    state, taps = np.array(doc["state"]), np.array(doc["taps"])
    assert not board.apply(state, taps).any()
    sol = ml.Solver(board).solve(state)
    assert doc["length"] == int(taps.sum()) == sol.length
    assert doc["proven_minimal"] == sol.proven_minimal
    assert doc["kernel_size"] == ml.Solver(board).kernel_size
    assert doc["holes"] == [[2, 2]] and doc["seed"] == 9
    assert sorted(map(tuple, doc["moves"])) == sorted(sol.moves())


def test_no_minimal_and_budget(capsys):
    board = ml.Board.grid(5, 5)
    for extra in (["--no-minimal"], ["--budget", "1"], ["--budget", "0.5s"]):
        rc, out, err = run(capsys, "solve", "--grid", "5x5", "--seed", "4", "--json", *extra)
        assert rc == 0, err
        doc = json.loads(out)
        assert not board.apply(doc["state"], doc["taps"]).any()
    rc, out, _ = run(capsys, "solve", "--grid", "5x5", "--seed", "4", "--no-minimal")
    assert rc == 0 and "not searched" in field(out, "minimal")


INFO_BOARDS = [
    (["--grid", "5x5"], lambda: ml.Board.grid(5, 5)),
    (["--grid", "4x4"], lambda: ml.Board.grid(4, 4)),
    (
        ["--grid", "3x3", "--states", "3", "--pattern", "diagonal"],
        lambda: ml.Board.grid(3, 3, 3, "diagonal"),
    ),
    (["--grid", "4x4", "--states", "6", "--wrap"], lambda: ml.Board.grid(4, 4, 6, wrap=True)),
    (
        ["--grid", "3x4", "--states", "4", "--locked", "1,1"],
        lambda: ml.Board.grid(3, 4, 4, locked=[(1, 1)]),
    ),
]


@pytest.mark.parametrize("n, pattern", [(101, "-3,1"), (6, "-30,1"), (2, "-40,0")])
def test_info_counts_past_the_int_to_str_limit(capsys, n, pattern):
    """|ker A| with more digits than Python converts by default: the text names its
    factorisation (checked against the solver), --json writes the exact integer."""
    rows, cols = 600, 500
    board = ml.Board.grid(rows, cols, states=n, pattern=[tuple(map(int, pattern.split(",")))])
    s = ml.Solver(board)
    rc, out, err = run(
        capsys, "info", "--grid", f"{rows}x{cols}", "--states", str(n), f"--pattern={pattern}"
    )
    assert rc == 0, err
    text = field(out, "|ker A|")
    factors, digits = text.split(" (about ")
    value = 1
    for part in factors.split(" * "):
        p, _, e = part.partition("^")
        value *= int(p) ** int(e or 1)
    assert value == s.kernel_size
    rc, out, err = run(
        capsys,
        "info",
        "--grid",
        f"{rows}x{cols}",
        "--states",
        str(n),
        f"--pattern={pattern}",
        "--json",
    )
    assert rc == 0, err
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert abs(int(digits.split()[0]) - len(str(s.kernel_size))) <= 1
        assert json.loads(out)["kernel_size"] == s.kernel_size
    finally:
        sys.set_int_max_str_digits(limit)


@pytest.mark.parametrize("args,make", INFO_BOARDS)
def test_info_matches_solver(capsys, args, make):
    board = make()
    s = ml.Solver(board)
    square = board.n_cells == board.n_taps
    rc, out, err = run(capsys, "info", *args, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["n"] == board.states
    assert doc["tiles"] == board.n_cells and doc["taps"] == board.n_taps
    assert doc["rank"] == s.rank and doc["nullity"] == s.nullity
    assert doc["kernel_size"] == s.kernel_size
    assert doc["unique"] == s.is_unique and doc["invertible"] == s.is_invertible
    assert doc["det"] == (s.det() if square else None)

    rc, out, err = run(capsys, "info", *args)
    assert rc == 0, err
    assert int(field(out, "n")) == board.states
    assert int(field(out, "tiles")) == board.n_cells
    assert int(field(out, "taps")) == board.n_taps
    assert int(field(out, "rank").split()[0]) == s.rank
    assert int(field(out, "nullity").split()[0]) == s.nullity
    assert int(field(out, "|ker A|")) == s.kernel_size
    assert field(out, "unique") == ("yes" if s.is_unique else "no")
    assert field(out, "invertible") == ("yes" if s.is_invertible else "no")
    det = field(out, "det")
    if square:
        assert int(det.split()[0]) == s.det()
    else:
        assert det == "n/a (not square)"


def test_unsolvable_exits_1(capsys):
    board = ml.Board.grid(5, 5)
    state = np.zeros((5, 5), dtype=int)
    state[0, 0] = 1
    assert not ml.Solver(board).solvable(state)
    text = "".join(map(str, state.ravel()))
    for extra in ([], ["--json"]):
        rc, out, err = run(capsys, "solve", "--grid", "5x5", "--state", text, *extra)
        assert rc == 1
        assert "unsolvable" in err and "Traceback" not in err
        assert out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--grid", "5x", "--seed", "1"],
        ["solve", "--seed", "1"],  # no --grid
        ["solve", "--grid", "3x3", "--states", "1"],
        ["solve", "--grid", "3x3", "--states", "256"],
        ["solve", "--grid", "3x3", "--pattern", "nope"],
        ["solve", "--grid", "3x3", "--pattern", "0,0;x,1"],
        ["solve", "--grid", "3x3", "--state", "0101"],  # wrong length
        ["solve", "--grid", "3x3", "--state", "01010101a"],
        ["solve", "--grid", "3x3", "--states", "3", "--state", "000000003"],
        ["solve", "--grid", "3x3", "--locked", "1,1", "--holes", "1,1"],
        ["solve", "--grid", "3x3", "--holes", "3,0"],  # off the board
        ["solve", "--grid", "3x3", "--holes", "0101"],
        ["solve", "--grid", "3x3", "--target", "2"],
        ["solve", "--grid", "3x3", "--target", "-1"],
        ["solve", "--grid", "3x3", "--budget", "lots"],
        ["solve", "--grid", "3x3", "--state", "000000000", "--seed", "1"],
        ["solve", "--grid", "3x3", "--backend", "gpu"],  # argparse
        ["solve", "--grid", "3x3", "--states", "three"],  # argparse
        ["info", "--grid", "3x3", "--state", "000000000"],  # not an info option
        ["frobnicate"],
        [],
    ],
)
def test_bad_input_exits_2(capsys, argv):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert err.strip() and "Traceback" not in err


def test_help_has_examples(capsys):
    for cmd in ("solve", "info"):
        rc, out, _ = run(capsys, cmd, "--help")
        assert rc == 0 and "examples:" in out and "--grid" in out


def test_python_m_modlights_subprocess():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "modlights",
            "solve",
            "--grid",
            "4x4",
            "--states",
            "5",
            "--seed",
            "8",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    board = ml.Board.grid(4, 4, 5)
    assert not board.apply(doc["state"], doc["taps"]).any()
    p = subprocess.run(
        [sys.executable, "-m", "modlights", "solve", "--grid", "5x5", "--state", "1" + "0" * 24],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert p.returncode == 1 and "unsolvable" in p.stderr and "Traceback" not in p.stderr


# ----------------------------------------------------------------------------- puzzles
def test_generate_prints_puzzle_and_code(capsys):
    rc, out, err = run(
        capsys,
        "generate",
        "--grid",
        "6x6",
        "--states",
        "3",
        "--locked-count",
        "2",
        "--difficulty",
        "hard",
        "--seed",
        "7",
    )
    assert rc == 0, err
    code = next(line.split()[-1] for line in out.splitlines() if line.startswith("code:"))
    p = ml.Puzzle.from_code(code)
    assert p == ml.generate(6, 6, 3, "cross", "hard", locked=2, seed=7)
    assert f"fewest taps: {p.min_taps} (proved)" in out
    vals, holes, locked = section(out, "start:")
    assert np.array_equal(vals, p.start)


def test_generate_default_adds_locks_for_uniqueness(capsys):
    rc, out, err = run(capsys, "generate", "--seed", "3", "--json")
    assert rc == 0, err
    doc = json.loads(out)
    p = ml.Puzzle.from_code(doc["code"])
    assert ml.Solver(p.board).kernel_size == 1 and doc["kernel_size"] == 1
    assert len(doc["locked"]) >= 1 and doc["min_taps"] == p.min_taps
    rc, out, err = run(capsys, "generate", "--grid", "4x4", "--locked-count", "0", "--seed", "1")
    assert rc == 2 and "unique" in err


def test_generate_bad_difficulty(capsys):
    with pytest.raises(SystemExit):
        build = __import__("modlights.cli", fromlist=["build_parser"]).build_parser()
        build.parse_args(["generate", "--difficulty", "insane"])
    rc, out, err = run(capsys, "generate", "--difficulty", "insane")
    assert rc == 2


def test_daily_command(capsys):
    rc, out, err = run(capsys, "daily", "--date", "2026-11-22", "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert [d["code"] for d in doc["puzzles"]] == [p.code for p in ml.daily("2026-11-22")]
    rc, out, err = run(capsys, "daily", "2026-11-22")
    assert rc == 0 and "1. easy" in out and "3. hard" in out
    rc, out, err = run(capsys, "daily", "22/11/2026")
    assert rc == 2 and "date" in err


def test_solve_and_info_take_a_code(capsys):
    p = ml.generate(5, 5, 3, locked=3, seed=2)
    rc, out, err = run(capsys, "solve", "--code", p.code, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["length"] == p.min_taps
    assert not p.board.apply(p.start, np.array(doc["taps"])).any()
    rc, out, err = run(capsys, "info", "--code", p.code, "--json")
    assert rc == 0 and json.loads(out)["kernel_size"] == 1
    rc, out, err = run(capsys, "info", "--code", "garbage!")
    assert rc == 2 and "code" in err


def test_check_reports_bad_levels(capsys, tmp_path):
    good = ml.generate(5, 5, 2, locked=2, seed=1).code
    multi = ml.generate(5, 5, 2, unique=False, seed=1).code
    b = ml.Board.grid(2, 2, 2, "horizontal")
    unsolv = ml.Puzzle(b, [[1, 0], [0, 0]])
    assert not ml.Solver(b).solvable(unsolv.start)
    f = tmp_path / "pack.txt"
    f.write_text(
        f"# level pack\n{good}\n\n{multi}  # several solutions\n"
        f"{unsolv.code}\nnot-a-code\n{good[:-2]}\n"
    )
    rc, out, err = run(capsys, "check", str(f))
    assert rc == 1, err
    assert "5 puzzles, 4 bad" in out
    assert "line 4: BAD" in out and "not unique" in out
    assert "line 5: BAD" in out and "unsolvable" in out
    assert "line 6: BAD" in out and "line 7: BAD" in out and "line 2" not in out
    rc, out, err = run(capsys, "check", str(f), "--allow-multiple", "--json")
    doc = json.loads(out)
    assert rc == 1 and doc["bad"] == 3 and doc["results"][0]["ok"]
    f.write_text(good + "\n")
    rc, out, err = run(capsys, "check", str(f))
    assert rc == 0 and "1 puzzle, 0 bad" in out
    rc, out, err = run(capsys, "check", str(tmp_path / "missing.txt"))
    assert rc == 2


def test_play_scripted_session_solves_with_hints(capsys):
    p = ml.generate(5, 5, 3, locked=3, holes=1, seed=9)
    keys = " ".join(["?"] * p.min_taps)
    rc, out, err = run(capsys, "play", p.code, "--keys", keys)
    assert rc == 0, err
    assert f"SOLVED in {p.min_taps} taps with hints: no stars" in out
    assert f"taps {p.min_taps}   fewest {p.min_taps}" in out
    # by hand: follow the plan with cursor moves and space, earning 3 stars
    keys, cur = [], p.board.taps[0]
    for r, c in p.solution.moves():
        keys += ["down"] * ((r - cur[0]) % 5) + ["right"] * ((c - cur[1]) % 5) + ["space"]
        cur = (r, c)
    rc, out, err = run(capsys, "play", p.code, "--numbers", "--keys", " ".join(keys))
    assert f"SOLVED in {p.min_taps} taps: 3 stars ***" in out
    rc, out, err = run(capsys, "play", p.code, "--keys", "right space u r q")
    assert "taps 0" in out and "back to the start" in out


def test_play_needs_a_terminal(capsys):
    rc, out, err = run(capsys, "play", "--daily", "1", "--date", "2026-11-22")
    assert rc == 2 and "terminal" in err
    rc, out, err = run(capsys, "play", "--daily", "4", "--keys", "q")
    assert rc == 2


@pytest.mark.heavy  # 3-4 s: the curses game driven through a pseudo-terminal in real time
@pytest.mark.skipif(sys.platform == "win32", reason="pty")
def test_play_curses_under_a_pty():
    """The real curses front end in a pseudo-terminal: hints until solved, then quit."""
    import pty
    import select
    import time

    curses = pytest.importorskip("curses")
    try:
        curses.setupterm("xterm", sys.__stdout__.fileno())
    except (curses.error, OSError, ValueError, AttributeError):
        pytest.skip("no terminfo entry for xterm")
    p = ml.generate(5, 5, 2, locked=2, seed=4)
    pid, fd = pty.fork()
    if pid == 0:  # child
        os.environ["TERM"] = "xterm"
        os.environ["LINES"], os.environ["COLUMNS"] = "30", "100"
        os.execv(sys.executable, [sys.executable, "-m", "modlights", "play", p.code])
    buf = b""

    def pump(t):
        nonlocal buf
        end = time.monotonic() + t
        while time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                buf += chunk
        return True

    try:
        pump(2.0)
        for _ in range(p.min_taps):
            os.write(fd, b"?")
            pump(0.15)
        pump(0.5)
        os.write(fd, b"q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and pump(0.2):
            pass
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = buf.decode("utf-8", "replace")
    assert os.WEXITSTATUS(status) == 0, text[-2000:]
    assert f"SOLVED in {p.min_taps} taps with hints" in text


@pytest.mark.heavy  # 3 CPU s: four boards factored and solved; the default run keeps
# test_bench_progress_bar_only_on_a_terminal, which runs the same command
def test_bench_command_prints_checked_table(capsys):
    from modlights.cli import main

    assert main(["bench", "--sizes", "40,30x50", "--states", "2,3", "--repeats", "1"]) == 0
    out = capsys.readouterr()
    lines = [ln for ln in out.out.splitlines() if ln.strip() and ln.split()[0][0].isdigit()]
    assert [ln.split()[:3] for ln in lines] == [
        ["40x40", "2", "cross"],
        ["30x50", "2", "cross"],
        ["40x40", "3", "cross"],
        ["30x50", "3", "cross"],
    ]
    for ln in lines:
        assert float(ln.split()[3]) >= 0 and float(ln.split()[4]) > 0
    assert "done" not in out.err and "\r" not in out.err  # no bar off a terminal


def test_bench_progress_bar_only_on_a_terminal(capsys, monkeypatch):
    import io

    from modlights.cli import main

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(["bench", "--sizes", "20", "--repeats", "1"]) == 0
    assert "\r[" in tty.getvalue() and "done" in tty.getvalue()
    tty2 = Tty()
    monkeypatch.setattr(sys, "stderr", tty2)
    assert main(["bench", "--sizes", "20", "--repeats", "1", "--quiet"]) == 0
    assert tty2.getvalue() == ""


def test_bench_command_json_and_bad_sizes(capsys):
    import json

    from modlights.cli import main

    assert main(["bench", "--sizes", "20", "--repeats", "1", "--quiet", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["board"] == "20x20" and rows[0]["n"] == 2
    assert main(["bench", "--sizes", "0"]) == 2
    assert main(["bench", "--sizes", "ab"]) == 2
    assert main(["bench", "--states", "1", "--sizes", "5"]) == 2


# ---------------------------------------------------------------- errors: one line, exit 2
def test_huge_budget_and_state_numbers(capsys):
    rc, out, err = run(
        capsys, "solve", "--grid", "5x5", "--seed", "1", "--budget", "18446744073709551616"
    )
    assert rc == 0 and "minimal: yes" in out
    rc, out, err = run(
        capsys, "solve", "--grid", "3x3", "--state", "0,0,0,0,0,0,0,0,99999999999999999999999"
    )
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "out of range" in err
    rc, out, err = run(capsys, "solve", "--grid", "3x3", "--states", "3", "--seed", "9" * 40)
    assert rc == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--grid", "3x3", "--states", "3" * 5000],
        ["solve", "--grid", "3x3", "--seed", ""],
        ["solve", "--grid", "99999999999x3"],
        ["solve", "--grid", "3x3", "--locked", "0,99999999999999999999999"],
        ["solve", "--grid", "3x3", "--pattern=0,99999999999999999999;1,0"],
        ["solve", "--grid", "3x3", "--budget", "nans"],
        ["solve", "--grid", "3x3", "--target", "9" * 30],
        ["info", "--grid", "3x3", "--unknown"],
        ["play", "--daily", "4", "--keys", "q"],
        ["bench", "--repeats", "0"],
        ["generate", "--grid", "3x3", "--locked-count", "99999999999999999999"],
        ["generate", "--grid", "3x3", "--locked", "99999999999999999999"],
        ["check", "/nonexistent/levels.txt"],
    ],
)
def test_every_bad_input_is_one_line_and_exit_2(capsys, argv):
    rc, out, err = run(capsys, *argv)
    assert rc == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "internal error" not in err


def test_memory_overflow_and_recursion_errors_are_one_line(capsys, monkeypatch):
    import modlights.cli as cli

    for exc in (
        MemoryError("cannot allocate 9 GiB"),
        OverflowError("too big"),
        RecursionError("deep"),
        KeyError("bug"),
    ):

        def boom(*a, _e=exc, **k):
            raise _e

        monkeypatch.setattr(cli.Solver, "solve", boom)
        rc, out, err = run(capsys, "solve", "--grid", "3x3", "--seed", "1")
        assert rc == 2 and len(err.strip().splitlines()) == 1, err

    def interrupt(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.Solver, "solve", interrupt)
    rc, out, err = run(capsys, "solve", "--grid", "3x3", "--seed", "1")
    assert rc == 130


def test_check_reads_with_a_byte_limit(capsys, monkeypatch, tmp_path):
    import modlights.cli.check as cli

    t = time.perf_counter()
    rc, out, err = run(capsys, "check", "/dev/zero")
    assert rc == 2 and "too large" in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - t < 5
    monkeypatch.setattr(cli, "MAX_CHECK_BYTES", 100)
    f = tmp_path / "big.txt"
    f.write_text(ml.generate(3, 3, seed=1).code + "\n" * 200)
    rc, out, err = run(capsys, "check", str(f))
    assert rc == 2 and "more than 100 bytes" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x" * 500)))
    rc, out, err = run(capsys, "check", "-")
    assert rc == 2 and "too large" in err


def test_exit_1_only_for_unsolvable_and_failed_checks(capsys, tmp_path):
    rc, _, err = run(capsys, "solve", "--grid", "5x5", "--state", "1" + "0" * 24)
    assert rc == 1 and "no combination of taps" in err
    f = tmp_path / "pack.txt"
    f.write_text("AAAA\n")
    rc, out, _ = run(capsys, "check", str(f))
    assert rc == 1 and "BAD" in out


# ---------------------------------------------------------------- info, mixed-board codes
@pytest.mark.parametrize("n", [2, 3])
def test_info_on_a_200x200_grid_prints_rank_and_nullity(capsys, n):
    rc, out, err = run(capsys, "info", "--grid", "200x200", "--states", str(n))
    assert rc == 0, err
    fields = dict(line.split(":", 1) for line in out.splitlines())
    s = ml.Solver(ml.Board.grid(200, 200, n), method="chase")
    assert int(fields["rank"].split()[0]) == s.rank
    assert int(fields["nullity"].split()[0]) == s.nullity
    # never the dense engine at this size: the chase, or the algebraic engine for
    # the uniform boards it covers
    assert fields["engine"].split()[0] == ml.Solver(ml.Board.grid(200, 200, n)).engine
    assert fields["engine"].split()[0].startswith(("chase-", "algebraic-"))


def test_mixed_board_codes_solve_and_describe(capsys):
    """solve and info take the code of a mixed board (the JSON names every tile's pattern)."""
    p = ml.generate(3, 3, 4, [["cross", "knight", "vertical"]] * 3, unique=False, seed=3)
    rc, out, err = run(capsys, "solve", "--code", p.code)
    assert rc == 0 and "mixed" in out, err
    rc, out, err = run(capsys, "info", "--code", p.code, "--json")
    doc = __import__("json").loads(out)
    assert rc == 0 and doc["pattern"] == [["cross", "knight", "vertical"]] * 3
    assert doc["nullity"] == ml.Solver(p.board, backend="reference").nullity
