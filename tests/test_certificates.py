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


#: files past this many bytes take minutes to check (39 x 39's hardest: about 2 min in
#: Python and 3 in C): the slow group; the others are seconds each, the heavy group
SLOW_BYTES = 200_000


def _param(path: pathlib.Path) -> Any:
    slow = path.stat().st_size > SLOW_BYTES and path.parent.name == "hardest"
    return pytest.param(path, marks=pytest.mark.slow if slow else pytest.mark.heavy)


def test_the_hardest_boards_table_lists_every_hardest_certificate_with_its_bounds():
    table = (ROOT / "docs" / "tutorials" / "hardest-boards.md").read_text()
    for f in FILES:
        if f.parent.name != "hardest":
            continue
        cert = _load(f)
        name = str(f.relative_to(ROOT))
        row = next((ln for ln in table.splitlines() if name in ln), None)
        assert row is not None, name
        k = cert["board"]["rows"]
        assert f.name == f"{k}x{k}.json" and cert["kind"] == "hardest"
        value = (
            str(cert["lower"])
            if cert["lower"] == cert["upper"]
            else f"{cert['lower']}..{cert['upper']}"
        )
        assert value in row, (name, value, row)


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
