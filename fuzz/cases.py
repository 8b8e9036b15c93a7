"""Fuzz cases for the solver: decoding bytes into board parameters, and checking one case.

A *case* is a small JSON-safe dict (the regression corpus in tests/fuzz_corpus/ holds
them as files, one case a file)::

    {"board": {"kind": "grid", "rows": 5, "cols": 6, "states": 6,
               "pattern": [[-1, 1], [-1, -1]], "locked": [[0, 0]], "holes": [],
               "wrap": false},
     "method": "chase", "seed": 7}

``board.kind`` is ``"grid"`` (the arguments of ``Board.grid``; ``pattern`` is a name,
a list of [dr, dc] offsets or a rows x cols nested list of those, one per tile) or
``"effects"`` (``Board.from_effects``: ``effects``, ``states``, ``n_cells``). ``method``
is any ``method=`` of ``Solver``; ``seed`` draws the states and targets the case solves.

:func:`decode` turns fuzzer bytes into a case (every byte string decodes; small boards
only, so each case runs in milliseconds). :func:`check` runs one case through the
native Solver and compares every answer with the reference engine and with
``Board.apply``: it returns ``"ok"``, ``"refused"`` (a ValueError: a clean refusal) or
raises :class:`Finding` (a wrong answer, or an exception other than ValueError, chained
as its cause). A crash of the process is the third kind of finding; the replay runs
each case in a subprocess to see it (``fuzz/replay.py``).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

#: "auto" and the family names of Solver's method= (modlights.engines.registry.
#: METHOD_FAMILIES; the corpus decodes an index into this tuple); the harness checks it
#: is in sync
METHODS = ("auto", "dense", "chase", "algebraic", "lifted", "tensor")
NAMED = ("cross", "diagonal", "square", "horizontal", "vertical", "knight")
#: n worth drawing more often than the rest of 2..255: the bit-sliced n (2, 3, 4),
#: small primes, prime powers, composites with several factors, the largest
INTERESTING_N = (2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 16, 25, 27, 30, 101, 255)
#: largest side and tile count a decoded grid has (so each case is fast)
MAX_SIDE, MAX_TILES = 16, 64
#: reach of custom offsets: -REACH..REACH in each direction
REACH = 4
#: coset elements the minimal search may examine in a check
SEARCH_BUDGET = 4096


class Finding(AssertionError):
    """A wrong answer or an unexpected exception: what the fuzzer looks for."""


# ------------------------------------------------------------------------ decoding
class _Bytes:
    """Reads small ints from a byte string; past its end every read is 0."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        b = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        return b

    def int(self, lo: int, hi: int) -> int:
        """An int in lo..hi (inclusive)."""
        span = hi - lo + 1
        v = self.byte() if span <= 256 else self.byte() | self.byte() << 8
        return lo + v % span

    def pick(self, seq):
        return seq[self.int(0, len(seq) - 1)]

    def chance(self, k: int) -> bool:
        """True with probability about 1/k."""
        return self.int(0, k - 1) == 0


def _offsets(r: _Bytes) -> list:
    """A custom pattern: 1-8 offsets within +-REACH; with the centre, without, one-sided,
    repeated; as lists (JSON)."""
    kind = r.int(0, 5)
    k = r.int(1, 8)
    offs = []
    for _ in range(k):
        dr, dc = r.int(-REACH, REACH), r.int(-REACH, REACH)
        if kind == 1:                     # one-sided: rows below only
            dr = abs(dr)
        elif kind == 2:                   # one row: the 1 x N and wrap cases
            dr = 0
        elif kind == 3:                   # reach 1 (the chase's usual window)
            dr, dc = dr % 3 - 1, dc % 3 - 1
        offs.append([dr, dc])
    if kind == 4 and offs:                # a repeated offset
        offs.append(list(offs[r.int(0, len(offs) - 1)]))
    centre = r.int(0, 2)
    if centre == 0:
        offs = [o for o in offs if o != [0, 0]] or [[0, 1]]
    elif centre == 1 and [0, 0] not in offs:
        offs.insert(r.int(0, len(offs)), [0, 0])
    return offs


def _pattern(r: _Bytes):
    return r.pick(NAMED) if r.chance(2) else _offsets(r)


def _positions(r: _Bytes, rows: int, cols: int, most: int) -> list:
    k = r.int(0, most)
    return sorted({(r.int(0, rows - 1), r.int(0, cols - 1)) for _ in range(k)})


