"""BoardMatrix: a board's tap matrix A and what it does to states (the second layer of
:class:`modlights.model.board.Board`, over
:class:`modlights.model.board_geometry.BoardGeometry`).

The coordinate form and the dense matrix, the conversions between board-shaped arrays
and vectors over the cells / taps, and playing: A x, press, apply, affected,
random_state (a uniform grid's A x as shifted adds of the tap grid, without the
coordinate form). The uint8 arithmetic mod n they share (``_reduce_mod``, ``_sub_mod``)
lives here too. Every method here is one of ``Board``'s (docs/reference/api.md
documents them there).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.model.board_geometry import BoardGeometry
from modlights.model.patterns import Offsets
from modlights.model.validation import as_int, as_int_array, in_range

__all__ = ["BoardMatrix"]


#: an integer ndarray from any integer-like input (see :func:`validation.as_int_array`)
_as_int_array = as_int_array


def _reduce_mod(arr: np.ndarray, n: int) -> np.ndarray:
    """arr mod n as a new uint8 array (values 0..n-1), for any integer dtype, negatives
    too. Inputs already in range are only copied (one pass checks the range, one
    copies: no division); no int64 temporaries for fixed-width dtypes. O(size)."""
    if arr.dtype.kind == "O":
        return np.array([int(x) % n for x in arr.ravel()], dtype=np.uint8).reshape(arr.shape)
    if in_range(arr, n):
        return arr.astype(np.uint8)  # always a copy
    if arr.dtype.kind == "u":
        return (arr % arr.dtype.type(n)).astype(np.uint8, copy=False)
    if arr.dtype.itemsize == 1:  # int8 cannot hold n
        arr = arr.astype(np.int16)
    return np.mod(arr, arr.dtype.type(n)).astype(np.uint8)  # sign of the divisor: >= 0


#: Entries handled per step by the chunked uint8 kernels (a few hundred kB: the
#: temporaries stay in cache and never cost memory proportional to the board).
_CHUNK = 1 << 18


def _sub_mod(t: Any, s: np.ndarray, n: int, out: np.ndarray | None = None) -> np.ndarray:
    """(t - s) mod n as uint8; s: uint8 with values < n; t: an int in 0..n-1 or a
    uint8 array shaped like s with values < n. Written to ``out`` (a new array by
    default; ``out`` may be ``s`` itself). uint8 arithmetic in chunks: no temporaries
    wider than a byte, none larger than _CHUNK entries."""
    s = np.asarray(s)
    if out is None:
        out = np.empty(s.shape, dtype=np.uint8)
    scalar = not isinstance(t, np.ndarray)
    if scalar:
        t = np.uint8(t)
    if n == 2:
        return np.bitwise_xor(s, t, out=out)  # -s = s mod 2
    of, sf = out.reshape(-1), s.reshape(-1)
    tf = None if scalar else t.reshape(-1)
    un = np.uint8(n)
    tmp = np.empty(min(of.size, _CHUNK), dtype=np.uint8)
    for i in range(0, of.size, _CHUNK):
        o, sc = of[i : i + _CHUNK], sf[i : i + _CHUNK]
        tc = t if tf is None else tf[i : i + _CHUNK]
        w = tmp[: o.size]
        if n <= 128:
            # t - s wraps to 256 + t - s where s > t, which is >= 257 - n > n - 1:
            # the smaller of o and o + n (mod 256) is the residue in both cases
            np.subtract(tc, sc, out=o)
            np.add(o, un, out=w)
            np.minimum(o, w, out=o)
        else:  # the ranges overlap: compare
            m = np.greater(sc, tc, out=w.view(bool))
            np.subtract(tc, sc, out=o)
            np.add(o, un, out=o, where=m)
    return out


class BoardMatrix(BoardGeometry):
    """The tap matrix of a :class:`~modlights.model.board.Board` and playing on it
    (a Board is one; this class is never made by itself)."""

    # ------------------------------------------------------------------ the matrix
    def offsets_at(self, r: int, c: int) -> Offsets:
        """The pattern of the tile at (r, c)."""
        return self._mixed[r][c] if self._mixed is not None else self._pattern

    def coo(self) -> tuple[np.ndarray, np.ndarray]:
        """A in coordinate form: (cell_rows, tap_cols), one entry per unit of effect
        (repeated pairs add up), in no promised order. Cached. int64 arrays, int32 on
        from_effects boards (widen before arithmetic that can pass 2**31, such as
        ``ci * n_taps``). A grid's is the C board's (ml__board_coo: ValueError on a giant
        board); a from_matrix board's is read from its matrix. O(entries of A)."""
        if self._coo_cache is None:
            if self._dense is not None:
                ci, tj = np.nonzero(self._dense)
                reps = self._dense[ci, tj].astype(np.int64)
                ci = np.repeat(ci, reps).astype(np.int64)
                self._coo_cache = (ci, np.repeat(tj, reps).astype(np.int64))
            else:
                self._coo_cache = self._c.coo()
        return self._coo_cache

    def matrix(self) -> np.ndarray:
        """A: the dense (n_cells x n_taps) uint8 tap matrix, entries mod n (a new array).

        O(n_cells x n_taps) bytes, plus 8 bytes an entry while it is summed from the
        coordinate form. ValueError past ``MAX_DENSE`` entries (the structured
        engines solve such boards without it).

        Examples
        --------
        >>> ml.Board.grid(2, 2, states=3).matrix()
        array([[1, 1, 1, 0],
               [1, 1, 0, 1],
               [1, 0, 1, 1],
               [0, 1, 1, 1]], dtype=uint8)
        """
        if self._dense is not None:
            return self._dense.copy()
        return self._c.matrix()  # ml_board_matrix (refused past MAX_DENSE entries)

    # ------------------------------------------------------------------ state conversion
    def coerce_state(self, state: Any, what: str = "state") -> np.ndarray:
        """A board-shaped uint8 array (values mod n, zero at holes) from any integer input."""
        self._per_tile(f"a byte {what}")
        arr = _as_int_array(state, what)
        if arr.shape != self._shape:
            raise ValueError(f"{what} has shape {arr.shape}, the board has shape {self._shape}")
        out = _reduce_mod(arr, self._n)
        if self._any_holes:
            out[self._holes] = 0
        return out

    def coerce_target(self, target: Any) -> np.ndarray:
        """A board-shaped target from an int (every tile) or a board-shaped array."""
        t = self._target_int(target)
        if t is not None:
            self._per_tile("a byte target")
            out = np.full(self._shape, t, dtype=np.uint8)
            if self._any_holes:
                out[self._holes] = 0
            return out
        return self.coerce_state(target, "target")

    def _target_int(self, target: Any) -> int | None:
        """target mod n when it is an int, None when it is an array (checked later)."""
        if isinstance(target, (bool, np.bool_)):
            raise ValueError("target must be an int or a board-shaped array, got a bool")
        if isinstance(target, (int, np.integer)):
            return int(target) % self._n
        if isinstance(target, np.ndarray) and target.ndim == 0:
            return self._target_int(target[()])  # a 0-d array: its scalar
        return None

    def _state_cells(self, state: Any, what: str = "state") -> np.ndarray:
        """The cell vector (uint8, values 0..n-1) of a board-shaped state, for reading
        only: a uint8 input already in range and without holes to drop is returned as
        a view (one pass, ``max() < n``); anything else goes through coerce_state."""
        self._per_tile(f"a byte {what}")
        arr = state if isinstance(state, np.ndarray) else None
        if (
            arr is not None
            and arr.dtype == np.uint8
            and arr.shape == self._shape
            and in_range(arr, self._n)
        ):
            return self.cell_vector(arr)
        return self.cell_vector(self.coerce_state(state, what))

    def _rhs_cells(self, state: Any, target: Any) -> np.ndarray:
        """t - s (mod n) over the cells, uint8: the right-hand side of A x = t - s.
        uint8 arithmetic only (see _sub_mod). Over GF(2) with target 0 it is s itself
        (-s = s): a read-only view, possibly of the caller's array; otherwise new."""
        t: int | np.ndarray | None = self._target_int(target)
        s = self._state_cells(state)
        if t is None:
            t = self._state_cells(target, "target")
        elif t == 0 and self._n == 2:
            v = s.view()
            v.flags.writeable = False
            return v
        return _sub_mod(t, s, self._n)

    def cell_vector(self, state: np.ndarray) -> np.ndarray:
        """Board-shaped array -> vector over the active tiles (the rows of A)."""
        flat = state.reshape(-1)
        mask = self._cell_mask()
        if mask is None:  # every tile is a cell
            return np.ascontiguousarray(flat)
        return flat[mask]  # a byte a tile, not 8

    def from_cell_vector(self, v: np.ndarray, copy: bool = True) -> np.ndarray:
        """Vector over the cells -> board-shaped uint8 (0 at holes). copy=False: may
        share memory with v (a uint8 vector when every tile is a cell)."""
        mask = self._cell_mask()
        if mask is None:
            v = np.array(v, dtype=np.uint8) if copy else np.asarray(v, dtype=np.uint8)
            return v.reshape(self._shape)
        out = np.zeros(mask.size, dtype=np.uint8)
        out[mask] = v
        return out.reshape(self._shape)

    def tap_vector(self, taps: Any) -> np.ndarray:
        """Tap counts (board-shaped for grids, (n_taps,) for graphs) -> vector mod n.
        Non-zero counts on locked tiles are an error; holes are ignored."""
        self._per_tile("a tap array")
        arr = _as_int_array(taps, "taps")
        if self._kind == "graph":
            if arr.shape != (self.n_taps,):
                raise ValueError(f"taps has shape {arr.shape}, the board has {self.n_taps} taps")
            return _reduce_mod(arr, self._n)
        if arr.shape != self._shape:
            raise ValueError(f"taps has shape {arr.shape}, the board has shape {self._shape}")
        red = _reduce_mod(arr, self._n)
        if self._any_locked:
            bad = red.astype(bool) & self._locked
            if bad.any():
                r, c = map(int, np.argwhere(bad)[0])
                raise ValueError(f"cannot tap {(r, c)}: it is locked")
        flat = red.reshape(-1)
        mask = self._tap_mask()
        return flat if mask is None else flat[mask]

    def from_tap_vector(self, x: np.ndarray, copy: bool = True) -> np.ndarray:
        """Vector over the taps -> tap counts shaped as in the API conventions.
        copy=False: the result may share memory with x (when x is uint8 and every tile
        is tappable), for callers that own x."""
        x = np.asarray(x, dtype=np.uint8)
        if self._kind == "graph":
            return x.copy() if copy else x
        mask = self._tap_mask()
        if mask is None:  # every tile tappable
            out: np.ndarray = x.reshape(self._shape)
            return out.copy() if copy else out
        out = np.zeros(mask.size, dtype=np.uint8)
        out[mask] = x
        return out.reshape(self._shape)

    def from_tap_vectors(self, X: np.ndarray) -> np.ndarray:
        """(k, n_taps) tap vectors -> (k, *shape) tap counts, without a Python loop."""
        X = np.asarray(X, dtype=np.uint8)
        if self._kind == "graph":
            return X.copy()
        mask = self._tap_mask()
        if mask is None:
            return X.reshape((X.shape[0],) + self._shape).copy()
        out = np.zeros((X.shape[0], mask.size), dtype=np.uint8)
        out[:, mask] = X
        return out.reshape((X.shape[0],) + self._shape)

    # ------------------------------------------------------------------ playing
    def apply_vector(self, x: np.ndarray) -> np.ndarray:
        """A x mod n as a vector over the cells (x a vector over the taps, integers)."""
        self._per_tile("A x (a byte a tile)")
        x = np.asarray(x)
        if not (x.dtype == np.uint8 and in_range(x, self._n)):
            x = _reduce_mod(_as_int_array(x, "taps"), self._n)
        if self._dense is not None:  # from_matrix: the matrix itself
            return (self._dense.astype(np.int64) @ x % self._n).astype(np.uint8)
        return self.cell_vector(self._product(self.from_tap_vector(x, copy=False)))

    def _product(self, taps: np.ndarray) -> np.ndarray:
        """A x board-shaped (uint8, a new array, 0 at holes) for tap counts ``taps``
        shaped as :meth:`apply` takes them, reduced mod n (ml_board_apply on a zero
        state)."""
        out = np.zeros(self._size(), dtype=np.uint8)
        return self._c.apply(out, taps, out=out)

    def press(self, state: Any, pos: Any, times: int = 1) -> np.ndarray:
        """The state after tapping ``pos`` ``times`` times (the input is not modified).

        ``times`` is any int (reduced mod n). ValueError for a bad state, a position
        off the board, on a hole or on a locked tile. O(entries of A).

        Examples
        --------
        >>> b = ml.Board.grid(3, 3, states=3)
        >>> b.press(np.zeros((3, 3), dtype=int), (0, 0), times=2)
        array([[2, 2, 0],
               [2, 0, 0],
               [0, 0, 0]], dtype=uint8)
        >>> b.press(np.zeros((3, 3), dtype=int), (3, 0))
        Traceback (most recent call last):
            ...
        ValueError: tap position (3, 0) is off the board: rows 0..2, cols 0..2
        """
        s = self.coerce_state(state)  # a new array: the C board plays on it in place
        if self._kind == "graph":
            r, c = self.tap_index(pos), 0
        else:
            r, c = self._check_pos(pos, "tap position")
            self._c.tap_index(r, c)  # a hole or a locked tile: refused before times
        times = as_int(times, "times", floats=False)
        return self._c.press(s, r, c, times % self._n, out=s)

    def apply(self, state: Any, taps: Any) -> np.ndarray:
        """state + A taps (mod n), board-shaped uint8 (a new array).

        ``taps`` are tap counts shaped as in :meth:`from_tap_vector` (board-shaped for
        grids, (n_taps,) for graph boards), any integers. ValueError for a shape
        other than the board's, or a non-zero count on a locked tile. O(entries of A)
        time; on a uniform grid a few bytes of temporaries a tile.

        Examples
        --------
        >>> b = ml.Board.grid(2, 3, states=2)
        >>> taps = np.array([[1, 0, 0], [0, 0, 1]])
        >>> b.apply(np.zeros(b.shape, dtype=int), taps)
        array([[1, 1, 1],
               [1, 1, 1]], dtype=uint8)
        """
        s = self.coerce_state(state)  # a new array: the C board plays on it in place
        return self._c.apply(s, self._tap_bytes(taps), out=s)  # refuses taps on locks

    def _tap_bytes(self, taps: Any) -> np.ndarray:
        """Tap counts (board-shaped for grids, (n_taps,) for graph boards) reduced mod
        n, uint8, shaped as given: what ml_board_apply reads (it refuses a count on a
        locked tile). ValueError for a shape other than the board's."""
        self._per_tile("a tap array")
        arr = _as_int_array(taps, "taps")
        if self._kind == "graph":
            if arr.shape != (self.n_taps,):
                raise ValueError(f"taps has shape {arr.shape}, the board has {self.n_taps} taps")
        elif arr.shape != self._shape:
            raise ValueError(f"taps has shape {arr.shape}, the board has shape {self._shape}")
        if arr.dtype == np.uint8 and arr.flags.c_contiguous and in_range(arr, self._n):
            return arr  # read only
        return _reduce_mod(arr, self._n)

    def affected(self, pos: Any) -> list:
        """Positions a tap at ``pos`` changes (with repeats where a tile advances twice),
        sorted row-major: the C board's effect of the tap (ml_board_effect). O(pattern)
        on grids, O(entries of the column) on graph boards."""
        j = self.tap_index(pos)
        cells = self._c.effect(j)
        if self._kind == "graph":
            return sorted(cells)
        return sorted(self._c.cell_position(i) for i in cells)

    def random_state(self, rng: Any = None, solvable: bool = True) -> np.ndarray:
        """A random board-shaped state; with ``solvable=True`` one that can be solved
        to all zeros (it is -A x for uniformly random tap counts x).

        rng: anything ``numpy.random.default_rng`` takes (None for fresh entropy, an
        int seed, a Generator); ValueError for anything else. O(entries of A).

        Examples
        --------
        >>> b = ml.Board.grid(3, 3, states=3)
        >>> state = b.random_state(rng=1)
        >>> state
        array([[1, 0, 2],
               [1, 1, 1],
               [1, 2, 2]], dtype=uint8)
        >>> ml.Solver(b).solvable(state)
        True
        """
        self._per_tile("a random byte state")
        try:
            gen = np.random.default_rng(rng)
        except (TypeError, ValueError) as e:
            raise ValueError(
                f"rng must be None, a non-negative int seed or a NumPy Generator: {e}"
            ) from None
        if solvable:
            x = gen.integers(0, self._n, size=self.n_taps, dtype=np.uint8)
            if self._dense is None:  # a byte a tile: the taps, A x, negated in place
                g = self._product(self.from_tap_vector(x, copy=False))
                del x
                return _sub_mod(0, g, self._n, out=g).reshape(self._shape)  # -A x
            v = self.apply_vector(x)  # new
            return self.from_cell_vector(_sub_mod(0, v, self._n, out=v), copy=False)
        v = gen.integers(0, self._n, size=self.n_cells, dtype=np.uint8)
        return self.from_cell_vector(v)
