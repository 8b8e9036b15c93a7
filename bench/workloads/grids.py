"""Large grid boards: Board.grid + Solver(method) + solve(minimal=False).

Public API only (ml.Board, ml.Solver, solve), so the same workload runs on any tree
(``python -m bench compare``). The timed work is the whole user call: building the
board, the Solver and one solve. A chase variant or an engine is picked with
``--param method=NAME`` (any name Solver accepts); two variants are compared by running
the workload once with each, or two trees with ``python -m bench compare``. The start is
either every tile on (the issue's all-on start) or A x0 for random taps x0 (solvable by
construction); every answer is checked with Board.apply outside the timing.
"""

from __future__ import annotations

import numpy as np

from ..registry import Context, Subject, workload


def _grid_case(ctx: Context):
    import modlights as ml

    k, n, pattern, method = ctx["size"], ctx["states"], ctx["pattern"], ctx["method"]
    rng = np.random.default_rng(ctx.seed)
    kw = {}
    if ctx.params.get("holes") or ctx.params.get("locked"):
        u = np.random.default_rng(ctx.seed + 1).random((k, k))
        h, lk = ctx.params.get("holes", 0.0), ctx.params.get("locked", 0.0)
        if h:
            kw["holes"] = u < h
        if lk:
            kw["locked"] = (u >= h) & (u < h + lk)
    masks = dict(kw)
    if ctx.params.get("wrap"):
        kw["wrap"] = True
    board = ml.Board.grid(k, k, states=n, pattern=pattern, **kw)
    if ctx["start"] == "all-on":
        start = np.ones((k, k), np.uint8)
    elif ctx["start"] == "image":
        taps = rng.integers(0, n, (k, k), dtype=np.uint8)
        for mask in masks.values():
            taps[mask] = 0
        start = np.asarray(board.apply(np.zeros((k, k), np.uint8), taps), np.uint8)
        del taps
    else:
        raise ValueError(f"start is 'all-on' or 'image', got {ctx['start']!r}")

    solves = int(ctx.params.get("solves", 0))
    if solves:  # the per-call cost: one Solver (made untimed), `solves` solves timed
        solver = ml.Solver(board, method=method)
        solver.solve(start, minimal=False)

        def run():
            for _ in range(solves - 1):
                solver.solve(start, minimal=False)
            return solver.solve(start, minimal=False)

    else:

        def run():
            b = ml.Board.grid(k, k, states=n, pattern=pattern, **kw)
            return ml.Solver(b, method=method).solve(start, minimal=False)

    def check(sol):
        left = board.apply(start, sol.taps)
        assert not np.asarray(left).any(), f"the answer leaves {np.count_nonzero(left)} tiles"

    return {"modlights": Subject(run, check, label=f"method={method}")}


def _register(
    name: str,
    help: str,
    size: int,
    states: int,
    pattern: str,
    start: str,
    method: str = "auto",
    repeats: int = 5,
    heavy: bool = False,
    groups=("issue22",),
    **extra,
) -> None:
    workload(
        name,
        help=help,
        groups=groups,
        repeats=repeats,
        heavy=heavy,
        warmup=0 if heavy else 1,
        params={
            "size": size,
            "states": states,
            "pattern": pattern,
            "start": start,
            "method": method,
            **extra,
        },
    )(_grid_case)


_register("gf2-cross-2000", "GF(2) cross 2000 x 2000, all-on start", 2000, 2, "cross", "all-on")
_register(
    "gf2-cross-10000",
    "GF(2) cross 10000 x 10000, all-on start",
    10000,
    2,
    "cross",
    "all-on",
    repeats=3,
)
_register("knight-5000", "GF(2) knight 5000 x 5000, start A x0", 5000, 2, "knight", "image")
_register("square-5000", "GF(2) square 5000 x 5000, start A x0", 5000, 2, "square", "image")
for _n in (3, 4, 5):
    _register(
        f"cross-z{_n}-5000", f"Z/{_n} cross 5000 x 5000, start A x0", 5000, _n, "cross", "image"
    )

