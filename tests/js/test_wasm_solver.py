"""The WebAssembly Solver (js/src/solver.js) against Python's Solver.

Python builds random boards (every named pattern, custom and mixed patterns, n in 2..9,
16 and 255, locked tiles, holes, wrap, odd and even sides, graph boards), solves them
with ``ml.Solver`` and writes what it finds as JSON: rank, nullity, |ker A|, and per
state solvability, the minimal length and whether it is proved, for the default budget,
a budget of 0 and budgets below and above |ker A|. node's test runner then checks the
JavaScript answers on the same boards (js/test/solver.golden.test.js): every number
equal, every returned solution checked by applying its taps. Bad input must give
Python's messages (the cases and messages are Python's, written into the same file).
The committed copy js/test/fixtures/wasm-solver.json lets ``node --test`` run alone;
this test fails when it is stale (refresh: ``python tests/js/test_wasm_solver.py``).

Also: js/dist/csrc.sha256 (the digest of the C sources js/dist/modlights.wasm was built
from) must be the digest of the C sources now (a stale .wasm fails with the command that
rebuilds it). Skipped, loudly, without node 20.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import modlights as ml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JS_DIR = os.path.join(ROOT, "js")
FIXTURE = os.path.join(JS_DIR, "test", "fixtures", "wasm-solver.json")
REFRESH = "python tests/js/test_wasm_solver.py"
NODE_FLAGS = ["--experimental-default-type=module"]   # harmless once js/package.json says "module"

sys.path.insert(0, os.path.join(JS_DIR, "scripts"))
import wasm_sources  # noqa: E402

NAMED = list(ml.PATTERNS)
STATES = [2, 3, 4, 5, 6, 7, 8, 9, 16, 255]


def spec_of(board: ml.Board) -> dict:
    """The spec js/src/solver.js takes (the interface of Board.spec(), as JSON)."""
    if not board.is_grid:
        return {"kind": "graph", "states": board.states, "nCells": board.n_cells,
                "effects": board.to_dict()["effects"]}
    rows, cols = board.shape
    mixed = None
    if board.tile_offsets is not None:
        mixed = [[list(o) for o in board.tile_offsets[r][c]] for r in range(rows)
                 for c in range(cols)]
    return {"kind": "grid", "rows": rows, "cols": cols, "states": board.states,
            "wrap": board.wrap,
            "offsets": None if mixed is not None else [list(o) for o in board.offsets],
            "mixed": mixed,
            "locked": board.locked_mask.reshape(-1).astype(int).tolist(),
            "holes": board.holes_mask.reshape(-1).astype(int).tolist()}


def _custom(rng) -> list:
    offs = {(0, 0)}
    for _ in range(int(rng.integers(1, 6))):
        offs.add((int(rng.integers(-2, 3)), int(rng.integers(-2, 3))))
    out = sorted(offs)
    if rng.random() < 0.3:
        out.append(out[-1])                   # a repeated offset: that tile twice
    return out


def _boards(rng) -> list[tuple[str, ml.Board]]:
    out = []
    for i in range(150):
        n = STATES[i % len(STATES)]
        small = n >= 16
        rows = int(rng.integers(1, 5 if small else 8))
        cols = int(rng.integers(1, 5 if small else 8))
        kind = i % 9
        if kind < 6:
            pattern: object = NAMED[kind]
        elif kind == 6:
            pattern = _custom(rng)
        elif kind == 7:
            pattern = [[NAMED[int(rng.integers(0, len(NAMED)))] if rng.random() < 0.8
                        else _custom(rng) for _ in range(cols)] for _ in range(rows)]
        else:
            m = int(rng.integers(1, 8))
            r = int(rng.integers(1, 8))
            effects = [[int(c) for c in rng.integers(0, m, size=int(rng.integers(0, 4)))]
                       for _ in range(r)]
            out.append((f"graph-{i}-n{n}", ml.Board.from_effects(effects, states=n, n_cells=m)))
            continue
        tiles = [(r, c) for r in range(rows) for c in range(cols)]
        pick = rng.permutation(len(tiles))
        nl = int(rng.integers(0, 3)) if rng.random() < 0.4 else 0
        nh = int(rng.integers(0, 3)) if rng.random() < 0.4 else 0
        nl, nh = min(nl, len(tiles) - 1), min(nh, max(0, len(tiles) - 1 - nl))
        locked = [tiles[j] for j in pick[:nl]]
        holes = [tiles[j] for j in pick[nl:nl + nh]]
        wrap = bool(rng.random() < 0.25)
        b = ml.Board.grid(rows, cols, states=n, pattern=pattern, locked=locked, holes=holes,
                          wrap=wrap)
        out.append((f"grid-{i}-{rows}x{cols}-n{n}{'-wrap' if wrap else ''}", b))
    # larger boards: the chase's residual systems, budgets that run out
    out.append(("grid-12x12-n2", ml.Board.grid(12, 12)))
    out.append(("grid-16x16-n2-knight", ml.Board.grid(16, 16, pattern="knight")))
    out.append(("grid-9x9-n4", ml.Board.grid(9, 9, states=4)))
    out.append(("grid-10x10-n6-locked", ml.Board.grid(10, 10, states=6, locked=[(2, 3), (7, 7)])))
    out.append(("grid-30x30-n3", ml.Board.grid(30, 30, states=3)))
    # kernels that Python factors with other engines (algebraic, lifted, tensor): the
    # answers of unfinished searches agree only through the canonical forms
    out.append(("grid-16x16-n2", ml.Board.grid(16, 16)))
    out.append(("grid-14x14-n6", ml.Board.grid(14, 14, states=6)))
    out.append(("grid-4x5-n9-square-wrap",
                ml.Board.grid(4, 5, states=9, pattern="square", wrap=True)))
    out.append(("grid-4x4-n2-diagonal", ml.Board.grid(4, 4, pattern="diagonal")))
    out.append(("grid-9x9-n2-locked-hole",
                ml.Board.grid(9, 9, locked=[(0, 0), (2, 3)], holes=[(8, 8)])))
    # graph boards over rings with torsion in their kernels (factored densely in both)
    for n in (8, 9, 12):
        effects = [[int(c) for c in rng.integers(0, 10, size=3)] * int(rng.integers(1, n))
                   for _ in range(14)]
        out.append((f"graph-rich-n{n}", ml.Board.from_effects(effects, states=n, n_cells=10)))
    return out


def _states(board: ml.Board, rng) -> list[np.ndarray]:
    n = board.states
    shape = board.shape
    rand = rng.integers(0, n, size=shape)
    taps = rng.integers(0, n, size=shape if board.is_grid else (board.n_taps,))
    if board.is_grid:
        taps = taps * board.tappable_mask
        solvable = board.apply(np.zeros(shape, dtype=np.int64), taps)
    else:
        solvable = board.apply(np.zeros(shape, dtype=np.int64), taps)
    ones = np.ones(shape, dtype=np.int64)
    if board.is_grid:
        rand = rand * board.active_mask
        ones = ones * board.active_mask
    return [np.asarray(solvable), np.asarray(rand), ones]


def _case(solver: ml.Solver, state, budget) -> dict:
    kw = {} if budget is None else {"budget": budget}
    if budget is None and solver.kernel_size > solver._default_count:
        # JavaScript's default is a count (its budgets are counts): Python's default
        # searches a coset of at most that many elements whole, as JavaScript does, and a
        # larger one for DEFAULT_SECONDS (a deadline: an answer that depends on the
        # machine); so past it the default case is Python's answer for that count
        kw = {"budget": solver._default_count}
    out = {"state": np.asarray(state).tolist(), "budget": budget}
    try:
        sol = solver.solve(state, **kw)
    except ml.Unsolvable:
        out.update(solvable=False, length=None, proven=None)
        return out
    out.update(solvable=True, length=int(sol.length), proven=bool(sol.proven_minimal))
    if budget is not None:
        # an explicit budget: the same walk from the same canonical start on both sides,
        # so the same taps, proved or not (the default budgets differ between them)
        out["taps"] = np.asarray(sol.taps).tolist()
    return out


def _bad_cases() -> list[dict]:
    """Bad input with Python's messages: (op, arguments for JS, Python's message)."""
    cases = []

    def msg(fn):
        try:
            fn()
        except ValueError as e:
            return str(e)
        raise AssertionError("no ValueError")

    for kw in [{"states": 1}, {"states": 256}, {"states": 2.5}, {"states": True}]:
        spec = {"kind": "grid", "rows": 3, "cols": 3, "wrap": False,
                "offsets": [list(o) for o in ml.PATTERNS["cross"]], "mixed": None, **kw}
        cases.append({"op": "create", "spec": spec,
                      "message": msg(lambda: ml.Board.grid(3, 3, **kw))})
    for r, c in [(0, 3), (3, -1)]:
        spec = {"kind": "grid", "rows": r, "cols": c, "states": 2, "wrap": False,
                "offsets": [list(o) for o in ml.PATTERNS["cross"]], "mixed": None}
        cases.append({"op": "create", "spec": spec,
                      "message": msg(lambda: ml.Board.grid(r, c))})
    board = ml.Board.grid(3, 3)
    s = ml.Solver(board)
    z = np.zeros((3, 3), dtype=np.int64)
    for state, kw in [(np.zeros((3, 4), dtype=np.int64), {}), ([[0.5, 0, 0]] * 3, {}),
                      (z, {"budget": -1}), (z, {"budget": True}), (z, {"target": True}),
                      ([[0, 0, 0], [0, 0]], {})]:
        cases.append({"op": "solve", "spec": spec_of(board),
                      "state": state.tolist() if isinstance(state, np.ndarray) else state,
                      "options": kw, "message": msg(lambda: s.solve(state, **kw))})
    # an unsolvable state: the Unsolvable message
    b2 = ml.Board.grid(4, 4)
    s2 = ml.Solver(b2)
    bad = next(st for st in (np.eye(4, dtype=np.int64), np.ones((4, 4), dtype=np.int64),
                             np.diag([1, 0, 0, 0])) if not s2.solvable(st))
    cases.append({"op": "solve", "spec": spec_of(b2), "state": bad.tolist(), "options": {},
                  "message": msg(lambda: s2.solve(bad)), "unsolvable": True})
    # a residual system past the chase's limits, refused before it is built (the message
    # of the light chase's check; Python's "auto" routes this board to another engine)
    big = ml.Board.grid(200, 200, pattern=[(0, 0), (0, 0)])
    cases.append({"op": "create", "spec": spec_of(big),
                  "message": msg(lambda: ml.Solver(big, method="chase-light"))})
    return cases


def build() -> str:
    """The fixture's JSON text (deterministic)."""
    rng = np.random.default_rng(20261127)
    boards = []
    for name, board in _boards(rng):
        s = ml.Solver(board)
        ks = int(s.kernel_size)
        cases = []
        for j, st in enumerate(_states(board, rng)):
            budgets = [None] if j else [None, 0] + ([max(1, ks // 3), ks] if ks <= 1 << 20
                                                     else [1000])
            for bud in budgets:
                cases.append(_case(s, st, bud))
        boards.append({"name": name, "spec": spec_of(board), "dict": board.to_dict(),
                       "n_taps": int(board.n_taps), "rank": int(s.rank),
                       "nullity": int(s.nullity), "kernel_size": str(ks), "cases": cases,
                       "plan": {"engine": s.plan.engine, "family": s.plan.family,
                                "variant": s.plan.variant, "reason": s.plan.reason}})
    data = {"generated_by": REFRESH, "boards": boards, "bad": _bad_cases()}
    return json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n"


def _node():
    exe = shutil.which("node")
    if exe is None:
        pytest.skip("NODE NOT FOUND: the WebAssembly solver's tests did not run; install "
                    "Node 20 with `apt-get install nodejs` (as .ci/run does)")
    return exe


@pytest.fixture(scope="module")
def built() -> str:
    return build()


def test_fixture_is_current(built):
    try:
        with open(FIXTURE, encoding="utf-8") as f:
            committed = f.read()
    except FileNotFoundError:
        committed = None
    assert committed == built, (f"js/test/fixtures/wasm-solver.json is stale or missing: "
                                f"Python's answers changed; refresh it with `{REFRESH}`")


def test_wasm_is_built_from_the_current_sources():
    with open(os.path.join(JS_DIR, "dist", "csrc.sha256"), encoding="utf-8") as f:
        recorded = f.read().strip()
    assert recorded == wasm_sources.digest(), (
        "js/dist/modlights.wasm was built from other C sources than csrc/ holds now: "
        "rebuild it with `js/scripts/build-wasm.sh` and commit js/dist/")


def test_node_matches_python(built, tmp_path):
    node = _node()
    path = tmp_path / "wasm-solver.json"
    path.write_text(built, encoding="utf-8")
    env = dict(os.environ, MODLIGHTS_WASM_FIXTURE=str(path))
    # the golden file of this fixture (solver.test.js and solver.worker.test.js run with
    # the rest of js/test in the node group, tests/js/test_golden.py)
    tests = ["solver.golden.test.js"]
    proc = subprocess.run([node, *NODE_FLAGS, "--test", *(os.path.join("test", t) for t in tests)],
                          cwd=JS_DIR, capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]


if __name__ == "__main__":
    text = build()
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with open(FIXTURE, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {FIXTURE} ({len(text)} bytes)")
