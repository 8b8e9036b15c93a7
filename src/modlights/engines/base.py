"""What an engine answers: the protocol every engine follows, and the dense fallback.

An engine is built for one board (``build(board)`` of its registration in
:mod:`modlights.engines.registry`) and answers questions about the board's tap matrix
A (m cells x r taps) over Z/nZ:

``solve(R) -> (X, ok)``
    R: (k, m) uint8 right-hand sides t - s; X: (k, r) uint8 tap counts, ok: (k,) bool
    (X rows of unsolvable right-hand sides are unspecified).
``generators(limit=None) -> (H, orders)``
    Generators of ker A as rows (uint8, k x r) with their additive orders (the first
    ``limit`` of them when given); ValueError when they would not fit in memory.
``nullity``, ``kernel_size``
    The number of kernel generators and |ker A| (exact int), from the factorisation.
``det()``, ``inverse()``, ``pseudo_inverse()``
    det A mod n (square A), A^-1, a G with A G A = A; ValueError where none exists.

An engine that answers a question only by another engine's factorisation (the
structured engines' det / inverse / pseudo-inverse) receives a ``dense`` callable at
build time and calls :func:`dense_fallback`: the registry builds the next engine that
covers the board and answers the question itself (the dense engines), so no engine
imports the Solver or another engine to ask it.

Optional questions, declared per registration (:attr:`Entry.answers
<modlights.engines.registry.Entry>`): ``kernel_fits()`` (whether the kernel basis fits
in memory; engines without it always fit) and ``solve_packed(packed, tc)`` (GF(2)
states as ``np.packbits`` rows, never unpacked; with the property ``packs`` saying
whether this board takes it and ``transposed`` whether it goes through bit
transposes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "Engine",
    "CORE",
    "OPTIONAL",
    "QUESTIONS",
    "DENSE_FALLBACK",
    "dense_fallback",
    "missing_questions",
]

#: The questions every engine answers, itself or through its dense fallback.
CORE = ("solve", "generators", "nullity", "kernel_size", "det", "inverse", "pseudo_inverse")
#: Questions an engine may answer; its registration says whether it does.
OPTIONAL = ("kernel_fits", "solve_packed")
QUESTIONS = CORE + OPTIONAL

#: Largest dense tap matrix (n_cells * n_taps entries) a structured engine builds
#: its dense fallback for (det / inverse / pseudo-inverse); past it those questions
#: raise ValueError.
DENSE_FALLBACK = 1 << 28


@runtime_checkable
class Engine(Protocol):
    """The questions every engine answers (see the module docstring for the contract
    of each): ``solve``, ``generators``, ``nullity``, ``kernel_size``, ``det``,
    ``inverse``, ``pseudo_inverse``."""

    @property
    def nullity(self) -> int: ...

    @property
    def kernel_size(self) -> int: ...

    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]: ...

    def det(self) -> int: ...

    def inverse(self) -> np.ndarray: ...

    def pseudo_inverse(self) -> np.ndarray: ...


def missing_questions(engine: Any) -> list[str]:
    """The core questions ``engine`` does not define (empty for a conforming engine).
    O(1)."""
    return [q for q in CORE if not hasattr(type(engine), q)]


def dense_fallback(eng: Any, method: str) -> Any:
    """The engine a structured engine falls back on for the questions it does not
    answer itself (det, inverse, pseudo-inverse): made by ``eng._dense_factory`` (the
    registry's next engine that answers them) on first use and kept in ``eng._dense``.

    ValueError when the engine was built without a fallback, or when the board's tap
    matrix has more than DENSE_FALLBACK entries (the message says what is available)."""
    if eng._dense is None:
        factory: Callable[[], Any] | None = eng._dense_factory
        if factory is None:
            raise ValueError(f"not available from the {method} engine on its own")
        b = eng.board
        if b.n_cells * b.n_taps > DENSE_FALLBACK:
            raise ValueError(
                f"not available with method='{method}' on a board this "
                f"large ({b.n_cells} x {b.n_taps} tap matrix, more than "
                f"{DENSE_FALLBACK} entries); use method='dense' on a "
                "smaller board"
            )
        eng._dense = factory()
    return eng._dense
