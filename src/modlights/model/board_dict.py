"""The dict form of a Board as JSON text for the C library's board reader
(``Board.from_dict``: ``ml_board_from_json``, csrc/api/board_json.c, which checks every
field with Python's rules and messages; ``Board.to_dict`` parses ``ml_board_to_json``).

``json_text`` writes a dict as ``json.dumps`` does (compact), after reading what JSON
has no word for but Python code passes naturally: tuples as lists, NumPy integers,
floats and bools as Python's, any Mapping as a dict. Anything else (an array, a set,
bytes, a key that is not a string) is not JSON data: a ValueError naming where it is,
before the reader sees anything. NaN and infinities are written as json writes them
(``NaN``, ``Infinity``), tokens the reader reads as ``json.loads`` does.

This module imports no other module of the board (tests/model/test_imports.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["json_text", "GRID_FIELDS", "GRAPH_FIELDS"]

GRID_FIELDS = ("rows", "cols", "states", "pattern", "locked", "holes", "wrap")
GRAPH_FIELDS = ("effects", "states", "n_cells")


def _plain(v: Any, where: str) -> Any:
    """v as JSON data (dict, list, int, float, str, bool, None); ValueError naming
    ``where`` for anything else. O(size of v)."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return int(v)  # an int subclass (not bool) prints as its value
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)  # NaN and infinities too: json's tokens, which the reader reads
    if isinstance(v, (list, tuple)):
        if all(type(x) is int for x in v):  # the common case: no per-entry calls
            return v
        return [_plain(x, f"{where}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, Mapping):
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise ValueError(f"{where} must be JSON data; got the key {k!r}, not a str")
            out[k] = _plain(x, k if where == "board" else f"{where}[{k!r}]")
        return out
    raise ValueError(
        f"{where} must be JSON data (dicts, lists, ints, floats, strings, bools, None); "
        f"got {type(v).__name__}"
    )


def _scalar(v: Any) -> Any:
    """json.dumps's hook for NumPy scalars; TypeError for anything else."""
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    raise TypeError(type(v).__name__)


def json_text(d: Any) -> str:
    """``d`` (a board's dict, or anything: the reader says what is wrong with it) as
    compact JSON text. ValueError for what is not JSON data (see the module). One
    json.dumps pass for a dict of JSON data (tuples and NumPy scalars included)."""
    if type(d) is dict and all(type(k) is str for k in d):
        try:
            return json.dumps(d, separators=(",", ":"), allow_nan=True, default=_scalar)
        except (TypeError, ValueError):
            pass  # found below, with where it is
    return json.dumps(_plain(d, "board"), separators=(",", ":"), allow_nan=True)
