"""The workload registry: every benchmark of the project is one registered function.

A workload is a function decorated with :func:`workload`. The runner calls it once with a
:class:`Context` (parameters, seed, scratch directory); it prepares its inputs (outside
any timing) and returns the contenders to time, by name:

* ``"modlights"``: the library itself (a callable or a :class:`Subject`);
* one entry per declared peer (``peers=(...)``): a callable, a :class:`Subject`, or a
  :class:`Missing` saying why the peer cannot run here (not installed, not applicable).
  A declared peer that is absent from the answer is reported as missing, never dropped.

The runner runs every contender ``warmup`` times untimed, then times it ``repeats`` times
in interleaved rounds (round r runs
each contender once, in rotated order), checks the first answer of each with its
``check`` and reports medians and the ratio of each peer to modlights. A workload that
measures something other than time (counts, constants) records it with
:meth:`Context.figure` and may return no contenders at all.

Workloads live in ``bench/workloads/<subject>.py``; every module there is imported by
:func:`load_all`, so adding a file is all it takes to register a workload.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "Workload",
    "Subject",
    "Missing",
    "Timed",
    "Context",
    "workload",
    "get",
    "names",
    "groups",
    "select",
    "load_all",
    "REGISTRY",
    "MAIN",
]

MAIN = "modlights"
REGISTRY: dict[str, Workload] = {}


@dataclass
class Subject:
    """One contender of a workload.

    run: the timed work, called with no arguments; its return value goes to ``check``.
    check: called once with the first answer, outside the timing; raises (AssertionError
        or ValueError) when the answer is wrong. None: no check.
    label: a note printed next to the contender (e.g. which engine answered).
    """

    run: Callable[[], Any]
    check: Callable[[Any], None] | None = None
    label: str = ""


@dataclass
class Timed:
    """What a contender's ``run`` returns when it measured itself (e.g. a C harness in a
    subprocess that times only the library call): the runner takes ``seconds`` as the
    time and passes ``answer`` to ``check``."""

    seconds: float
    answer: Any = None


@dataclass
class Missing:
    """A contender that cannot run here; ``reason`` says why (shown in every report)."""

    reason: str


@dataclass
class Context:
    """What a workload receives.

    params: the workload's parameters (its defaults overridden by ``--param key=value``).
    seed: the seed for every random input (deterministic by default).
    workdir: a scratch directory that lives for the run.
    figures: named figures the workload records (see :meth:`figure`).
    rows: rows of a table the workload records (see :meth:`row`).
    """

    params: dict[str, Any]
    seed: int = 0
    workdir: Path | None = None
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    cleanups: list[Callable[[], Any]] = field(default_factory=list)

    def on_exit(self, fn: Callable[[], Any]) -> None:
        """Call ``fn`` when the run ends (also on an error or Ctrl-C): pools, servers."""
        self.cleanups.append(fn)

    def figure(self, name: str, value: float, unit: str = "", note: str = "") -> None:
        """Record a figure that is not a contender's time (a constant, a count)."""
        self.figures[name] = {"value": value, "unit": unit, "note": note}

    def row(self, **fields: Any) -> None:
        """Record one row of a table (JSON-safe values; every row the same keys, in
        order): the results file keeps the rows and its Markdown shows them as a table
        after the figures."""
        self.rows.append(dict(fields))

    def __getitem__(self, key: str) -> Any:
        return self.params[key]


@dataclass
class Workload:
    """A registered workload (see :func:`workload`)."""

    name: str
    func: Callable[[Context], Mapping[str, Any] | None]
    help: str
    peers: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    repeats: int = 5
    warmup: int = 1
    heavy: bool = False
    module: str = ""

    def contenders(self) -> tuple[str, ...]:
        return (MAIN,) + tuple(self.peers)


def workload(
    name: str,
    help: str,
    peers: Iterable[str] = (),
    groups: Iterable[str] = (),
    params: Mapping[str, Any] | None = None,
    repeats: int = 5,
    warmup: int = 1,
    heavy: bool = False,
) -> Callable[[Callable], Callable]:
    """Register the decorated function as the workload ``name``.

    name: unique, lower case, words joined by '-' (ValueError on a duplicate).
    help: one line shown by ``python -m bench --list``.
    peers: the other libraries timed on the same work in the same run.
    groups: named groups the workload belongs to (``python -m bench GROUP`` runs them).
    params: default parameters (overridable with ``--param key=value``; the value is
        converted to the default's type).
    repeats: default number of timed rounds.
    warmup: untimed rounds before them (the first answer of each contender is checked
        in the first round, warm-up or not); 0 for work too long to run twice.
    heavy: True for workloads too long for a quick run (listed with a mark).
    """

    def deco(func: Callable) -> Callable:
        if name in REGISTRY and REGISTRY[name].func is not func:
            raise ValueError(
                f"workload {name!r} is registered twice "
                f"({REGISTRY[name].module} and {func.__module__})"
            )
        if not name or name != name.lower() or " " in name:
            raise ValueError(f"workload names are lower case without spaces, got {name!r}")
        if MAIN in peers:
            raise ValueError(f"{MAIN!r} is the library itself, not a peer")
        REGISTRY[name] = Workload(
            name=name,
            func=func,
            help=help,
            peers=tuple(peers),
            groups=tuple(groups),
            params=dict(params or {}),
            repeats=repeats,
            warmup=warmup,
            heavy=heavy,
            module=func.__module__,
        )
        return func

    return deco


def load_all() -> dict[str, Workload]:
    """Import every module of bench/workloads (registering their workloads)."""
    from . import workloads as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{info.name}")
    return REGISTRY


def names() -> list[str]:
    """Every registered workload name, sorted."""
    return sorted(REGISTRY)


def groups() -> dict[str, list[str]]:
    """Group name -> the names of its workloads (in registration order)."""
    out: dict[str, list[str]] = {}
    for w in REGISTRY.values():
        for g in w.groups:
            out.setdefault(g, []).append(w.name)
    return out


def get(name: str) -> Workload:
    """The workload ``name``; ValueError listing the known names otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown workload {name!r}; known: {', '.join(names())} "
            f"(groups: {', '.join(sorted(groups()))})"
        ) from None


def select(items: Iterable[str]) -> list[Workload]:
    """Workloads for names and group names, in order, without repeats."""
    gs = groups()
    out: list[Workload] = []
    for item in items:
        for n in gs.get(item, [item]):
            w = get(n)
            if w not in out:
                out.append(w)
    return out


def parse_params(w: Workload, pairs: Iterable[str]) -> dict[str, Any]:
    """The workload's parameters with ``key=value`` overrides, typed like the defaults."""
    params = dict(w.params)
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep:
            raise ValueError(f"--param takes key=value, got {pair!r}")
        if key not in params:
            raise ValueError(
                f"workload {w.name!r} has no parameter {key!r}; it has: "
                f"{', '.join(sorted(params)) or 'none'}"
            )
        default = params[key]
        try:
            if isinstance(default, bool):
                if text.lower() not in ("1", "0", "true", "false", "yes", "no"):
                    raise ValueError
                params[key] = text.lower() in ("1", "true", "yes")
            elif isinstance(default, (int, float, str)):
                params[key] = type(default)(text)
            else:
                params[key] = text
        except ValueError:
            raise ValueError(
                f"--param {key} takes a {type(default).__name__}, got {text!r}"
            ) from None
    return params
