"""The work bound of search/verify/ (work.py) (issue 31): ``ml.verify(cert, max_work=...)``
estimates the work a check needs from the sizes the certificate declares, before any
expensive step, and refuses a check past the bound (WorkLimitError, a ValueError naming
``max_work``) in milliseconds; work that shows only as it is done (leaves mapped by
symmetries, LP weights of many digits) is metered; the certificates of the repository
stay under the default bound."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest

import modlights as ml
from big_certificates import enumeration_over_2_45, kernel_board, minimal_certificate
from modlights.search import verify as V

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def huge() -> dict:
    return enumeration_over_2_45()


def small_certificate() -> dict:
    b = ml.Board.grid(5, 5, states=3)
    return ml.Solver(b).solve(b.random_state(rng=2)).certificate()


# ------------------------------------------------------------------ the reproducer
def test_an_enumeration_over_a_2_45_kernel_is_refused_in_milliseconds(huge):
    size = len(json.dumps(huge))
    assert 80_000 < size < 200_000
    assert np.prod(huge["kernel"]["orders"], dtype=object) == 2**45
    t0 = time.perf_counter()
    with pytest.raises(V.WorkLimitError) as e:
        ml.verify(huge)
    took = time.perf_counter() - t0
    assert took < 1.0, took  # the kernel checks would pass; the walk is never started
    msg = str(e.value)
    assert isinstance(e.value, ValueError)
    assert "max_work" in msg and "2^45" in msg and "enumeration" in msg, msg
    assert e.value.need > V.MAX_WORK == e.value.max_work and not e.value.more
    assert V.estimate(huge) >= e.value.need  # refused before A was read


def test_ml_verify_of_the_reproducer_returns_in_a_fresh_process(tmp_path, huge):
    """``ml.verify(cert)`` with the default bound, as a front end would call it: before
    the bound, it ran for days (the subprocess is killed after 60 s)."""
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(huge))
    code = (
        "import json, sys, modlights as ml\n"
        "cert = json.load(open(sys.argv[1]))\n"
        "try:\n"
        "    ml.verify(cert)\n"
        "except ValueError as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    try:
        r = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        pytest.fail("ml.verify(cert) ran for more than 60 s")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("WorkLimitError ") and "max_work" in r.stdout


# ------------------------------------------------------------------ the bound itself
def test_the_estimate_is_the_bound_a_check_needs():
    """A check without metered parts is refused exactly past its estimate."""
    cert = small_certificate()
    need = V.estimate(cert)
    assert 0 < need < V.MAX_WORK
    assert ml.verify(cert, max_work=need) is True
    assert ml.verify(cert, max_work=float(need)) is True
    assert ml.verify(cert, max_work=None) is True
    with pytest.raises(V.WorkLimitError, match="max_work"):
        ml.verify(cert, max_work=need - 1)
    with pytest.raises(V.WorkLimitError):
        V.summary(cert, max_work=0)


@pytest.mark.parametrize("bad", [-1, -0.5, True, "1e9", [1], float("nan")])
def test_max_work_must_be_a_number_of_units(bad):
    with pytest.raises(ValueError, match="max_work must be a number of work units") as e:
        ml.verify(small_certificate(), max_work=bad)
    assert not isinstance(e.value, V.WorkLimitError)


def test_a_refused_check_is_no_verdict():
    """A certificate that does not hold is still refused for its work, not rejected
    for its claim (the claim is never looked at)."""
    cert = enumeration_over_2_45()
    cert["length"] -= 1  # no longer the sum of the taps: cheap to see, but not looked at
    with pytest.raises(V.WorkLimitError):
        ml.verify(cert)
    with pytest.raises(ValueError, match="length") as e:
        ml.verify(cert, max_work=10**16)  # the claim is checked before the walk
    assert not isinstance(e.value, V.WorkLimitError)


def test_kernel_checks_of_a_huge_board_are_refused_before_anything_large():
    """A 2^20-tap board (a 4 MB dense matrix per prime power, hours of elimination):
    refused before A or H is built."""
    b = {"rows": 1024, "cols": 1024, "states": 3, "pattern": "cross"}
    cert = {
        "format": "modlights-certificate",
        "version": 1,
        "kind": "minimal",
        "board": b,
        "kernel": {"generators": [], "orders": []},
        "rhs": [0] * (1 << 20),
        "taps": [0] * (1 << 20),
        "length": 0,
        "proof": {"method": "enumeration"},
    }
    t0 = time.perf_counter()
    with pytest.raises(V.WorkLimitError, match="kernel checks"):
        ml.verify(cert)
    assert time.perf_counter() - t0 < 1.0


# ------------------------------------------------------------------ metered work
def identity_symmetries(board: ml.Board, count: int) -> list:
    ident = {"cells": list(range(board.n_cells)), "taps": list(range(board.n_taps))}
    return [dict(ident) for _ in range(count)]


def test_leaves_a_symmetry_does_not_map_away_are_metered():
    """The estimate takes one leaf in (symmetries + 1) as walked; identity symmetries
    map no leaf away, so every leaf is walked and the meter stops the check once the
    work passes the bound (``more``: the need is at least what was done)."""
    board = kernel_board(16, 40)
    sol = ml.Solver(board).solve(board.random_state(rng=3), budget=1 << 20)
    assert sol.proven_minimal and sol.length > 0
    proof = {"method": "tree", "leaf_dim": 8, "symmetries": identity_symmetries(board, 7)}
    cert = minimal_certificate(board, board.tap_vector(sol.taps), proof)
    planned = V.estimate(cert)
    meter = V._Meter(None)
    assert "256 leaves checked" in V._guarded(V._check, cert, meter)  # metered
    assert meter.need > 1.5 * planned  # 2^8 leaves walked, 2^5 estimated
    assert ml.verify(cert, max_work=meter.need) is True
    with pytest.raises(V.WorkLimitError, match="more than") as e:
        ml.verify(cert, max_work=(planned + meter.need) // 2)
    assert e.value.more and "leaves" in e.value.step


def test_lp_weights_of_many_digits_are_metered():
    """A hardest certificate whose LP weights have 200-digit denominators: the estimate
    counts one 30-bit limb a weight, the check meters the hundreds it takes."""
    from fractions import Fraction

    board = kernel_board(4, 30)
    s = ml.Solver(board)
    sol = s.solve(board.random_state(rng=1), budget=1 << 20)
    witness = minimal_certificate(board, board.tap_vector(sol.taps), {"method": "enumeration"})
    elements = [[(i >> t) & 1 for t in range(4)] for i in range(16)]
    dens = [10**200 + 2 * i + 1 for i in range(15)]
    rest = 1 - sum(Fraction(1, d) for d in dens)
    weights = [f"1/{d}" for d in dens] + [f"{rest.numerator}/{rest.denominator}"]
    cert = {
        **{k: witness[k] for k in ("format", "version", "board", "kernel")},
        "kind": "hardest",
        "lower": witness["length"],
        "upper": board.n_taps,
        "witness": {k: witness[k] for k in ("rhs", "taps", "length", "proof")},
        "upper_bound": {"method": "lp-dual", "elements": elements, "weights": weights},
    }
    assert ml.verify(cert) is True
    planned = V.estimate(cert)
    with pytest.raises(V.WorkLimitError, match="more than") as e:
        ml.verify(cert, max_work=planned + 10_000)
    assert e.value.more and "LP" in e.value.step


# ------------------------------------------------------------------ legitimate certificates
def test_the_repository_certificates_are_under_the_default_bound():
    """Every certificate of the JavaScript golden file (Python's checks of solution,
    tree, symmetry and hardest certificates), and the all-on 24 x 24 board's (the
    largest of the OEIS A075464 checks of tests/test_solver_certificate.py), verify
    with the default bound."""
    cases = json.loads((ROOT / "js" / "test" / "golden" / "verify.json").read_text())["cases"]
    good = [c["cert"] for c in cases if c["ok"]]
    assert len(good) >= 20
    for cert in good:
        assert V.estimate(cert) < V.MAX_WORK // 2
        assert ml.verify(cert) is True
    b = ml.Board.grid(24, 24)
    sol = ml.Solver(b).solve(np.zeros((24, 24), dtype=np.uint8), 1)
    assert V.estimate(sol.certificate()) < V.MAX_WORK // 10 and ml.verify(sol.certificate())
