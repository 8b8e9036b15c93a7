"""The cost constants of the engine registry (csrc/api/registry_costs.h), measured.

- engine-costs: for the chase and each structured engine, on k x k boards of a pattern
  it covers (cross for the chase and algebraic-cross, the cross torus for
  algebraic-torus, the knight torus for algebraic-torus2, diagonal for algebraic-sym
  and, on odd sides, algebraic-sym-odd, Z/6 cross for lifted, square for tensor),
  Board.grid + Solver(method=name) + solve(minimal=False) from a random solvable start,
  alternated with the engine it must beat on the same board (the chase; for the chase,
  the dense engine) so both see the same load; medians of ``rounds``; every answer
  checked with Board.apply. The sides run from below the crossover to well above it.
  Records as figures, per engine: the seconds a tile at the largest side
  (``<name> per_tile``), the tiles from which it is faster at every larger measured
  side (``<name> crossover``; the smallest side's tiles when it wins at every side, a
  bound), and the table's constants beside them (``registry_crossover``,
  ``registry_per_tile``). Then, for each pair of engines that cover one board (ORDER),
  both timed on that board: which is faster, and whether the table's costs choose it
  (``order <a> / <b>``; a disagreement is counted in ``order disagreements``).
  With ``write`` a path (csrc/api/registry_costs.h), the table's rows are rewritten:
  every crossover as measured (an engine never faster than its rival keeps its row),
  per_tile as it was; the order check says whether the slopes need a change by hand.
"""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import numpy as np

from ..registry import Context, workload

#: engine -> (states, pattern, wrap, sides measured, the engine it is compared with)
CASES = {
    "chase": (2, "cross", False, (6, 8, 12, 16, 20, 24, 28, 32, 48), "dense"),
    "algebraic-cross": (3, "cross", False, (6, 8, 12, 16, 20, 24, 32, 64, 256), "chase"),
    "algebraic-torus": (3, "cross", True, (16, 24, 32, 48, 64, 96, 128, 192), "chase"),
    "algebraic-torus2": (3, "knight", True, (16, 32, 48, 64, 96, 128, 192), "chase"),
    "algebraic-sym": (3, "diagonal", False, (16, 24, 32, 48, 64, 96, 128, 192, 256), "chase"),
    # (w + 1) / 2 not a multiple of 3: sides the engine covers over Z/3
    "algebraic-sym-odd": (3, "diagonal", False, (19, 25, 31, 45, 63, 97, 127, 189, 255), "chase"),
    # Z/6: a field part per prime (Z/4 boards singular mod 2 give their part to the chase)
    "lifted": (6, "cross", False, (16, 24, 32, 48, 64, 96, 128, 192, 256, 512), "chase"),
    "tensor": (3, "square", False, (8, 12, 16, 24, 32, 48, 64, 128), "chase"),
}

#: Boards two engines cover, (engine a, engine b, states, pattern, wrap, rows, cols): the
#: faster of the two on it must be the one of lower cost in the table (on large boards:
#: the lower per_tile).
ORDER = [
    ("algebraic-cross", "algebraic-sym", 3, "cross", False, 512, 512),
    ("algebraic-cross", "tensor", 3, "horizontal", False, 512, 512),
    ("algebraic-sym", "algebraic-sym-odd", 3, "diagonal", False, 511, 512),
    ("lifted", "tensor", 6, "horizontal", False, 512, 512),
    ("algebraic-torus", "tensor", 3, "horizontal", True, 512, 512),
    ("tensor", "algebraic-torus2", 3, "square", True, 512, 512),
]


def _time(rows: int, cols: int, n: int, pattern: str, wrap: bool, method: str, start) -> float:
    import modlights as ml

    t0 = time.perf_counter()
    b = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap)
    sol = ml.Solver(b, method=method).solve(start, minimal=False)
    dt = time.perf_counter() - t0
    assert not b.apply(start, sol.taps).any(), f"wrong answer: {method} {rows}x{cols}"
    return dt


def _start(rows: int, cols: int, n: int, pattern: str, wrap: bool, rng):
    import modlights as ml

    b = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap)
    x = rng.integers(0, n, size=(rows, cols), dtype=np.uint8)
    return b.apply(np.zeros((rows, cols), np.uint8), x)


def _duel(case: tuple, methods: tuple, rounds: int, start) -> tuple[float, ...]:
    """Medians of ``rounds`` alternated timings of each method on one board."""
    runs: list[list[float]] = [[] for _ in methods]
    for _ in range(rounds):
        for i, m in enumerate(methods):
            runs[i].append(_time(*case, m, start))
    return tuple(statistics.median(r) for r in runs)


def measure(name: str, rounds: int, seed: int = 1) -> dict:
    """{"per_tile", "crossover", "times" {side: (engine s, other s)}, "against"}."""
    n, pattern, wrap, sides, other = CASES[name]
    rng = np.random.default_rng(seed)
    k0 = sides[0]
    warm = _start(k0, k0, n, pattern, wrap, rng)
    for m in (name, other):  # imports and first calls outside the timing
        _time(k0, k0, n, pattern, wrap, m, warm)
    times = {}
    for k in sides:
        start = _start(k, k, n, pattern, wrap, rng)
        times[k] = _duel((k, k, n, pattern, wrap), (name, other), rounds, start)
    k_max = sides[-1]
    side = next((k for k in sides if all(times[j][0] < times[j][1] for j in sides if j >= k)), None)
    return {
        "per_tile": times[k_max][0] / (k_max * k_max),
        "crossover": None if side is None else side * side,
        "times": times,
        "against": other,
    }


