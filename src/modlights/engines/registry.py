"""The engine seam: every engine registers here once, and :func:`choose` picks one.

A registration (:class:`Entry`) names an engine or a variant of one uniquely and
gives a one-line ``description``, ``covers(board) -> reason | None`` (None: it takes
the board; else why not), ``cost(board)`` (estimated seconds to factor the board and
solve it once, from the constants below) and ``build(board, backend, dense)`` (the
engine: an :class:`~modlights.engines.base.Engine`). ``family`` is the method name the
engine answers to in ``Solver.method`` ("dense", "chase", "algebraic", "lifted",
"tensor"); ``answers`` lists the questions beyond the core ones it answers itself (det,
inverse, pseudo-inverse, kernel_fits, solve_packed): :func:`ask` routes the dense
questions it does not declare to :func:`fallback`, the cheapest other engine that
answers them.

:func:`choose` is a pure function of the board, the method and the backend: "auto"
is the cheapest engine that covers the board; a registered name is that engine; a
family name ("dense", "chase", "algebraic", ...) the cheapest of the family. The
:class:`Plan` says which engine, why it covers the board, and why every other one was
passed over; ValueError (naming the registered engines) when nothing asked for covers
the board.

The chase's variants need the C plan of the board to compare (its symbol counts):
"chase" builds it and takes the variant with the fewest symbols (csrc/engines/chase.c,
through :mod:`modlights.engines.native`); ``Solver.plan`` then names the variant that
answered. Each variant is also registered on its own, chosen only by name.

Adding an engine: write its module (covers, build), then one :func:`register` call
(here for the package's engines, anywhere for one's own; :func:`unregister` removes it).

Costs are ``SETUP + PER_TILE * tiles`` seconds (the dense engines ``DENSE_PER_ENTRY *
entries`` of the tap matrix). The constants that decide are the crossovers
(CROSSOVER_TILES: the tiles from which an engine beats the chase on the boards it
covers, measured); SETUP is placed so each engine's line meets the chase's there.
PER_TILE keeps the order of the engines where two of them cover a board (the
algebraic engines before the tensor engine, the tensor engine before the symmetric and
lifted ones): it is the order the measurements show, not the measured seconds. The
bench workload engine-costs (bench/workloads/engine_costs.py) measures and prints both for
comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from math import isfinite, prod
from types import MappingProxyType
from typing import Any, cast

from modlights.engines.base import (
    CORE,
    FALLBACK,
    QUESTIONS,
    DenseEngine,
    Engine,
    PackedEngine,
    check_fallback_size,
)
from modlights.model.board import Board
from modlights.model.ring import is_prime

__all__ = [
    "Entry",
    "Plan",
    "register",
    "unregister",
    "entries",
    "engines",
    "choose",
    "build",
    "build_named",
    "resolve",
    "answers",
    "answerer",
    "fallback",
    "ask",
    "packed_answerer",
    "methods",
    "BACKENDS",
    "PER_TILE",
    "CROSSOVER_TILES",
    "DENSE_PER_ENTRY",
    "REFERENCE_PER_ENTRY",
]

BACKENDS = ("native", "reference")

#: Seconds a tile, per engine: the slope of its cost line. Ordered as measured where
#: two engines cover one board (see the module docstring); bench/workloads/engine_costs.py
#: prints the measured seconds a tile.
PER_TILE: dict[str, float] = {
    "chase": 1.0e-8,
    "algebraic-cross": 0.8e-8,
    "algebraic-torus": 0.0,
    "algebraic-sym": 0.995e-8,
    "lifted": 0.995e-8,
    "tensor": 0.99e-8,
}
#: Tiles (rows * cols) from which each engine is faster than the chase on the boards
#: it covers (bench/workloads/engine_costs.py prints the measured crossovers);
#: "chase" is where the chase overtakes the dense engines.
CROSSOVER_TILES: dict[str, int] = {
    "chase": 576,
    "algebraic-cross": 576,
    "algebraic-torus": 96 * 96,
    "algebraic-sym": 160 * 160,
    "lifted": 128 * 128,
    "tensor": 48 * 48,
}
#: Seconds per tap-matrix entry (cells * taps) of the native dense engines, and of the
#: pure-NumPy reference engine (never chosen by "auto" on the native backend).
DENSE_PER_ENTRY = 3.0e-10
REFERENCE_PER_ENTRY = 1.0e-7


def _tiles(board: Board) -> int:
    return prod(board.shape)


#: Seconds by which an engine's setup undercuts the engine it overtakes, so that at
#: exactly its crossover the newer engine is the cheaper (ties have no order).
_TIE = 1e-12


def _dense_cost(board: Board) -> float:
    """DENSE_PER_ENTRY x the entries of the tap matrix, counted as tiles^2 for grids
    (its bound, so locks and holes do not move the crossover with the chase) and
    cells x taps for graph boards."""
    entries = _tiles(board) ** 2 if board.is_grid else board.n_cells * board.n_taps
    return DENSE_PER_ENTRY * entries


def _chase_setup() -> float:
    t = CROSSOVER_TILES["chase"]
    return DENSE_PER_ENTRY * t * t - PER_TILE["chase"] * t - _TIE


def _chase_cost(board: Board) -> float:
    return _chase_setup() + PER_TILE["chase"] * _tiles(board)


def _structured_cost(name: str, board: Board) -> float:
    """SETUP + PER_TILE * tiles, SETUP placed so the line meets the chase's at the
    engine's CROSSOVER_TILES."""
    t = CROSSOVER_TILES[name]
    slope = PER_TILE[name]
    setup = _chase_setup() + (PER_TILE["chase"] - slope) * t - _TIE
    return setup + slope * _tiles(board)


