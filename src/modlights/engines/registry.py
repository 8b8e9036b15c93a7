"""The engine seam: the C library's one table of engines (csrc/api/registry.c), seen and
extended from Python; :func:`choose` is its choice (``ml_plan_choose``).

A registration (:class:`Entry`) names an engine or a variant of one uniquely and
gives a one-line ``description``, ``covers(board) -> reason | None`` (None: it takes
the board; else why not), ``cost(board)`` (estimated seconds to factor the board and
solve it once) and ``build(board, backend, dense)`` (the engine: an
:class:`~modlights.engines.base.Engine`). ``family`` is the method name the engine
answers to in ``Solver.method`` ("dense", "chase", "algebraic", "lifted", "tensor");
``answers`` lists the questions beyond the core ones it answers itself (det, inverse,
pseudo-inverse, kernel_fits, solve_packed): :func:`ask` routes the dense questions it
does not declare to :func:`fallback`, the cheapest other engine that answers them.

The library's engines (dense-gf2, dense-zn, the chase and its variants, the algebraic
engines, lifted, tensor) are in the C table from the start, with their covers and
costs in C; Python builds them (:mod:`modlights.engines.native`,
:mod:`modlights.engines.dense`). An engine of Python code, Python's reference engine
included (registered here, after the dense engines and before the chase), is one
:func:`register` call: it goes into the C table through the seam
(``_core.capi_register``), its ``covers`` and ``cost`` called back with the Board the
choice is about, so the C choice weighs it with the others and C solvers can build it;
:func:`unregister` removes it. :func:`entries` is the table as Python sees it.

:func:`choose` is a pure function of the board, the method and the backend: "auto"
is the cheapest engine that covers the board; a registered name is that engine; a
family name ("dense", "chase", "algebraic", ...) the cheapest of the family. The
:class:`Plan` says which engine, why it covers the board, and why every other one was
passed over; ValueError (naming the registered engines) when nothing asked for covers
the board. The reasons, their order and the messages are the C registry's
(registry_plan.c).

The chase's variants need the C plan of the board to compare (its symbol counts):
"chase" builds it and takes the variant with the fewest symbols (csrc/engines/chase.c,
through :mod:`modlights.engines.native`); ``Solver.plan`` then names the variant that
answered. Each variant is also registered on its own, chosen only by name.

Costs are ``SETUP + PER_TILE * tiles`` seconds (the dense engines ``DENSE_PER_ENTRY *
entries`` of the tap matrix), computed in C (csrc/api/registry_own.c) from the one table
of constants, csrc/api/registry_costs.h, which this module reads (below). The constants
that decide are the crossovers (CROSSOVER_TILES: the tiles from which an engine beats
the chase on the boards it covers); SETUP is placed so each engine's line meets the
chase's there. PER_TILE orders two engines that cover one board (the slope: the lower
wins on large boards). Both are measured by the bench workload engine-costs
(bench/workloads/engine_costs.py): the crossovers against the chase on each engine's
boards, the order on boards two engines cover; it prints them beside the table's and
writes the table from its measurements (``--param write=PATH``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType
from typing import Any, NoReturn, cast

from modlights.engines.base import (
    CORE,
    FALLBACK,
    QUESTIONS,
    DenseEngine,
    Engine,
    PackedEngine,
    check_fallback_size,
)
from modlights.engines.native import NATIVE_ENGINES, board_of, plan_board
from modlights.model.board import Board
from modlights.model.ring import is_prime
from modlights.native import _core

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

#: The cost constants of the library's engines, read from the C library (the one table:
#: csrc/api/registry_costs.h; csrc/api/registry_own.c computes the costs from it;
#: bench/workloads/engine_costs.py measures them and prints them beside its measures).
#: Seconds a tile, per engine: the slope of its cost line, ordering two engines that
#: cover one board (see the module docstring).
PER_TILE: dict[str, float] = {k: v[0] for k, v in _core.ENGINE_COSTS.items()}
#: Tiles (rows * cols) from which each engine is faster than the chase on the boards
#: it covers, measured; "chase" is where the chase overtakes the dense engines. Rows are
#: named by engine, and "lifted-zq" is lifted's line on an n with a factor p^k, k > 1
#: ("lifted" its line on a squarefree n).
CROSSOVER_TILES: dict[str, int] = {k: v[1] for k, v in _core.ENGINE_COSTS.items()}
#: Seconds per tap-matrix entry (cells * taps) of the native dense engines (C's), and of
#: the pure-NumPy reference engine (its cost here; never chosen by "auto" on the native
#: backend).
DENSE_PER_ENTRY: float = _core.DENSE_PER_ENTRY
REFERENCE_PER_ENTRY = 1.0e-7


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
    ['dense-gf2', 'chase', 'lifted']
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


@dataclass(frozen=True)
class _Python:
    """What Python keeps of an engine it registered through the seam: its callables
    (the C table holds the rest) and whether it picks a variant itself."""

    covers: Callable[[Board], str | None]
    cost: Callable[[Board], float]
    build: Callable[..., Engine]
    variants: bool


#: the engines registered from Python (the reference engine, one's own), by name
_PYTHON: dict[str, _Python] = {}
#: the library's engines whose built engine picks a registered variant (see resolve)
_VARIANTS = ("chase",)
#: Method names that stand for a family of engines (Solver.method keeps these).
METHOD_FAMILIES = ("dense", "chase", "algebraic", "lifted", "tensor")
#: Family names that are also one engine's registered name.
_FAMILY_NAMES_ALSO_ENGINES = ("chase", "lifted", "tensor")


def _c_str(s: Any) -> bool:
    """Whether s reaches the C library as itself (a str without NUL, UTF-8 encodable)."""
    if not isinstance(s, str) or "\0" in s:
        return False
    try:
        s.encode()
    except UnicodeEncodeError:
        return False
    return True


def _reraise(e: BaseException) -> NoReturn:
    """The exception a seam callback (an engine of Python code) raised during the C call
    that failed with ``e``, re-raised as it was; else ``e``."""
    errors = _core.capi_seam_errors()
    if errors:
        raise errors[0]
    raise e


# ------------------------------------------------------------------ the seam's callbacks
def _seam_covers(fn: Callable[[Board], str | None], cb: Any) -> str | None:
    return fn(board_of(cb))


def _seam_cost(fn: Callable[[Board], float], cb: Any) -> float:
    return fn(board_of(cb))


def _seam_build(name: str, fn: Callable[..., Engine], cb: Any) -> Engine:
    board = board_of(cb)
    return fn(board, "native", partial(answerer, board, "native", CORE + FALLBACK, (name,)))


# ------------------------------------------------------------------ the library's engines
def _c_covers(name: str, board: Board) -> str | None:
    from modlights.engines.native import covers

    return covers(name, board)


def _c_cost(name: str, board: Board) -> float:
    return _core.capi_engine_cost(_core.capi_engine_index(name), plan_board(board))


def _c_build(name: str, board: Board, backend: str, dense: Any) -> Engine:
    if name in NATIVE_ENGINES:
        from modlights.engines.native import build as build_native

        return build_native(name, board, backend, dense)
    raise ValueError(f"the engine {name!r} was registered in C without a Python build")


def _entry(e: dict) -> Entry:
    name = e["name"]
    own = _PYTHON.get(name)
    if own is not None:
        covers, cost, build, variants = own.covers, own.cost, own.build, own.variants
    else:
        covers, cost = partial(_c_covers, name), partial(_c_cost, name)
        build, variants = partial(_c_build, name), name in _VARIANTS
    return Entry(
        name,
        e["description"],
        e["family"],
        covers,
        cost,
        build,
        e["answers"],
        e["backends"],
        e["auto"],
        variants,
    )


# ------------------------------------------------------------------ the table
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
    _before: str | None = None,
) -> Entry:
    """Register an engine under a unique ``name`` (ValueError when taken, or for an
    unknown question or backend): into the C table through the seam, at its end (the
    package's reference engine: before the engine named ``_before``). ``covers`` and
    ``cost`` are called with the Board a choice is about (their exceptions reach the
    caller of :func:`choose` unchanged). ``build(board, backend, dense)`` makes the
    engine; ``dense`` is a callable giving an engine that answers every question (see
    :func:`answerer`), for an engine that answers some core question only through one.
    ``answers``: the questions beyond the core ones it answers itself; :func:`ask`
    routes the others to :func:`fallback`. Returns the entry. O(engines)."""
    reserved = name == "auto" or (
        name in METHOD_FAMILIES and name not in _FAMILY_NAMES_ALSO_ENGINES
    )
    if not isinstance(name, str) or not name or reserved or not _c_str(name):
        raise ValueError(
            f"an engine name must be a new non-empty string other than "
            f"'auto' and the family names {sorted(METHOD_FAMILIES)}, got {name!r}"
        )
    if _core.capi_engine_index(name) >= 0:
        raise ValueError(f"engine {name!r} is registered already (unregister it first)")
    answers = frozenset(answers)
    bad = answers - set(QUESTIONS)
    if bad:
        raise ValueError(f"unknown questions {sorted(bad)}: use some of {QUESTIONS}")
    backends = tuple(backends)
    if not backends or set(backends) - set(BACKENDS):
        raise ValueError(f"backends must be some of {BACKENDS}, got {backends!r}")
    _core.capi_register(
        name,
        partial(_seam_covers, covers),
        partial(_seam_cost, cost),
        description=description,
        family=family or name,
        answers=tuple(q for q in QUESTIONS if q in answers),
        backends=backends,
        auto=auto,
        build=partial(_seam_build, name, build),
        before=_before,
    )
    _PYTHON[name] = _Python(covers, cost, build, variants)
    return entries()[name]


def unregister(name: str) -> None:
    """Remove a registered engine from the C table (ValueError naming the registered
    ones if unknown)."""
    if not _c_str(name) or _core.capi_engine_index(name) < 0:
        raise ValueError(f"no engine {name!r} is registered: {', '.join(_names())}")
    _core.capi_unregister(name)
    _PYTHON.pop(name, None)


def _names() -> list[str]:
    return _core.capi_engine_names()


def _lookup(name: str) -> Entry | None:
    """The entry registered as ``name`` (None when none is). O(engines)."""
    e = _core.capi_engine(name) if _c_str(name) else None
    return None if e is None else _entry(e)


def entries() -> Mapping[str, Entry]:
    """The registered entries by name (read-only, the C table's order): the library's
    engines with covers and cost asked from C, those registered from Python with their
    own callables."""
    return MappingProxyType({e["name"]: _entry(e) for e in _core.capi_engines()})


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
    return {e["name"]: e["description"] for e in _core.capi_engines()}


def methods() -> tuple[str, ...]:
    """Every accepted ``method=``: "auto", the family names and the registered names."""
    names = ["auto", *METHOD_FAMILIES]
    names += [n for n in _names() if n not in names]
    return tuple(names)


def choose(board: Board, method: str = "auto", backend: str = "native") -> Plan:
    """The engine for ``board`` (``ml_plan_choose`` of the C table): for
    ``method="auto"`` the cheapest registered engine that covers it, for a family name
    the cheapest of that family, for a registered name that engine. Pure: reads the
    board, builds nothing. The engines are examined in order of cost (ties in
    registration order): those cheaper than the choice are passed over with the reason
    they do not cover the board, the dearer ones for their cost (their ``covers`` is
    not called). O(engines) cost estimates and at most that many ``covers`` calls.

    Raises ValueError for an unknown method or backend (naming the accepted ones),
    when no engine asked for covers the board (saying why each does not), and for an
    estimated cost that is not a finite number of seconds >= 0; an exception of an
    engine of Python code's covers or cost as it raised it."""
    if not _c_str(backend):
        raise ValueError(f"unknown backend {backend!r}: use one of {BACKENDS}")
    if not _c_str(method):
        raise ValueError(f"unknown method {method!r}: use one of {methods()}")
    cb = plan_board(board)
    _core.capi_seam_errors()
    try:
        d = _core.capi_plan(cb, method, backend, texts=False)
    except BaseException as e:
        _reraise(e)
    return Plan(
        d["engine"],
        d["family"],
        d["reason"],
        d["rejected"],
        d["variant"],
        d["cost"],
        d["backend"],
        d["method"],
    )


def _price(name: str, board: Board) -> float:
    """The engine's estimated seconds for the board, from the C table (checked there: a
    finite number >= 0, else ValueError)."""
    _core.capi_seam_errors()
    try:
        return _core.capi_engine_cost(_core.capi_engine_index(name), plan_board(board))
    except BaseException as e:
        _reraise(e)


def _variants(name: str) -> bool:
    own = _PYTHON.get(name)
    return own.variants if own is not None else name in _VARIANTS


def resolve(plan: Plan, engine: Any) -> Plan:
    """The plan naming the variant a built engine took from its own data (the chase:
    ``engine.variant``, a registered name, and ``engine.variant_reason``); the plan
    itself for engines registered with ``variants=False``."""
    if not _variants(plan.engine):
        return plan
    name, why = engine.variant, engine.variant_reason
    if name == plan.engine:
        return plan
    return replace(plan, engine=name, variant=name, reason=f"{plan.reason}; variant {name}: {why}")


def answers(name: str) -> frozenset:
    """The optional questions the engine registered as ``name`` answers itself."""
    e = _core.capi_engine(name) if _c_str(name) else None
    return frozenset() if e is None else e["answers"]


def build(board: Board, plan: Plan) -> Engine:
    """The engine of ``plan`` for ``board``; its ``dense`` callable (for an engine of
    one's own that answers a core question through another engine) is
    :func:`answerer`'s engine answering every question."""
    e = _lookup(plan.engine)
    if e is None:
        raise ValueError(f"no engine {plan.engine!r} is registered: {', '.join(_names())}")
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
    for e in entries().values():
        if e.name in exclude or backend not in e.backends or not extra <= e.answers:
            continue
        if e.covers(board) is not None:
            continue
        c = _price(e.name, board)
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
    own = _lookup(plan.engine)
    if own is None or "solve_packed" not in own.answers or plan.backend != "native":
        return None
    mine = cast(PackedEngine, engine)  # its registration declares solve_packed
    packs = bool(mine.packs)
    if packs and not mine.transposed:
        return mine
    for e in sorted(entries().values(), key=lambda e: _price(e.name, board)):
        if e.name == own.name or "solve_packed" not in e.answers or e.covers(board) is not None:
            continue
        other = cast(PackedEngine, e.build(board, plan.backend, None))
        if other.packs and not other.transposed:
            return other
    return mine if packs else None


# ------------------------------------------------------------------ Python's engine
def _reference_covers(board: Board) -> str | None:
    from modlights.engines.dense import dense_reason
    from modlights.engines.reference import reference_reason

    return dense_reason(board) or reference_reason(board.n_cells, board.n_taps, board.states)


def _reference_cost(board: Board) -> float:
    return REFERENCE_PER_ENTRY * board.n_cells * board.n_taps


def _build_reference(board: Board, backend: str, dense: Any) -> Engine:
    from modlights.engines.dense import build_reference

    return build_reference(board)


def _register_reference() -> None:
    """Python's reference engine, through the seam at its place in the table: after the
    dense engines, before the chase (so ``ml.engines()`` lists it there and plans pass
    it over in that order)."""
    if _core.capi_engine_index("reference") >= 0:  # this module loaded again
        _core.capi_unregister("reference")
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
        _before="chase",
    )


_register_reference()
