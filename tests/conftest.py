"""Test-suite configuration: the default run is deterministic.

Hypothesis profiles (tests/conftest.py is imported before any test module, so every
``@settings(...)`` in the suite inherits from the profile loaded here for what it leaves
unset):

- ``deterministic`` (loaded by default; the README's ``python -m pytest``):
  ``derandomize=True`` (examples drawn from a seed fixed by each test's source), no
  example database (nothing replayed from an earlier run), ``deadline=None`` and the
  timing health check off (a shared machine's load must not decide a result). Two runs
  of the same tests draw the same examples. Each hypothesis test draws at most
  ``DEFAULT_EXAMPLES`` examples (the first ones of its derandomised sequence); a test
  whose ``@settings`` ask for more is marked ``props`` (both in tests/suite_groups.py).
- ``full`` (.ci/run's second run, ``HYPOTHESIS_PROFILE=full python -m pytest -m props``):
  as ``deterministic``, every test drawing the examples its ``@settings`` ask for.
- ``explore``: random seeds, the example database on, and every hypothesis test's
  ``max_examples`` multiplied by ``MODLIGHTS_EXPLORE_SCALE`` (default 10). Select it with
  ``HYPOTHESIS_PROFILE=explore`` or ``--hypothesis-profile=explore``; ``-m explore``
  also runs the tests marked ``explore`` (random cases beyond the deterministic ones,
  excluded by default). A failure prints the seed to reproduce it
  (``--hypothesis-seed=...``).

Other randomness: the fixture ``_seeded_entropy`` (autouse) replaces the library's own
sources of fresh randomness (OS entropy for an unseeded ``generate`` / CLI / web
request, ``np.random.default_rng()`` without a seed) by generators seeded from the
test's node id, so a test that leaves a seed out still sees the same values on every
run, and fixes the clock modlights reads for "today" (``daily()``, ``modlights daily``
and ``play --daily`` without a date) at FIXED_NOW. The browser tests' page reads the
browser's clock, not this one.

Ctrl-C: a suite started as a background job of a non-interactive shell (``cmd &``)
inherits SIGINT ignored, and Python then installs no KeyboardInterrupt handler, so the
tests of Ctrl-C (tests/native/test_interrupt.py, the server's and the searches') would
see no signal, in this process or in the children they start. Python's own handler is
installed here when SIGINT is ignored, as an interactive interpreter has it (children
then start with SIGINT at its default).
"""

from __future__ import annotations

import datetime
import os
import random
import signal
import types
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, settings

from suite_groups import COLLECTED, cap_examples

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # a background job's inheritance
    signal.signal(signal.SIGINT, signal.default_int_handler)

DEFAULT_PROFILE = "deterministic"
FULL_PROFILE = "full"
EXPLORE_PROFILE = "explore"

