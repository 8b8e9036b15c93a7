"""modlights.model.ring against brute force: every modulus a board can have (2..255),
and a few beyond."""

from __future__ import annotations

from math import gcd, prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modlights.model.ring import (
    crt_combine,
    crt_idempotents,
    factorize,
    is_prime,
    is_unit,
    prime_powers,
    unit_inverse,
    valuation,
)

MODULI = range(1, 1001)


def brute_is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, n))


def test_is_prime_matches_trial_division_by_every_smaller_number():
    for n in range(-3, 1001):
        assert is_prime(n) == brute_is_prime(n), n


def test_factorize_multiplies_back_with_primes_ascending():
    for n in MODULI:
        f = factorize(n)
        assert prod(p**e for p, e in f) == n
        assert all(e >= 1 and brute_is_prime(p) for p, e in f)
        assert [p for p, _ in f] == sorted({p for p, _ in f})
        assert prime_powers(n) == [p**e for p, e in f]
        assert is_prime(n) == (f == [(n, 1)])


def test_crt_idempotents_are_one_mod_their_part_and_zero_elsewhere():
    for n in MODULI:
        parts = crt_idempotents(n)
        assert [q for q, _ in parts] == prime_powers(n)
        for q, e in parts:
            assert 0 <= e < n and e % q == 1 % q and e % (n // q) == 0
        if n > 1:
            assert sum(e for _, e in parts) % n == 1  # a partition of 1


@pytest.mark.parametrize("n", [2, 4, 6, 12, 30, 36, 210, 255])
def test_crt_combine_recovers_every_residue(n):
    x = np.arange(n)
    back = crt_combine([x % q for q in prime_powers(n)], n)
    assert back.dtype == np.int64 and (back == x).all()
    # residues given unreduced (negative too) are read mod their q
    back = crt_combine([x % q - q for q in prime_powers(n)], n)
    assert (back == x).all()


def test_crt_combine_refuses_the_wrong_number_of_parts():
    with pytest.raises(ValueError, match="one residue per prime power"):
        crt_combine([np.zeros(3)], 6)


def test_units_and_inverses_against_every_candidate():
    for n in range(1, 256):
        a_all = np.arange(-n, 2 * n)
        # every candidate b at once: inverse[i] is a_all[i]'s least inverse, -1 for none
        hit = (a_all[:, None] * np.arange(n)[None, :] - 1) % n == 0
        inverse = np.where(hit.any(axis=1), hit.argmax(axis=1), -1)
        for a, inv in zip(a_all.tolist(), inverse.tolist()):
            assert is_unit(a, n) == (inv >= 0) == (gcd(a % n, n) == 1)
            if inv >= 0:
                assert unit_inverse(a, n) == inv
            else:
                with pytest.raises(ValueError, match="not a unit"):
                    unit_inverse(a, n)


@settings(max_examples=200)
@given(
    st.sampled_from([(2, 1), (2, 3), (2, 7), (3, 2), (3, 5), (5, 3), (7, 2), (13, 2)]),
    st.integers(0, 10**6),
)
def test_valuation_is_the_largest_power_dividing(pe, x):
    p, e = pe
    q = p**e
    x %= q
    v = int(valuation(np.array([x]), p, e)[0])
    expect = max(k for k in range(e + 1) if x % p**k == 0)
    assert v == expect
    assert valuation(np.zeros((2, 2), np.int64), p, e).tolist() == [[e, e], [e, e]]


@pytest.mark.parametrize("bad", [0, -4, 2.0, "6", True, None])
def test_bad_moduli_are_value_errors(bad):
    with pytest.raises(ValueError, match="modulus"):
        factorize(bad)
    with pytest.raises(ValueError, match="modulus"):
        crt_idempotents(bad)


@pytest.mark.parametrize("bad", [2.0, "7", None, True])
def test_is_prime_needs_an_int(bad):
    with pytest.raises(ValueError, match="int"):
        is_prime(bad)
