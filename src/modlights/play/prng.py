"""SplitMix64: a small, portable pseudo-random generator in plain Python ints.

Everything that must be reproducible on every machine and with every NumPy version
(``generate(seed=...)``, ``daily(date)``) draws from this generator, never from
``numpy.random``: the output depends only on the seed and this file.

SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014; the reference constants of Vigna's ``splitmix64.c``) advances a 64-bit
counter by the golden-ratio constant and scrambles it with two multiply-xorshift rounds.

>>> r = SplitMix64(1234567)
>>> [r.next_u64() for _ in range(2)]
[6457827717110365317, 3203168211198807973]
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableSequence, Sequence
from typing import Any

__all__ = ["SplitMix64", "seed_from"]

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_from(value: Any) -> int:
    """A 64-bit seed from an int (taken mod 2**64), a str or bytes (SHA-256 of the
    UTF-8 text, first 8 bytes big-endian), or None (fresh OS randomness)."""
    if value is None:
        return secrets.randbits(64)
    if isinstance(value, bool):
        raise ValueError(f"seed must be an int, str, bytes or None, got {value!r}")
    if isinstance(value, int):
        return value & _MASK
    if hasattr(value, "__index__") and not isinstance(value, (str, bytes, bytearray)):
        return int(value.__index__()) & _MASK  # numpy integers
    if isinstance(value, str):
        value = value.encode("utf-8")
    if isinstance(value, (bytes, bytearray)):
        return int.from_bytes(hashlib.sha256(bytes(value)).digest()[:8], "big")
    raise ValueError(f"seed must be an int, str, bytes or None, got {type(value).__name__}")


class SplitMix64:
    """SplitMix64 generator; ``SplitMix64(seed)`` with any value :func:`seed_from` takes."""

    __slots__ = ("_state",)

    def __init__(self, seed: Any = None):
        self._state = seed_from(seed)

    def __getstate__(self) -> tuple:
        """The generator's state (explicit: pickle protocols 0 and 1 need it for a
        class with ``__slots__``; a tuple, never falsy, so __setstate__ always runs)."""
        return (self._state,)

    def __setstate__(self, state: tuple) -> None:
        self._state = int(state[0]) & _MASK

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + _GAMMA) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform int in [0, n) (unbiased: rejection sampling)."""
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        if n == 1:
            return 0
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next_u64()
            if v < limit:
                return v % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform int in [lo, hi] (both inclusive)."""
        if hi < lo:
            raise ValueError(f"randint needs lo <= hi, got {lo}, {hi}")
        return lo + self.randbelow(hi - lo + 1)

    def random(self) -> float:
        """Uniform float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def shuffle(self, seq: MutableSequence) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def sample(self, seq: Sequence, k: int) -> list:
        """k distinct elements of ``seq`` in random order."""
        items = list(seq)
        if not 0 <= k <= len(items):
            raise ValueError(f"cannot sample {k} of {len(items)} items")
        for i in range(k):
            j = i + self.randbelow(len(items) - i)
            items[i], items[j] = items[j], items[i]
        return items[:k]

    def choice(self, seq: Sequence[Any]) -> Any:
        """One element of a non-empty sequence, uniformly; ValueError when it is empty."""
        if not len(seq):
            raise ValueError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def spawn(self) -> SplitMix64:
        """An independent child generator seeded from this one's next output."""
        return SplitMix64(self.next_u64())