settings.register_profile(
    DEFAULT_PROFILE,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(FULL_PROFILE, settings.get_profile(DEFAULT_PROFILE))
settings.register_profile(
    EXPLORE_PROFILE,
    derandomize=False,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
    phases=list(Phase),
)

_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", DEFAULT_PROFILE)
settings.load_profile(_PROFILE)


def active_profile(config: pytest.Config | None = None) -> str:
    """The hypothesis profile of this run: ``--hypothesis-profile`` (hypothesis's pytest
    plugin) over ``HYPOTHESIS_PROFILE`` over ``deterministic``."""
    if config is not None:
        opt = config.getoption("hypothesis_profile", default=None)
        if opt:
            return opt
    return _PROFILE


def explore_scale() -> int:
    """Multiplier of ``max_examples`` under the explore profile (>= 1)."""
    raw = os.environ.get("MODLIGHTS_EXPLORE_SCALE", "10")
    try:
        scale = int(raw)
    except ValueError:
        raise pytest.UsageError(
            f"MODLIGHTS_EXPLORE_SCALE must be an integer >= 1, got {raw!r}"
        ) from None
    if scale < 1:
        raise pytest.UsageError(f"MODLIGHTS_EXPLORE_SCALE must be >= 1, got {scale}")
    return scale


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Before ``-m`` deselects anything: every hypothesis test that asks for more than
    ``DEFAULT_EXAMPLES`` examples is marked ``props`` and, under the default profile,
    draws ``DEFAULT_EXAMPLES`` (suite_groups.cap_examples; ``full``: what it asks for);
    under the explore profile every hypothesis test draws ``explore_scale()`` times as
    many examples as it asks for, from random seeds (its own ``@settings`` fix
    ``max_examples`` and would otherwise win over the profile's). Records every test's
    markers in suite_groups.COLLECTED."""
    profile = active_profile(config)
    scale = explore_scale() if profile == EXPLORE_PROFILE else 1
    done: dict[int, bool] = {}  # id(test function) -> marked props
    for item in items:
        fn = getattr(item, "obj", None)
        fn = getattr(fn, "__func__", fn)
        if getattr(fn, "is_hypothesis_test", False):
            if id(fn) not in done:
                done[id(fn)] = cap_examples(fn, full=profile != DEFAULT_PROFILE)
                if profile == EXPLORE_PROFILE:
                    fn._hypothesis_internal_use_settings = settings(
                        parent=fn._hypothesis_internal_use_settings,
                        max_examples=fn._modlights_examples_asked * scale,
                        derandomize=False,
                        database=settings.get_profile(EXPLORE_PROFILE).database,
                    )
            if done[id(fn)]:
                item.add_marker(pytest.mark.props)
        COLLECTED[item.nodeid] = frozenset(m.name for m in item.iter_markers())


def node_seed(nodeid: str) -> int:
    """A 32-bit seed fixed by a test's node id (the same on every run and machine)."""
    return zlib.crc32(nodeid.encode("utf-8"))


class _SeededSecrets:
    """Stands in for the ``secrets`` module inside modlights during a test: the same
    functions, drawing from a seeded ``random.Random``."""

    def __init__(self, seed: int):
        self._rnd = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self._rnd.getrandbits(k)

    def randbelow(self, n: int) -> int:
        return self._rnd.randrange(n)

    def choice(self, seq):
        return self._rnd.choice(seq)

    def token_bytes(self, nbytes: int | None = None) -> bytes:
        return self._rnd.randbytes(32 if nbytes is None else nbytes)

    def token_hex(self, nbytes: int | None = None) -> str:
        return self.token_bytes(nbytes).hex()


#: modules of modlights that draw fresh OS randomness through ``secrets``
_SECRETS_USERS = ("modlights.play.prng", "modlights.cli.common", "modlights.cli.solve")

#: the instant "now" is inside modlights during a test (today's daily puzzles, the CLI's
#: default date)
FIXED_NOW = datetime.datetime(2026, 11, 22, 12, 0, tzinfo=datetime.timezone.utc)
#: (module, attribute) pairs of modlights that read the clock through the datetime module
_CLOCK_USERS = (
    ("modlights.play.puzzles", "_dt"),
    ("modlights.cli.daily", "datetime"),
    ("modlights.cli.play", "datetime"),
)


class _FixedDatetimeMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, datetime.datetime)

    def __getattr__(cls, name):
        return getattr(datetime.datetime, name)


class _FixedDatetime(metaclass=_FixedDatetimeMeta):
    """datetime.datetime with ``now()`` fixed at FIXED_NOW (constructors, isinstance
    and every other attribute are the real class's)."""

    def __new__(cls, *args, **kwargs):
        return datetime.datetime(*args, **kwargs)

    @staticmethod
    def now(tz=None):
        return (
            FIXED_NOW.astimezone(tz)
            if tz is not None
            else FIXED_NOW.astimezone().replace(tzinfo=None)
        )

    @staticmethod
    def utcnow():
        return FIXED_NOW.replace(tzinfo=None)


def _fixed_clock_module() -> types.ModuleType:
    mod = types.ModuleType("datetime")
    mod.__dict__.update({k: v for k, v in vars(datetime).items() if not k.startswith("__")})
    mod.datetime = _FixedDatetime
    return mod


@pytest.fixture(autouse=True)
def _seeded_entropy(request, monkeypatch):
    """Fresh randomness, seeded per test: ``secrets`` inside modlights and
    ``np.random.default_rng()`` / ``default_rng(None)`` (seeded generators untouched);
    the clock modlights reads for "today" fixed at FIXED_NOW."""
    import importlib

    clock = _fixed_clock_module()
    for name, attr in _CLOCK_USERS:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(mod, attr):
            monkeypatch.setattr(mod, attr, clock)
    seed = node_seed(request.node.nodeid)
    shim = _SeededSecrets(seed)
    for name in _SECRETS_USERS:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(mod, "secrets"):
            monkeypatch.setattr(mod, "secrets", shim)
    real = np.random.default_rng
    counter = iter(range(1 << 62))

    def default_rng(seed_arg=None):
        if seed_arg is None:
            return real([seed, next(counter)])
        return real(seed_arg)

    monkeypatch.setattr(np.random, "default_rng", default_rng)
    yield


@pytest.fixture(scope="module")
def dask_cluster():
    """A dask.distributed LocalCluster of two single-threaded worker processes (no
    dashboard), one for the tests of a module: 10-20 s of wall time to start, so the
    tests that take it are in the heavy group. Skips the test when distributed is not
    installed."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def dask_executor(dask_cluster):
    """A concurrent.futures executor on ``dask_cluster`` (``Client.get_executor()``),
    one for the tests of a module."""
    distributed = pytest.importorskip("distributed")
    with distributed.Client(dask_cluster) as client:
        yield client.get_executor()


def pytest_terminal_summary(terminalreporter):
    """The browser tests' skips are said loudly: one line a reason at the end of the run
    with how many tests it skipped and the command that fixes it (browser_pages.py's
    BROWSER_SKIP reasons), so ``python -m pytest`` does not pass quietly without them.
    Then, when ``-m`` left out tests of the groups of tests/suite_groups.py, one line
    with how many of each and the command that runs them."""
    from browser_pages import BROWSER_SKIP
    from suite_groups import GROUPS

    left: dict[str, int] = {}
    deselected = terminalreporter.stats.get("deselected", [])
    if terminalreporter.config.getoption("keyword", ""):
        deselected = []  # -k's deselections are not the groups'
    for item in deselected:
        marks = COLLECTED.get(getattr(item, "nodeid", ""), frozenset())
        if "slow" in marks or "explore" in marks:
            continue
        for g in GROUPS:
            if g in marks and g != "props":  # props tests run, with fewer examples
                left[g] = left.get(g, 0) + 1
                break
    if left:
        counts = ", ".join(f"{g} {k}" for g, k in left.items())
        terminalreporter.write_line(
            f"not run here: {sum(left.values())} tests of the groups ({counts}); CI runs "
            f"them (.ci/run); every one: "
            f'HYPOTHESIS_PROFILE=full python -m pytest -m "not slow and not explore"'
        )

    counts: dict[str, int] = {}
    for rep in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(rep, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        reason = reason.removeprefix("Skipped: ")
        if reason.startswith(BROWSER_SKIP):
            counts[reason] = counts.get(reason, 0) + 1
    for reason, k in counts.items():
        said = reason.replace(BROWSER_SKIP, "browser tests skipped" if k > 1 else BROWSER_SKIP, 1)
        terminalreporter.write_sep("!", f"{k} {said}", yellow=True, bold=True)
