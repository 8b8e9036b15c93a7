"""Arithmetic of Z/nZ for the moduli of a board (n = 2..255, and any n >= 1 where noted).

One home for what every engine needs of the ring: the prime factorisation of n, the
Chinese remainder theorem (Z/n = product of the Z/q over the prime powers q = p^e of n,
through the idempotents e_q = 1 mod q, 0 mod n / q), units and their inverses, and
p-adic valuations. Plain Python ints (and NumPy arrays where stated), no native code.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd

import numpy as np

__all__ = [
    "factorize",
    "is_prime",
    "prime_powers",
    "crt_idempotents",
    "crt_combine",
    "is_unit",
    "unit_inverse",
    "valuation",
]


def _check_modulus(n: int, lo: int = 1) -> int:
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"the modulus must be an int >= {lo}, got {n!r}")
    n = int(n)
    if n < lo:
        raise ValueError(f"the modulus must be an int >= {lo}, got {n}")
    return n


def factorize(n: int) -> list[tuple[int, int]]:
    """The prime factorisation of n: [(p, e), ...] with n = prod p**e, primes ascending.

    Parameters
    ----------
    n : int
        At least 1 (1 gives []).

    Raises
    ------
    ValueError
        When n is not an int >= 1.

    Trial division: O(sqrt(n)) divisions.
    """
    n = _check_modulus(n)
    out = []
    p = 2
    while p * p <= n:
        if n % p == 0:
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            out.append((p, e))
        p += 1 if p == 2 else 2
    if n > 1:
        out.append((n, 1))
    return out


def is_prime(n: int) -> bool:
    """Whether n is a prime. Any int (n < 2: False; not an int: ValueError).
    O(sqrt(n)) divisions."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"is_prime needs an int, got {n!r}")
    n = int(n)
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    d = 3
    while d * d <= n:
        if n % d == 0:
            return False
        d += 2
    return True


def prime_powers(n: int) -> list[int]:
    """The prime powers q = p^e of n (n = prod q, pairwise coprime), ascending by p."""
    return [p**e for p, e in factorize(n)]


def crt_idempotents(n: int) -> list[tuple[int, int]]:
    """[(q, e_q)] over the prime powers q of n: e_q = 1 (mod q) and 0 (mod n / q), so
    x = sum e_q x_q (mod n) is the element of Z/n with x = x_q (mod q) for every q.

    Parameters
    ----------
    n : int
        At least 1 (1 gives []; a prime power p^e gives [(p^e, 1)]).

    Raises
    ------
    ValueError
        When n is not an int >= 1.
    """
    n = _check_modulus(n)
    out = []
    for q in prime_powers(n):
        rest = n // q
        out.append((q, rest * pow(rest, -1, q) % n if rest > 1 else 1))
    return out


def crt_combine(residues: Sequence, n: int) -> np.ndarray:
    """The array x mod n with x = residues[i] (mod q_i), the q_i the prime powers of n in
    the order of :func:`prime_powers`.

    Parameters
    ----------
    residues : sequence of array-likes (one per prime power of n, equal shapes)
        Integer entries; each is read mod its q.
    n : int
        The modulus (at least 2).

    Returns
    -------
    numpy.ndarray
        int64, entries in [0, n).

    Raises
    ------
    ValueError
        When the number of residues is not the number of prime powers of n, or n < 2.

    O(len(residues) x size) int64 operations.
    """
    n = _check_modulus(n, 2)
    parts = crt_idempotents(n)
    if len(residues) != len(parts):
        raise ValueError(
            f"crt_combine needs one residue per prime power of n = {n} "
            f"({len(parts)}: {[q for q, _ in parts]}), got {len(residues)}"
        )
    out: np.ndarray | None = None
    for (q, e), x in zip(parts, residues):
        term = np.asarray(x, dtype=np.int64) % q * e
        out = term if out is None else out + term
        out %= n
    assert out is not None  # n >= 2 has at least one prime power
    return out


def is_unit(a: int, n: int) -> bool:
    """Whether a is a unit mod n (gcd(a, n) = 1); n >= 1 (ValueError otherwise)."""
    n = _check_modulus(n)
    return gcd(int(a) % n, n) == 1


def unit_inverse(a: int, n: int) -> int:
    """The inverse of a mod n, in [0, n).

    Raises
    ------
    ValueError
        When a is not a unit mod n (gcd(a, n) > 1), naming both; or n < 1.

    Extended Euclid: O(log n).
    """
    n = _check_modulus(n)
    a = int(a) % n
    if gcd(a, n) != 1:
        raise ValueError(f"{a} is not a unit mod {n} (gcd {gcd(a, n)}): it has no inverse")
    return pow(a, -1, n) if n > 1 else 0


def valuation(x, p: int, e: int) -> np.ndarray:
    """The p-adic valuations of the entries of x, read in Z/p^e: v(x) = the largest
    v <= e with p^v | x, so v(0) = e.

    Parameters
    ----------
    x : array-like of ints
        Entries in [0, p^e) (others are read mod p^e).
    p : int
        A prime (not checked).
    e : int
        The exponent, at least 1.

    Returns
    -------
    numpy.ndarray
        int64, shaped like x. O(e x size).
    """
    x = np.asarray(x, dtype=np.int64)
    v = np.zeros(x.shape, dtype=np.int64)
    pk = 1
    for _ in range(int(e)):
        pk *= p
        v += x % pk == 0
    return v