def order(pair: tuple, rounds: int, seed: int = 1) -> dict | None:
    """Both engines of an ORDER row timed on its board: {"a", "b", "times", "faster",
    "chosen"} (chosen: the one of lower cost on this board by the table's constants), or
    None when one of them does not cover the board."""
    import modlights as ml
    from modlights.engines import registry

    a, b, n, pattern, wrap, rows, cols = pair
    board = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap)
    entries = registry.entries()
    if entries[a].covers(board) is not None or entries[b].covers(board) is not None:
        return None
    start = _start(rows, cols, n, pattern, wrap, np.random.default_rng(seed))
    _duel((rows, cols, n, pattern, wrap), (a, b), 1, start)  # warm
    ta, tb = _duel((rows, cols, n, pattern, wrap), (a, b), rounds, start)
    cost_a, cost_b = entries[a].cost(board), entries[b].cost(board)
    return {
        "a": a,
        "b": b,
        "times": (ta, tb),
        "faster": a if ta < tb else b,
        "chosen": a if cost_a < cost_b else b,
    }


_ROW = re.compile(r'\{"([a-z0-9-]+)", ([0-9.eE+-]+), ([0-9* ]+)\},')


def write_table(path: Path, crossovers: dict[str, int]) -> str:
    """Rewrite the rows of the table between BEGIN COSTS and END COSTS in ``path`` with
    the measured crossovers (engines absent from ``crossovers`` keep their rows);
    per_tile unchanged. Returns the new text. ValueError when the markers or a row do
    not parse."""
    text = path.read_text()
    head, sep, rest = text.partition("/* BEGIN COSTS")
    body, sep2, tail = rest.partition("/* END COSTS */")
    if not sep or not sep2:
        raise ValueError(f"write: {path} has no BEGIN COSTS / END COSTS markers")

    def row(m: re.Match) -> str:
        name, per, cross = m.group(1), m.group(2), m.group(3)
        return f'{{"{name}", {per}, {crossovers.get(name, cross)}}},'

    new_body, count = _ROW.subn(row, body)
    if not count:
        raise ValueError(f"write: no rows between the markers of {path}")
    out = head + sep + new_body + sep2 + tail
    path.write_text(out)
    return out


@workload(
    "engine-costs",
    help="the registry's cost constants measured: seconds a tile and "
    "the crossover with the chase (the dense engine for the chase) of every structured "
    "engine, and the order of the engines on boards two of them cover (figures; "
    "--param write=csrc/api/registry_costs.h rewrites the crossovers)",
    params={"rounds": 3, "engines": ",".join(CASES), "order": 1, "write": ""},
    repeats=1,
    warmup=0,
    heavy=True,
)
def engine_costs(ctx: Context):
    from modlights.engines import registry

    measured: dict[str, int] = {}
    for name in [e for e in str(ctx["engines"]).split(",") if e]:
        if name not in CASES:
            raise ValueError(f"engines: names among {', '.join(CASES)}, got {name!r}")
        r = measure(name, int(ctx["rounds"]), ctx.seed + 1)
        bound = r["crossover"] == CASES[name][3][0] ** 2
        ctx.figure(
            f"{name} per_tile",
            r["per_tile"],
            "s",
            f"at the largest side, median of {ctx['rounds']}",
        )
        ctx.figure(
            f"{name} crossover",
            r["crossover"] if r["crossover"] else float("nan"),
            "tiles",
            f"faster than {r['against']} from here on (measured sides)"
            + (", at every side: a bound" if bound else ""),
        )
        if r["crossover"]:
            measured[name] = r["crossover"]
        ctx.figure(f"{name} registry_crossover", registry.CROSSOVER_TILES[name], "tiles")
        ctx.figure(f"{name} registry_per_tile", registry.PER_TILE[name], "s")
        for k, (mine, theirs) in r["times"].items():
            ctx.figure(
                f"{name} {k}x{k}",
                mine,
                "s",
                f"{r['against']} {theirs:.5f} s, ratio {mine / theirs:.2f}",
            )
    if int(ctx["order"]):
        wrong = []
        for pair in ORDER:
            o = order(pair, int(ctx["rounds"]), ctx.seed + 1)
            what = f"order {pair[0]} / {pair[1]}"
            if o is None:
                ctx.figure(what, float("nan"), "", "one of them does not cover the board")
                continue
            ta, tb = o["times"]
            agree = o["faster"] == o["chosen"]
            if not agree:
                wrong.append(what)
            ctx.figure(
                what,
                ta / tb,
                "ratio",
                f"{pair[3]} Z/{pair[2]} {pair[5]}x{pair[6]}{' torus' if pair[4] else ''}: "
                f"{ta:.5f} s / {tb:.5f} s, faster {o['faster']}, the table chooses "
                f"{o['chosen']}" + ("" if agree else " (disagrees)"),
            )
        ctx.figure("order disagreements", len(wrong), "pairs", "; ".join(wrong))
    if ctx["write"]:
        write_table(Path(str(ctx["write"])), measured)
        ctx.figure("written", len(measured), "crossovers", str(ctx["write"]))
    return {}
