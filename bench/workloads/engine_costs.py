"""The cost constants of the engine registry (modlights.engines.registry), measured.

- engine-costs: for the chase and each structured engine, on k x k boards of a pattern
  it covers (cross for the chase and algebraic-cross, the cross torus for
  algebraic-torus, the knight torus for algebraic-torus2, diagonal for algebraic-sym,
  Z/4 cross for lifted, square for tensor), Board.grid + Solver(method=name) +
  solve(minimal=False) from a random solvable start, alternated with the engine it
  must beat on the same board (the chase; for the chase, the dense engine) so both see
  the same load; medians of ``rounds``; every answer checked with Board.apply. Records
  as figures, per engine:
  the seconds a tile at the largest side (``<name> per_tile``), the tiles from which it
  is faster at every larger measured side (``<name> crossover``), and the registry's
  constants beside them (``<name> registry_crossover``, ``<name> registry_per_tile``).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from ..registry import Context, workload

#: engine -> (states, pattern, wrap, sides measured, the engine it is compared with)
CASES = {
    "chase": (2, "cross", False, (12, 16, 20, 24, 28, 32, 48), "dense"),
    "algebraic-cross": (3, "cross", False, (12, 16, 20, 24, 28, 32, 64, 256), "chase"),
    "algebraic-torus": (3, "cross", True, (32, 64, 96, 128, 192), "chase"),
    "algebraic-torus2": (3, "knight", True, (16, 32, 48, 64, 96, 128), "chase"),
    "algebraic-sym": (3, "diagonal", False, (64, 128, 160, 192, 256), "chase"),
    "lifted": (4, "cross", False, (48, 96, 128, 160, 256), "chase"),
    "tensor": (3, "square", False, (16, 32, 48, 64, 128), "chase"),
}


def _time(k: int, n: int, pattern: str, wrap: bool, method: str, start) -> float:
    import modlights as ml

    t0 = time.perf_counter()
    b = ml.Board.grid(k, k, states=n, pattern=pattern, wrap=wrap)
    sol = ml.Solver(b, method=method).solve(start, minimal=False)
    dt = time.perf_counter() - t0
    assert not b.apply(start, sol.taps).any(), f"wrong answer: {method} {k}x{k}"
    return dt


def measure(name: str, rounds: int, seed: int = 1) -> dict:
    """{"per_tile", "crossover", "times" {side: (engine s, other s)}, "against"}."""
    import modlights as ml

    n, pattern, wrap, sides, other = CASES[name]
    rng = np.random.default_rng(seed)
    k0 = sides[0]
    warm = ml.Board.grid(k0, k0, states=n, pattern=pattern, wrap=wrap)
    for m in (name, other):  # imports and first calls outside the timing
        _time(k0, n, pattern, wrap, m, warm.random_state(rng=0))
    times = {}
    for k in sides:
        b = ml.Board.grid(k, k, states=n, pattern=pattern, wrap=wrap)
        x = rng.integers(0, n, size=(k, k), dtype=np.uint8)
        start = b.apply(np.zeros((k, k), np.uint8), x)
        runs: dict[str, list[float]] = {name: [], other: []}
        for _ in range(rounds):
            for m in (name, other):
                runs[m].append(_time(k, n, pattern, wrap, m, start))
        times[k] = (statistics.median(runs[name]), statistics.median(runs[other]))
    k_max = sides[-1]
    side = next((k for k in sides if all(times[j][0] < times[j][1] for j in sides if j >= k)), None)
    return {
        "per_tile": times[k_max][0] / (k_max * k_max),
        "crossover": None if side is None else side * side,
        "times": times,
        "against": other,
    }


@workload(
    "engine-costs",
    help="the registry's cost constants measured: seconds a tile and "
    "the crossover with the chase (the dense engine for the chase) of every structured "
    "engine (figures only)",
    params={"rounds": 3, "engines": ",".join(CASES)},
    repeats=1,
    warmup=0,
    heavy=True,
)
def engine_costs(ctx: Context):
    from modlights.engines import registry

    for name in [e for e in str(ctx["engines"]).split(",") if e]:
        if name not in CASES:
            raise ValueError(f"engines: names among {', '.join(CASES)}, got {name!r}")
        r = measure(name, int(ctx["rounds"]), ctx.seed + 1)
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
            f"faster than {r['against']} from here on (measured sides)",
        )
        ctx.figure(f"{name} registry_crossover", registry.CROSSOVER_TILES[name], "tiles")
        ctx.figure(f"{name} registry_per_tile", registry.PER_TILE[name], "s")
        for k, (mine, theirs) in r["times"].items():
            ctx.figure(
                f"{name} {k}x{k}",
                mine,
                "s",
                f"{r['against']} {theirs:.5f} s, ratio {mine / theirs:.2f}",
            )
    return {}
