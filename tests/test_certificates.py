"""The repository's certificates (certificates/, listed in docs/guide/records.md): every
file holds for both checkers (Python's ``modlights.verify`` and the C library's
``ml_verify_json``), the page lists each with the value its file proves, and a file
with one tap or its length altered is refused by both."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import pytest

import modlights as ml
from modlights.native import _core
from modlights.search.verify import estimate

ROOT = pathlib.Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "certificates").rglob("*.json"))
RECORDS = ROOT / "docs" / "guide" / "records.md"


def _load(path: pathlib.Path) -> dict:
    return json.loads(path.read_text())


def _page_rows() -> dict[str, tuple[int, str, int, str]]:
    """{certificate path: (k, value or lower..upper, nullity, proof method)} of the
    page's A075464 tables."""
    rows = {}
    for line in RECORDS.read_text().splitlines():
        m = re.match(r"\| (\d+) \| ([\d.]+) \| (\d+) \| (\w+) \| `([^`]+)`", line)
        if m:
            rows[m[5]] = (int(m[1]), m[2], int(m[3]), m[4])
    return rows


def test_the_folder_holds_certificates():
    assert len(FILES) >= 20


def test_the_records_page_lists_every_a075464_certificate_with_its_value():
    rows = _page_rows()
    a_files = [f for f in FILES if f.parent.name == "a075464"]
    assert {str(f.relative_to(ROOT)) for f in a_files} == set(rows)
    for f in a_files:
        cert = _load(f)
        k, value, nullity, method = rows[str(f.relative_to(ROOT))]
        b = cert["board"]
        assert (b["rows"], b["cols"], b["states"], b["pattern"]) == (k, k, 2, "cross")
        assert not b["wrap"] and not any(map(any, b["locked"] or [])) and not b["holes"]
        assert set(cert["rhs"]) == {1}  # all on, target 0
        assert f.name == f"k{k:03d}.json"
        if cert["kind"] == "bounds":  # not settled: lower..upper, nullity from the solver
            assert value == f"{cert['lower']}..{cert['upper']}"
            assert cert["upper"] == sum(cert["taps"]) and cert["lower"] < cert["upper"]
            assert ml.Solver(ml.Board.grid(k, k)).nullity == nullity
            assert cert["lower_bound"]["method"] == method
            continue
        assert cert["kind"] == "minimal"
        assert cert["length"] == int(value) == sum(cert["taps"])
        assert len(cert["kernel"]["generators"]) == nullity
        assert cert["proof"]["method"] == method


#: files whose check needs more work units than this (``verify.estimate``: about a
#: nanosecond each, so some 10 s of one core; 39 x 39's hardest: 1.5 x 10^11, about 2 min
#: in Python and 3 in C) are the slow group; the others, a few seconds at most, the heavy one
SLOW_WORK = 10**10


def _param(path: pathlib.Path) -> Any:
    slow = estimate(_load(path)) > SLOW_WORK
    return pytest.param(path, marks=pytest.mark.slow if slow else pytest.mark.heavy)


HARDEST_PAGE = ROOT / "docs" / "tutorials" / "hardest-boards.md"
#: a row of the hardest-boards table: | k x k | published | here | time | certificate | verify |
HARDEST_ROW = re.compile(
    r"\| (\d+) x (\d+) \| ([^|]*) \| ([^|]*) \| ([^|]*) \| ([^|]*) \| ([^|]*) \|$"
)


def _hardest_rows(text: str) -> dict[int, list[tuple]]:
    """{k: [(published, (lower, upper) or None, settled, certificate path or None)]} of
    the page's table: "here" is **v** (settled) or lower..upper, "-" without a
    certificate; the published column is as the published table gives it."""
    rows: dict[int, list[tuple]] = {}
    for line in text.splitlines():
        m = HARDEST_ROW.match(line.strip())
        if not m:
            continue
        assert m[1] == m[2], line
        here = m[4].strip()
        b = re.match(r"\*\*(\d+)\*\*", here)
        r = re.match(r"(\d+)\.\.(\d+)", here)
        bounds = (int(b[1]),) * 2 if b else (int(r[1]), int(r[2])) if r else None
        path = re.search(r"`(certificates/hardest/[^`]+)`", m[6])
        rows.setdefault(int(m[1]), []).append(
            (m[3].strip(), bounds, bool(b), path[1] if path else None)
        )
    return rows


