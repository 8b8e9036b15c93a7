"""What an engine answers: the protocol every engine follows, and the dense fallback.

An engine is built for one board (``build(board)`` of its registration in
:mod:`modlights.engines.registry`) and answers questions about the board's tap matrix
A (m cells x r taps) over Z/nZ. Every engine answers the core questions (:data:`CORE`,
the :class:`Engine` protocol):

``solve(R) -> (X, ok)``
    R: (k, m) uint8 right-hand sides t - s; X: (k, r) uint8 tap counts, ok: (k,) bool
    (X rows of unsolvable right-hand sides are unspecified).
``generators(limit=None) -> (H, orders)``
    Generators of ker A as rows (uint8, k x r) with their additive orders (the first
    ``limit`` of them when given); ValueError when they would not fit in memory.
``nullity``, ``kernel_size``
    The number of kernel generators and |ker A| (exact int), from the factorisation.

The dense questions (:data:`FALLBACK`, the :class:`DenseEngine` protocol) are answered
by an engine only when its registration declares them (:attr:`Entry.answers
<modlights.engines.registry.Entry>`; every dense engine does); otherwise the registry
asks its fallback, the cheapest other engine that covers the board and answers them
(:func:`modlights.engines.registry.ask`), so no engine forwards them itself:

``det()``, ``inverse()``, ``pseudo_inverse()``
    det A mod n (square A), A^-1, a G with A G A = A; ValueError where none exists.

Optional questions, declared per registration too: ``kernel_fits()`` (whether the
kernel basis fits in memory; engines without it always fit) and ``solve_packed(packed,
tc)`` (GF(2) states as ``np.packbits`` rows, never unpacked; with the property
``packs`` saying whether this board takes it and ``transposed`` whether it goes through
bit transposes).

An engine of one's own that answers a core question only through another engine's
factorisation receives a ``dense`` callable at build time and calls
:func:`dense_fallback`: the registry builds the next engine that covers the board and
answers every question, so no engine imports the Solver or another engine to ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "Engine",
    "DenseEngine",
    "PackedEngine",
    "CORE",
    "FALLBACK",
    "OPTIONAL",
    "QUESTIONS",
    "DENSE_FALLBACK",
    "dense_fallback",
    "check_fallback_size",
    "missing_questions",
]

#: The questions every engine answers itself (the :class:`Engine` protocol).
CORE = ("solve", "generators", "nullity", "kernel_size")
#: The questions an engine answers when its registration declares them; the registry's
#: fallback (a dense engine) answers them otherwise.
FALLBACK = ("det", "inverse", "pseudo_inverse")
#: Questions an engine may answer; its registration says whether it does.
OPTIONAL = ("kernel_fits", "solve_packed")
QUESTIONS = CORE + FALLBACK + OPTIONAL

#: Largest dense tap matrix (n_cells * n_taps entries) the registry builds a fallback
#: for (det / inverse / pseudo-inverse of an engine that does not answer them); past it
#: those questions raise ValueError.
DENSE_FALLBACK = 1 << 28


@runtime_checkable
class Engine(Protocol):
    """The questions every engine answers (see the module docstring for the contract
    of each): ``solve``, ``generators``, ``nullity``, ``kernel_size``. The registry
    returns engines as this type."""

    @property
    def nullity(self) -> int: ...

    @property
    def kernel_size(self) -> int: ...

    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]: ...


@runtime_checkable
class DenseEngine(Engine, Protocol):
    """An engine that also answers the dense questions (:data:`FALLBACK`): ``det``,
    ``inverse``, ``pseudo_inverse``. The dense engines and the registry's fallback."""

    def det(self) -> int: ...

    def inverse(self) -> np.ndarray: ...

    def pseudo_inverse(self) -> np.ndarray: ...


@runtime_checkable
class PackedEngine(Engine, Protocol):
    """An engine whose registration declares ``solve_packed``: GF(2) states as
    ``np.packbits`` rows (None when this board does not take them), ``packs`` whether
    it does, ``transposed`` whether through bit transposes."""

    @property
    def packs(self) -> bool: ...

    @property
    def transposed(self) -> bool: ...

    def solve_packed(self, packed: np.ndarray, tc: int = 0) -> np.ndarray | None: ...


def missing_questions(engine: Any, declared: Iterable[str] = ()) -> list[str]:
    """The core questions, and those of ``declared`` (its registration's ``answers``),
    that ``engine`` does not define (empty for a conforming engine). O(questions)."""
    return [q for q in (*CORE, *declared) if not hasattr(type(engine), q)]


def check_fallback_size(board: Any, method: str) -> None:
    """ValueError when the board's tap matrix has more than DENSE_FALLBACK entries: no
    dense fallback is built for it (the message names ``method`` and what is
    available). O(1)."""
    if board.n_cells * board.n_taps > DENSE_FALLBACK:
        raise ValueError(
            f"not available with method='{method}' on a board this "
            f"large ({board.n_cells} x {board.n_taps} tap matrix, more than "
            f"{DENSE_FALLBACK} entries); use method='dense' on a "
            "smaller board"
        )


def dense_fallback(eng: Any, method: str) -> Any:
    """The engine an engine of one's own falls back on for the core questions it does
    not answer itself: made by ``eng._dense_factory`` (the ``dense`` callable the
    registry built it with: the next engine that answers every question) on first use
    and kept in ``eng._dense``. (The package's engines never call it: the registry
    routes the questions they do not declare, :func:`modlights.engines.registry.ask`.)

    ValueError when the engine was built without a fallback, or when the board's tap
    matrix has more than DENSE_FALLBACK entries (the message says what is available)."""
    if eng._dense is None:
        factory: Callable[[], Any] | None = eng._dense_factory
        if factory is None:
            raise ValueError(f"not available from the {method} engine on its own")
        check_fallback_size(eng.board, method)
        eng._dense = factory()
    return eng._dense
