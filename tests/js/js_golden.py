"""The golden files of the JavaScript package (js/test/golden/*.json), computed by
Python's modlights: the node tests (js/test/*.test.js) hold the JavaScript code to
them, equal and not close.

``build()`` returns {file name: JSON text}; ``tests/js/test_golden.py`` compares it
with the committed files. Refresh them after a deliberate change of Python's answers
with::

    PYTHONPATH=src python tests/js/js_golden.py --write

Every case is deterministic (fixed seeds and SplitMix64 only). Boards whose kernel
has more elements than the generator's budget are left out of the generated puzzles:
there Python's minimal search is its greedy descent, which only the native core
reproduces.
"""
from __future__ import annotations

import base64
import copy
import datetime
import json
import os
import random
import sys
import zlib

import numpy as np

import modlights as ml
from modlights.play import puzzles as P
from modlights.play.prng import SplitMix64, seed_from

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN_DIR = os.path.join(ROOT, "js", "test", "golden")
REFRESH = "PYTHONPATH=src python tests/js/js_golden.py --write"


def _dump(obj) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def _compact(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _rng_state(board: ml.Board, rng: np.random.Generator) -> list:
    return rng.integers(0, board.states, size=board.shape).tolist()


def _rng_taps(board: ml.Board, rng: np.random.Generator) -> list:
    x = rng.integers(0, board.states, size=board.shape if board.is_grid else (board.n_taps,))
    if board.is_grid:
        x[board.locked | board.holes] = 0
    return x.tolist()


# ----------------------------------------------------------------------------- boards
GRID_CASES = [
    (5, 5, {}),
    (3, 4, {"states": 3, "pattern": "diagonal"}),
    (4, 4, {"states": 5, "pattern": "square", "wrap": True}),
    (3, 6, {"states": 2, "pattern": "horizontal", "locked": [[0, 0], [2, 5]]}),
    (6, 3, {"states": 7, "pattern": "vertical", "holes": [[1, 1]]}),
    (5, 5, {"states": 4, "pattern": "knight", "locked": [[2, 2]], "holes": [[0, 4], [4, 0]]}),
    (4, 5, {"states": 6, "pattern": [[0, 0], [0, 2], [2, 0], [-1, -1]], "wrap": True}),
    (3, 3, {"states": 2, "pattern": [[0, 1], [0, 1], [1, 0]]}),
    (2, 2, {"states": 3, "pattern": [[0, 0], [5, 5], [0, 2], [2, 0]], "wrap": True}),
    (3, 3, {"states": 4, "pattern": [["cross", "knight", "square"],
                                     [[[0, 0], [1, 1]], "CROSS", " diagonal "],
                                     ["vertical", [], "horizontal"]],
            "locked": [[1, 1]], "holes": [[2, 2]]}),
    (4, 2, {"states": 9, "pattern": [["cross", "cross"], ["square", "cross"],
                                     ["cross", [[0, 0]]], ["knight", "cross"]], "wrap": True}),
    (1, 7, {"states": 255, "pattern": "cross"}),
    (2, 3, {"states": 2, "locked": [[True, False, False], [False, False, True]]}),
    (3, 3, {"states": 8, "holes": [[1, 1], [1, 1]], "wrap": True}),
]

GRAPH_CASES = [
    ([[0, 1], [1, 2], [2, 0], [0, 0, 1]], 3, None),
    ([[0], [1], [], [2, 2, 2]], 4, 5),
    ([[4, 3], [3, 2, 1], [0]], 6, None),
]


def _board_entry(b: ml.Board, rng) -> dict:
    d = b.to_dict()
    entry = {"dict": d, "dict_json": _compact(d), "states": b.states, "shape": list(b.shape),
             "n_cells": b.n_cells, "n_taps": b.n_taps,
             "cells": [list(p) if b.is_grid else p for p in b.cells],
             "taps": [list(p) if b.is_grid else p for p in b.taps],
             "matrix": b.matrix().tolist(), "press": [], "apply": []}
    for _ in range(3):
        s = _rng_state(b, rng)
        t = b.taps[int(rng.integers(0, len(b.taps)))] if b.n_taps else None
        if t is None:
            continue
        times = int(rng.integers(-3, 9))
        pos = list(t) if b.is_grid else t
        entry["press"].append({"state": s, "pos": pos, "times": times,
                               "result": b.press(s, t, times).tolist()})
    for _ in range(3):
        s = (rng.integers(-300, 300, size=b.shape)).tolist()
        x = _rng_taps(b, rng)
        entry["apply"].append({"state": s, "taps": x, "result": b.apply(s, x).tolist()})
    return entry


def boards() -> dict:
    rng = np.random.default_rng(24)
    grids = []
    for rows, cols, kw in GRID_CASES:
        b = ml.Board.grid(rows, cols, **kw)
        e = _board_entry(b, rng)
        e["args"] = [rows, cols, kw]
        grids.append(e)
    names = list(ml.PATTERNS)
    for _ in range(60):
        rows, cols = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        kind = int(rng.integers(0, 3))

        def one():
            if rng.random() < 0.6:
                return names[int(rng.integers(0, len(names)))]
            return [[int(rng.integers(-3, 4)), int(rng.integers(-3, 4))]
                    for _ in range(int(rng.integers(0, 6)))]
        pattern = one() if kind < 2 else [[one() for _ in range(cols)] for _ in range(rows)]
        tiles = [[r, c] for r in range(rows) for c in range(cols)]
        pick = rng.permutation(len(tiles))
        nl, nh = int(rng.integers(0, 3)), int(rng.integers(0, 3))
        if nl + nh >= len(tiles):
            nl = nh = 0
        kw = {"states": int(rng.choice([2, 3, 4, 5, 6, 8, 9, 12, 16, 255])), "pattern": pattern,
              "locked": [tiles[i] for i in sorted(pick[:nl])],
              "holes": [tiles[i] for i in sorted(pick[nl:nl + nh])],
              "wrap": bool(rng.random() < 0.4)}
        b = ml.Board.grid(rows, cols, **kw)
        e = _board_entry(b, rng)
        e["args"] = [rows, cols, kw]
        grids.append(e)
    graphs = []
    for effects, states, n_cells in GRAPH_CASES:
        b = ml.Board.from_effects(effects, states, n_cells)
        e = _board_entry(b, rng)
        e["args"] = [effects, states, n_cells]
        graphs.append(e)
    return {"grids": grids, "graphs": graphs}


# ----------------------------------------------------------------------------- solver
SOLVER_CASES = [
    (5, 5, {}), (4, 4, {}), (3, 3, {"states": 3}), (5, 5, {"states": 4, "wrap": True}),
    (4, 4, {"states": 6, "wrap": True}), (3, 3, {"states": 8, "wrap": True}),
    (6, 6, {"states": 6}), (5, 5, {"states": 4}), (4, 4, {"states": 8, "pattern": "square"}),
    (3, 5, {"states": 6, "pattern": "knight", "locked": [[1, 2]]}),
    (4, 4, {"states": 4, "pattern": "diagonal", "holes": [[0, 0]]}),
    (4, 6, {"states": 9, "pattern": [[0, 0], [0, 1], [1, 0]], "wrap": True}),
    (6, 6, {"states": 2, "wrap": True}), (5, 5, {"states": 2, "pattern": "square"}),
    (3, 4, {"states": 12, "pattern": [["cross"] * 4, ["square"] * 4, ["knight"] * 4]}),
]
KERNEL_CASES = [(k, k, n, w) for n in (4, 6, 8) for k in (2, 3, 4, 5, 6, 7, 8, 10)
                for w in (False, True)]


def solver() -> dict:
    rng = np.random.default_rng(2024)
    cases = []
    for rows, cols, kw in SOLVER_CASES:
        b = ml.Board.grid(rows, cols, **kw)
        s = ml.Solver(b)
        entry = {"args": [rows, cols, kw], "dict": b.to_dict(), "nullity": int(s.nullity),
                 "rank": int(s.rank), "kernel_size": str(s.kernel_size), "starts": []}
        for k in range(4):
            target = 0 if k < 3 else 1
            start = b.random_state(rng) if k != 2 else _rng_state(b, rng)
            ok = bool(s.solvable(start, target))
            item = {"state": np.asarray(start).tolist(), "target": target, "solvable": ok}
            if ok:
                sol = s.solve(start, target, minimal=True, budget=10 ** 6)
                item.update(length=int(sol.length), proven_minimal=bool(sol.proven_minimal))
            entry["starts"].append(item)
        cases.append(entry)
    kernels = []
    for rows, cols, n, wrap in KERNEL_CASES:
        s = ml.Solver(ml.Board.grid(rows, cols, n, wrap=wrap))
        kernels.append({"rows": rows, "cols": cols, "states": n, "wrap": wrap,
                        "nullity": int(s.nullity), "kernel_size": str(s.kernel_size)})
    return {"cases": cases, "kernels": kernels}


# ----------------------------------------------------------------------------- codes
def codes() -> dict:
    rng = np.random.default_rng(7)
    out = []
    for rows, cols, kw in GRID_CASES + [(7, 9, {"states": 13, "locked": [[0, 0]],
                                                "holes": [[6, 8], [3, 3]]})]:
        b = ml.Board.grid(rows, cols, **kw)
        start = _rng_state(b, rng)
        p = ml.Puzzle(b, start)
        out.append({"board": b.to_dict(), "start": p.start.tolist(), "code": p.code})
    return {"codes": out, "fuzz": _code_fuzz([e["code"] for e in out])}


def _payload_code(body: bytes) -> str:
    data = body + zlib.crc32(body).to_bytes(4, "big")
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _non_canonical(valid: list) -> list:
    """Codes that decode to a puzzle but are not the code modlights writes for it: a
    named pattern written as offsets, non-zero base64 padding bits, a mixed palette in
    another order (each with a valid checksum)."""
    out = []
    cross = ml.PATTERNS["cross"]
    body = bytes([1, 1 << 3, 2, 2, 2, len(cross)]) + \
        bytes(b & 0xFF for o in cross for b in o) + bytes([0b10110000])
    out.append(_payload_code(body))
    for code in valid:
        pad = -len(code) % 4
        if pad:
            i = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".index(code[-1])
            out.append(code[:-1] + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                       "0123456789-_"[i | 1])
    # a mixed 1 x 2 board: palette [square, cross] where the canonical order is [cross, square]
    body = bytes([1, 2 << 3, 1, 2, 2, 2, 0, 2, 0, 0]) + bytes([0b10110000])
    out.append(_payload_code(body))
    return out


def _code_fuzz(valid: list) -> list:
    """Mutated codes and codes with a valid checksum over random bodies, each with
    Python's answer: the canonical code it decodes to, or the ValueError message."""
    rnd = random.Random(24)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    cases = []
    for _ in range(300):
        c = list(rnd.choice(valid))
        for _ in range(rnd.randint(1, 3)):
            i = rnd.randrange(len(c))
            op = rnd.random()
            if op < 0.5:
                c[i] = rnd.choice(alphabet)
            elif op < 0.75:
                c.insert(i, rnd.choice(alphabet))
            else:
                c = c[:i] or ["A"]
        cases.append("".join(c))
    for _ in range(300):
        head = bytes([1, rnd.randint(0, 0x1F), rnd.randint(1, 6), rnd.randint(1, 6),
                      rnd.randint(0, 9)])
        tail = bytes(rnd.randint(0, 255) for _ in range(rnd.randint(0, 14)))
        cases.append(_payload_code(head + tail))
    for _ in range(200):
        rows, cols, n = rnd.randint(1, 6), rnd.randint(1, 6), rnd.randint(2, 9)
        bits = rows * cols * (n - 1).bit_length()
        body = bytes([1, rnd.choice((0, 0, 2, 4, 6, 8)), rows, cols, n, rnd.randint(0, 6)]) + \
            bytes(rnd.randint(0, 255) for _ in range((bits + 7) // 8 + rnd.randint(-1, 1)))
        cases.append(_payload_code(body))
    cases += _non_canonical(valid)
    out = []
    for c in cases:
        try:
            p = ml.Puzzle.from_code(c)
            out.append({"code": c, "decodes_to": p.code, "board": p.board.to_dict(),
                        "start": p.start.tolist()})
        except ValueError as e:
            out.append({"code": c, "message": str(e)})
    return out


# ----------------------------------------------------------------------------- puzzles
def _puzzle_entry(p: ml.Puzzle) -> dict:
    d = p.to_dict()
    return {"code": p.code, "min_taps": p.min_taps, "proven": p.proven,
            "difficulty": p.difficulty, "stars": d["stars"], "dict": d}


DAILY_DATES = [(datetime.date(2026, 11, 1) + datetime.timedelta(days=7 * i)).isoformat()
               for i in range(26)] + ["1999-12-31", "2024-02-29", "2026-11-26", "2100-03-01"]

GENERATE_SETTINGS = [
    {"rows": 5, "cols": 5},
    {"rows": 5, "cols": 5, "states": 3, "locked": 3, "difficulty": "hard"},
    {"rows": 6, "cols": 6, "states": 3, "locked": 2, "holes": 2, "difficulty": "expert"},
    {"rows": 4, "cols": 6, "states": 5, "pattern": "diagonal", "difficulty": "easy"},
    {"rows": 5, "cols": 5, "unique": False, "difficulty": "expert"},
    {"rows": 4, "cols": 4, "states": 4, "pattern": "square", "unique": False},
    {"rows": 3, "cols": 5, "states": 6, "pattern": "knight", "wrap": True, "unique": False,
     "difficulty": "hard"},
    {"rows": 7, "cols": 7, "states": 2, "difficulty": "hard"},
    {"rows": 4, "cols": 4, "pattern": [[0, 0], [0, 1], [1, 0]], "unique": False},
    {"rows": 5, "cols": 4, "states": 7, "locked": [[0, 0], [1, 1]], "holes": 1},
]


def puzzles() -> dict:
    days = {d: [_puzzle_entry(p) for p in ml.daily(d)] for d in DAILY_DATES}
    gen = []
    for i in range(50):
        kw = dict(GENERATE_SETTINGS[i % len(GENERATE_SETTINGS)])
        kw["seed"] = i if i % 3 else f"seed-{i}"
        p = ml.generate(**kw)
        gen.append({"kwargs": kw, **_puzzle_entry(p)})
    # kernels past GENERATE_BUDGET: Python's minimal search is then its native greedy
    # descent (budget 0), which a JavaScript solver must reproduce to give these
    large = []
    for i, kw in enumerate([{"rows": 5, "cols": 5, "states": 6, "pattern": "square",
                             "unique": False, "difficulty": d} for d in ml.play.puzzles.DIFFICULTIES]):
        kw = dict(kw, seed=i)
        p = ml.generate(**kw)
        assert ml.Solver(p.board).kernel_size > P.GENERATE_BUDGET
        large.append({"kwargs": kw, **_puzzle_entry(p)})
    bands = [{"n_taps": t, "states": n, "bands": {k: list(v) for k, v in P.tap_bands(t, n).items()}}
             for t in (0, 1, 2, 4, 9, 23, 25, 36, 100, 144, 400, 1024) for n in (2, 3, 4, 9, 255)]
    return {"daily_scheme": P.DAILY_SCHEME, "daily": days, "generate": gen,
            "generate_large_kernel": large, "bands": bands}


# ----------------------------------------------------------------------------- prng
def prng() -> dict:
    seeds = [0, 1, 1234567, 2 ** 64 - 1, 2 ** 64 + 5, -1, "", "abc", "modlights-daily-v2:2026-11-26",
             "é ü 日本", "x" * 200]
    out = []
    for s in seeds:
        r = SplitMix64(s)
        entry = {"seed": s if isinstance(s, str) else str(s), "kind": "str" if isinstance(s, str)
                 else "int", "seed_from": str(seed_from(s)),
                 "u64": [str(r.next_u64()) for _ in range(4)],
                 "randbelow": [r.randbelow(k) for k in (1, 2, 3, 7, 10, 255, 1000, 2 ** 40 + 3)],
                 "random": [r.random() for _ in range(3)],
                 "sample": r.sample(list(range(20)), 7)}
        out.append(entry)
    return {"seeds": out}


# ----------------------------------------------------------------------------- verify
def _grid_perm(size, f):
    return [rr * size + cc for r in range(size) for c in range(size) for rr, cc in [f(r, c)]]


def _dihedral(size):
    s = size - 1
    maps = [lambda r, c: (r, s - c), lambda r, c: (s - r, c), lambda r, c: (c, r),
            lambda r, c: (s - c, s - r), lambda r, c: (c, s - r), lambda r, c: (s - r, s - c),
            lambda r, c: (s - c, r)]
    return [{"cells": _grid_perm(size, f), "taps": _grid_perm(size, f)} for f in maps]


def _certificates() -> list:
    """(name, certificate) pairs: solution certificates (enumeration), trees with
    pruned prefixes and symmetries, hardest certificates (lp-dual, lp-tree)."""
    out = []
    rng = np.random.default_rng(11)
    for rows, cols, kw in [(5, 5, {}), (4, 4, {}), (3, 3, {"states": 3}),
                           (4, 4, {"states": 6, "wrap": True}), (4, 4, {"states": 4}),
                           (5, 5, {"states": 4, "wrap": True}), (3, 5, {"states": 8,
                           "pattern": "knight", "holes": [[1, 2]], "locked": [[0, 0]]})]:
        b = ml.Board.grid(rows, cols, **kw)
        s = ml.Solver(b)
        sol = s.solve(b.random_state(rng), minimal=True)
        out.append((f"minimal {rows}x{cols} {kw}", json.loads(json.dumps(sol.certificate()))))
    for n, size, wrap in [(2, 4, False), (2, 5, False), (3, 4, False), (4, 4, False),
                          (6, 4, False), (3, 5, True)]:
        b = ml.Board.grid(size, size, states=n, wrap=wrap)
        s = ml.Solver(b)
        sol = s.solve(np.zeros((size, size), dtype=np.uint8), 1)
        cert = json.loads(json.dumps(sol.certificate()))
        if s.kernel_size == 1:
            continue
        k = len(cert["kernel"]["orders"])
        syms = _dihedral(size) if not wrap else [
            {"cells": _grid_perm(size, lambda r, c, a=a, d=d: ((r + a) % size, (c + d) % size)),
             "taps": _grid_perm(size, lambda r, c, a=a, d=d: ((r + a) % size, (c + d) % size))}
            for a in range(size) for d in range(size) if a or d]
        cert["proof"] = {"method": "tree", "leaf_dim": 0, "pruned": [], "symmetries": syms}
        out.append((f"tree symmetries n={n} {size}x{size} wrap={wrap}", cert))
        tree = copy.deepcopy(cert)
        tree["proof"] = {"method": "tree", "leaf_dim": min(1, k),
                         "pruned": [[c] for c in range(cert["kernel"]["orders"][-1])][:1]}
        out.append((f"tree pruned n={n} {size}x{size}", tree))
    for rows, cols, kw in [(3, 3, {}), (4, 4, {}), (5, 5, {}), (3, 3, {"states": 3}),
                           (4, 4, {"states": 4, "wrap": True})]:
        h = ml.Solver(ml.Board.grid(rows, cols, **kw)).hardest()
        out.append((f"hardest {rows}x{cols} {kw}", json.loads(json.dumps(h.certificate()))))
    from modlights.search.covering import bounds_certificate
    for rows, cols, kw in [(6, 6, {}), (4, 5, {"states": 5, "pattern": "knight",
                                               "holes": [[1, 1]], "locked": [[0, 2]]})]:
        b = ml.Board.grid(rows, cols, **kw)
        sol = ml.Solver(b).solve(b.random_state(rng), minimal=False)
        out.append((f"bounds {rows}x{cols} {kw}", bounds_certificate(b, sol.taps)))
    return out


def _tampered(name: str, cert: dict) -> list:
    """Altered copies of a certificate: each is checked by Python, its verdict kept."""
    out = []

    def alt(label, f):
        c = copy.deepcopy(cert)
        try:
            f(c)
        except (KeyError, IndexError, TypeError, ValueError):
            return
        out.append((f"{name}: {label}", c))
    claim = (lambda c: c) if cert["kind"] != "hardest" else (lambda c: c["witness"])
    alt("length - 1", lambda c: claim(c).__setitem__("length", claim(c)["length"] - 1))
    alt("a tap + 1", lambda c: claim(c)["taps"].__setitem__(
        0, (claim(c)["taps"][0] + 1) % c["board"]["states"]))
    alt("rhs changed", lambda c: claim(c)["rhs"].__setitem__(
        -1, (claim(c)["rhs"][-1] + 1) % c["board"]["states"]))
    alt("generator dropped", lambda c: (c["kernel"]["generators"].pop(),
                                        c["kernel"]["orders"].pop()))
    alt("order doubled", lambda c: c["kernel"]["orders"].__setitem__(
        0, c["kernel"]["orders"][0] * 2))
    alt("generator changed", lambda c: c["kernel"]["generators"][0].__setitem__(
        0, (c["kernel"]["generators"][0][0] + 1) % c["board"]["states"]))
    alt("proof method", lambda c: claim(c)["proof"].__setitem__("method", "guess"))
    alt("leaf_dim", lambda c: claim(c)["proof"].__setitem__("leaf_dim", 99)
        if claim(c)["proof"]["method"] == "tree" else c.__setitem__("version", 2))
    alt("symmetry", lambda c: claim(c)["proof"]["symmetries"][0].__setitem__(
        "taps", list(range(len(claim(c)["taps"])))))
    alt("upper - 1", lambda c: c.__setitem__("upper", c["upper"] - 1))
    alt("lower > upper", lambda c: c.__setitem__("lower", c["upper"] + 1))
    alt("weights", lambda c: c["upper_bound"].__setitem__("weights", ["1/2"] * len(
        c["upper_bound"]["weights"])) if "weights" in c["upper_bound"] else
        c["upper_bound"]["nodes"].pop())
    alt("negative weight", lambda c: c["upper_bound"]["weights"].__setitem__(0, "-1/3"))
    n = cert["board"]["states"]
    gens = cert.get("kernel", {}).get("generators", [])
    for gi in sorted({0, len(gens) - 1}) if gens else []:
        def longer(c, gi=gi):
            x = [(v + h) % n for v, h in zip(claim(c)["taps"], c["kernel"]["generators"][gi])]
            claim(c)["taps"] = x
            claim(c)["length"] = sum(x)
            if c["kind"] == "hardest":
                c["lower"] = c["upper"] = max(c["upper"], sum(x))
        alt(f"another solution (+ generator {gi})", longer)
    alt("covering weight", lambda c: c["lower_bound"]["weights"].__setitem__(
        c["rhs"].index(1), c["lower_bound"]["weights"][c["rhs"].index(1)] + 1))
    alt("covering bound", lambda c: (c["lower_bound"], c.__setitem__("lower", c["lower"] + 1)))
    alt("format", lambda c: c.__setitem__("format", "other"))
    alt("kind", lambda c: c.__setitem__("kind", "maximal"))
    alt("board", lambda c: c["board"].__setitem__("states", 1))
    return out


def certificates() -> dict:
    from modlights.search import verify as V
    cases = []
    for name, cert in _certificates():
        for label, c in [(name, cert)] + _tampered(name, cert):
            try:
                cases.append({"name": label, "cert": c, "ok": True, "summary": V.summary(c)})
            except ValueError as e:
                cases.append({"name": label, "cert": c, "ok": False, "message": str(e)})
    return {"cases": cases}


# ----------------------------------------------------------------------------- bad input
def _catch(fn) -> str:
    try:
        fn()
    except ValueError as e:
        return str(e)
    raise AssertionError("expected a ValueError")


GOOD = {"rows": 3, "cols": 3, "states": 3, "pattern": "cross", "locked": [[0, 0]],
        "holes": [], "wrap": False}
ERROR_CASES = [
    ("grid", [0, 3, {}]), ("grid", [3, -1, {}]), ("grid", [3, 3, {"states": 1}]),
    ("grid", [3, 3, {"states": 256}]), ("grid", [3, 3, {"states": True}]),
    ("grid", [3, 3, {"states": "3"}]), ("grid", [3, 3, {"states": 2.5}]),
    ("grid", ["3", 3, {}]), ("grid", [3, 3, {"pattern": "nope"}]),
    ("grid", [3, 3, {"pattern": 5}]), ("grid", [3, 3, {"pattern": [[0, 0, 1]]}]),
    ("grid", [3, 3, {"pattern": [[0, 2000]]}]), ("grid", [3, 3, {"pattern": [[0, True]]}]),
    ("grid", [2, 2, {"pattern": [["cross", "nope"], ["cross", "cross"]]}]),
    ("grid", [2, 2, {"pattern": [["cross", "cross", "cross"], ["cross", "cross"]]}]),
    ("grid", [3, 3, {"locked": [[0, 0]], "holes": [[0, 0]]}]),
    ("grid", [3, 3, {"locked": [[3, 0]]}]), ("grid", [3, 3, {"locked": [[0, -1]]}]),
    ("grid", [3, 3, {"locked": [[0, 0, 0]]}]), ("grid", [3, 3, {"locked": 5}]),
    ("grid", [3, 3, {"locked": [[0, "a"]]}]), ("grid", [3, 3, {"holes": [1, 2]}]),
    ("grid", [2, 2, {"locked": [[True, False]]}]),
    ("grid", [12000, 12000, {"locked": [[0, 0]]}]), ("grid", [12000, 12000, {"holes": [[1, 1]]}]),
    ("grid", [12000, 12000, {"pattern": "nope"}]), ("grid", [12000, 12000, {"states": 1}]),
    ("grid", [12000, 12000, {"pattern": [[0, 0, 1]]}]),
    ("from_effects", [[[0, 1], [3]], 1, None]), ("from_effects", [[[0, 1], ["a"]], 2, None]),
    ("from_effects", [[[0, 1], [5]], 2, 3]), ("from_effects", [[[0, -1]], 2, None]),
    ("from_effects", [[[0, 1], [True]], 2, None]), ("from_effects", [[[0]], 2, -1]),
    ("from_dict", 5), ("from_dict", {"rows": 3}), ("from_dict", {**GOOD, "colour": 1}),
    ("from_dict", {**GOOD, "states": 300}), ("from_dict", {**GOOD, "wrap": 1}),
    ("from_dict", {**GOOD, "pattern": 7}), ("from_dict", {**GOOD, "pattern": [[0, 0.5]]}),
    ("from_dict", {**GOOD, "pattern": [["cross", 1], ["cross"]]}),
    ("from_dict", {**GOOD, "locked": "all"}), ("from_dict", {**GOOD, "locked": [[0]]}),
    ("from_dict", {**GOOD, "holes": [[True, False]]}),
    ("from_dict", {**GOOD, "holes": [[0, 0]]}), ("from_dict", {**GOOD, "rows": 0}),
    ("from_dict", {"effects": 3, "states": 2}),
    ("from_dict", {"effects": [[0], 1], "states": 2}),
    ("from_dict", {"effects": [[0]], "states": 1}),
    ("from_dict", {"effects": [[0]], "states": 2, "n_cells": -2}),
    ("from_dict", {"effects": [[0, 9]], "states": 2, "n_cells": 3}),
    ("from_dict", {"effects": [[0]], "states": 2, "extra": 1}),
    ("press", {"board": GOOD, "state": [[0] * 3] * 3, "pos": [0, 0]}),
    ("press", {"board": GOOD, "state": [[0] * 3] * 3, "pos": [3, 1]}),
    ("press", {"board": GOOD, "state": [[0] * 3] * 2, "pos": [1, 1]}),
    ("press", {"board": GOOD, "state": [[0] * 3] * 3, "pos": [1]}),
    ("press", {"board": GOOD, "state": [[0] * 3] * 3, "pos": [1, 1], "times": "x"}),
    ("press", {"board": {**GOOD, "holes": [[2, 2]]}, "state": [[0] * 3] * 3, "pos": [2, 2]}),
    ("press", {"board": {"effects": [[0], [1]], "states": 2}, "state": [0, 0], "pos": 2}),
    ("apply", {"board": GOOD, "state": [[0] * 3] * 3, "taps": [[1, 0, 0]] + [[0] * 3] * 2}),
    ("apply", {"board": GOOD, "state": [[0] * 3] * 3, "taps": [[0] * 3] * 4}),
    ("apply", {"board": {"effects": [[0], [1]], "states": 2}, "state": [0, 0], "taps": [1]}),
    ("from_code", ""), ("from_code", "   "), ("from_code", "abc!"), ("from_code", "AQIé"),
    ("from_code", "A"), ("from_code", "AAAA"), ("from_code", 5),
    ("from_code", "AQAGBgIAfnf6hLAUNNFH"), ("from_code", "AQAGBgIAfnf6hLAUNNFG" + "A"),
    ("generate", {"difficulty": "Easy"}), ("generate", {"difficulty": None}),
    ("generate", {"rows": 0}), ("generate", {"cols": 40, "rows": 40}),
    ("generate", {"locked": -1}), ("generate", {"holes": True}), ("generate", {"locked": 1.5}),
    ("generate", {"locked": 20, "holes": 5}), ("generate", {"states": 1}),
    ("generate", {"pattern": "nope"}),
    ("generate", {"rows": 4, "cols": 4, "locked": 0, "holes": 0, "seed": 1}),
    ("generate", {"rows": 5, "cols": 5, "pattern": "square", "locked": 3, "seed": 1}),
    ("generate", {"rows": 5, "cols": 5, "locked": [[0, 0], [4, 4]], "seed": 1}),
    ("generate", {"rows": 3, "cols": 3, "locked": [[0, 0]], "holes": [[0, 0]]}),
    ("generate", {"rows": 3, "cols": 3, "pattern": [[0, 0], [0, 0]], "unique": False,
                  "seed": 1}),
    ("daily", "2026/11/22"), ("daily", "2026-13-01"), ("daily", "2026-02-30"),
    ("daily", "yesterday"), ("daily", 20261122), ("daily", ["2026-11-22"]),
    ("puzzle_from_dict", {"code": "AQAGBgIAfnf6hLAUNNFH"}),
    ("puzzle_from_dict", {"board": GOOD}), ("puzzle_from_dict", {"start": [[0]]}),
    ("puzzle_from_dict", {"board": GOOD, "start": [[0, 0, 0]]}),
    ("puzzle_from_dict", {"board": GOOD, "start": [[0, 0, 5]] * 3}),
    ("puzzle_from_dict", {"board": GOOD, "start": [[0] * 3] * 3, "stars": 5}),
    ("puzzle_from_dict", {"board": GOOD, "start": [[0] * 3] * 3, "difficulty": "meh"}),
    ("puzzle_from_dict", {"board": GOOD, "start": [[0] * 3] * 3, "code": "AQAGBgIAfnf6hLAUNNFG"}),
    ("puzzle_from_dict", {"board": {**GOOD, "rows": -1}, "start": [[0] * 3] * 3}),
]
# states and targets: one reader (Board.coerce_state's rules) for press, apply and the
# Solver's solve / solvable / hint; "solve" runs Solver(board).solve(state, target=...)
# (the JavaScript test asks solvable and hint too, for the same message)
_Z = [[0] * 3] * 3
BAD_STATES = [
    [["1", 0, 0], [0, 0, 0], [0, 0, 0]], [["ab", True, 0], [0, 0, 0], [0, 0, 0]],
    [["abc", 1.5, 0], [0, 0, 0], [0, 0, 0]], [[True, "a", False], [0, 0, 0], [0, 0, 0]],
    [[0, 0, 0], [0, 0], [0, 0, 0]], [[0, [0], 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], 5, [0]],
    [[None, 0, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, {}]],
    [[2 ** 70, None, 0], [0, 0, 0], [0, 0, 0]], [[0.5, 0, 0], [0, 0, 0], [0, 0, 0]],
    [[0, 0, 0], [0, 0, 0]], [0] * 9, None, "abc", 5, {},
]
ERROR_CASES += [("press", {"board": GOOD, "state": st, "pos": [1, 1]}) for st in BAD_STATES]
ERROR_CASES += [("solve", {"board": GOOD, "state": st}) for st in BAD_STATES]
ERROR_CASES += [
    ("solve", {"board": GOOD, "state": _Z, "target": 1.5}),
    ("solve", {"board": GOOD, "state": _Z, "target": True}),
    ("solve", {"board": GOOD, "state": _Z, "target": "1"}),
    ("solve", {"board": GOOD, "state": _Z, "target": None}),
    ("solve", {"board": GOOD, "state": _Z, "target": [[1.5, 0, 0], [0, 0, 0], [0, 0, 0]]}),
    ("solve", {"board": GOOD, "state": [["1", 0, 0]] * 3, "target": True}),
    ("solve", {"board": {"effects": [[0], [1]], "states": 2}, "state": [[1, 0]]}),
    ("solve", {"board": {"effects": [[0], [1]], "states": 2}, "state": ["1", 0]}),
    ("press", {"board": {"effects": [[0], [1]], "states": 2}, "state": [[1, 0]], "pos": 0}),
]
# a Solver of a grid spec ({kind: "grid", rows, cols, states, offsets}: JavaScript's)
# checks it as Board.grid(rows, cols, states=, pattern=offsets) does
ERROR_CASES += [("solver_grid_spec", {"rows": r, "cols": c, "states": n, "offsets": o})
                for r, c, n, o in [(2, 2, 2, [[2 ** 32, 0]]), (2, 2, 2, [[2 ** 20 + 1, 0]]),
                                   (2, 2, 2, [[0, 2 ** 31]]), (2, 2, 2, [[0, True]]),
                                   (2, 2, 2, [[0, 0, 1]]), (2, 2, 2, 5), (2, 2, 256, [[0, 0]]),
                                   (0, 2, 2, [[0, 0]]), (2, 2 ** 21, 2, [[0, 0]])]]


def _run_error(op, arg):
    if op == "grid":
        rows, cols, kw = arg
        return _catch(lambda: ml.Board.grid(rows, cols, **kw))
    if op == "from_effects":
        return _catch(lambda: ml.Board.from_effects(*arg))
    if op == "from_dict":
        return _catch(lambda: ml.Board.from_dict(arg))
    if op in ("press", "apply"):
        b = ml.Board.from_dict(arg["board"])
        if op == "press":
            pos = tuple(arg["pos"]) if isinstance(arg["pos"], list) else arg["pos"]
            return _catch(lambda: b.press(arg["state"], pos, arg.get("times", 1)))
        return _catch(lambda: b.apply(arg["state"], arg["taps"]))
    if op == "solve":
        s = ml.Solver(ml.Board.from_dict(arg["board"]))
        return _catch(lambda: s.solve(arg["state"], target=arg.get("target", 0)))
    if op == "solver_grid_spec":
        return _catch(lambda: ml.Solver(ml.Board.grid(arg["rows"], arg["cols"],
                                                      states=arg["states"],
                                                      pattern=arg["offsets"])))
    if op == "from_code":
        return _catch(lambda: ml.Puzzle.from_code(arg))
    if op == "generate":
        return _catch(lambda: ml.generate(**arg))
    if op == "daily":
        return _catch(lambda: ml.daily(arg))
    if op == "puzzle_from_dict":
        return _catch(lambda: ml.Puzzle.from_dict(arg))
    raise AssertionError(op)


def errors() -> dict:
    return {"cases": [{"op": op, "arg": arg, "message": _run_error(op, arg)}
                      for op, arg in ERROR_CASES]}


def build() -> dict[str, str]:
    """{file name: JSON text} of every golden file."""
    return {"boards.json": _dump(boards()), "solver.json": _dump(solver()),
            "codes.json": _dump(codes()), "puzzles.json": _dump(puzzles()),
            "prng.json": _dump(prng()), "errors.json": _dump(errors()),
            "verify.json": _compact(certificates()) + "\n",
            "version.json": _dump({"version": ml.__version__})}


def write() -> None:
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    for name, text in build().items():
        with open(os.path.join(GOLDEN_DIR, name), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: {REFRESH}")
    write()
