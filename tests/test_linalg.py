"""rank, kernel, det, inverse and pseudo-inverse against brute force and exact integers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from oracle import BruteForce, det_mod, group_closure_size, has_generalised_inverse

BACKENDS = ["reference", "native"]
NS = [2, 3, 4, 5, 6, 7, 8, 9, 12]


@st.composite
def matrices(draw, max_side=5, square=False, ns=NS, max_brute=20000):
    n = draw(st.sampled_from(ns))
    m = draw(st.integers(0, max_side))
    r = m if square else draw(st.integers(0, max_side))
    while r and n**r > max_brute:
        r -= 1
        if square:
            m = r
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    style = draw(st.sampled_from(["uniform", "nonunits", "lowrank", "sparse"]))
    if style == "uniform":
        A = rng.integers(0, n, size=(m, r))
    elif style == "nonunits":  # entries sharing factors with n
        A = rng.integers(0, n, size=(m, r)) * draw(st.sampled_from([1, 2, 3, 4]))
    elif style == "lowrank":
        k = draw(st.integers(0, 3))
        A = (
            rng.integers(0, n, size=(m, k)) @ rng.integers(0, n, size=(k, r))
            if k
            else np.zeros((m, r), int)
        )
    else:
        A = rng.integers(0, n, size=(m, r)) * (rng.random((m, r)) < 0.3)
    return np.asarray(A, dtype=np.int64) % n, n


SET = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("backend", BACKENDS)
@SET
@given(mn=matrices())
def test_kernel_against_brute_force(backend, mn):
    A, n = mn
    s = ml.Solver(ml.Board.from_matrix(A, n), backend=backend)
    bf = BruteForce(A, n)
    assert s.kernel_size == bf.kernel_size()
    K = s.kernel()
    assert K.dtype == np.uint8 and K.shape == (s.nullity, A.shape[1])
    if len(K):
        assert not ((A @ K.T.astype(np.int64)) % n).any()
    # the generators generate exactly ker A
    assert group_closure_size(K, n) == s.kernel_size
    assert s.rank == A.shape[1] - s.nullity
    if all(n % p for p in range(2, n)):  # prime: a basis, |ker| = n^nullity
        assert s.kernel_size == n**s.nullity


@pytest.mark.parametrize("backend", BACKENDS)
@SET
@given(mn=matrices(square=True, max_side=6))
def test_det_inverse(backend, mn):
    A, n = mn
    s = ml.Solver(ml.Board.from_matrix(A, n), backend=backend)
    d = s.det()
    assert d == det_mod(A, n)
    unit = np.gcd(d, n) == 1
    assert s.is_invertible == unit
    if unit:
        inv = s.inverse().astype(np.int64)
        k = A.shape[0]
        assert np.array_equal(A @ inv % n, np.eye(k, dtype=np.int64))
        assert np.array_equal(inv @ A % n, np.eye(k, dtype=np.int64))
    else:
        with pytest.raises(ValueError, match="not invertible"):
            s.inverse()


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mn=matrices(max_side=2, ns=[2, 3, 4, 6, 8, 9], max_brute=81))
def test_pseudo_inverse_exists_exactly_when_brute_force_finds_one(backend, mn):
    A, n = mn
    if n ** (A.shape[0] * A.shape[1]) > 5000:
        A = A[:1, :2]
    s = ml.Solver(ml.Board.from_matrix(A, n), backend=backend)
    exists = has_generalised_inverse(A, n)
    if exists:
        G = s.pseudo_inverse().astype(np.int64)
        assert G.shape == (A.shape[1], A.shape[0])
        assert np.array_equal(A @ G @ A % n, A % n)
    else:
        with pytest.raises(ValueError, match="generalised inverse"):
            s.pseudo_inverse()


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mn=matrices(max_side=8, ns=[2, 3, 5, 6, 7, 10, 15, 30, 210], max_brute=10**9))
def test_pseudo_inverse_squarefree_always_exists(backend, mn):
    A, n = mn
    G = ml.Solver(ml.Board.from_matrix(A, n), backend=backend).pseudo_inverse().astype(np.int64)
    assert np.array_equal(A @ G @ A % n, A % n)


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_mod_four_has_no_pseudo_inverse(backend):
    s = ml.Solver(ml.Board.from_matrix([[2]], 4), backend=backend)
    with pytest.raises(ValueError, match="generalised inverse"):
        s.pseudo_inverse()
    assert s.kernel_size == 2 and s.det() == 2 and not s.is_invertible


@pytest.mark.parametrize("n", [11, 13, 127, 251, 255, 128, 243, 210])
@pytest.mark.parametrize("backend", BACKENDS)
def test_large_moduli(backend, n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        m, r = rng.integers(1, 9, size=2)
        A = rng.integers(0, n, size=(m, r)) * (rng.random((m, r)) < 0.6)
        s = ml.Solver(ml.Board.from_matrix(A, n), backend=backend)
        K = s.kernel().astype(np.int64)
        assert not (A @ K.T % n).any()
        from math import prod

        assert prod(s.kernel_orders) == s.kernel_size
        for k, o in zip(K, s.kernel_orders):  # each generator has exactly its order
            assert not (k * o % n).any()
            assert all(
                (k * (o // p) % n).any()
                for p in range(2, o + 1)
                if o % p == 0 and all(p % q for q in range(2, p))
            )
        x = rng.integers(0, n, size=r)
        b = A @ x % n
        sol = s.solve(ml.Board.from_matrix(A, n).from_cell_vector((-b) % n), minimal=False)
        assert np.array_equal(A @ sol.taps.astype(np.int64) % n, b)
        if m == r:
            assert s.det() == det_mod(A, n)
