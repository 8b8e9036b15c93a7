"""SplitMix64: the small, portable pseudo-random generator of the C library.

Everything that must be reproducible on every machine and with every NumPy version
(``generate(seed=...)``, ``daily(date)``) draws from this generator, never from
``numpy.random``: the output depends only on the seed. The generator, its rejection
sampling and its seeds are the C library's (csrc/play/prng.c: ``ml_prng_*``,
``ml_seed_from_bytes``, ``ml_seed_random``), the same for Python, JavaScript and C
programs; this module is their Python face.

SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014; the reference constants of Vigna's ``splitmix64.c``) advances a 64-bit
counter by the golden-ratio constant and scrambles it with two multiply-xorshift rounds.

>>> r = SplitMix64(1234567)
>>> [r.next_u64() for _ in range(2)]
[6457827717110365317, 3203168211198807973]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

from modlights.native import _core

__all__ = ["SplitMix64", "seed_from"]

_MASK = (1 << 64) - 1


def seed_from(value: Any) -> int:
    """A 64-bit seed from an int (taken mod 2**64), a str or bytes (SHA-256 of the
    UTF-8 text, first 8 bytes big-endian), or None (fresh OS randomness).

    ValueError for a bool or any other type (a str that is not valid UTF-8, with lone
    surrogates, raises UnicodeEncodeError, a ValueError). O(len(value)).
    """
    if value is None:
        return int(_core.seed_random())
    if isinstance(value, bool):
        raise ValueError(f"seed must be an int, str, bytes or None, got {value!r}")
    if isinstance(value, int):
        return value & _MASK
    if hasattr(value, "__index__") and not isinstance(value, (str, bytes, bytearray)):
        return int(value.__index__()) & _MASK  # numpy integers
    if isinstance(value, str):
        value = value.encode("utf-8")
    if isinstance(value, (bytes, bytearray)):
        return int(_core.seed_from_bytes(bytes(value)))
    raise ValueError(f"seed must be an int, str, bytes or None, got {type(value).__name__}")


class SplitMix64:
    """SplitMix64 generator; ``SplitMix64(seed)`` with any value :func:`seed_from` takes.

    Pickles and copies by its state (the 64-bit counter, ``_state``)."""

    __slots__ = ("_g",)

    def __init__(self, seed: Any = None):
        self._g = _core.Prng(seed_from(seed))

    @property
    def _state(self) -> int:
        return int(self._g.state)

    @_state.setter
    def _state(self, value: int) -> None:
        self._g.state = int(value) & _MASK

    def __getstate__(self) -> tuple:
        """The generator's state (explicit: pickle protocols 0 and 1 need it for a
        class with ``__slots__``; a tuple, never falsy, so __setstate__ always runs)."""
        return (self._state,)

    def __setstate__(self, state: tuple) -> None:
        self._g = _core.Prng(int(state[0]) & _MASK)

    def next_u64(self) -> int:
        """The next 64-bit output."""
        return int(self._g.next_u64())

    def randbelow(self, n: int) -> int:
        """Uniform int in [0, n) (unbiased: rejection sampling; n == 1 draws nothing).

        ValueError unless n is an int from 1 to 2**64."""
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        if n == 1 << 64:  # every output is below it
            return self.next_u64()
        if n > 1 << 64:
            raise ValueError(f"randbelow needs n <= 2**64, got {n}")
        return int(self._g.below(n))

    def randint(self, lo: int, hi: int) -> int:
        """Uniform int in [lo, hi] (both inclusive; at most 2**64 values)."""
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
        """k distinct elements of ``seq`` in random order (ValueError "cannot sample k of
        n items" unless 0 <= k <= len(seq)). O(len(seq)) to list ``seq``, then the C
        library's draws: O(k) more, O(1) memory past that for long sequences."""
        items = list(seq)
        if not 0 <= k <= len(items):
            raise ValueError(f"cannot sample {k} of {len(items)} items")
        return [items[i] for i in self._g.sample(len(items), k)]

    def choice(self, seq: Sequence[Any]) -> Any:
        """One element of a non-empty sequence, uniformly; ValueError when it is empty."""
        if not len(seq):
            raise ValueError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def spawn(self) -> SplitMix64:
        """An independent child generator seeded from this one's next output."""
        return SplitMix64(self.next_u64())
