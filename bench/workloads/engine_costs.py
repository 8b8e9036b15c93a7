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
- The lifted engine over n with a factor p^k, k > 1 (``zq``; ZQ_CASES: the cross, the
  diagonal and tori over Z/4, 8, 9, 16, 25, 27, 12, and over Z/6 for the row "lifted",
  odd and even sides from where the chase or dense Z/n is faster to where the algebra
  is): lifted, the chase and (sides up to ZQ_DENSE_SIDE) dense-zn alternated on each
  board, medians of ``rounds``. Figures per case: ``zq <n> <pattern>[ torus] crossover``
  (tiles from which lifted beats the chase at every larger measured side) and every
  side's times; per row ("lifted-zq", "lifted") the crossover of least time lost over
  every board of its cases (lifted from there on, the chase below), the one written;
  and ``zq choice disagreements``: the boards where the engine the table
  chooses (registry.choose) is more than ZQ_SLACK times slower than the fastest of the
  three.
- lifted's parts over Z/p^k of tori invertible mod p (``torus``; TORUS_CASES at a side
  near ``torus_side`` where A is invertible mod p): both strategies forced in turn
  (MODLIGHTS_LIFTED_PARTS=algebra / plain), medians of ``rounds``. Each board's
  break-even ratio (T_digits / k) / (T_algebra / (span + 3)) (the rule takes the algebra
  when span + 3 <= RATIO k; span read from the plan's parts); ``torus ratio 2`` and
  ``torus ratio odd`` the ratios of least time lost over the boards of each class
  (``torus_side`` a comma-separated list of sides: every case near each), written to
  ML__LIFTED_TORUS_RATIO_2 / _ODD, and ``torus disagreements`` the boards where the
  written rule (and the table's, before writing) picks the slower strategy.
"""

from __future__ import annotations

import os
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


#: lifted against the chase (dense-zn too up to ZQ_DENSE_SIDE) on boards over a composite
#: n: (n, pattern, wrap, sides); sides lifted does not cover are skipped. n with a factor
#: p^k, k > 1, measure the row "lifted-zq"; squarefree n (6) the row "lifted".
ZQ_SIDES = (8, 11, 16, 23, 32, 47, 64, 95, 128, 191, 256, 383)
ZQ_CASES = [
    (4, "cross", False, ZQ_SIDES),
    (8, "cross", False, ZQ_SIDES),
    (9, "cross", False, ZQ_SIDES),
    (16, "cross", False, ZQ_SIDES),
    (25, "cross", False, ZQ_SIDES),
    (27, "cross", False, ZQ_SIDES),
    (12, "cross", False, ZQ_SIDES),
    (4, "diagonal", False, ZQ_SIDES),
    (9, "diagonal", False, ZQ_SIDES),
    (12, "diagonal", False, ZQ_SIDES),
    (4, "cross", True, ZQ_SIDES),
    (9, "cross", True, ZQ_SIDES),
    (16, "diagonal", True, ZQ_SIDES),
    (12, "cross", True, ZQ_SIDES),
    (6, "diagonal", False, ZQ_SIDES),
    (6, "cross", True, ZQ_SIDES),
]
ZQ_DENSE_SIDE = 16
#: a choice of the table slower than the fastest engine by more than this is a disagreement
ZQ_SLACK = 1.25

#: invertible tori for the rule of lifted's parts over Z/p^k: (n, pattern)
TORUS_CASES = [
    (4, "cross"),
    (4, "diagonal"),
    (4, "knight"),
    (16, "cross"),
    (16, "knight"),
    (8, "diagonal"),
    (9, "cross"),
    (9, "diagonal"),
    (27, "cross"),
    (25, "knight"),
    (25, "square"),
]


def zq_row(n: int) -> str:
    """The table's row that costs lifted over n: "lifted-zq" when p^2 | n for a prime p."""
    return "lifted-zq" if any(n % (p * p) == 0 for p in range(2, 16)) else "lifted"


def fit_crossover(boards: list[tuple[int, float, float]]) -> int:
    """The crossover of least time lost over ``boards`` ((tiles, lifted s, chase s)):
    lifted from those tiles on, the chase below; a board's loss the chosen one's time
    less the faster's. Candidates: every board's tiles (the smallest on ties)."""

    def loss(cut: int) -> float:
        return sum((tl if tiles >= cut else tc) - min(tl, tc) for tiles, tl, tc in boards)

    return min(sorted({b[0] for b in boards}), key=loss)


def zq_case_name(case: tuple) -> str:
    n, pattern, wrap, _ = case
    return f"zq Z/{n} {pattern}{' torus' if wrap else ''}"


def measure_zq(case: tuple, rounds: int, seed: int = 1) -> dict:
    """lifted, the chase and (small sides) dense-zn on the case's boards: {"crossover"
    (tiles, None when lifted never wins at the largest sides), "times" {side: {method:
    s}}, "chosen" {side: the engine registry.choose takes}}."""
    import modlights as ml
    from modlights.engines import registry

    n, pattern, wrap, sides = case
    rng = np.random.default_rng(seed)
    lifted = registry.entries()["lifted"]
    times, chosen, warm = {}, {}, False
    for k in sides:
        board = ml.Board.grid(k, k, states=n, pattern=pattern, wrap=wrap)
        if lifted.covers(board) is not None:
            continue
        methods = ("lifted", "chase") + (("dense-zn",) if k <= ZQ_DENSE_SIDE else ())
        start = _start(k, k, n, pattern, wrap, rng)
        if not warm:  # imports and first calls outside the timing
            _duel((k, k, n, pattern, wrap), methods, 1, start)
            warm = True
        times[k] = dict(zip(methods, _duel((k, k, n, pattern, wrap), methods, rounds, start)))
        chosen[k] = registry.choose(board, "auto", "native").engine
    ks = sorted(times)
    side = next(
        (k for k in ks if all(times[j]["lifted"] < times[j]["chase"] for j in ks if j >= k)),
        None,
    )
    return {"crossover": None if side is None else side * side, "times": times, "chosen": chosen}


def _torus_side(n: int, pattern: str, near: int) -> tuple[int, int] | None:
    """(side, span): the first side from ``near`` on (60 tried) where the torus over
    Z/n = Z/p^k is invertible mod p and lifted's with its torus2 orientation (span read
    from the plan's parts), None when none."""
    import modlights as ml

    p = next(d for d in range(2, n + 1) if n % d == 0)
    for k in range(near, near + 60):
        if ml.Solver(ml.Board.grid(k, k, states=p, pattern=pattern, wrap=True)).nullity:
            continue
        b = ml.Board.grid(k, k, states=n, pattern=pattern, wrap=True)
        try:
            s = ml.Solver(b, method="lifted")
        except ValueError:
            continue
        s._csolver()
        m = re.search(r"invertible mod \d+: [a-z ]+ \(span (\d+) ", s.plan.reason)
        if m:
            return k, int(m.group(1))
    return None


def _forced(strategy: str, case: tuple, start) -> float:
    os.environ["MODLIGHTS_LIFTED_PARTS"] = strategy
    try:
        return _time(*case, "lifted", start)
    finally:
        del os.environ["MODLIGHTS_LIFTED_PARTS"]


def measure_torus(n: int, pattern: str, near: int, rounds: int, seed: int = 1) -> dict | None:
    """Both strategies of an invertible torus part over Z/n = Z/p^k, alternated: {"side",
    "span", "p", "k", "algebra", "digits" (medians, s), "ratio" (the break-even RATIO)},
    None when no side near ``near`` has such a part."""
    found = _torus_side(n, pattern, near)
    if found is None:
        return None
    side, span = found
    p = next(d for d in range(2, n + 1) if n % d == 0)
    k = round(np.log(n) / np.log(p))
    case = (side, side, n, pattern, True)
    start = _start(side, side, n, pattern, True, np.random.default_rng(seed))
    _forced("algebra", case, start), _forced("plain", case, start)  # warm
    alg, dig = [], []
    for _ in range(rounds):
        alg.append(_forced("algebra", case, start))
        dig.append(_forced("plain", case, start))
    ta, td = statistics.median(alg), statistics.median(dig)
    return {
        "side": side,
        "span": span,
        "p": p,
        "k": k,
        "algebra": ta,
        "digits": td,
        "ratio": (td / k) / (ta / (span + 3)),
    }


def fit_ratio(results: list[dict], default: float, x=lambda r: (r["span"] + 3) / r["k"]) -> float:
    """The RATIO of least time lost over ``results`` (boards of one class): the rule
    takes the algebra when x(r) <= RATIO (tori: (span + 3) / k; singular parts: m / w);
    a board's loss when the rule takes the slower strategy is |T_algebra - T_other|
    (r["digits"]: digit by digit or the chase). Candidates: midpoints between the
    boards' consecutive x, and beyond both ends (the smallest: the algebra never;
    the larger end, every measured board); ``default`` when no board."""
    if not results:
        return default
    xs = sorted({x(r) for r in results})
    cands = [xs[0] / 2] + [(a + b) / 2 for a, b in zip(xs, xs[1:])] + [xs[-1] * 2]

    def loss(ratio: float) -> float:
        return sum(
            abs(r["algebra"] - r["digits"])
            for r in results
            if (x(r) <= ratio) != (r["algebra"] < r["digits"])
        )

    return min(cands, key=lambda c: (loss(c), c))


#: singular boards of n = p^k (one part) for the rank rule of lifted's algebra over Z/p^k:
#: (n, pattern); every side of ``singular_sides`` where the board is singular mod p and the
#: algebra takes it (forced) is measured
SINGULAR_CASES = [
    (4, "cross"),
    (8, "cross"),
    (16, "cross"),
    (9, "cross"),
    (25, "cross"),
    (27, "cross"),
    (4, "diagonal"),
    (9, "diagonal"),
]


def measure_singular(n: int, pattern: str, side: int, rounds: int, seed: int = 1) -> dict | None:
    """Both strategies of a part over Z/n = Z/p^k singular mod p, alternated
    (MODLIGHTS_LIFTED_PARTS=algebra / plain): {"side", "m", "w", "algebra", "digits"
    (the chase; medians, s)}; None when the board is invertible mod p or the algebra
    does not take it."""
    import modlights as ml

    b = ml.Board.grid(side, side, states=n, pattern=pattern)
    os.environ["MODLIGHTS_LIFTED_PARTS"] = "algebra"
    try:
        s = ml.Solver(b, method="lifted")
        s._csolver()
    except ValueError:
        return None
    finally:
        del os.environ["MODLIGHTS_LIFTED_PARTS"]
    m = re.search(
        r"singular mod \d+: the algebra over Z/\d+ \(rank m (\d+), w (\d+)", s.plan.reason
    )
    if not m:
        return None
    case = (side, side, n, pattern, False)
    start = _start(side, side, n, pattern, False, np.random.default_rng(seed))
    _forced("algebra", case, start), _forced("plain", case, start)  # warm
    alg, other = [], []
    for _ in range(rounds):
        alg.append(_forced("algebra", case, start))
        other.append(_forced("plain", case, start))
    return {
        "side": side,
        "m": int(m.group(1)),
        "w": int(m.group(2)),
        "algebra": statistics.median(alg),
        "digits": statistics.median(other),
    }


def _singular_figures(ctx: Context) -> dict[str, float]:
    """SINGULAR_CASES timed, both strategies: figures; the measured RHO of each class
    ({"cross": the cross, "sym": the symmetric patterns}; the table's when no board)."""
    from modlights.native._core import LIFTED_ZQ_RHO

    results = []
    sides = [int(s) for s in str(ctx["singular_sides"]).split(",") if s]
    for (n, pattern), side in ((c, s) for c in SINGULAR_CASES for s in sides):
        r = measure_singular(n, pattern, side, int(ctx["rounds"]), ctx.seed + 1)
        if r is None:
            continue
        r["n"], r["cls"] = n, "cross" if pattern == "cross" else "sym"
        results.append(r)
        ctx.figure(
            f"singular Z/{n} {pattern} {side}x{side}",
            r["m"] / r["w"],
            "m / w",
            f"rank m {r['m']}, w {r['w']}: algebra {r['algebra']:.4f} s, chase "
            f"{r['digits']:.4f} s (chase / algebra {r['digits'] / r['algebra']:.2f}); the "
            "table takes the "
            + ("algebra" if r["m"] <= LIFTED_ZQ_RHO[r["cls"]] * r["w"] else "chase"),
        )
    rho = dict(LIFTED_ZQ_RHO)
    for cls in rho:
        got = [r for r in results if r["cls"] == cls]
        rho[cls] = fit_ratio(got, LIFTED_ZQ_RHO[cls], x=lambda r: r["m"] / r["w"])
        ctx.figure(
            f"singular rho {cls}",
            rho[cls],
            "",
            f"least time lost over {len(got)} boards; table {LIFTED_ZQ_RHO[cls]}",
        )
    for what, cut in (("table", LIFTED_ZQ_RHO), ("measured", rho)):
        wrong = [
            f"Z/{b['n']} {b['side']}x{b['side']} m/w {b['m'] / b['w']:.2f}"
            for b in results
            if (b["m"] <= cut[b["cls"]] * b["w"]) != (b["algebra"] < b["digits"])
        ]
        ctx.figure(f"singular disagreements ({what})", len(wrong), "boards", "; ".join(wrong))
    return rho


def torus_rule(r: dict, ratios: dict) -> bool:
    """Whether lifted's rule with ``ratios`` ({2: .., 3: ..}) takes the algebra on r."""
    return r["span"] + 3 <= ratios[2 if r["p"] == 2 else 3] * r["k"]


_ROW = re.compile(r'\{"([a-z0-9-]+)", ([0-9.eE+-]+), ([0-9* ]+)\},')


def write_table(
    path: Path, crossovers: dict[str, int], ratios: dict | None = None, rho: dict | None = None
) -> str:
    """Rewrite the rows of the table between BEGIN COSTS and END COSTS in ``path`` with
    the measured crossovers (engines absent from ``crossovers`` keep their rows);
    per_tile unchanged; with ``ratios`` ({2: .., 3: ..}) the lines
    ML__LIFTED_TORUS_RATIO_2 / _ODD between the markers too, with ``rho`` ({"cross",
    "sym"}) ML__LIFTED_ZQ_RHO_CROSS / _SYM. Returns the new text.
    ValueError when the markers or a row do not parse."""
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
    defines = {f"LIFTED_TORUS_RATIO_{s}": (ratios or {}).get(k) for k, s in ((2, "2"), (3, "ODD"))}
    defines |= {f"LIFTED_ZQ_RHO_{c.upper()}": v for c, v in (rho or {}).items()}
    for name, value in defines.items():
        if value is None:
            continue
        new_body, hit = re.subn(
            rf"#define ML__{name} [0-9.eE+-]+", f"#define ML__{name} {value:.3f}", new_body
        )
        if not hit:
            raise ValueError(f"write: no ML__{name} in {path}")
    out = head + sep + new_body + sep2 + tail
    path.write_text(out)
    return out


@workload(
    "engine-costs",
    help="the registry's cost constants measured: seconds a tile and "
    "the crossover with the chase (the dense engine for the chase) of every structured "
    "engine, and the order of the engines on boards two of them cover (figures; "
    "--param write=csrc/api/registry_costs.h rewrites the crossovers)",
    params={
        "rounds": 3,
        "engines": ",".join(CASES),
        "order": 1,
        "zq": 1,
        "torus": 1,
        "torus_side": "600,2000",
        "singular": 1,
        "singular_sides": "64,128,200,256,341,383,512,682,1024",
        "write": "",
    },
    repeats=1,
    warmup=0,
    heavy=True,
)
def engine_costs(ctx: Context):
    from modlights.engines import registry

    measured: dict[str, int] = {}
    extra: dict[str, list[tuple[int, float, float]]] = {}
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
        if name == "lifted":  # its Z/6 cross joins the boards of the row's zq fit
            extra["lifted"] = [(k * k, a, b) for k, (a, b) in r["times"].items()]
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
    if int(ctx["zq"]):
        _zq_figures(ctx, measured, extra)
    ratios = _torus_figures(ctx) if int(ctx["torus"]) else None
    rho = _singular_figures(ctx) if int(ctx["singular"]) else None
    if ctx["write"]:
        write_table(Path(str(ctx["write"])), measured, ratios, rho)
        ctx.figure("written", len(measured), "crossovers", str(ctx["write"]))
    return {}


def _zq_figures(ctx: Context, measured: dict, extra: dict) -> None:
    """ZQ_CASES timed: figures, and the crossover of each row ("lifted-zq", "lifted":
    fit_crossover over its cases' boards and ``extra``'s) into measured."""
    from modlights.engines import registry

    rows: dict[str, list[tuple[int, float, float]]] = {k: list(v) for k, v in extra.items()}
    wrong, never = [], []
    for case in ZQ_CASES:
        r = measure_zq(case, int(ctx["rounds"]), ctx.seed + 1)
        name, row = zq_case_name(case), zq_row(case[0])
        cross = r["crossover"]
        if cross is None:
            never.append(name)
        rows.setdefault(row, []).extend(
            (k * k, ts["lifted"], ts["chase"]) for k, ts in r["times"].items()
        )
        ctx.figure(
            f"{name} crossover",
            cross if cross else float("nan"),
            "tiles",
            f"lifted faster than the chase from here on (measured sides; row {row})",
        )
        for k, ts in r["times"].items():
            best = min(ts, key=ts.get)
            took = r["chosen"][k]
            ratio = ts[took] / ts[best] if took in ts else float("nan")
            if ratio > ZQ_SLACK:
                wrong.append(f"{name} {k}x{k} ({took} {ratio:.2f}x {best})")
            ctx.figure(
                f"{name} {k}x{k}",
                ts["lifted"],
                "s",
                ", ".join(f"{m} {s:.5f} s" for m, s in ts.items())
                + f"; chase / lifted {ts['chase'] / ts['lifted']:.2f}; fastest {best}, "
                f"the table chooses {took}",
            )
    for row, boards in rows.items():
        measured[row] = fit_crossover(boards)
        ctx.figure(
            f"{row} crossover (zq)",
            measured[row],
            "tiles",
            f"least time lost over {len(boards)} boards of {row}'s cases (lifted from "
            f"here, the chase below); table {registry.CROSSOVER_TILES[row]}",
        )
    ctx.figure("zq never faster", len(never), "cases", "; ".join(never))
    ctx.figure(
        "zq choice disagreements",
        len(wrong),
        "boards",
        f"the table's engine over {ZQ_SLACK}x the fastest: " + "; ".join(wrong),
    )


def _torus_figures(ctx: Context) -> dict[int, float] | None:
    """TORUS_CASES timed, both strategies: figures; the measured ratios {2, 3} (the
    table's for a class with no board)."""
    from modlights.native._core import LIFTED_TORUS_RATIO

    results = []
    near = [int(s) for s in str(ctx["torus_side"]).split(",") if s]
    for (n, pattern), side in ((c, s) for s in near for c in TORUS_CASES):
        r = measure_torus(n, pattern, side, int(ctx["rounds"]), ctx.seed + 1)
        name = f"torus Z/{n} {pattern} near {side}"
        if r is None:
            ctx.figure(name, float("nan"), "", "no invertible side near torus_side")
            continue
        results.append(r)
        ctx.figure(
            name,
            r["ratio"],
            "ratio",
            f"{r['side']}x{r['side']}, span {r['span']}, k {r['k']}: algebra "
            f"{r['algebra']:.4f} s, digits {r['digits']:.4f} s (digits / algebra "
            f"{r['digits'] / r['algebra']:.2f}); the table takes the "
            + ("algebra" if torus_rule(r, LIFTED_TORUS_RATIO) else "digits"),
        )
    ratios = dict(LIFTED_TORUS_RATIO)
    for key in (2, 3):
        got = [r for r in results if (r["p"] == 2) == (key == 2)]
        ratios[key] = fit_ratio(got, LIFTED_TORUS_RATIO[key])
        ctx.figure(
            f"torus ratio {'2' if key == 2 else 'odd'}",
            ratios[key],
            "",
            f"least time lost over {len(got)} boards (break-even ratios "
            + ", ".join(f"{r['ratio']:.2f}" for r in got)
            + f"); table {LIFTED_TORUS_RATIO[key]}",
        )
    for what, rule in (("table", LIFTED_TORUS_RATIO), ("measured", ratios)):
        wrong = [
            f"Z/{r['p'] ** r['k']} span {r['span']} side {r['side']}"
            for r in results
            if torus_rule(r, rule) != (r["algebra"] < r["digits"])
        ]
        ctx.figure(f"torus disagreements ({what})", len(wrong), "boards", "; ".join(wrong))
    return ratios
