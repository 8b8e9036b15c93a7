"""The binding of csrc/search/cube.c (modlights.native._core.cube_min_gf2 /
cube_leaf_gf2): every leaf against enumeration on every SIMD path this CPU has, and bad
arguments rejected with ValueError before any C runs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from modlights.native import _core
from modlights.search import cube


def problem(rng, N, m, kh):
    low = (rng.random((m, N)) < 0.4).astype(np.uint8)
    high = (rng.random((kh, N)) < 0.4).astype(np.uint8)
    y0 = rng.integers(0, 2, N).astype(np.uint8)
    col = (
        (low.astype(np.uint32) << np.arange(m, dtype=np.uint32)[:, None]).sum(
            axis=0, dtype=np.uint32
        )
        if m
        else np.zeros(N, np.uint32)
    )
    ss = np.concatenate([[0], np.cumsum(high.sum(axis=1))]).astype(np.uint32)
    si = np.nonzero(high)[1].astype(np.uint32)
    return low, high, y0, col, ss, si


@pytest.mark.parametrize("path", _core.simd_paths())
def test_leaves_and_minimum_on_every_simd_path(path):
    before = _core.get_simd()
    _core.set_simd(path)
    try:
        rng = np.random.default_rng(5)
        for _ in range(30):
            N, m, kh = int(rng.integers(1, 80)), int(rng.integers(0, 15)), int(rng.integers(0, 4))
            low, high, y0, col, ss, si = problem(rng, N, m, kh)
            C = (
                np.array(list(itertools.product((0, 1), repeat=m)), dtype=np.int64)[:, ::-1]
                if m
                else np.zeros((1, 0), np.int64)
            )
            best = None
            for h in range(1 << kh):
                y = y0.astype(np.int64).copy()
                for i in range(kh):
                    if h >> i & 1:
                        y ^= high[i]
                want = int(((y[None, :] + C @ low) % 2).sum(axis=1).min())
                w, arg = _core.cube_leaf_gf2(col, y0, ss, si, m, h)
                lowc = np.array([arg >> i & 1 for i in range(m)], dtype=np.int64)
                assert w == want == int((y + lowc @ low) % 2 @ np.ones(N, np.int64))
                best = want if best is None else min(best, want)
            e = np.zeros((0, kh), np.uint64)
            got = _core.cube_min_gf2(
                col,
                y0,
                ss,
                si,
                m,
                e,
                np.zeros(0, np.uint64),
                0,
                np.zeros(1, np.uint64),
                1 << 30,
                0.0,
                2,
            )
            assert got[0] == best and got[-1]
    finally:
        _core.set_simd(before)


def test_binding_rejects_bad_input():
    col = np.zeros(4, np.uint32)
    y0 = np.zeros(4, np.uint8)
    ss = np.array([0, 1], np.uint32)
    si = np.array([2], np.uint32)
    e = np.zeros(0, np.uint64)
    good = dict(
        col=col,
        y0=y0,
        sup_start=ss,
        sup_idx=si,
        m=0,
        sym_mat=e,
        sym_shift=e,
        top=0,
        corners=np.zeros(1, np.uint64),
        bound=10,
    )
    assert _core.cube_min_gf2(**good)[0] == 0
    for key, bad, msg in [
        ("m", 40, "m must"),
        ("col", np.ones(4, np.uint32), "col entries"),
        ("y0", np.full(4, 2), "0 or 1"),
        ("sup_idx", np.array([9]), "sup_idx"),
        ("sup_start", np.array([0, 2]), "sup_start"),
        ("top", 2, "top"),
        ("corners", np.array([1], np.uint64), "corners"),
        ("bound", -1, "bound"),
        ("col", np.zeros(40000, np.uint32), "taps"),
    ]:
        with pytest.raises(ValueError, match=msg):
            _core.cube_min_gf2(**{**good, key: bad})
    with pytest.raises(ValueError, match="independent"):
        cube.plan(np.zeros(3, np.uint8), np.array([[1, 1, 0], [1, 1, 0]], np.uint8))