_register(
    "grid",
    "any square grid board (--param size, states, pattern, start=all-on|image, "
    "method, holes and locked fractions)",
    1000,
    2,
    "cross",
    "image",
    groups=(),
    holes=0.0,
    locked=0.0,
)
_register(
    "locks-5000",
    "GF(2) cross 5000 x 5000, 1% locked tiles, method=chase",
    5000,
    2,
    "cross",
    "image",
    method="chase",
    groups=("chase",),
    locked=0.01,
    repeats=3,
)
_register(
    "locks-z3-10000",
    "Z/3 cross 10000 x 10000, 1% locked tiles, method=chase",
    10000,
    3,
    "cross",
    "image",
    method="chase",
    groups=("chase",),
    locked=0.01,
    repeats=3,
    heavy=True,
)
_register(
    "holes-2000",
    "GF(2) cross 2000 x 2000, 1% holes, method=chase",
    2000,
    2,
    "cross",
    "image",
    method="chase",
    groups=("chase",),
    holes=0.01,
    repeats=3,
)
_register(
    "knight-z3-5000",
    "Z/3 knight 5000 x 5000, method=chase",
    5000,
    3,
    "knight",
    "image",
    method="chase",
    groups=("chase",),
    repeats=3,
    heavy=True,
)

# The structured engines of the C library (algebraic, lifted, tensor) on boards of about
# a million tiles, through Python's Solver: the whole call, and the solves alone
for _name, _help, _size, _n, _pat, _extra in (
    ("cross-1000", "GF(2) cross 1000 x 1000, start A x0 (algebraic-cross)", 1000, 2, "cross", {}),
    ("cross-z4-200", "Z/4 cross 200 x 200, start A x0 (lifted)", 200, 4, "cross", {}),
    (
        "torus-1000",
        "GF(2) cross torus 1000 x 1000, start A x0 (algebraic-torus)",
        1000,
        2,
        "cross",
        {"wrap": 1},
    ),
    (
        "diagonal-1000",
        "GF(2) diagonal 1000 x 1000, start A x0 (algebraic-sym)",
        1000,
        2,
        "diagonal",
        {},
    ),
    ("square-z3-1000", "Z/3 square 1000 x 1000, start A x0 (tensor)", 1000, 3, "square", {}),
    (
        "solves-cross-1000",
        "GF(2) cross 1000 x 1000: 20 solves of A x0 on one Solver (the per-call cost)",
        1000,
        2,
        "cross",
        {"solves": 20},
    ),
):
    _register(_name, _help, _size, _n, _pat, "image", groups=("structured",), **_extra)

# The chase's variants (csrc/engines/chase.c, chase_row.c) through Python's Solver on
# boards of a million tiles (holes-2000 above: the row chase over GF(2)): the whole call,
# and the solves alone (the per-call cost of the binding and the adapter)
for _name, _help, _size, _n, _pat, _extra in (
    (
        "chase-light-1000",
        "GF(2) cross 1000 x 1000, method=chase-light",
        1000,
        2,
        "cross",
        {"method": "chase-light"},
    ),
    (
        "chase-z4-1000",
        "Z/4 cross 1000 x 1000, method=chase (the light chase)",
        1000,
        4,
        "cross",
        {},
    ),
    (
        "rowsolve-z5-1000",
        "Z/5 knight 1000 x 1000, method=chase (the row-solve chase)",
        1000,
        5,
        "knight",
        {},
    ),
    (
        "holes-z3-1000",
        "Z/3 cross 1000 x 1000, 1% holes, method=chase (the row chase, bit-sliced)",
        1000,
        3,
        "cross",
        {"holes": 0.01},
    ),
    (
        "locks-z4-1000",
        "Z/4 cross 1000 x 1000, 1% locked tiles, method=chase (a prefix)",
        1000,
        4,
        "cross",
        {"locked": 0.01},
    ),
    (
        "solves-chase-1000",
        "GF(2) cross 1000 x 1000, method=chase: 20 solves of A x0 on one Solver",
        1000,
        2,
        "cross",
        {"solves": 20},
    ),
):
    _register(
        _name,
        _help,
        _size,
        _n,
        _pat,
        "image",
        **{"method": "chase", "groups": ("chase",), "repeats": 3, **_extra},
    )
