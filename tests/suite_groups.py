"""The groups of tests outside the default run, and the helper that keeps a sample of a
large parametrization in it.

The README's ``python -m pytest`` runs the default suite: every test that carries none
of the markers below (pyproject.toml declares them; its ``addopts`` deselects them with
``slow`` and ``explore``). Each subject keeps fast tests there: each engine against the
oracle on a few boards, each front end, each CLI command, the web service, one node and
one browser test. CI (.ci/run) runs the groups after the README's command, so it runs
every test that is not ``slow`` or ``explore``:

- ``matrix``: engines against an oracle over many or large boards (the engine matrix of
  tests/engines/test_engine_matrix.py, each engine's board sweeps); the default run keeps
  a sample of each sweep (:func:`sample`);
- ``corpus``: the fuzz corpora replayed (tests/test_fuzz_corpus.py case by case; the C API
  target's corpus, tests/test_fuzz_c_api.py);
- ``props``: set by tests/conftest.py, not by hand: the hypothesis tests that ask for
  more examples than the default run draws (``DEFAULT_EXAMPLES``, derandomised); the
  ``full`` profile draws every example they ask for;
- ``node``: tests that run the JavaScript package under node (one stays in the default
  run: tests/js/test_wasm_solver.py::test_node_matches_python);
- ``browser``: tests that drive Chromium (one stays in the default run:
  tests/web/test_browser.py::test_daily_played_to_the_end_earns_three_stars);
- ``heavy``: single tests of several CPU seconds or of real-time waits (the C tests of
  the largest modules, signal and deadline tests, figure redraws, big boards), each with
  a comment saying what it costs; its subject keeps faster tests in the default run.

Run a group with ``python -m pytest -m matrix`` (a ``-m`` replaces the default one);
everything CI runs with ``HYPOTHESIS_PROFILE=full python -m pytest -m "not slow and not
explore"``. A test without a group marker is in the default run; tests/test_markers.py
checks that the default run and .ci/run's groups together hold every test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

#: the markers of the groups above (pyproject.toml declares each; .ci/run runs each)
GROUPS = ("matrix", "corpus", "props", "node", "browser", "heavy")
#: examples a hypothesis test draws at most in the default run (the ``full`` profile: as
#: many as its ``@settings`` ask for; ``-m props`` selects the tests that ask for more)
DEFAULT_EXAMPLES = 10
#: {node id: names of its markers} of every test collected, before ``-m`` deselects any
#: (tests/conftest.py records it; tests/test_markers.py and the run's summary read it)
COLLECTED: dict[str, frozenset[str]] = {}


def cap_examples(fn: Any, full: bool) -> bool:
    """For a hypothesis test ``fn``: whether it asks for more than DEFAULT_EXAMPLES
    examples (a ``props`` test); unless ``full``, its settings then draw
    DEFAULT_EXAMPLES. What it asked for is kept as ``fn._modlights_examples_asked``, so a
    second call changes nothing."""
    from hypothesis import settings

    inner = fn._hypothesis_internal_use_settings
    asked = getattr(fn, "_modlights_examples_asked", inner.max_examples)
    fn._modlights_examples_asked = asked
    if asked > DEFAULT_EXAMPLES and not full:
        fn._hypothesis_internal_use_settings = settings(inner, max_examples=DEFAULT_EXAMPLES)
    return asked > DEFAULT_EXAMPLES


def spread(n: int, keep: int) -> list[int]:
    """``keep`` indices of range(n) spread evenly, the first and the last among them
    (all of them when keep >= n)."""
    if keep >= n:
        return list(range(n))
    if keep <= 1:
        return [0][:keep]
    return sorted({round(i * (n - 1) / (keep - 1)) for i in range(keep)})


def sample(
    values: Sequence[Any],
    keep: int,
    *,
    mark: pytest.MarkDecorator = pytest.mark.matrix,
    ids: Sequence[str] | Callable[[Any], str] | None = None,
    unpack: bool = False,
) -> list[Any]:
    """``values`` for ``pytest.mark.parametrize`` with ``keep`` of them (spread evenly:
    the first, the last and between) in the default run and the others marked ``mark``
    (``matrix`` unless given). ``ids``: a list or a function, as parametrize takes them
    (None: pytest's own ids); ``unpack``: each value is a tuple of the arguments of a
    parametrization of several names."""
    kept = set(spread(len(values), keep))
    out = []
    for i, v in enumerate(values):
        if callable(ids):
            ident = ids(v)
        elif ids is not None:
            ident = ids[i]
        else:
            ident = None
        args = tuple(v) if unpack else (v,)
        marks = () if i in kept else (mark,)
        out.append(pytest.param(*args, marks=marks, id=ident))
    return out
