"""Checks of to_dict answers: JSON types only, and a round trip through json."""

from __future__ import annotations

import json


def json_types_only(x) -> bool:
    """Only dict (str keys), list, int, bool, str: what json.dumps writes unaided."""
    if isinstance(x, dict):
        return all(isinstance(k, str) and json_types_only(v) for k, v in x.items())
    if isinstance(x, list):
        return all(json_types_only(v) for v in x)
    return type(x) in (int, bool, str)


def via_json(d):
    """d written as JSON text and read back."""
    return json.loads(json.dumps(d, allow_nan=False))
