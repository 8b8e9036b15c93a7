"""The puzzle layer's C (csrc/play: SplitMix64 and its seeds, tap bands, difficulties,
stars, ISO dates) against the Python it replaced, kept here as a small oracle (the code
of play/prng.py and play/puzzles.py before the switch, verbatim where it computes):
the same numbers and the same messages over many seeds, sizes and strings."""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import pathlib
import pickle
import random
import re
import subprocess
import sys
import unicodedata

import numpy as np
import pytest

import modlights as ml
from modlights.native import _core
from modlights.play import puzzles as P
from modlights.play.prng import SplitMix64, seed_from

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYTEXT = ROOT / "csrc" / "play" / "pytext_data.h"


# ----------------------------------------------------------------------------- the oracle
class Oracle:
    """play/prng.py's SplitMix64 and seed_from, in plain Python ints."""

    MASK = (1 << 64) - 1

    @staticmethod
    def seed_from(value):
        if isinstance(value, bool):
            raise ValueError(f"seed must be an int, str, bytes or None, got {value!r}")
        if isinstance(value, int):
            return value & Oracle.MASK
        if hasattr(value, "__index__") and not isinstance(value, (str, bytes, bytearray)):
            return int(value.__index__()) & Oracle.MASK
        if isinstance(value, str):
            value = value.encode("utf-8")
        if isinstance(value, (bytes, bytearray)):
            return int.from_bytes(hashlib.sha256(bytes(value)).digest()[:8], "big")
        raise ValueError(f"seed must be an int, str, bytes or None, got {type(value).__name__}")

    def __init__(self, seed):
        self.state = Oracle.seed_from(seed)

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & Oracle.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & Oracle.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & Oracle.MASK
        return z ^ (z >> 31)

    def randbelow(self, n):
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        if n == 1:
            return 0
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next_u64()
            if v < limit:
                return v % n

    def randint(self, lo, hi):
        return lo + self.randbelow(hi - lo + 1)

    def random(self):
        return (self.next_u64() >> 11) / float(1 << 53)

    def shuffle(self, seq):
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def sample(self, seq, k):
        items = list(seq)
        if not 0 <= k <= len(items):
            raise ValueError(f"cannot sample {k} of {len(items)} items")
        for i in range(k):
            j = i + self.randbelow(len(items) - i)
            items[i], items[j] = items[j], items[i]
        return items[:k]


DIFFS = ("easy", "medium", "hard", "expert")