def _published_exact(text: str) -> int | None:
    """The published column's value when it is exact ("199", "197 (wrong)"), else None
    (bounds "239..305", "180..<900")."""
    m = re.fullmatch(r"(\d+)(?: \(wrong\))?", text)
    return int(m[1]) if m else None


def test_the_hardest_boards_table_lists_every_size_and_certificate_with_its_bounds():
    """Every size 1..100 once; every file of certificates/hardest in its size's row with
    the bounds its ``lower`` and ``upper`` fields prove (bold exactly when they meet), a
    row without a file claims nothing; where the published column is exact it agrees
    with the file (equal when settled, between the bounds otherwise), except 19 x 19's
    197, which the file's upper bound refutes."""
    rows = _hardest_rows(HARDEST_PAGE.read_text())
    assert sorted(rows) == list(range(1, 101)), sorted(set(range(1, 101)) ^ set(rows))
    assert all(len(v) == 1 for v in rows.values()), [k for k, v in rows.items() if len(v) > 1]
    files = {str(f.relative_to(ROOT)): _load(f) for f in FILES if f.parent.name == "hardest"}
    assert {row[3] for (row,) in rows.values()} - {None} == set(files)
    for k, ((published, bounds, bold, path),) in rows.items():
        if path is None:
            assert bounds is None and not bold, (k, "a claim without a certificate")
            continue
        cert = files[path]
        b = cert["board"]
        assert path == f"certificates/hardest/{k}x{k}.json" and cert["kind"] == "hardest"
        assert (b["rows"], b["cols"], b["states"], b["pattern"], b["wrap"]) == (
            k,
            k,
            2,
            "cross",
            False,
        )
        assert bounds == (cert["lower"], cert["upper"]), (k, bounds, path)
        assert bold == (cert["lower"] == cert["upper"]), k
        exact = _published_exact(published)
        if exact is None and k != 19:
            assert ".." in published, (k, published)
            continue
        if k == 19:  # the published 197 is wrong: the certificate proves at most 176
            assert exact == 197 and cert["upper"] < exact and "(wrong)" in published
        elif bold:
            assert cert["lower"] == exact, (k, published, path)
        else:
            assert cert["lower"] <= exact <= cert["upper"], (k, published, path)


@pytest.mark.parametrize("path", [_param(f) for f in FILES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_certificate_holds_for_both_checkers(path):
    text = path.read_text()
    assert ml.verify(json.loads(text), max_work=None) is True
    assert _core.verify_json(text)[0] is True


def _refused_by_both(cert: dict) -> None:
    with pytest.raises(ValueError):
        ml.verify(cert, max_work=None)
    assert _core.verify_json(json.dumps(cert))[0] is False


def test_an_altered_certificate_is_refused_by_both_checkers():
    cert = _load(ROOT / "certificates" / "a075464" / "k083.json")  # nullity 6
    tap = cert["taps"].index(1)
    flipped = {**cert, "taps": [*cert["taps"][:tap], 0, *cert["taps"][tap + 1 :]]}
    _refused_by_both(flipped)  # no longer a solution
    _refused_by_both({**flipped, "length": cert["length"] - 1})
    _refused_by_both({**cert, "length": cert["length"] - 1})  # the length is its taps' sum
    gens = [list(g) for g in cert["kernel"]["generators"]]
    gens[0][gens[0].index(1)] = 0
    _refused_by_both({**cert, "kernel": {**cert["kernel"], "generators": gens}})
    heavier = {**cert, "taps": [1 - t if i < 6 else t for i, t in enumerate(cert["taps"])]}
    _refused_by_both(heavier)  # not the board's rhs any more


def test_an_altered_bounds_certificate_is_refused_by_both_checkers():
    cert = _load(ROOT / "certificates" / "a075464" / "k079.json")
    _refused_by_both({**cert, "lower": cert["lower"] + 1})  # past the weights' bound
    _refused_by_both({**cert, "upper": cert["upper"] - 1})  # not the taps' sum
    lb = cert["lower_bound"]
    w = list(lb["weights"])
    w[0] += lb["denominator"] // 2  # the corner tap's cells now weigh more than 1
    _refused_by_both({**cert, "lower_bound": {**lb, "weights": w}})
    tap = cert["taps"].index(1)
    flipped = [*cert["taps"][:tap], 0, *cert["taps"][tap + 1 :]]
    _refused_by_both({**cert, "taps": flipped, "upper": cert["upper"] - 1})
