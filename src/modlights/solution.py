"""What a solve answers: :class:`Solution` (tap counts, their length, whether they are
proved minimal, and the certificate of that proof), or :class:`Unsolvable` when no tap
counts reach the target. Made by :class:`modlights.solver.Solver`; both names are also
``modlights.Solution`` / ``modlights.Unsolvable`` and ``modlights.solver.Solution`` /
``modlights.solver.Unsolvable``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from modlights.model.board import Board

__all__ = ["Solution", "Unsolvable", "MAX_KERNEL_BYTES"]


#: Largest kernel (nullity x n_taps bytes) that ``kernel()`` materialises.
MAX_KERNEL_BYTES = 1 << 30


class Unsolvable(ValueError):
    """No tap counts take this state to the target. ``indices`` lists the unsolvable
    boards of a batch (``solve_many``); it is empty for a single board.

    Examples
    --------
    >>> b = ml.Board.grid(2, 2, states=2, pattern="horizontal")
    >>> s = ml.Solver(b)
    >>> s.solve([[1, 0], [0, 0]])
    Traceback (most recent call last):
        ...
    modlights.solution.Unsolvable: no combination of taps takes this board to the target ...
    >>> issubclass(ml.Unsolvable, ValueError)
    True
    >>> try:
    ...     s.solve_many([[[1, 1], [0, 0]], [[1, 0], [0, 0]]])
    ... except ml.Unsolvable as e:
    ...     print(e.indices)
    (1,)
    """

    def __init__(self, message: str, indices: tuple[int, ...] = ()):
        super().__init__(message)
        self.indices = tuple(indices)


class Solution:
    """Tap counts solving a board.

    Attributes
    ----------
    taps : numpy.ndarray
        uint8 counts 0..n-1, shaped as the board for grids, (n_taps,) for graphs.
    length : int
        Physical taps: the sum of ``taps``.
    proven_minimal : bool
        True only when no solution with fewer taps exists (proved).
    kernel_size : int
        ``|ker A|``: how many solutions the board has.
    examined, pruned : int
        Coset elements the minimal search examined / skipped by its bound.
    seconds : float
        Time the minimal search took.

    Two solutions are equal when their boards, taps, length, proven_minimal and
    kernel_size are (the search statistics and proofs are not compared). They pickle
    and copy (with the proof behind ``certificate()``).

    Examples
    --------
    >>> b = ml.Board.grid(3, 3, states=2)
    >>> sol = ml.Solver(b).solve(np.eye(3, dtype=int))
    >>> sol
    Solution(length=3, proven minimal)
    >>> sol.taps
    array([[1, 0, 0],
           [0, 1, 0],
           [0, 0, 1]], dtype=uint8)
    >>> sol.length, sol.proven_minimal, sol.kernel_size
    (3, True, 1)
    """

    __slots__ = (
        "_board",
        "taps",
        "length",
        "proven_minimal",
        "kernel_size",
        "examined",
        "pruned",
        "seconds",
        "_proof",
        "_kernel",
    )

    def __init__(
        self,
        board: Board,
        taps: np.ndarray,
        proven_minimal: bool,
        kernel_size: int,
        examined: int,
        pruned: int = 0,
        seconds: float = 0.0,
        *,
        proof: list | None = None,
        kernel: tuple[np.ndarray, list[int]] | None = None,
        result: Any = None,
    ):
        if result is not None:  # the C solver's: its certificate is the proof kept
            proof = result
        self._board = board
        #: what the minimal search appended (None: no search ran, minimal=False); for
        #: the C solver's solutions its result (``_core.CResult``, ``result``), after a
        #: pickle (True, its certificate's JSON text) or (False, why there is none)
        self._proof: Any = proof
        #: (H, orders): the kernel generators the proof refers to
        self._kernel = kernel
        self.taps = taps
        if taps.dtype == np.uint8 and board.states == 2:  # 0/1 counts: a popcount
            self.length = int(np.count_nonzero(taps))
        else:
            self.length = int(taps.sum(dtype=np.uint64 if taps.dtype.kind == "u" else np.int64))
        self.proven_minimal = bool(proven_minimal)
        self.kernel_size = kernel_size
        #: coset elements examined by the minimal search (0 when none ran)
        self.examined = examined
        #: coset elements the search skipped soundly by its sub-cube bound
        self.pruned = pruned
        #: seconds the minimal search took (examined / seconds = elements per second)
        self.seconds = seconds

    def moves(self) -> list:
        """Positions to tap, each repeated by its count, in row-major order.

        Examples
        --------
        >>> b = ml.Board.grid(2, 2, states=3)
        >>> sol = ml.Solver(b).solve([[1, 1], [1, 0]])
        >>> sol.taps
        array([[2, 0],
               [0, 0]], dtype=uint8)
        >>> sol.moves()
        [(0, 0), (0, 0)]
        """
        b = self._board
        x = b.tap_vector(self.taps)
        out = []
        for pos, cnt in zip(b.taps, x.tolist()):
            out.extend([pos] * cnt)
        return out

    def to_dict(self) -> dict:
        """JSON-safe data: ``{"taps", "length", "proven_minimal", "moves",
        "kernel_size"}`` (taps as nested lists, moves as ``[r, c]`` lists for grids
        and ints for graph boards).

        Examples
        --------
        >>> b = ml.Board.grid(2, 2, states=3)
        >>> from pprint import pprint
        >>> pprint(ml.Solver(b).solve([[1, 1], [1, 0]]).to_dict())
        {'kernel_size': 3,
         'length': 2,
         'moves': [[0, 0], [0, 0]],
         'proven_minimal': True,
         'taps': [[2, 0], [0, 0]]}
        """
        board = self._board
        moves = self.moves()
        if board.is_grid:
            moves = [[int(r), int(c)] for r, c in moves]
        else:
            moves = [int(j) for j in moves]
        return {
            "taps": np.asarray(self.taps).tolist(),
            "length": int(self.length),
            "proven_minimal": bool(self.proven_minimal),
            "moves": moves,
            "kernel_size": int(self.kernel_size),
        }

    def certificate(self) -> dict:
        """A JSON-safe certificate that no solution has fewer taps (kind "minimal" of
        docs/certificates.md): the board, the kernel generators and orders, the rhs
        b = A x, the taps x, the length and the search's proof (an enumeration of the
        coset, or the branch and bound tree). ``modlights.verify`` checks it without
        the search code.

        ValueError when the solution is not proved minimal: ``solve(minimal=False)``
        does not search, or the search's budget ran out before it covered the coset.
        O(n_taps x generators) to write; the proof is as large as the search made it.

        Examples
        --------
        >>> b = ml.Board.grid(4, 4, states=2)
        >>> sol = ml.Solver(b).solve(b.random_state(rng=3))
        >>> cert = sol.certificate()
        >>> cert["kind"], cert["length"] == sol.length, len(cert["kernel"]["generators"])
        ('minimal', True, 4)
        >>> ml.verify(cert)
        True
        >>> ml.Solver(b).solve(b.random_state(rng=3), minimal=False).certificate()
        Traceback (most recent call last):
            ...
        ValueError: no certificate: this solution is not proved minimal ...
        """
        if self._proof is not None and not isinstance(self._proof, list):
            return _c_certificate(self._proof)
        if not self.proven_minimal:
            if self._proof is None:
                raise ValueError(
                    "no certificate: this solution is not proved minimal "
                    "(solve(minimal=False) does not search for the fewest "
                    "taps; use solve(minimal=True))"
                )
            raise ValueError(
                f"no certificate: this solution is not proved minimal (the "
                f"search's budget ran out after {self.examined} of "
                f"{self.kernel_size} coset elements; raise budget)"
            )
        board = self._board
        r = board.n_taps
        orders: Any
        if self.kernel_size == 1:
            H, orders = np.zeros((0, r), dtype=np.uint8), []
            proof: dict = {"method": "enumeration"}
        elif self._proof and self._kernel is not None:
            H, orders = self._kernel
            proof = _json_safe(self._proof[-1])
        elif self._proof:
            raise ValueError(
                "no certificate: the kernel's generators are more than the "
                f"{MAX_KERNEL_BYTES // 2**30} GiB a certificate may hold as a "
                "dense array (the solution is proved minimal all the same)"
            )
        else:
            raise ValueError(
                "no certificate: the search proved this solution minimal but kept no proof"
            )
        if "generators" in proof:  # the search reordered the kernel's generators
            H, orders = proof.pop("generators"), proof.pop("orders")
        x = board.tap_vector(self.taps)
        return {
            "format": "modlights-certificate",
            "version": 1,
            "kind": "minimal",
            "board": board.to_dict(),
            "kernel": {"generators": _json_safe(H), "orders": _json_safe(orders)},
            "rhs": _json_safe(board.apply_vector(x)),
            "taps": _json_safe(x),
            "length": int(self.length),
            "proof": proof,
        }

    def _repr_svg_(self) -> str | None:
        from modlights.model.render import repr_svg

        tag = "proven minimal" if self.proven_minimal else "not proven minimal"
        return repr_svg(self._board, taps=self.taps, title=f"solution: {self.length} taps ({tag})")

    def __eq__(self, other: object) -> bool:
        """Equal when the board, the tap counts, ``length``, ``proven_minimal`` and
        ``kernel_size`` are (search statistics such as ``seconds`` are not compared)."""
        if not isinstance(other, Solution):
            return NotImplemented
        return (
            self._board == other._board
            and self.length == other.length
            and self.proven_minimal == other.proven_minimal
            and self.kernel_size == other.kernel_size
            and np.array_equal(self.taps, other.taps)
        )

    # unhashable: taps is a mutable array (mypy wants __hash__ callable, as object's)
    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict:
        """Every slot by name: pickle protocols 0 and 1 need an explicit state for a
        class with ``__slots__`` (2 and later would manage without)."""
        state = {k: getattr(self, k) for k in self.__slots__}
        r = state["_proof"]
        if r is not None and not isinstance(r, (list, tuple)):  # C memory: its text
            try:
                state["_proof"] = (True, r.certificate())
            except ValueError as e:
                state["_proof"] = (False, str(e))
        return state

    def __setstate__(self, state: dict) -> None:
        for k in self.__slots__:  # pickles without a proof: none kept
            setattr(self, k, state.get(k) if k in ("_proof", "_kernel") else state[k])

    def __repr__(self) -> str:
        tag = "proven minimal" if self.proven_minimal else "not proven minimal"
        return f"Solution(length={self.length}, {tag})"


def _c_certificate(result: Any) -> dict:
    """The certificate of a C result (``ml_result_certificate``: ValueError with its
    message when there is none), or of its pickled (ok, text)."""
    if isinstance(result, tuple):
        ok, text = result
        if not ok:
            raise ValueError(text)
    else:
        text = result.certificate()
    cert: dict = json.loads(text)
    return cert


def _json_safe(v: Any) -> Any:
    """A copy of v with NumPy arrays and scalars and tuples as lists and Python
    numbers (dicts and lists copied: a certificate never shares the search's data)."""
    if isinstance(v, dict):
        return {str(k): _json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_safe(x) for x in v]
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v
