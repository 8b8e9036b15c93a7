"""Hypothesis strategies for small random boards."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import modlights as ml

NAMES = sorted(ml.PATTERNS)
SMALL_N = [2, 3, 4, 5, 6, 7, 8]

offsets = st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=0, max_size=5)
one_pattern = st.one_of(st.sampled_from(NAMES), offsets)


@st.composite
def grid_boards(draw, max_brute: int = 5000, n_values=SMALL_N, allow_mixed=True):
    """A small grid board whose n^n_taps is at most max_brute (brute force stays cheap)."""
    n = draw(st.sampled_from(n_values))
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 4))
    kind = draw(
        st.sampled_from(["name", "offsets", "mixed"] if allow_mixed else ["name", "offsets"])
    )
    if kind == "name":
        pattern = draw(st.sampled_from(NAMES))
    elif kind == "offsets":
        pattern = draw(offsets)
    else:
        pattern = [[draw(one_pattern) for _ in range(cols)] for _ in range(rows)]
    wrap = draw(st.booleans())
    cell_kind = draw(
        st.lists(
            st.sampled_from(["tile", "tile", "tile", "lock", "hole"]),
            min_size=rows * cols,
            max_size=rows * cols,
        )
    )
    kinds = np.array(cell_kind).reshape(rows, cols)
    locked = kinds == "lock"
    holes = kinds == "hole"
    # Keep the brute force small: lock extra tiles until n^taps <= max_brute.
    taps = int((~locked & ~holes).sum())
    order = draw(st.permutations(list(range(rows * cols))))
    for idx in order:
        if n**taps <= max_brute:
            break
        r, c = divmod(idx, cols)
        if not locked[r, c] and not holes[r, c]:
            locked[r, c] = True
            taps -= 1
    return ml.Board.grid(
        rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap
    )


@st.composite
def graph_boards(draw, max_brute: int = 5000, n_values=SMALL_N):
    n = draw(st.sampled_from(n_values))
    m = draw(st.integers(0, 6))
    max_taps = 0
    while n ** (max_taps + 1) <= max_brute and max_taps < 6:
        max_taps += 1
    r = draw(st.integers(0, max_taps))
    cells = st.integers(0, m - 1) if m else st.nothing()
    effects = [draw(st.lists(cells, max_size=4)) if m else [] for _ in range(r)]
    return ml.Board.from_effects(effects, n, n_cells=m)


boards = st.one_of(grid_boards(), graph_boards())


@st.composite
def board_and_state(draw, board_strategy=boards, solvable=None):
    """(board, state, target) with target 0, 1 or a random array."""
    b = draw(board_strategy)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if solvable is None:
        solvable = draw(st.booleans())
    state = b.random_state(rng=rng, solvable=solvable)
    tkind = draw(st.sampled_from(["zero", "one", "array"]))
    if tkind == "zero":
        target = 0
    elif tkind == "one":
        target = 1
    else:
        target = rng.integers(0, b.states, size=b.shape)
    return b, state, target


def rhs_vector(b: ml.Board, state, target) -> np.ndarray:
    """t - s over the active cells, computed independently of the Solver."""
    s = np.asarray(state, dtype=np.int64)
    t = (
        np.full(b.shape, target, dtype=np.int64)
        if np.isscalar(target)
        else np.asarray(target, np.int64)
    )
    d = (t - s) % b.states
    return d.reshape(-1)[[_flat(b, p) for p in b.cells]]


def _flat(b, p):
    return p if isinstance(p, int) else p[0] * b.shape[1] + p[1]


def random_masks(rng, shape, p_lock: float, p_hole: float):
    """(locked, holes): disjoint random boolean masks with those tile probabilities."""
    u = rng.random(shape)
    holes = u < p_hole
    locked = (u >= p_hole) & (u < p_hole + p_lock)
    return locked, holes


chase_offsets = st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=0, max_size=6)
chase_one_pattern = st.one_of(st.sampled_from(NAMES), chase_offsets)


@st.composite
def chase_boards(
    draw,
    max_side=12,
    n_values=(2, 3, 4, 5, 6, 8),
    p_locks=(0.0, 0.0, 0.05, 0.2),
    p_holes=(0.0, 0.0, 0.05, 0.2),
):
    """(grid board, seed) for the chase tests: any n of n_values, a named pattern, custom
    offsets within 2 or a mixed board, random locks and holes (probabilities drawn from
    p_locks / p_holes), with or without wrap."""
    n = draw(st.sampled_from(n_values))
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    kind = draw(st.sampled_from(["name", "name", "offsets", "mixed"]))
    if kind == "name":
        pattern = draw(st.sampled_from(NAMES))
    elif kind == "offsets":
        pattern = draw(chase_offsets)
    else:
        pool = draw(st.lists(chase_one_pattern, min_size=1, max_size=3))
        pattern = [[draw(st.sampled_from(pool)) for _ in range(cols)] for _ in range(rows)]
    wrap = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    locked, holes = random_masks(
        rng, (rows, cols), draw(st.sampled_from(p_locks)), draw(st.sampled_from(p_holes))
    )
    return ml.Board.grid(
        rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap
    ), seed