def o_tap_bands(n_taps, states):
    """play/puzzles.py's tap_bands."""

    def ceil_sqrt(v):
        k = math.isqrt(v)
        return k if k * k == v else k + 1

    x = max(0, n_taps) * (states - 1)
    los = [3]
    for p, q in ((1, 1), (8, 5), (12, 5)):
        los.append(max(los[-1] + 1, ceil_sqrt(-(-(p * p * x) // (q * q)))))
    top = max(los[3], math.isqrt(18 * 18 * x // 25))
    his = [lo - 1 for lo in los[1:]] + [top]
    return {name: (los[i], his[i]) for i, name in enumerate(DIFFS)}


def o_difficulty_of(m, n_taps, states):
    bands = o_tap_bands(n_taps, states)
    out = "easy"
    for name in DIFFS:
        if m >= bands[name][0]:
            out = name
    return out


def o_stars_limits(m):
    return {3: m, 2: m + max(2, -(-m // 4)), 1: m + max(5, m)}


def o_stars_for_taps(limits, taps):
    for s in (3, 2, 1):
        if taps <= limits[s]:
            return s
    return 0


def o_check_difficulty(d):
    if not isinstance(d, str) or d not in DIFFS:
        raise ValueError(f"difficulty must be one of {', '.join(map(repr, DIFFS))}, got {d!r}")
    return d


def o_parse_date(date):
    """play/puzzles.py's _parse_date for a str."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date.strip()):
        try:
            return _dt.date.fromisoformat(date.strip())
        except ValueError as e:
            raise ValueError(f"bad date {date!r}: {e}") from None
    raise ValueError(f"date must be an ISO date 'YYYY-MM-DD', got {date!r}")


def outcome(f, *args):
    """("ok", value) or (exception class name, message)."""
    try:
        return ("ok", f(*args))
    except Exception as e:  # noqa: BLE001 -- the outcome is compared
        return (type(e).__name__, str(e))


def c_unicode() -> str | None:
    """The Unicode version of csrc/play/pytext_data.h (None without a source tree)."""
    if not PYTEXT.exists():
        return None
    m = re.search(r'ML_PYTEXT_UNICODE "([^"]+)"', PYTEXT.read_text())
    return m.group(1) if m else None


SAME_UNICODE = c_unicode() == unicodedata.unidata_version


# ----------------------------------------------------------------------------- PRNG
def _seeds(rng: random.Random) -> list:
    seeds: list = [
        0,
        1,
        1234567,
        2**64 - 1,
        2**64,
        2**64 + 5,
        -1,
        -(2**70),
        2**200 + 3,
        np.int64(-5),
        np.uint64(2**63),
        "",
        "abc",
        "é ü 日本",
        "x" * 200,
        b"\x00\xff",
        bytearray(b"seed"),
    ]
    seeds += [rng.getrandbits(rng.choice((8, 32, 64, 80))) for _ in range(60)]
    seeds += [
        "".join(
            chr(
                rng.choice(
                    (
                        rng.randrange(32, 127),
                        rng.randrange(0x80, 0xD800),
                        rng.randrange(0x10000, 0x110000),
                    )
                )
            )
            for _ in range(rng.randrange(0, 40))
        )
        for _ in range(40)
    ]
    return seeds


def test_seed_from_is_pythons():
    rng = random.Random(1)
    for s in _seeds(rng):
        assert seed_from(s) == Oracle.seed_from(s), s
    for bad in (True, False, 1.5, [1], {}, object()):
        assert outcome(seed_from, bad) == outcome(Oracle.seed_from, bad)
    # a str that is not UTF-8 (a lone surrogate): the same UnicodeEncodeError
    assert outcome(seed_from, "\ud800") == outcome(Oracle.seed_from, "\ud800")
    fresh = {seed_from(None) for _ in range(8)}
    assert len(fresh) == 8 and all(0 <= v < 2**64 for v in fresh)


def test_draws_are_pythons_over_many_seeds_and_sizes():
    """next_u64, randbelow (rejection-heavy n too), randint, random, shuffle, sample and
    choice give the oracle's values and leave the same state."""
    rng = random.Random(2)
    ns = [
        1,
        2,
        3,
        5,
        7,
        10,
        64,
        255,
        1000,
        2**32 + 1,
        2**40 + 3,
        2**63 - 1,
        2**63,
        2**63 + 1,
        3 * 2**62 + 7,
        2**64 - 1,
        2**64,
    ]
    for s in _seeds(rng):
        a, b = SplitMix64(s), Oracle(s)
        for _ in range(3):
            assert a.next_u64() == b.next_u64()
        for n in ns + [rng.randrange(1, 2 ** rng.randrange(1, 65)) for _ in range(20)]:
            assert a.randbelow(n) == b.randbelow(n), (s, n)
        lo = rng.randrange(-100, 100)
        assert a.randint(lo, lo + 9) == b.randint(lo, lo + 9)
        assert a.random() == b.random()
        la, lb = list(range(30)), list(range(30))
        a.shuffle(la)
        b.shuffle(lb)
        assert la == lb
        for size in (0, 1, 2, 7, 20, 100, 1000, 70000):
            k = rng.randrange(0, min(size, 60) + 1)
            assert a.sample(range(size), k) == b.sample(range(size), k), (s, size, k)
        assert a.sample("abcdef", 6) == b.sample("abcdef", 6)
        assert a._state == b.state


@pytest.mark.heavy  # 3 s: a long sequence drawn twice
def test_sample_of_a_long_sequence_is_pythons():
    """Past 2**16 items the C keeps only the swapped positions: the same draws."""
    for seed in range(6):
        a, b = SplitMix64(seed), Oracle(seed)
        for size, k in ((200_000, 5), (1_000_003, 40), (70_000, 35_000), (300_000, 150_001)):
            assert a.sample(range(size), k) == b.sample(range(size), k)
        assert a._state == b.state


def test_prng_errors_keep_their_messages():
    a, b = SplitMix64(3), Oracle(3)
    for n in (0, -1, -(2**70)):
        assert outcome(a.randbelow, n) == outcome(b.randbelow, n)
    assert outcome(a.sample, range(3), 5) == outcome(b.sample, range(3), 5)
    assert outcome(a.sample, range(3), -1) == outcome(b.sample, range(3), -1)
    with pytest.raises(ValueError, match="randint needs lo <= hi, got 2, 1"):
        a.randint(2, 1)
    with pytest.raises(ValueError, match="cannot choose from an empty sequence"):
        a.choice([])
    assert a._state == b.state


def test_randbelow_past_two_to_the_64_is_refused_not_a_hang():
    """Python's randbelow looped for ever past 2**64 (no output is below a limit of 0);
    2**64 itself is every output."""
    r = SplitMix64(9)
    with pytest.raises(ValueError, match=r"randbelow needs n <= 2\*\*64, got 18446744073709551617"):
        r.randbelow(2**64 + 1)
    assert r.randbelow(2**64) == Oracle(9).next_u64()


def test_generator_state_round_trips():
    r = SplitMix64("s")
    r.next_u64()
    c = pickle.loads(pickle.dumps(r))
    assert c._state == r._state and c.next_u64() == r.next_u64()
    r._state = 2**64 + 7  # taken mod 2**64, as the old int state was masked on use
    assert r._state == 7
    with pytest.raises(ValueError):
        _core.Prng(-1)
    with pytest.raises(ValueError):
        _core.Prng(0).below(0)


# ----------------------------------------------------------------------------- bands
def test_tap_bands_and_difficulty_are_pythons():
    rng = random.Random(3)
    cases = [(t, n) for t in range(0, 1200) for n in (2, 3, 4, 5, 7, 9, 16, 255)]
    cases += [(t, 1) for t in range(0, 50)]
    cases += [(-t, 2) for t in range(1, 10)]
    cases += [
        (rng.randrange(0, 2 ** rng.randrange(1, 65)), rng.randrange(2, 256)) for _ in range(3000)
    ]
    cases += [(rng.randrange(0, 2**64), rng.randrange(1, 2**31)) for _ in range(2000)]
    cases += [(2**64 - 1, 255), (2**64 - 1, 2**31 - 1), (2**40, 2)]
    for t, n in cases:
        b = P.tap_bands(t, n)
        assert b == o_tap_bands(t, n), (t, n)
        top = b["expert"][1]
        for m in {
            0,
            2,
            3,
            b["medium"][0] - 1,
            b["medium"][0],
            b["hard"][0],
            b["expert"][0],
            top,
            top + 1,
            rng.randrange(0, top + 5),
            -7,
            2**70,
        }:
            assert P.difficulty_of(m, t, n) == o_difficulty_of(m, t, n), (m, t, n)


def test_tap_bands_outside_the_c_range_are_refused():
    for args in ((2**64, 2), (5, 0), (5, -3), (5, 2**31), (1.5, 2), (5, "3"), (True, 2)):
        with pytest.raises(ValueError):
            P.tap_bands(*args)


def test_stars_are_pythons():
    rng = random.Random(4)
    ms = list(range(0, 3000)) + [rng.randrange(0, 2 ** rng.randrange(1, 63)) for _ in range(2000)]
    ms += [2**63 - 1]
    for m in ms:
        lim = P._stars_limits(m)
        assert lim == o_stars_limits(m)
        for taps in {
            -5,
            0,
            m - 1,
            m,
            m + 1,
            lim[2],
            lim[1],
            lim[1] + 1,
            lim[2] + 1,
            2**70,
            rng.randrange(0, 2 * m + 10),
        }:
            assert P.stars_for_taps(lim, taps) == o_stars_for_taps(lim, taps), (m, taps)
    with pytest.raises(ValueError):
        P._stars_limits(-1)
    with pytest.raises(ValueError):
        P._stars_limits(2**63)
    with pytest.raises(ValueError, match="star limits"):
        P.stars_for_taps({3: -1, 2: 2, 1: 5}, 0)


def test_difficulty_names_and_their_message_are_pythons():
    assert P.DIFFICULTIES == DIFFS and P.TAP_FLOOR == 3
    rng = random.Random(5)
    words = list(DIFFS) + [
        "",
        "Easy",
        "easy ",
        "easy\x00",
        "impossible",
        "it's",
        "a\"b'c",
        "\ud800",
        "ü",
        None,
        3,
        2.5,
        b"easy",
        ["easy"],
        ("easy",),
    ]
    words += [
        "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(0, 8)))
        for _ in range(300)
    ]
    for w in words:
        assert outcome(P._check_difficulty, w) == outcome(o_check_difficulty, w), repr(w)


# ----------------------------------------------------------------------------- dates
def _date_strings(rng: random.Random) -> list[str]:
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    digits = [chr(c) for c in range(0x110000) if re.fullmatch(r"\d", chr(c))]
    others = [
        "-",
        "/",
        "'",
        '"',
        "\\",
        "\x00",
        "\x7f",
        "\x85",
        "\u200b",
        "T",
        ":",
        "\ud800",
        "\udcff",
        "😀",
        "\U000e0001",
        "\u0378",
    ]
    out = [
        "2026-11-22",
        "2026/11/22",
        "2026-13-01",
        "2026-02-30",
        "yesterday",
        "",
        " ",
        "0000-01-01",
        "9999-12-31",
        "2024-02-29",
        "2100-02-29",
        "２０２６-１１-２２",
    ]
    for _ in range(3000):
        y, m, d = rng.randrange(0, 10000), rng.randrange(0, 100), rng.randrange(0, 100)
        s = f"{y:04d}-{m:02d}-{d:02d}"
        if rng.random() < 0.2:  # one digit from another script
            i = rng.choice([0, 1, 2, 3, 5, 6, 8, 9])
            s = s[:i] + rng.choice(digits) + s[i + 1 :]
        pre = "".join(rng.choice(spaces) for _ in range(rng.randrange(0, 3)))
        post = "".join(rng.choice(spaces) for _ in range(rng.randrange(0, 3)))
        out.append(pre + s + post)
    alphabet = spaces[:6] + digits[:40] + others + [chr(c) for c in range(32, 127)]
    for _ in range(3000):
        n = rng.randrange(0, 14)
        out.append(
            "".join(
                rng.choice(alphabet) if rng.random() < 0.8 else chr(rng.randrange(0x110000))
                for _ in range(n)
            )
        )
    return out


@pytest.mark.skipif(
    not SAME_UNICODE,
    reason="csrc/play/pytext_data.h was written from "
    f"Unicode {c_unicode()}, this Python has {unicodedata.unidata_version}: "
    "non-ASCII messages may differ",
)
def test_dates_and_their_messages_are_pythons():
    """Every string (valid dates, bad months and days, other scripts' digits, Python's
    whitespace, quotes, NULs, surrogates, unassigned code points): the same date or the
    same message, character for character."""
    rng = random.Random(6)
    for s in _date_strings(rng):
        assert outcome(P._parse_date, s) == outcome(o_parse_date, s), repr(s)


def test_ascii_dates_and_their_messages_are_pythons():
    rng = random.Random(7)
    alphabet = "0123456789-/ \t\n'\"\\x"
    for _ in range(5000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 13)))
        assert outcome(P._parse_date, s) == outcome(o_parse_date, s), repr(s)
    for y in (1, 4, 100, 1900, 2000, 2023, 2024, 2100, 9999):
        for m in range(0, 14):
            for d in range(0, 33):
                s = f"{y:04d}-{m:02d}-{d:02d}"
                assert outcome(P._parse_date, s) == outcome(o_parse_date, s), s


def test_daily_takes_dates_as_before():
    d = _dt.date(2026, 11, 22)
    assert ml.daily(" 2026-11-22\n") == ml.daily(d) == ml.daily(_dt.datetime(2026, 11, 22, 13))
    for bad, msg in (
        (20261122, "got int"),
        (["2026-11-22"], "got list"),
        ("2026-02-30", "day is out of range for month"),
    ):
        with pytest.raises(ValueError, match=msg):
            ml.daily(bad)


@pytest.mark.skipif(not PYTEXT.exists(), reason="no source tree")
@pytest.mark.skipif(not SAME_UNICODE, reason="another Unicode version than the table's")
def test_pytext_table_is_what_its_generator_writes():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "csrc" / "play" / "gen_pytext.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _state_before(v: int) -> int:
    """The SplitMix64 state whose next output is v (the mix is a bijection)."""
    mask = (1 << 64) - 1

    def unxorshift(y: int, k: int) -> int:
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x

    z = unxorshift(v, 31) * pow(0x94D049BB133111EB, -1, 1 << 64) & mask
    z = unxorshift(z, 27) * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask
    return (unxorshift(z, 30) - 0x9E3779B97F4A7C15) & mask


def test_randbelow_at_the_edge_of_its_rejection_is_pythons():
    """The last output kept (2**64 - 2**64 % n - 1), the first refused and the largest:
    the same value and the same number of draws as Python's loop."""
    for n in (3, 7, 1000, 2**32 + 1, 2**63 + 1, 3 * 2**62 + 7, 2**64 - 1):
        limit = (1 << 64) - (1 << 64) % n
        for v in (limit - 1, limit, (1 << 64) - 1):
            a, b = SplitMix64(0), Oracle(0)
            a._state = b.state = _state_before(v)
            assert b.next_u64() == v  # the crafting itself
            b.state = _state_before(v)
            assert a.randbelow(n) == b.randbelow(n)
            assert a._state == b.state
