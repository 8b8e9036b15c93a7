"""Fuzzing the public surface: random constructor arguments, states,
targets, puzzle codes and command lines. Every input must end in success or a clean
error: a ValueError from the library, exit 0 or 2 from the CLI (exit 1 only for an
unsolvable board or a failed check), each example within 1 s of CPU time (the
hypothesis deadline of 3 s wall clock guards against hangs: wall time on the shared
2-core machine varies with the load) and 500 MB of Python / NumPy memory (tracemalloc
peak), the address space capped so a runaway allocation is a MemoryError here rather
than on the machine.

Successes are checked, not only survived: a solved board is verified with
Board.apply, a decoded code must re-encode to itself.

Counts: the four properties ask for 1,000 inputs (the ``props`` group: CI's
``HYPOTHESIS_PROFILE=full python -m pytest -m props``); the default run draws the first
10 of each (tests/conftest.py's DEFAULT_EXAMPLES); ``-m slow`` runs the same properties
with ten times as many. Each run prints its tally (inputs, clean
errors, successes, anything else) with ``-s``; ``MODLIGHTS_FUZZ_REPORT=path`` also
appends it to a file as JSON.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import math
import os
import string
import sys
import time
import tracemalloc
import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.cli import main

resource = pytest.importorskip("resource")  # the address-space cap (POSIX)

#: Python / NumPy memory one example may hold at its peak
PEAK_LIMIT = 500 << 20
#: CPU seconds (all threads of this process) one example may take
CPU_LIMIT = 1.0
#: wall-clock deadline of hypothesis: a hang guard (the CPU limit is the real bound;
#: wall time on a shared 2-core machine varies with the other processes)
WALL_DEADLINE_MS = 3000
#: address space allowed above what the process had when the fuzz test started
AS_HEADROOM = 3 << 30

TALLY: Counter = Counter()


def _settings(examples: int):
    # the 1 s bound is on CPU time (see _bounded): the wall-clock deadline is only a
    # guard against hangs, generous because the machine is shared. derandomize and the
    # example database follow the profile (tests/conftest.py): the same inputs on every
    # default run, random ones under HYPOTHESIS_PROFILE=explore.
    return settings(
        max_examples=examples,
        deadline=WALL_DEADLINE_MS,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.function_scoped_fixture,
        ],
    )


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    if not TALLY:
        return
    total = sum(v for k, v in TALLY.items() if k[1] != "inputs")
    lines = [f"fuzz: {total} inputs"]
    for target in sorted({k[0] for k in TALLY}):
        parts = {k[1]: v for k, v in TALLY.items() if k[0] == target}
        lines.append(f"  {target}: " + ", ".join(f"{k} {v}" for k, v in sorted(parts.items())))
    print("\n" + "\n".join(lines))
    path = os.environ.get("MODLIGHTS_FUZZ_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({f"{a}/{b}": v for (a, b), v in TALLY.items()}) + "\n")


@contextlib.contextmanager
def _bounded():
    """tracemalloc peak < PEAK_LIMIT and CPU time < CPU_LIMIT for the block; the
    address space capped."""
    vm = 0
    try:
        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        pass
    old = resource.getrlimit(resource.RLIMIT_AS)
    if vm:
        cap = vm + AS_HEADROOM
        if old[1] == resource.RLIM_INFINITY or cap < old[1]:
            resource.setrlimit(resource.RLIMIT_AS, (cap, old[1]))
    # the objects of earlier tests are set aside (gc.freeze): a collection inside the
    # block (the example's own, or the interpreter's) walks only the example's objects,
    # so its CPU time is the example's (over the suite's heap one took over a second)
    gc.freeze()
    tracemalloc.start()
    tracemalloc.reset_peak()
    cpu0 = time.process_time()
    try:
        yield
    finally:
        cpu = time.process_time() - cpu0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        gc.unfreeze()
        resource.setrlimit(resource.RLIMIT_AS, old)
        assert peak < PEAK_LIMIT, f"peak Python/NumPy memory {peak >> 20} MB"
        assert cpu < CPU_LIMIT, f"{cpu:.2f} CPU seconds"


def _outcome(target: str, fn):
    """Run fn; record success / clean error; anything else fails the test."""
    with _bounded():
        try:
            result = fn()
        except ml.Unsolvable:
            TALLY[(target, "clean error (Unsolvable)")] += 1
            return None
        except ValueError:
            TALLY[(target, "clean error (ValueError)")] += 1
            return None
        except BaseException as e:
            TALLY[(target, f"other ({type(e).__name__})")] += 1
            raise
    TALLY[(target, "success")] += 1
    return result


# ----------------------------------------------------------------------------- values
weird_scalars = st.one_of(
    st.integers(-3, 12),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**63, 2**64, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e19, -1e19, 2.0, 0.5]),
    st.booleans(),
    st.none(),
    st.text(max_size=4),
    st.sampled_from([np.int8(3), np.uint64(2**63), np.float32(2.0), np.nan]),
)
small_ints = st.integers(-2, 9)


def _mostly(valid, weird, weight: int = 3):
    """valid inputs ``weight`` times as often as weird ones (so that successes, which
    are checked, are common too)."""
    return st.integers(0, weight).flatmap(lambda i: weird if i == 0 else valid)


def _iterator_of(items):
    return st.sampled_from([list, tuple, iter, lambda x: (y for y in x)]).map(lambda f: f(items))


pairs = _mostly(
    st.tuples(st.integers(0, 3), st.integers(0, 3)),
    st.one_of(
        st.tuples(small_ints, small_ints),
        st.tuples(weird_scalars, weird_scalars),
        st.lists(small_ints, max_size=3),
        weird_scalars,
    ),
)
positions = _mostly(
    st.one_of(st.none(), st.lists(pairs, max_size=4).flatmap(_iterator_of)),
    st.one_of(
        st.lists(st.lists(st.booleans(), min_size=3, max_size=3), min_size=3, max_size=3),
        weird_scalars,
    ),
)
patterns = _mostly(
    st.one_of(
        st.sampled_from(sorted(ml.PATTERNS)),
        st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), max_size=5).flatmap(
            _iterator_of
        ),
    ),
    st.one_of(
        st.sampled_from(["star", "", "CROSS "]),
        st.lists(pairs, max_size=6).flatmap(_iterator_of),
        st.lists(
            st.lists(st.sampled_from(["cross", "square", "x"]), min_size=3, max_size=3),
            min_size=3,
            max_size=3,
        ),
        weird_scalars,
    ),
)
sides = _mostly(
    st.integers(1, 5), st.one_of(weird_scalars, st.sampled_from([2**20, 2**21, 2**27, 4096]))
)
states_arg = _mostly(st.integers(2, 9), st.one_of(weird_scalars, st.sampled_from([255, 256])))


def _check_board(b: ml.Board) -> None:
    """A board that was built answers correctly when small enough to solve here."""
    if b.n_cells * b.n_taps > 400 or b.n_taps == 0:
        return
    s = ml.Solver(b)
    state = b.random_state(rng=1)
    sol = s.solve(state, budget=4096)
    assert not b.apply(state, sol.taps).any()


CONSTRUCTOR_ARGS = dict(
    kind=st.sampled_from(["grid", "effects", "matrix"]),
    rows=sides,
    cols=sides,
    n=states_arg,
    pattern=patterns,
    locked=positions,
    holes=positions,
    wrap=_mostly(st.booleans(), weird_scalars),
    effects=_mostly(
        st.lists(
            st.lists(
                _mostly(
                    st.integers(0, 5),
                    st.sampled_from([-1, 2**27 - 1, 2**27, 2**63, 10**30]),
                    weight=20,
                ),
                max_size=4,
            ),
            max_size=5,
        ),
        st.one_of(
            st.lists(
                st.lists(st.one_of(small_ints, weird_scalars), max_size=4), max_size=5
            ).flatmap(_iterator_of),
            weird_scalars,
        ),
    ),
    n_cells=_mostly(
        st.one_of(st.none(), st.integers(6, 8)),
        st.one_of(st.integers(-1, 5), weird_scalars, st.sampled_from([2**27, 2**27 + 1])),
    ),
    matrix=_mostly(
        st.lists(
            st.lists(
                st.one_of(st.integers(-300, 300), st.sampled_from([1e19, 2.0, 2**70])),
                min_size=3,
                max_size=3,
            ),
            min_size=1,
            max_size=3,
        ),
        st.one_of(
            st.lists(
                st.lists(st.one_of(small_ints, weird_scalars), min_size=2, max_size=2), max_size=3
            ),
            weird_scalars,
            st.sampled_from([[[1, 2], [3]], np.zeros((2, 2, 2))]),
        ),
    ),
)


def _fuzz_constructors(kind, rows, cols, n, pattern, locked, holes, wrap, effects, n_cells, matrix):
    def build():
        if kind == "grid":
            b = ml.Board.grid(rows, cols, n, pattern, locked=locked, holes=holes, wrap=wrap)
        elif kind == "effects":
            b = ml.Board.from_effects(effects, n, n_cells)
        else:
            b = ml.Board.from_matrix(matrix, n)
        _check_board(b)
        return b

    _outcome(f"Board.{'grid' if kind == 'grid' else 'from_' + kind}", build)


BOARDS = [
    ml.Board.grid(3, 3),
    ml.Board.grid(3, 4, 3, "square", locked=[(0, 0)], holes=[(2, 3)]),
    ml.Board.grid(4, 4, 4, wrap=True),
    ml.Board.from_effects([[0, 1], [1, 2], [2]], 6),
    ml.Board.grid(30, 30, 2),
]
SOLVERS = [ml.Solver(b) for b in BOARDS]  # factored once: the examples ask questions

state_values = _mostly(
    st.integers(-300, 300),
    st.one_of(
        st.integers(-(2**80), 2**80),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([1e19, -1e300, 2.0**64, 3.0]),
    ),
    weight=12,
)


@st.composite
def state_inputs(draw, shape):
    kind = draw(
        st.sampled_from(["array"] * 4 + ["list"] * 2 + ["wrong shape", "scalar", "strings", "iter"])
    )
    size = math.prod(shape)
    if kind == "array":
        dtype = draw(
            st.sampled_from(
                [np.uint8, np.int8, np.int64, np.uint64, np.float64, np.float32, bool, object]
            )
        )
        vals = draw(st.lists(state_values, min_size=size, max_size=size))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # the cast may overflow
                return np.array(vals, dtype=dtype).reshape(shape)
        except (OverflowError, ValueError, TypeError):
            return np.array(vals, dtype=object).reshape(shape)
    if kind == "list":
        vals = draw(st.lists(state_values, min_size=size, max_size=size))
        return np.array(vals, dtype=object).reshape(shape).tolist()
    if kind == "wrong shape":
        k = draw(st.integers(0, 5))
        return np.zeros((k, k + 1), dtype=np.int64)
    if kind == "scalar":
        return draw(weird_scalars)
    if kind == "strings":
        return np.full(shape, draw(st.text(max_size=3)))
    return iter(np.zeros(shape, dtype=int).tolist())


STATE_ARGS = dict(
    data=st.data(),
    which=st.integers(0, len(BOARDS) - 1),
    op=st.sampled_from(["solve", "solvable", "press", "apply", "many", "min_taps"]),
    budget=st.one_of(st.none(), st.integers(0, 2**70), weird_scalars),
)


def _fuzz_states(data, which, op, budget):
    b = BOARDS[which]
    state = data.draw(state_inputs(b.shape))
    target = data.draw(
        _mostly(st.integers(-5, 300), st.one_of(state_inputs(b.shape), weird_scalars), weight=2)
    )
    if isinstance(budget, float) and budget > 0.05:
        budget = 0.05  # seconds: stay within the deadline
    s = SOLVERS[which]
    pos = data.draw(pairs if b.is_grid else _mostly(st.integers(0, 3), weird_scalars))
    times = data.draw(_mostly(small_ints, weird_scalars))

    def run():
        if op == "solve":
            sol = s.solve(state, target, budget=budget)
            start, goal = b.coerce_state(state), b.coerce_target(target)
            assert np.array_equal(b.apply(start, sol.taps), goal)
        elif op == "solvable":
            ok = s.solvable(state, target)
            assert (
                ok == ml.Solver(b, backend="reference").solvable(state, target)
                if b.n_cells <= 64
                else True
            )
        elif op == "press":
            b.press(state, pos, times)
        elif op == "apply":
            b.apply(state, target)
        elif op == "many":
            stack = np.stack([b.coerce_state(state)] * 2)
            X = s.solve_many(stack, target)
            for x in X:
                assert np.array_equal(b.apply(stack[0], x), b.coerce_target(target))
        else:
            s.min_taps_many(np.asarray(state)[None], target, budget=budget)

    _outcome(f"states/{op}", run)


CODES = [
    ml.generate(r, c, n, pat, seed=seed, unique=False).code
    for seed, (r, c, n, pat) in enumerate(
        [
            (3, 3, 2, "cross"),
            (4, 5, 3, "square"),
            (2, 6, 7, [(0, 0), (0, 1)]),
            (3, 3, 4, [["cross", "knight", "vertical"]] * 3),
            (5, 5, 255, "diagonal"),
        ]
    )
]
B64 = string.ascii_letters + string.digits + "-_"


@st.composite
def codes(draw):
    kind = draw(
        st.sampled_from(
            ["valid", "valid", "random b64", "random text", "mutated", "cut", "extended"]
        )
    )
    if kind == "random b64":
        return draw(st.text(alphabet=B64, max_size=80))
    if kind == "random text":
        return draw(st.one_of(st.text(max_size=40), weird_scalars, st.binary(max_size=20)))
    code = draw(st.sampled_from(CODES))
    if kind == "valid":
        return draw(st.sampled_from(["", " ", "\n"])) + code
    if kind == "mutated":
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(code) - 1))
            code = code[:i] + draw(st.sampled_from(B64)) + code[i + 1 :]
        return code
    if kind == "cut":
        return code[: draw(st.integers(0, len(code) - 1))]
    return code + draw(st.text(alphabet=B64, min_size=1, max_size=6))


def _fuzz_codes(code):
    def run():
        p = ml.Puzzle.from_code(code)
        assert p.code == code.strip() and ml.Puzzle.from_code(p.code) == p
        if p.board.n_taps * p.board.n_cells <= 900:
            g = ml.Game(code)
            g.hint()

    _outcome("Puzzle.from_code", run)


# ----------------------------------------------------------------------------- CLI
cli_numbers = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(
        [
            "0",
            "-1",
            "2",
            "3",
            "255",
            "256",
            "18446744073709551616",
            "9" * 30,
            "1e400",
            "nan",
            "inf",
            "",
            " ",
            "x",
            "3.5",
            "2s",
            "0s",
            "1e400s",
            "-1s",
            "nans",
            "١٢",
        ]
    ),
)
cli_grids = st.sampled_from(
    [
        "3x3",
        "2x5",
        "5x5",
        "1x1",
        "0x3",
        "3x",
        "x",
        "99999999999x3",
        "3x99999999999999999999",
        "4 x 4",
        "6x6",
        "-1x2",
        "3×3",
    ]
)
cli_patterns = st.sampled_from(
    [
        "cross",
        "knight",
        "nope",
        "0,0;1,0",
        "-1,0;1,0",
        "0,0;x,1",
        "0,99999999999999999999",
        "",
        ";;",
        "(0,0)",
        "0,0;0,0;0,0",
    ]
)
cli_masks = st.sampled_from(
    [
        "1,1",
        "0,0;2,2",
        "010000000",
        "0101",
        "9,9",
        "a",
        "-1,0",
        "99999999999999999999,0",
        "",
        "1,1;1,1",
    ]
)
cli_states = st.one_of(
    st.text(alphabet="0123456789,./ ", max_size=30),
    st.sampled_from(["000000000", "011110110", "0,0,0,0,0,0,0,0,99999999999999999999999", "...."]),
)


@st.composite
def argv_lists(draw, check_file):
    cmd = draw(
        st.sampled_from(
            [
                "solve",
                "info",
                "generate",
                "daily",
                "check",
                "play",
                "bench",
                "nope",
                "--version",
                "--help",
                "",
            ]
        )
    )
    argv = [cmd] if cmd else []
    board_opts = {
        "--grid": cli_grids,
        "--states": cli_numbers,
        "--pattern": cli_patterns,
        "--locked": cli_masks,
        "--holes": cli_masks,
        "--code": codes(),
    }
    extra = {
        "solve": {
            "--state": cli_states,
            "--seed": cli_numbers,
            "--target": cli_states,
            "--budget": cli_numbers,
            "--backend": st.sampled_from(["native", "reference", "gpu"]),
        },
        "info": {"--backend": st.sampled_from(["native", "reference"])},
        "generate": {
            "--grid": cli_grids,
            "--states": cli_numbers,
            "--pattern": cli_patterns,
            "--locked": cli_masks,
            "--holes": cli_masks,
            "--locked-count": cli_numbers,
            "--holes-count": cli_numbers,
            "--seed": cli_numbers,
            "--difficulty": st.sampled_from(["easy", "hard", "expert", "x"]),
        },
        "daily": {},
        "check": {},
        "play": {
            "--code": codes(),
            "--daily": cli_numbers,
            "--date": st.sampled_from(["2026-11-22", "2026-13-01", "x"]),
            "--keys": st.sampled_from(["q", "? ? q", "right space u r n q", "zz"]),
        },
        # one board a run: each runs gc.collect twice, slow in a process this size
        "bench": {
            "--sizes": st.sampled_from(["20", "12x6", "0", "x", "99999999999999", "3,,x"]),
            "--states": st.sampled_from(["2", "3", "1", "x", "2,256"]),
            "--repeats": st.sampled_from(["1", "2", "0", "-1", "1001", "x", "9" * 30]),
            "--seed": cli_numbers,
        },
    }.get(cmd, {})
    opts = dict(extra)
    if cmd in ("solve", "info"):
        opts.update({k: v for k, v in board_opts.items() if k not in opts})
    for name in (
        draw(st.lists(st.sampled_from(sorted(opts)), unique=True, max_size=4)) if opts else []
    ):
        value = draw(opts[name])
        argv += [f"{name}={value}"] if draw(st.booleans()) else [name, str(value)]
    flags = {
        "solve": ["--wrap", "--json", "--no-minimal"],
        "info": ["--wrap", "--json"],
        "generate": ["--wrap", "--no-unique", "--json"],
        "daily": ["--json"],
        "check": ["--json", "-v", "--allow-multiple"],
        "play": ["--numbers"],
        "bench": ["--json", "--quiet"],
    }.get(cmd, [])
    argv += draw(st.lists(st.sampled_from(flags), unique=True, max_size=2)) if flags else []
    if cmd == "check":
        argv.append(draw(st.sampled_from([check_file, "/dev/zero", "/nonexistent", "-"])))
    if cmd == "daily":
        argv += draw(st.lists(st.sampled_from(["2026-11-22", "2026-02-30", "x"]), max_size=1))
    if cmd == "play" and "--keys" not in " ".join(argv):
        argv += ["--keys", "q"]
    if cmd == "bench" and not any(a.startswith("--sizes") for a in argv):
        argv += ["--sizes", "16"]
    return argv


def _run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(b"AAAA\n"))
    old_stdin = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    finally:
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


def _fuzz_cli_body(argv):
    with _bounded():
        try:
            rc, out, err = _run_cli(argv)
        except BaseException as e:
            TALLY[("cli", f"other ({type(e).__name__})")] += 1
            raise
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if rc == 2:
        TALLY[("cli", "clean error (exit 2)")] += 1
        assert err.strip(), argv
        if "--help" not in argv and "-h" not in argv and argv and argv[0] != "--help":
            assert len(err.strip().splitlines()) == 1, (argv, err)
    elif rc == 1:
        TALLY[("cli", "unsolvable / failed check (exit 1)")] += 1
        assert argv[0] == "check" or "unsolvable" in err, (argv, err)
    else:
        TALLY[("cli", "success (exit 0)")] += 1
        assert rc == 0, (argv, rc, err)


# ----------------------------------------------------------------------------- the tests
def _make_tests(scale: int, mark):
    @mark
    @_settings(200 * scale)
    @given(**CONSTRUCTOR_ARGS)
    def test_constructors(
        kind, rows, cols, n, pattern, locked, holes, wrap, effects, n_cells, matrix
    ):
        _fuzz_constructors(
            kind, rows, cols, n, pattern, locked, holes, wrap, effects, n_cells, matrix
        )

    @mark
    @_settings(200 * scale)
    @given(**STATE_ARGS)
    def test_states_and_targets(data, which, op, budget):
        _fuzz_states(data, which, op, budget)

    @mark
    @_settings(400 * scale)
    @given(code=codes())
    def test_puzzle_codes(code):
        _fuzz_codes(code)

    @mark
    @_settings(200 * scale)
    @given(data=st.data())
    def test_cli_argument_lists(tmp_path_factory, data):
        _fuzz_cli_body(data.draw(argv_lists(_check_file(tmp_path_factory))))

    return test_constructors, test_states_and_targets, test_puzzle_codes, test_cli_argument_lists


_FILE = {}


def _check_file(factory) -> str:
    if "path" not in _FILE:
        p = factory.mktemp("fuzz") / "pack.txt"
        p.write_text("# a level pack\n" + "\n".join(CODES[:3]) + "\nAAAA\n")
        _FILE["path"] = str(p)
    return _FILE["path"]


(test_constructors, test_states_and_targets, test_puzzle_codes, test_cli_argument_lists) = (
    _make_tests(1, lambda f: f)
)
(
    test_constructors_slow,
    test_states_and_targets_slow,
    test_puzzle_codes_slow,
    test_cli_argument_lists_slow,
) = _make_tests(10, pytest.mark.slow)
