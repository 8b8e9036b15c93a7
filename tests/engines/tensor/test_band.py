"""The band elimination of the tensor engine's 1-D factors: BandFactor (generalised
inverse, kernel, det) against the reference engine, and the C band chase (csrc/band.c)
against a NumPy model of its formula, its arguments checked before any C runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modlights.native._core import band_chase

SMALL_N = [2, 3, 4, 5, 6, 7, 8]


# ---------------------------------------------------------------- the C band chase
def _chase_model(B, Y, brow, yrow, refs, coefs, n, inv):
    """The formula of csrc/band.h, one step after another, in Python integers."""
    Y = Y.astype(np.int64)
    for t in range(len(brow)):
        row = inv * B[brow[t]].astype(np.int64)
        for r, c in zip(refs[t], coefs[t]):
            if r >= 0:
                row = row + int(c) * Y[r]
        Y[yrow[t]] = row % n
    return Y.astype(np.uint8)


@st.composite
def chase_programs(draw):
    """A random step program: any n (GF(2) with coefficients 0 and inverse 0 too), rows
    reading earlier or later rows of Y but never the row they write, any lut length."""
    n = draw(st.sampled_from([2, 2, 3, 4, 5, 7, 8, 16, 255]))
    rows = draw(st.integers(1, 6))
    k = draw(st.integers(0, 19))
    m = draw(st.integers(1, 4))
    nsteps = draw(st.integers(0, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    B = rng.integers(0, n, (rows, k)).astype(np.uint8)
    Y = rng.integers(0, n, (rows, k)).astype(np.uint8)
    brow = rng.integers(0, rows, nsteps).astype(np.int64)
    yrow = rng.integers(0, rows, nsteps).astype(np.int64)
    refs = rng.integers(-2, rows, (nsteps, m)).astype(np.int64)
    refs[refs == yrow[:, None]] = -1
    coefs = rng.integers(0, n, (nsteps, m)).astype(np.uint32)
    inv = draw(st.integers(0, n - 1))
    lutlen = draw(st.sampled_from([0, 1, 7, (n - 1) ** 2 * (m + 1) + 1]))
    lut = (np.arange(lutlen) % n).astype(np.uint8)
    return B, Y, brow, yrow, refs, coefs, n, inv, lut


@settings(max_examples=300, deadline=None)
@given(chase_programs())
def test_band_chase_equals_its_formula(prog):
    """Every step program gives the values of the formula (GF(2) included: zero
    coefficients and a zero inverse are not XORs; a lut shorter than the sums falls
    back to %)."""
    B, Y, brow, yrow, refs, coefs, n, inv, lut = prog
    want = _chase_model(B, Y, brow, yrow, refs, coefs, n, inv)
    band_chase(B, Y, brow, yrow, refs, coefs, n, inv, 0, len(brow), lut)
    assert np.array_equal(Y, want)


def test_band_chase_refuses_what_it_cannot_do():
    """A step reading its own row, a wrong lut, and sums past 32 bits: ValueError
    before any C runs (nothing written)."""
    B = np.ones((3, 4), np.uint8)
    Y = np.zeros((3, 4), np.uint8)
    one = np.array([1], np.int64)
    empty = np.zeros(0, np.uint8)
    with pytest.raises(ValueError, match="reads the row 1 it writes"):
        band_chase(
            B, Y, one, one, np.array([[1]], np.int64), np.ones((1, 1), np.uint32), 3, 1, 0, 1, empty
        )
    with pytest.raises(ValueError, match=r"lut\[2\] = 0, not 2 mod 5"):
        band_chase(
            B,
            Y,
            one,
            one,
            np.array([[0]], np.int64),
            np.ones((1, 1), np.uint32),
            5,
            1,
            0,
            1,
            np.array([0, 1, 0], np.uint8),
        )
    m = 70000
    with pytest.raises(ValueError, match="32 bits"):
        band_chase(
            B,
            Y,
            one,
            one,
            np.zeros((1, m), np.int64),
            np.full((1, m), 254, np.uint32),
            255,
            1,
            0,
            1,
            empty,
        )
    assert not Y.any()


def test_band_bindings_check_their_arguments():
    """csrc/band.c through _band.pyx: the tiled transpose equals NumPy's (reversed views
    too), and malformed step programs are ValueErrors before any C runs."""
    from modlights.native._core import transpose

    rng = np.random.default_rng(5)
    for shape in [(1, 1), (3, 130), (129, 65), (200, 7)]:
        A = rng.integers(0, 256, shape).astype(np.uint8)
        for view in (A, A[::-1]):
            out = np.empty(shape[::-1], np.uint8)
            transpose(view, out)
            assert np.array_equal(out, view.T)
    with pytest.raises(ValueError, match="out is"):
        transpose(np.zeros((2, 3), np.uint8), np.zeros((2, 3), np.uint8))
    with pytest.raises(ValueError, match="contiguous"):
        transpose(np.zeros((4, 4), np.uint8)[:, ::2], np.zeros((2, 4), np.uint8))
    B = np.zeros((4, 3), np.uint8)
    Y = np.zeros((4, 3), np.uint8)
    rows = np.arange(4, dtype=np.int64)
    refs = np.full((4, 1), -1, np.int64)
    coefs = np.zeros((4, 1), np.uint32)
    lut = np.zeros(0, np.uint8)
    band_chase(B, Y, rows, rows, refs, coefs, 3, 1, 0, 4, lut)
    for bad, words in [
        (dict(brow=rows + 1), "off the arrays"),
        (dict(refs=refs + 5), "off Y"),
        (dict(coefs=coefs + 3), "coefficient"),
        (dict(n=256), "n must be"),
        (dict(inv=3), "inv < n"),
        (dict(stop=5), "outside"),
        (dict(Y=np.zeros((4, 2), np.uint8)), "columns"),
    ]:
        kw = dict(
            B=B,
            Y=Y,
            brow=rows,
            yrow=rows,
            refs=refs,
            coefs=coefs,
            n=3,
            inv=1,
            start=0,
            stop=4,
            lut=lut,
        )
        kw.update(bad)
        with pytest.raises(ValueError, match=words):
            band_chase(*kw.values())