@dataclass(frozen=True)
class Entry:
    """One registered engine or variant (see the module docstring)."""

    name: str
    description: str
    family: str
    covers: Callable[[Board], str | None]
    cost: Callable[[Board], float]
    build: Callable[..., Engine]
    #: the questions of :mod:`modlights.engines.base` beyond the core ones that it
    #: answers itself (FALLBACK and OPTIONAL ones)
    answers: frozenset = frozenset()
    #: backends it runs on ("native", "reference")
    backends: tuple = ("native",)
    #: whether "auto" and its family name may choose it (False: only by its name)
    auto: bool = True
    #: whether the built engine picks a registered variant itself (``engine.variant``,
    #: ``engine.variant_reason``; see :func:`resolve`)
    variants: bool = False


@dataclass(frozen=True)
class Plan:
    """The choice of :func:`choose` (``Solver.plan``).

    Attributes
    ----------
    engine : str
        The registered name of the engine that answers.
    family : str
        Its method name (``Solver.method``).
    reason : str
        Why it covers the board (and won).
    rejected : dict of str to str
        Every other engine considered, with why it was passed over.
    variant : str or None
        The chase variant when the chase chose it from its plan (None otherwise).
    cost : float
        Its estimated seconds.
    backend, method : str
        The ``backend=`` and ``method=`` the Solver was asked for.

    Examples
    --------
    >>> plan = ml.Solver(ml.Board.grid(3, 3, states=5)).plan
    >>> plan.engine, plan.family
    ('dense-zn', 'dense')
    >>> plan.reason
    'the cheapest engine that covers the board (... s estimated)'
    >>> list(plan.rejected)[:3]
    ['dense-gf2', 'reference', 'chase']
    >>> plan.rejected["chase-light"]
    'a variant, chosen only by its name'
    >>> print(plan.explain().splitlines()[0])
    engine: dense-zn (method 'auto', backend 'native'): the cheapest engine that covers ...
    """

    engine: str
    family: str
    reason: str
    rejected: dict = field(default_factory=dict)
    variant: str | None = None
    cost: float = 0.0
    backend: str = "native"
    method: str = "auto"

    def explain(self) -> str:
        """The plan as text: the engine and why, then every engine passed over."""
        lines = [
            f"engine: {self.engine} (method {self.method!r}, backend "
            f"{self.backend!r}): {self.reason}"
        ]
        for name, why in self.rejected.items():
            lines.append(f"  not {name}: {why}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-safe: {"engine", "family", "variant", "reason", "rejected", "cost"}."""
        return {
            "engine": self.engine,
            "family": self.family,
            "variant": self.variant,
            "reason": self.reason,
            "rejected": dict(self.rejected),
            "cost": float(self.cost),
        }


_REGISTRY: dict[str, Entry] = {}


def register(
    name: str,
    *,
    description: str,
    family: str | None = None,
    covers: Callable[[Board], str | None],
    cost: Callable[[Board], float],
    build: Callable[..., Engine],
    answers: Any = (),
    backends: Any = ("native",),
    auto: bool = True,
    variants: bool = False,
) -> Entry:
    """Register an engine under a unique ``name`` (ValueError when taken, or for an
    unknown question or backend). ``build(board, backend, dense)`` makes the engine;
    ``dense`` is a callable giving an engine that answers every question (see
    :func:`answerer`), for an engine that answers some core question only through one.
    ``answers``: the questions beyond the core ones it answers itself; :func:`ask`
    routes the others to :func:`fallback`. Returns the entry. O(1)."""
    reserved = name == "auto" or (
        name in METHOD_FAMILIES and name not in _FAMILY_NAMES_ALSO_ENGINES
    )
    if not isinstance(name, str) or not name or reserved:
        raise ValueError(
            f"an engine name must be a new non-empty string other than "
            f"'auto' and the family names {sorted(METHOD_FAMILIES)}, got {name!r}"
        )
    if name in _REGISTRY:
        raise ValueError(f"engine {name!r} is registered already (unregister it first)")
    answers = frozenset(answers)
    bad = answers - set(QUESTIONS)
    if bad:
        raise ValueError(f"unknown questions {sorted(bad)}: use some of {QUESTIONS}")
    backends = tuple(backends)
    if not backends or set(backends) - set(BACKENDS):
        raise ValueError(f"backends must be some of {BACKENDS}, got {backends!r}")
    entry = Entry(
        name, description, family or name, covers, cost, build, answers, backends, auto, variants
    )
    _REGISTRY[name] = entry
    return entry


def _cost(e: Entry, board: Board) -> float:
    """The entry's estimated seconds for the board, checked: ValueError unless a finite
    number >= 0 (a NaN would make the order of costs, and so the choice, arbitrary).
    The C registry refuses it with the same message (ML_M_ENGINE_COST)."""
    c = float(e.cost(board))
    if not (isfinite(c) and c >= 0):
        raise ValueError(
            f"the engine {e.name} estimated a cost of {c!r} s for this board; "
            "a cost must be a finite number of seconds >= 0"
        )
    return c


def unregister(name: str) -> None:
    """Remove a registered engine (ValueError naming the registered ones if unknown)."""
    if name not in _REGISTRY:
        raise ValueError(f"no engine {name!r} is registered: {', '.join(_REGISTRY)}")
    del _REGISTRY[name]


def entries() -> Mapping[str, Entry]:
    """The registered entries by name (read-only, registration order)."""
    return MappingProxyType(_REGISTRY)


def engines() -> dict[str, str]:
    """{name: one-line description} of every registered engine, registration order.

    Examples
    --------
    >>> names = ml.engines()
    >>> names["dense-gf2"]
    'dense GF(2) elimination, bit-packed (Method of Four Russians); any board with n = 2'
    >>> "chase" in names and "tensor" in names
    True
    """
    return {name: e.description for name, e in _REGISTRY.items()}


#: Method names that stand for a family of engines (Solver.method keeps these).
METHOD_FAMILIES = ("dense", "chase", "algebraic", "lifted", "tensor")
#: Family names that are also one engine's registered name.
_FAMILY_NAMES_ALSO_ENGINES = ("chase", "lifted", "tensor")


def methods() -> tuple[str, ...]:
    """Every accepted ``method=``: "auto", the family names and the registered names."""
    names = ["auto", *METHOD_FAMILIES]
    names += [n for n in _REGISTRY if n not in names]
    return tuple(names)


def _candidates(method: str) -> list[Entry]:
    if method == "auto":
        return [e for e in _REGISTRY.values() if e.auto]
    if method in METHOD_FAMILIES:
        return [e for e in _REGISTRY.values() if e.family == method and e.auto]
    return [_REGISTRY[method]]


def choose(board: Board, method: str = "auto", backend: str = "native") -> Plan:
    """The engine for ``board``: for ``method="auto"`` the cheapest registered engine
    that covers it, for a family name the cheapest of that family, for a registered
    name that engine. Pure: reads the board, builds nothing. The engines are examined
    in order of cost: those cheaper than the choice are passed over with the reason
    they do not cover the board, the dearer ones for their cost (their ``covers`` is
    not called). O(engines) cost estimates and at most that many ``covers`` calls.

    Raises ValueError for an unknown method or backend (naming the accepted ones),
    when no engine asked for covers the board (saying why each does not), and for an
    estimated cost that is not a finite number of seconds >= 0."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: use one of {BACKENDS}")
    if not isinstance(method, str) or (
        method not in _REGISTRY and method != "auto" and method not in METHOD_FAMILIES
    ):
        raise ValueError(f"unknown method {method!r}: use one of {methods()}")
    if backend == "reference" and method in ("auto", "dense"):
        method = "reference"  # the pure-NumPy engine answers everything
    cands = _candidates(method)
    rejected: dict[str, str] = {}
    priced: list[tuple[float, int, Entry]] = []
    for i, e in enumerate(cands):
        if backend not in e.backends:
            rejected[e.name] = f"backend must be {' or '.join(e.backends)}, not {backend!r}"
        else:
            priced.append((_cost(e, board), i, e))
    priced.sort(key=lambda t: t[:2])  # by cost, then registration order
    best: tuple[float, Entry] | None = None
    for c, _, e in priced:
        if best is not None:  # dearer than the choice: not examined
            rejected[e.name] = (
                f"costs more ({c:.4g} s against {best[0]:.4g} s for {best[1].name}, estimated)"
            )
            continue
        why = e.covers(board)
        if why is not None:
            rejected[e.name] = why
        else:
            best = (c, e)
    if best is None:
        detail = "; ".join(f"{k}: {v}" for k, v in rejected.items())
        raise ValueError(
            f"method={method!r} does not cover this board: {detail}; "
            f"use method='auto' or another of {methods()}"
        )
    cost, e = best
    if len(cands) == 1:
        reason = "asked for by name; it covers the board"
    elif rejected:
        reason = f"the cheapest engine that covers the board ({cost:.4g} s estimated)"
    else:
        reason = "the only engine that covers the board"
    for other in _REGISTRY.values():
        if other.name not in rejected and other is not e and other not in cands:
            rejected[other.name] = (
                f"not asked for (method={method!r})"
                if other.auto
                else "a variant, chosen only by its name"
            )
    return Plan(e.name, e.family, reason, rejected, None, cost, backend, method)


def resolve(plan: Plan, engine: Any) -> Plan:
    """The plan naming the variant a built engine took from its own data (the chase:
    ``engine.variant``, a registered name, and ``engine.variant_reason``); the plan
    itself for engines registered with ``variants=False``."""
    e = _REGISTRY.get(plan.engine)
    if e is None or not e.variants:
        return plan
    name, why = engine.variant, engine.variant_reason
    if name == plan.engine:
        return plan
    return replace(plan, engine=name, variant=name, reason=f"{plan.reason}; variant {name}: {why}")


def answers(name: str) -> frozenset:
    """The optional questions the engine registered as ``name`` answers itself."""
    e = _REGISTRY.get(name)
    return frozenset() if e is None else e.answers


def build(board: Board, plan: Plan) -> Engine:
    """The engine of ``plan`` for ``board``; its ``dense`` callable (for an engine of
    one's own that answers a core question through another engine) is
    :func:`answerer`'s engine answering every question."""
    e = _REGISTRY[plan.engine]
    dense = (
        None
        if e.family == "dense"
        else partial(answerer, board, plan.backend, CORE + FALLBACK, (e.name,))
    )
    return e.build(board, plan.backend, dense)


def build_named(board: Board, name: str, backend: str = "native") -> Engine:
    """The engine registered as (or the cheapest of the family) ``name`` for the
    board (ValueError when it does not cover it)."""
    return build(board, choose(board, name, backend))


def answerer(
    board: Board, backend: str = "native", questions: Any = CORE + FALLBACK, exclude: Any = ()
) -> DenseEngine:
    """The cheapest registered engine, other than those in ``exclude``, that covers
    the board and answers every one of ``questions`` itself (the core questions, and
    the others its registration declares: the dense engines for FALLBACK).
    ValueError when none does."""
    need = set(questions)
    extra = need - set(CORE)
    best = None
    for e in _REGISTRY.values():
        if e.name in exclude or backend not in e.backends or not extra <= e.answers:
            continue
        if e.covers(board) is not None:
            continue
        c = _cost(e, board)
        if best is None or c < best[0]:
            best = (c, e)
    if best is None:
        raise ValueError(f"no registered engine answers {sorted(need)} for this board")
    return cast(DenseEngine, best[1].build(board, backend, None))


def fallback(board: Board, plan: Plan) -> DenseEngine:
    """The engine that answers the dense questions (det, inverse, pseudo-inverse) the
    plan's engine does not declare: :func:`answerer`'s cheapest other engine that
    covers the board and answers every question. ValueError (naming the plan's family)
    when the tap matrix has more than DENSE_FALLBACK entries, or when no engine answers.
    Builds (factors) the engine: the caller keeps it."""
    check_fallback_size(board, plan.family)
    return answerer(board, plan.backend, CORE + FALLBACK, (plan.engine,))


def ask(
    board: Board,
    plan: Plan,
    engine: Engine,
    question: str,
    dense: Callable[[], DenseEngine],
) -> Any:
    """The answer to ``question`` (one of FALLBACK: "det", "inverse",
    "pseudo_inverse") about ``board``, whose plan built ``engine``: by the engine when
    its registration declares the question, else by ``dense()`` (the caller's kept
    :func:`fallback`). det needs no fallback where the kernel decides it: a square A
    over a prime n with a kernel has det 0, over GF(2) without one det 1.

    ValueError for another question, for det of a non-square A, and as the answering
    engine raises (no inverse, no generalised inverse, a board too large)."""
    if question not in FALLBACK:
        raise ValueError(f"unknown question {question!r}: ask one of {FALLBACK}")
    if question in answers(plan.engine):
        return getattr(engine, question)()
    if question == "det":
        m, r, n = board.n_cells, board.n_taps, board.states
        if m != r:
            raise ValueError(f"det needs a square tap matrix, this one is {m}x{r}")
        if n == 2 and r:
            return int(engine.kernel_size == 1)
        if engine.kernel_size != 1 and is_prime(n):
            return 0
    return getattr(dense(), question)()


def packed_answerer(board: Board, plan: Plan, engine: Engine) -> PackedEngine | None:
    """The engine that solves this GF(2) board's bit-packed states without unpacking
    them, or None: the plan's own engine when it packs along the board's rows; else
    the cheapest other registered engine that covers the board and answers
    ``solve_packed`` along its rows (the tensor engine for the tori and horizontal
    boards of the cross family); else the own engine through bit transposes."""
    own = _REGISTRY.get(plan.engine)
    if own is None or "solve_packed" not in own.answers or plan.backend != "native":
        return None
    mine = cast(PackedEngine, engine)  # its registration declares solve_packed
    packs = bool(mine.packs)
    if packs and not mine.transposed:
        return mine
    for e in sorted(_REGISTRY.values(), key=lambda e: _cost(e, board)):
        if e is own or "solve_packed" not in e.answers or e.covers(board) is not None:
            continue
        other = cast(PackedEngine, e.build(board, plan.backend, None))
        if other.packs and not other.transposed:
            return other
    return mine if packs else None


# ------------------------------------------------------------------ the package's engines
def _dense_gf2_covers(board: Board) -> str | None:
    from modlights.engines.dense import dense_reason

    if board.states != 2:
        return f"GF(2) only (n = 2); this board has n = {board.states} (dense-zn)"
    return dense_reason(board)


def _dense_zn_covers(board: Board) -> str | None:
    from modlights.engines.dense import dense_reason

    if board.states == 2:
        return "n >= 3 only; n = 2 has dense-gf2"
    return dense_reason(board)


def _reference_covers(board: Board) -> str | None:
    from modlights.engines.dense import dense_reason
    from modlights.engines.reference import reference_reason

    return dense_reason(board) or reference_reason(board.n_cells, board.n_taps, board.states)


def _reference_cost(board: Board) -> float:
    return REFERENCE_PER_ENTRY * board.n_cells * board.n_taps


def _build_gf2(board: Board, backend: str, dense: Any) -> Engine:
    from modlights.engines.dense import build_gf2

    return build_gf2(board)


def _build_zn(board: Board, backend: str, dense: Any) -> Engine:
    from modlights.engines.dense import build_zn

    return build_zn(board)


def _build_reference(board: Board, backend: str, dense: Any) -> Engine:
    from modlights.engines.dense import build_reference

    return build_reference(board)


def _native_covers(name: str, board: Board) -> str | None:
    from modlights.engines.native import covers

    return covers(name, board)


def _build_native(name: str, board: Board, backend: str, dense: Any) -> Engine:
    from modlights.engines.native import build

    return build(name, board, backend, dense)


def _register_package_engines() -> None:
    register(
        "dense-gf2",
        family="dense",
        covers=_dense_gf2_covers,
        cost=_dense_cost,
        build=_build_gf2,
        answers=FALLBACK,
        description="dense GF(2) elimination, bit-packed (Method of "
        "Four Russians); any board with n = 2",
    )
    register(
        "dense-zn",
        family="dense",
        covers=_dense_zn_covers,
        cost=_dense_cost,
        build=_build_zn,
        answers=FALLBACK,
        description="dense Z/n elimination (CRT, unit then valuation "
        "pivots, delayed reduction); any board with n >= 3",
    )
    register(
        "reference",
        family="dense",
        covers=_reference_covers,
        cost=_reference_cost,
        build=_build_reference,
        answers=FALLBACK,
        backends=BACKENDS,
        description="pure NumPy Smith forms over each prime power (the oracle); any "
        "board up to REFERENCE_MAX_WORK (a 500 x 500 matrix mod a prime)",
    )
    register(
        "chase",
        covers=partial(_native_covers, "chase"),
        cost=_chase_cost,
        build=partial(_build_native, "chase"),
        variants=True,
        description="light chasing of grid boards, the variant with the fewest "
        "symbols chosen from the plan (light, prefix, row or row-solve)",
    )
    for variant, text in (
        ("light", "the light chase, its residual matrix eliminated whole"),
        (
            "prefix",
            "the light chase solving a prefix of a tall residual system "
            "(locked tiles) that leaves no kernel, else the whole system",
        ),
        ("row", "the row chase: online elimination, no residual matrix (many holes)"),
        (
            "rowsolve",
            "the row-solve chase: patterns ending in a pair of unit taps (knight, diagonal)",
        ),
    ):
        register(
            f"chase-{variant}",
            family="chase",
            auto=False,
            covers=partial(_native_covers, f"chase-{variant}"),
            cost=_chase_cost,
            build=partial(_build_native, f"chase-{variant}"),
            description=text,
        )
    register(
        "algebraic-cross",
        family="algebraic",
        covers=partial(_native_covers, "algebraic-cross"),
        cost=partial(_structured_cost, "algebraic-cross"),
        build=partial(_build_native, "algebraic-cross"),
        answers=("det", "kernel_fits", "solve_packed"),
        backends=BACKENDS,
        description="one polynomial equation over GF(p)[x]: cross, vertical, "
        "horizontal patterns, prime n, no locks or holes",
    )
    register(
        "algebraic-torus",
        family="algebraic",
        covers=partial(_native_covers, "algebraic-torus"),
        cost=partial(_structured_cost, "algebraic-torus"),
        build=partial(_build_native, "algebraic-torus"),
        answers=("kernel_fits", "solve_packed"),
        backends=BACKENDS,
        description="a 2 x 2 system over GF(p)[s] / (s^w - 1): tori of the cross family, prime n",
    )
    register(
        "algebraic-sym",
        family="algebraic",
        covers=partial(_native_covers, "algebraic-sym"),
        cost=partial(_structured_cost, "algebraic-sym"),
        build=partial(_build_native, "algebraic-sym"),
        answers=("kernel_fits", "solve_packed"),
        backends=BACKENDS,
        description="polynomial row recurrences for left-right symmetric 3 x 3 "
        "patterns (diagonal, ring), prime n, no tori",
    )
    register(
        "lifted",
        covers=partial(_native_covers, "lifted"),
        cost=partial(_structured_cost, "lifted"),
        build=partial(_build_native, "lifted"),
        description="the algebraic engine over each GF(p), p | n, lifted to Z/p^k "
        "and combined by CRT: composite n",
    )
    register(
        "tensor",
        covers=partial(_native_covers, "tensor"),
        cost=partial(_structured_cost, "tensor"),
        build=partial(_build_native, "tensor"),
        answers=("det", "kernel_fits", "solve_packed"),
        description="A = R (x) C for product patterns (square, horizontal, vertical): "
        "two passes of 1-D banded chases, tori too",
    )


_register_package_engines()
