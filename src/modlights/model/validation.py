"""The one validation path for integer inputs: scalars, pairs, arrays, budgets, files.

Every public entry point that takes an integer (states, sides, counts, positions,
pattern offsets, tile values, budgets, numbers on the command line) goes through
these helpers, so the same input gets the same answer everywhere:

- an int or NumPy integer is taken as it is (Python ints of any size, compared
  exactly);
- a float is accepted only when it is finite and integral, and is converted exactly
  (``1e19`` is the integer 10**19, never a wrapped int64); NaN, infinities and
  fractions are a ValueError, never an OverflowError;
- bools, strings and anything else are a ValueError naming what was expected;
- iterators and generators are read once, and at most a stated number of items
  (an endless generator is a ValueError, not a hang).

Nothing large is allocated before the checks: the caller passes the limits.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from modlights.native._core import BOARD_LIMITS  # modlights.h's ML_MAX_*

__all__ = [
    "as_int",
    "as_int_pair",
    "as_int_array",
    "take_items",
    "check_budget",
    "read_limited",
    "MAX_BUDGET",
    "MAX_TILES",
    "MAX_SIDE",
    "MAX_DENSE",
    "check_states",
    "check_dim",
    "in_range",
    "is_int",
    "field_error",
    "check_mapping",
]

#: Budgets (coset elements) above this mean the same as this: no search examines
#: 2^63 elements (the C search counts them in 64 bits).
MAX_BUDGET = (1 << 63) - 1

#: Float arrays whose largest magnitude is below this convert to int64 exactly.
_INT64_SAFE = float(1 << 62)


def _is_bool(v: Any) -> bool:
    """Whether ``v`` is a Python or NumPy bool (never taken as an int here)."""
    return isinstance(v, (bool, np.bool_))


def as_int(
    v: Any,
    what: str,
    lo: int | None = None,
    hi: int | None = None,
    expected: str = "an int",
    floats: bool = True,
) -> int:
    """``v`` as an exact Python int, checked against ``lo <= v <= hi``.

    Parameters
    ----------
    v : Any
        An int, a NumPy integer, or a finite integral float (converted exactly).
    what : str
        The name used in error messages (``"rows"``, ``"tap position"``...).
    lo, hi : int, optional
        Inclusive bounds; None leaves that side open.
    expected : str
        What the message says is allowed (default ``"an int"``).
    floats : bool
        Whether integral floats are accepted (sizes, counts and ``states`` take ints
        only; positions, offsets and tile values take ``2.0`` as 2).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        For bools, non-numbers, NaN, infinities, fractions and values out of range.
    """
    if _is_bool(v):
        raise ValueError(f"{what} must be {expected}, got a bool ({v!r})")
    if isinstance(v, (int, np.integer)):
        iv = int(v)
    elif isinstance(v, (float, np.floating)) and floats:
        if not math.isfinite(v) or v != math.floor(v):
            raise ValueError(f"{what} must be {expected}, got {v!r}")
        iv = int(v)
    else:
        raise ValueError(f"{what} must be {expected}, got {type(v).__name__} {_short(v)}")
    if (lo is not None and iv < lo) or (hi is not None and iv > hi):
        if lo is not None and hi is not None:
            rng = f"from {lo} to {hi}"
        elif lo is not None:
            rng = f">= {lo}"
        else:
            rng = f"<= {hi}"
        raise ValueError(f"{what} must be {rng}, got {_short(iv)}")
    return iv


def as_int_pair(
    pair: Any, what: str, expected: str = "a (row, col) pair of ints"
) -> tuple[int, int]:
    """A pair of exact ints from any two-item sequence or iterable (read once)."""
    if isinstance(pair, (str, bytes)) or _is_bool(pair):
        raise ValueError(f"{what} must be {expected}, got {_short(pair)}")
    try:
        items = take_items(pair, 2, what)
    except ValueError:
        raise ValueError(f"{what} must be {expected}, got {_short(pair)}") from None
    if len(items) != 2:
        raise ValueError(f"{what} must be {expected}, got {_short(pair)}")
    try:
        return as_int(items[0], what, expected=expected), as_int(items[1], what, expected=expected)
    except ValueError:
        raise ValueError(f"{what} must be {expected}, got {_short(pair)}") from None


def take_items(items: Any, limit: int, what: str) -> list:
    """The items of a sequence or iterable as a list, reading an iterator only once
    and at most ``limit + 1`` items; ValueError beyond ``limit`` or for a non-iterable."""
    if isinstance(items, (list, tuple)):
        seq = items
    else:
        try:
            it = iter(items)
        except TypeError:
            raise ValueError(f"{what} must be a sequence, got {type(items).__name__}") from None
        seq = list(itertools.islice(it, limit + 1))
    if len(seq) > limit:
        raise ValueError(f"{what} has more than {limit} items")
    return list(seq)


def as_int_array(a: Any, what: str) -> np.ndarray:
    """An integer ndarray from any integer-like input; ValueError otherwise.

    Bools become 0/1; integral finite floats are converted exactly (int64 while every
    magnitude is below 2^62, else an object array of Python ints); Python ints beyond
    int64 stay exact (object arrays). Iterators are read once.

    Parameters
    ----------
    a : array_like
        Integers in any form NumPy reads (nested lists, arrays, scalars).
    what : str
        The name used in error messages.

    Returns
    -------
    numpy.ndarray
        Integer dtype, or object dtype holding Python ints.
    """
    if (
        not isinstance(a, (np.ndarray, list, tuple))
        and not np.isscalar(a)
        and hasattr(a, "__iter__")
        and not hasattr(a, "__array__")
        and not hasattr(a, "__len__")
    ):
        raise ValueError(
            f"{what} must be an array of integers (a list or ndarray), "
            f"got an iterator ({type(a).__name__}); pass list(...) of it"
        )
    try:
        arr = np.asarray(a)
    except (ValueError, TypeError, OverflowError) as e:
        raise ValueError(f"{what} must be a rectangular array of integers: {e}") from None
    if arr.dtype == bool:
        return arr.astype(np.uint8)
    if arr.dtype.kind in "iu":
        return arr
    if arr.dtype.kind == "f":
        if arr.size == 0:
            return arr.astype(np.int64)
        with np.errstate(invalid="ignore", over="ignore"):
            finite = bool(np.isfinite(arr).all())
            if not finite or not bool((arr == np.floor(arr)).all()):
                raise ValueError(
                    f"{what} must hold integers, got non-integral or non-finite floats"
                )
            big = float(np.abs(arr).max()) >= _INT64_SAFE
        if not big:
            return arr.astype(np.int64)
        return np.array([int(x) for x in arr.ravel().tolist()], dtype=object).reshape(arr.shape)
    if arr.dtype.kind == "O":
        out = np.empty(arr.shape, dtype=object)
        flat = out.reshape(-1)
        for i, x in enumerate(arr.ravel().tolist()):
            flat[i] = as_int(x, f"{what} entry", expected="an integer")
        return out
    raise ValueError(f"{what} must be an array of integers, got dtype {arr.dtype}")


def check_budget(budget: Any, default: int) -> tuple[int | None, float | None]:
    """(steps, seconds) of a search budget.

    Parameters
    ----------
    budget : None, int or float
        None: ``default`` coset elements. An int (any size; above ``MAX_BUDGET`` it
        means ``MAX_BUDGET``, more than any search can examine): coset elements. A
        float: seconds (``inf`` means no time limit).
    default : int
        Elements examined when ``budget`` is None.

    Raises
    ------
    ValueError
        For negative budgets, NaN, bools and other types.
    """
    if budget is None:
        return default, None
    if _is_bool(budget):
        raise ValueError("budget must be an int (coset elements) or a float (seconds), got a bool")
    if isinstance(budget, (int, np.integer)):
        steps = as_int(budget, "budget", lo=0)
        return min(steps, MAX_BUDGET), None
    if isinstance(budget, (float, np.floating)):
        if not budget >= 0:
            raise ValueError(f"budget seconds must be >= 0, got {budget}")
        return None, float(budget)
    raise ValueError(
        f"budget must be None, an int (coset elements) or a float (seconds), "
        f"got {type(budget).__name__}"
    )


def read_limited(path: Any, limit: int, what: str) -> bytes:
    """The bytes of a file (or of standard input for ``"-"``), reading at most
    ``limit + 1`` bytes: a larger file (or a device such as /dev/zero) is a
    ValueError, never an unbounded read.
    """
    import sys

    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data = (
            stream.read(limit + 1)
            if stream is not None
            else sys.stdin.read(limit + 1).encode("utf-8", "replace")
        )
    else:
        try:
            with open(os.fspath(path), "rb") as f:
                data = f.read(limit + 1)
        except (OSError, TypeError, ValueError) as e:
            msg = getattr(e, "strerror", None) or e
            raise ValueError(f"cannot read {what} {path}: {msg}") from None
    if len(data) > limit:
        raise ValueError(f"{what} {path} is too large: more than {limit} bytes")
    return data


def _short(v: Any) -> str:
    """repr of v cut to 60 characters (messages stay one line and short)."""
    try:
        text = repr(v)
    except Exception:  # noqa: BLE001 - a broken __repr__
        text = f"<{type(v).__name__}>"
    text = text.replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


# ----------------------------------------------------------------------------- boards
# (the C library's limits, modlights.h ML_MAX_SIDE / _TILES / _DENSE)
#: Largest number of tiles (rows * cols, or cells of a graph board) accepted, except
#: for uniform grids (one pattern, no locked tiles or holes): those are described by
#: their shape and pattern alone and may be as large as MAX_SIDE x MAX_SIDE; only the
#: operations that need memory per tile (a byte state, masks, index arrays, the
#: dense matrix) refuse them, saying how much they would need.
MAX_TILES: int = BOARD_LIMITS["MAX_TILES"]
#: Largest side of a grid board.
MAX_SIDE: int = BOARD_LIMITS["MAX_SIDE"]
#: Largest dense matrix (n_cells * n_taps bytes) that ``matrix()`` will build.
MAX_DENSE: int = BOARD_LIMITS["MAX_DENSE"]


def check_states(states: Any) -> int:
    """The number of states checked: an int from 2 to 255, else ValueError."""
    return as_int(states, "states", 2, 255, expected="an int from 2 to 255", floats=False)


def check_dim(name: str, v: Any) -> int:
    """A board side checked: an int from 1 to MAX_SIDE, else ValueError naming it."""
    return as_int(v, name, 1, MAX_SIDE, expected="a positive int", floats=False)


def in_range(arr: np.ndarray, n: int) -> bool:
    """Whether every entry of an integer array is in 0..n-1 (one or two passes)."""
    if arr.size == 0:
        return True
    if arr.dtype.kind == "i" and int(arr.min()) < 0:
        return False
    return int(arr.max()) < n


# ----------------------------------------------------------------------------- JSON dicts
def is_int(v: Any) -> bool:
    """Whether v is an int or NumPy integer (bools excluded)."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def field_error(what: str, e: ValueError) -> ValueError:
    """e's message prefixed by the field it is about (unless it names it already)."""
    msg = str(e)
    return ValueError(msg if msg.startswith(what) else f"{what}: {msg}")


def check_mapping(d: Any, what: str, allowed: tuple, required: tuple) -> None:
    """d is a mapping with only the allowed keys and every required one, else ValueError."""
    if not isinstance(d, Mapping):
        raise ValueError(f"{what} must be a dict (JSON object), got {type(d).__name__}")
    unknown = [k for k in d if k not in allowed]
    if unknown:
        raise ValueError(
            f"{what} has unknown field {unknown[0]!r}; allowed fields: " + ", ".join(allowed)
        )
    missing = [k for k in required if k not in d]
    if missing:
        other = "; a graph board has effects and states" if what == "board" else ""
        raise ValueError(
            f"{what} needs the field {missing[0]!r} (required: " + ", ".join(required) + other + ")"
        )