def decode(data: bytes) -> dict:
    """A case from any byte string (deterministic; see the module docstring)."""
    r = _Bytes(data)
    method = r.pick(METHODS)
    seed = r.int(0, 65535)
    n = r.pick(INTERESTING_N) if r.chance(2) else r.int(2, 255)
    if r.chance(8):                                    # a graph board
        taps = r.int(0, 12)
        cells = r.int(0, 12)
        effects = [[r.int(0, max(cells - 1, 0)) for _ in range(r.int(0, 4))]
                   if cells else [] for _ in range(taps)]
        return {"board": {"kind": "effects", "effects": effects, "states": n,
                          "n_cells": cells},
                "method": method, "seed": seed}
    shape = r.int(0, 3)
    if shape == 0:                                     # a single row or column
        rows, cols = 1, r.int(1, MAX_SIDE)
        if r.chance(2):
            rows, cols = cols, rows
    elif shape == 1:                                   # tall or wide
        rows, cols = r.int(1, 3), r.int(4, MAX_SIDE)
        if r.chance(2):
            rows, cols = cols, rows
    else:
        rows, cols = r.int(1, 8), r.int(1, 8)
    while rows * cols > MAX_TILES:
        rows, cols = max(1, rows // 2), cols
    if r.chance(6):                                    # mixed: a pattern a tile
        palette = [_pattern(r) for _ in range(r.int(1, 3))]
        pattern = [[palette[r.int(0, len(palette) - 1)] for _ in range(cols)]
                   for _ in range(rows)]
    else:
        pattern = _pattern(r)
    locked = _positions(r, rows, cols, 3) if r.chance(3) else []
    holes = _positions(r, rows, cols, 3) if r.chance(3) else []
    holes = [p for p in holes if p not in set(locked)]
    wrap = r.chance(4)
    return {"board": {"kind": "grid", "rows": rows, "cols": cols, "states": n,
                      "pattern": pattern, "locked": [list(p) for p in locked],
                      "holes": [list(p) for p in holes], "wrap": wrap},
            "method": method, "seed": seed}


# ------------------------------------------------------------------------ checking
def make_board(spec: dict):
    """The Board a case's ``board`` entry describes (ValueError as Board raises it)."""
    import modlights as ml
    if spec["kind"] == "effects":
        return ml.Board.from_effects(spec["effects"], spec["states"], spec.get("n_cells"))
    pattern = spec["pattern"]
    if not isinstance(pattern, str):
        pattern = _tuples(pattern)
    return ml.Board.grid(spec["rows"], spec["cols"], spec["states"], pattern,
                         locked=[tuple(p) for p in spec.get("locked", [])] or None,
                         holes=[tuple(p) for p in spec.get("holes", [])] or None,
                         wrap=spec.get("wrap", False))


def _tuples(p):
    """JSON lists back into the tuples/lists Board.grid reads: an offset list is a
    list of (dr, dc) tuples; a mixed map a nested list of names / offset lists."""
    if isinstance(p, str):
        return p
    if p and all(isinstance(o, list) and len(o) == 2 and all(isinstance(v, int) for v in o)
                 for o in p):
        return [tuple(o) for o in p]
    return [[_tuples(e) for e in row] if isinstance(row, list) else row for row in p]


def _expect(cond: bool, what: str) -> None:
    if not cond:
        raise Finding(what)


def check(case: dict) -> str:
    """Run one case; ``"ok"``, ``"refused"`` (ValueError) or raise Finding."""
    import modlights as ml
    try:
        board = make_board(case["board"])
        solver = ml.Solver(board, method=case["method"])
    except ValueError:
        return "refused"
    except Exception as e:                       # noqa: BLE001 - that is the finding
        raise Finding(f"building: {type(e).__name__}: {e}") from e
    try:
        return _check_solver(board, solver, case["seed"])
    except Finding:
        raise
    except ValueError:
        return "refused"
    except Exception as e:                       # noqa: BLE001
        raise Finding(f"{type(e).__name__}: {e}") from e


def _check_solver(board, solver, seed: int) -> str:
    import modlights as ml
    ref = ml.Solver(board, backend="reference")
    n = board.states
    rng = np.random.default_rng(seed)
    # invariants of A: the same from every engine
    ks = solver.kernel_size
    _expect(ks == ref.kernel_size, f"kernel_size {ks} != reference {ref.kernel_size}")
    _expect(solver.nullity == ref.nullity, f"nullity {solver.nullity} != {ref.nullity}")
    _expect(solver.rank == ref.rank, f"rank {solver.rank} != reference {ref.rank}")
    K = solver.kernel()
    orders = solver.kernel_orders
    _expect(K.shape == (len(orders), board.n_taps), f"kernel shape {K.shape}")
    _expect(math.prod(orders) == ks, f"kernel orders {orders} do not multiply to {ks}")
    zero = np.zeros(board.shape, dtype=np.uint8)
    for k, o in zip(K, orders):
        taps = board.from_tap_vector(k)
        _expect(not board.apply(zero, taps).any(), "a kernel generator is not in ker A")
        _expect(o > 1 and n % o == 0 and not (k.astype(np.int64) * o % n).any(),
                f"kernel generator order {o} wrong mod {n}")
    if board.n_cells == board.n_taps and board.n_taps <= 64:
        _expect(solver.det() == ref.det(), f"det {solver.det()} != reference {ref.det()}")
    # solvable / solve against the reference and Board.apply
    target = int(rng.integers(0, n)) if rng.random() < 0.3 else 0
    x = rng.integers(0, n, size=board.n_taps).astype(np.uint8)
    reachable = (target - board.apply_vector(x).astype(np.int64)) % n   # = t - A x
    states = [board.from_cell_vector(reachable.astype(np.uint8)),
              board.random_state(rng=rng, solvable=False)]
    for s in states:
        ok = solver.solvable(s, target)
        _expect(ok == ref.solvable(s, target), f"solvable {ok} != reference")
        _expect(ok or s is not states[0], "a reachable state called unsolvable")
        if not ok:
            try:
                solver.solve(s, target, minimal=False)
            except ml.Unsolvable:
                continue
            raise Finding("solve() answered a board solvable() calls unsolvable")
        sol = solver.solve(s, target, minimal=False)
        _expect(_reaches(board, s, sol.taps, target), "solve(minimal=False) misses the target")
        m = solver.solve(s, target, budget=SEARCH_BUDGET)
        _expect(_reaches(board, s, m.taps, target), "solve(minimal=True) misses the target")
        r = ref.solve(s, target, budget=SEARCH_BUDGET)
        if m.proven_minimal and r.proven_minimal:
            _expect(m.length == r.length, f"minimal length {m.length} != reference {r.length}")
    return "ok"


def _reaches(board, state, taps, target: int) -> bool:
    after = board.cell_vector(board.apply(state, taps))
    return bool((after == target).all())
