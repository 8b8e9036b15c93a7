"""The web service through its ASGI app: every endpoint on every board feature, answers
checked against the library (the reference engine, Board.apply), bad bodies, limits,
concurrency, and ``modlights serve`` as a real process."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import modlights as ml  # noqa: E402
from modlights.web import app as web_app  # noqa: E402
from modlights.web import create_app, limits  # noqa: E402
from strategies import board_and_state  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(), raise_server_exceptions=False)


def assert_error(r, *statuses, code=None):
    """An error answered as {"error": short code, "detail": text}, no traceback."""
    assert r.status_code in statuses, (r.status_code, r.text)
    doc = r.json()
    assert set(doc) == {"error", "detail"}
    assert isinstance(doc["error"], str) and isinstance(doc["detail"], str)
    assert "Traceback" not in r.text
    if code is not None:
        assert doc["error"] == code, doc
    return doc


# ----------------------------------------------------------------------------- boards
MIXED = [
    ["cross", "knight", [(0, 0), (0, 2)]],
    ["square", [], "vertical"],
    ["horizontal", "diagonal", "cross"],
]
BOARDS = {
    **{
        f"{name}-n{n}": ml.Board.grid(3, 4, n, name)
        for name, n in zip(sorted(ml.PATTERNS), (2, 3, 4, 5, 6, 7))
    },
    "custom-n8": ml.Board.grid(3, 3, 8, [(0, 0), (1, 1), (-1, 0)]),
    "no-centre-n3": ml.Board.grid(2, 4, 3, [(0, 1), (1, 0)]),
    "mixed-n4": ml.Board.grid(3, 3, 4, MIXED),
    "locks-holes-n5": ml.Board.grid(4, 3, 5, "cross", locked=[(0, 0), (2, 1)], holes=[(3, 2)]),
    "wrap-n6": ml.Board.grid(3, 3, 6, "knight", wrap=True),
    "wrap-mixed-holes-n2": ml.Board.grid(3, 3, 2, MIXED, holes=[(1, 1)], wrap=True),
    "graph-n3": ml.Board.from_effects([[0, 1], [1, 2, 2], [3], [0, 3]], 3, n_cells=5),
    "matrix-n8": ml.Board.from_matrix([[1, 2, 0], [0, 3, 1], [4, 0, 2]], 8),
}


def minimum(b, state, target=0) -> int:
    """The fewest taps, by the reference engine's exhaustive search."""
    sol = ml.Solver(b, backend="reference").solve(state, target, budget=1 << 22)
    assert sol.proven_minimal
    return sol.length


@pytest.mark.parametrize("name", BOARDS)
def test_solve_every_feature(client, name):
    b = BOARDS[name]
    rng = np.random.default_rng(7)
    for target in (0, int(rng.integers(b.states)), rng.integers(0, b.states, b.shape)):
        state = b.random_state(rng=rng, solvable=True)
        t = b.coerce_target(target)
        state = b.coerce_state(state.astype(np.int64) + t)  # solvable to the target
        body = {
            "board": b.to_dict(),
            "state": state.tolist(),
            "target": target if isinstance(target, int) else target.tolist(),
        }
        r = client.post("/api/solve", json=body)
        assert r.status_code == 200, r.text
        d = r.json()
        taps = np.array(d["taps"], dtype=np.int64).reshape(b.shape if b.is_grid else (b.n_taps,))
        assert np.array_equal(b.apply(state, taps), t)  # the taps solve it
        assert d["length"] == int(taps.sum()) == len(d["moves"])
        assert d["proven_minimal"] and d["length"] == minimum(b, state, t)
        assert d["kernel_size"] == ml.Solver(b, backend="reference").kernel_size
        r = client.post("/api/solve", json={**body, "minimal": False})
        assert r.status_code == 200
        taps = np.array(r.json()["taps"], dtype=np.int64).reshape(taps.shape)
        assert np.array_equal(b.apply(state, taps), t)


@pytest.mark.parametrize("name", BOARDS)
def test_analyse_every_feature(client, name):
    b = BOARDS[name]
    r = client.post("/api/analyse", json={"board": b.to_dict()})
    assert r.status_code == 200, r.text
    ref = ml.Solver(b, backend="reference")
    assert r.json() == {
        "rank": ref.rank,
        "nullity": ref.nullity,
        "kernel_size": ref.kernel_size,
        "is_invertible": ref.is_invertible,
        "engine": ml.Solver(b).engine,
    }
    assert r.json()["engine"] in ml.engines()


@pytest.mark.parametrize("name", BOARDS)
def test_hint_is_the_first_tap_of_a_minimal_plan(client, name):
    b = BOARDS[name]
    rng = np.random.default_rng(3)
    for _ in range(3):
        state = b.random_state(rng=rng, solvable=True)
        r = client.post("/api/hint", json={"board": b.to_dict(), "state": state.tolist()})
        assert r.status_code == 200, r.text
        tap = r.json()["tap"]
        m = minimum(b, state)
        if m == 0:
            assert tap is None
            continue
        pos = tuple(tap) if b.is_grid else tap
        assert minimum(b, b.press(state, pos)) == m - 1  # one tap closer


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(board_and_state(solvable=True))
def test_solve_random_boards(client, bst):
    b, state, _ = bst
    r = client.post("/api/solve", json={"board": b.to_dict(), "state": state.tolist()})
    assert r.status_code == 200, r.text
    taps = np.array(r.json()["taps"], dtype=np.int64).reshape(b.shape if b.is_grid else (b.n_taps,))
    assert not b.apply(state, taps).any()


def test_unsolvable(client):
    b = ml.Board.grid(2, 2, 2, "horizontal")
    d = assert_error(
        client.post("/api/solve", json={"board": b.to_dict(), "state": [[1, 0], [0, 0]]}),
        422,
        code="unsolvable",
    )
    with pytest.raises(ml.Unsolvable) as e:  # the library's own words
        ml.Solver(b).solve(np.array([[1, 0], [0, 0]]))
    assert d["detail"] == str(e.value)
    assert_error(
        client.post("/api/hint", json={"board": b.to_dict(), "state": [[1, 0], [0, 0]]}),
        422,
        code="unsolvable",
    )


def test_budget_is_seconds_and_clamped(client, monkeypatch):
    b = ml.Board.grid(24, 24, 2, "square", wrap=True)  # 92 kernel generators
    state = b.random_state(rng=1).tolist()
    monkeypatch.setattr(limits, "MAX_SEARCH_SECONDS", 0.3)
    t0 = time.perf_counter()
    r = client.post("/api/solve", json={"board": b.to_dict(), "state": state, "budget": 1e9})
    assert r.status_code == 200 and r.json()["proven_minimal"] is False
    assert time.perf_counter() - t0 < 5
    taps = np.array(r.json()["taps"])
    assert not b.apply(state, taps).any()


# ----------------------------------------------------------------------------- puzzles
GENERATE = [
    {"rows": 4, "cols": 4},
    {
        "rows": 3,
        "cols": 5,
        "states": 3,
        "pattern": "knight",
        "wrap": True,
        "unique": False,
        "difficulty": "hard",
        "seed": "abc",
    },
    {
        "rows": 4,
        "cols": 3,
        "states": 4,
        "pattern": [[0, 0], [1, 0], [0, 1]],
        "locked": 1,
        "holes": [[3, 2]],
        "seed": 5,
    },
    {
        "rows": 3,
        "cols": 3,
        "states": 6,
        "pattern": MIXED,
        "unique": False,
        "seed": 9,
        "difficulty": "easy",
    },
    {
        "rows": 3,
        "cols": 3,
        "states": 8,
        "pattern": "square",
        "unique": False,
        "seed": 2,
        "locked": [[True, False, False], [False] * 3, [False] * 3],
    },
    {
        "rows": 5,
        "cols": 5,
        "states": 7,
        "pattern": "diagonal",
        "holes": 2,
        "unique": False,
        "seed": 1,
        "difficulty": "expert",
    },
]


@pytest.mark.parametrize("body", GENERATE)
def test_generate_matches_the_library(client, body):
    r = client.post("/api/generate", json=body)
    assert r.status_code == 200, r.text
    d = r.json()
    args = {k: v for k, v in body.items() if k not in ("locked", "holes")}
    for k in ("locked", "holes"):
        if isinstance(body.get(k), list) and body[k] and isinstance(body[k][0][0], bool):
            args[k] = np.array(body[k])
        elif isinstance(body.get(k), list):
            args[k] = [tuple(p) for p in body[k]]
        elif k in body:
            args[k] = body[k]
    if "seed" in body:
        assert d == ml.generate(**args).to_dict()
    p = ml.Puzzle.from_dict(d)
    assert p.min_taps == d["min_taps"] and p.board.states == body.get("states", 2)
    assert minimum(p.board, p.start) == d["min_taps"]


def test_generate_without_seed_gives_a_valid_puzzle(client):
    d = client.post("/api/generate", json={"rows": 3, "cols": 3, "states": 3}).json()
    assert ml.Puzzle.from_code(d["code"]).to_dict() == d


def test_puzzle_by_code(client):
    for body in GENERATE[:3]:
        p = ml.Puzzle.from_dict(client.post("/api/generate", json=body).json())
        r = client.get(f"/api/puzzle/{p.code}")
        assert r.status_code == 200 and r.json() == ml.Puzzle.from_code(p.code).to_dict()


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(board_and_state(solvable=False))
def test_encode_round_trips_any_grid_board(client, bs):
    board, state, _ = bs
    r = client.post("/api/encode", json={"board": board.to_dict(), "start": state.tolist()})
    if not board.is_grid or board.holes.all():
        assert r.status_code == 400 and r.json()["error"] == "bad_input"
        return
    d = r.json()
    p = ml.Puzzle.from_code(d["code"])
    assert p.board == board and np.array_equal(p.start, state)
    assert d["board"] == board.to_dict() and d["start"] == state.tolist()
    assert d["solvable"] == ml.Solver(board, backend="reference").solvable(state)


def test_encode_refuses_a_board_of_holes_only(client):
    board = ml.Board.grid(2, 3, holes=[(r, c) for r in range(2) for c in range(3)])
    r = client.post("/api/encode", json={"board": board.to_dict(), "start": [[0] * 3] * 2})
    assert r.status_code == 400 and "every tile is a hole" in r.json()["detail"]
    with pytest.raises(ValueError, match="every tile is a hole"):
        _ = ml.Puzzle(board, np.zeros((2, 3), np.uint8)).code


def test_encode_refuses_large_and_malformed(client):
    big = ml.Board.grid(100, 100).to_dict()
    r = client.post("/api/encode", json={"board": big, "start": [[0] * 100] * 100})
    assert r.status_code == 400 and r.json()["error"] == "too_large"
    small = ml.Board.grid(2, 2, 3).to_dict()
    for start in ([[0, 3], [0, 0]], [[0, 0]], "x"):
        r = client.post("/api/encode", json={"board": small, "start": start})
        assert r.status_code in (400, 422) and set(r.json()) == {"error", "detail"}


def test_daily(client):
    r = client.get("/api/daily/2026-11-23")
    assert r.status_code == 200
    assert r.json() == [p.to_dict() for p in ml.daily("2026-11-23")]
    assert len(r.json()) == 3


def test_campaign(client):
    from modlights.play import campaign

    r = client.get("/api/campaign")
    assert r.json() == {
        "map_size": campaign.MAP_SIZE,
        "levels_per_group": campaign.LEVELS_PER_GROUP,
        "stars_to_open": campaign.STARS_TO_OPEN,
        "seed": ml.Campaign().seed,
    }
    for row, col, level in ((0, 0, 0), (2, 3, 5), (4, 4, 1)):
        r = client.get(f"/api/campaign/{row}/{col}/{level}")
        assert r.status_code == 200, r.text
        assert r.json() == ml.Campaign().level((row, col), level).to_dict()


def test_patterns_health_and_docs(client):
    assert client.get("/api/patterns").json() == {
        k: [list(o) for o in v] for k, v in ml.PATTERNS.items()
    }
    assert client.get("/api/health").json() == {"status": "ok", "version": ml.__version__}
    docs = client.get("/docs")
    assert docs.status_code == 200
    # Swagger UI comes from the package, not a CDN: the page works offline
    urls = re.findall(r'(?:src|href)="([^"]+)"', docs.text) + re.findall(
        r"url: '([^']+)'", docs.text
    )
    assert urls and not [u for u in urls if "://" in u]
    for u in urls:
        assert client.get(u).status_code == 200, u
    paths = client.get("/openapi.json").json()["paths"]
    for p in (
        "/api/solve",
        "/api/analyse",
        "/api/hint",
        "/api/generate",
        "/api/puzzle/{code}",
        "/api/daily/{date}",
        "/api/campaign",
        "/api/campaign/{row}/{col}/{level}",
        "/api/patterns",
        "/api/health",
    ):
        assert p in paths


def test_game_is_served_when_shipped(tmp_path, monkeypatch):
    monkeypatch.setattr(web_app, "STATIC_DIR", tmp_path)
    c = TestClient(create_app())
    assert_error(c.get("/"), 404, code="not_found")  # nothing shipped
    (tmp_path / "index.html").write_text("<title>modlights game</title>")
    (tmp_path / "app.js").write_text("// js")
    c = TestClient(create_app())
    r = c.get("/")
    assert r.status_code == 200 and "modlights game" in r.text
    assert c.get("/app.js").text == "// js"
    assert c.get("/api/health").status_code == 200  # the API still wins


# ----------------------------------------------------------------------------- bad input
B = ml.Board.grid(3, 3, 3).to_dict()
S = [[0] * 3] * 3
BAD = [
    ("post", "/api/solve", {}, 422),
    ("post", "/api/solve", {"board": B}, 422),
    ("post", "/api/solve", {"state": S}, 422),
    ("post", "/api/solve", {"board": B, "state": S, "extra": 1}, 422),
    ("post", "/api/solve", {"board": "3x3", "state": S}, 422),
    ("post", "/api/solve", {"board": B, "state": "000"}, 422),
    ("post", "/api/solve", {"board": B, "state": [[0.5] * 3] * 3}, 422),
    ("post", "/api/solve", {"board": B, "state": [[True] * 3] * 3}, 422),
    ("post", "/api/solve", {"board": B, "state": S, "minimal": "yes"}, 422),
    ("post", "/api/solve", {"board": B, "state": S, "budget": -1}, 422),
    ("post", "/api/solve", {"board": B, "state": S, "budget": "1s"}, 422),
    ("post", "/api/solve", {"board": B, "state": [[3] * 3] * 3}, 400),
    ("post", "/api/solve", {"board": B, "state": [[-1] * 3] * 3}, 400),
    ("post", "/api/solve", {"board": B, "state": [[10**30] * 3] * 3}, 400),
    ("post", "/api/solve", {"board": B, "state": [[0] * 3] * 2}, 400),
    ("post", "/api/solve", {"board": B, "state": [0] * 9}, 400),
    ("post", "/api/solve", {"board": B, "state": S, "target": 3}, 400),
    ("post", "/api/solve", {"board": B, "state": S, "target": [[0, 1]]}, 400),
    ("post", "/api/solve", {"board": {**B, "pattern": "star"}, "state": S}, 400),
    ("post", "/api/solve", {"board": {**B, "states": 1}, "state": S}, 400),
    ("post", "/api/solve", {"board": {**B, "states": 300}, "state": S}, 400),
    ("post", "/api/solve", {"board": {**B, "rows": 2}, "state": S}, 400),
    ("post", "/api/solve", {"board": {**B, "locked": [[3, 3]]}, "state": S}, 400),
    ("post", "/api/solve", {"board": {**B, "size": 3}, "state": S}, 400),
    ("post", "/api/solve", {"board": {"rows": 100000, "cols": 100000}, "state": S}, 400),
    ("post", "/api/solve", {"board": {"rows": 10**40, "cols": 10**40}, "state": S}, 400),
    ("post", "/api/solve", {"board": {"effects": [[0]] * 5, "states": 2}, "state": [[0]]}, 400),
    ("post", "/api/analyse", {}, 422),
    ("post", "/api/analyse", {"board": []}, 422),
    ("post", "/api/analyse", {"board": {"rows": 1000, "cols": 1000}}, 400),
    (
        "post",
        "/api/analyse",
        {"board": {"effects": [[0]] * 2000, "states": 2, "n_cells": 2000}},
        400,
    ),
    ("post", "/api/analyse", {"board": {"rows": 120, "cols": 120, "pattern": [[0, 1]]}}, 400),
    ("post", "/api/analyse", {"board": {"rows": 300, "cols": 300, "states": 3}}, 400),
    ("post", "/api/hint", {"board": B}, 422),
    ("post", "/api/hint", {"board": B, "state": [[9] * 3] * 3}, 400),
    ("post", "/api/hint", {"board": {"rows": 300, "cols": 300}, "state": S}, 400),
    ("post", "/api/generate", {}, 422),
    ("post", "/api/generate", {"rows": "5", "cols": 5}, 422),
    ("post", "/api/generate", {"rows": 5.0, "cols": 5}, 422),
    ("post", "/api/generate", {"rows": True, "cols": 5}, 422),
    ("post", "/api/generate", {"rows": 5, "cols": 5, "difficulty": "extreme"}, 400),
    ("post", "/api/generate", {"rows": 5, "cols": 5, "pattern": "star"}, 400),
    ("post", "/api/generate", {"rows": 5, "cols": 5, "states": 999}, 400),
    ("post", "/api/generate", {"rows": 0, "cols": 5}, 400),
    ("post", "/api/generate", {"rows": 1000, "cols": 1000}, 400),
    ("post", "/api/generate", {"rows": 5, "cols": 5, "locked": 30}, 400),
    ("post", "/api/generate", {"rows": 5, "cols": 5, "holes": [[9, 9]]}, 400),
    ("post", "/api/generate", {"rows": 5, "cols": 5, "seed": 1.5}, 422),
    ("post", "/api/generate", {"rows": 5, "cols": 5, "seed": "x" * 500}, 422),
    ("get", "/api/puzzle/not-a-code", None, 400),
    ("get", "/api/puzzle/AQIEBAMARACgqAkYrvO7A7", None, 400),
    ("get", "/api/puzzle/" + "A" * 60_000, None, 400),
    ("get", "/api/daily/2026-02-30", None, 400),
    ("get", "/api/daily/tomorrow", None, 400),
    ("get", "/api/campaign/5/0/0", None, 400),
    ("get", "/api/campaign/0/0/6", None, 400),
    ("get", "/api/campaign/0/0/x", None, 422),
    ("get", "/api/campaign/0/0/-1", None, 400),
]


@pytest.mark.parametrize(
    "method, path, body, status", BAD, ids=[f"{i}{p[:30]}" for i, (_, p, _, _) in enumerate(BAD)]
)
def test_bad_input_is_json(client, method, path, body, status):
    t0 = time.perf_counter()
    r = client.request(method.upper(), path, json=body)
    assert_error(r, status)
    assert time.perf_counter() - t0 < 5  # refused, not worked on


def test_too_large_is_refused_before_building(client):
    for body in (
        {"board": {"rows": 100000, "cols": 100000}, "state": S},
        {"board": {"rows": 300, "cols": 300}, "state": S},
    ):
        assert_error(client.post("/api/solve", json=body), 400, code="too_large")


def test_largest_boards_within_the_limits(client):
    side = int(limits.MAX_TILES**0.5)
    b = ml.Board.grid(side, side, 2, "cross")
    state = b.random_state(rng=5)
    r = client.post(
        "/api/solve", json={"board": b.to_dict(), "state": state.tolist(), "minimal": False}
    )
    assert r.status_code == 200, r.text
    assert not b.apply(state, np.array(r.json()["taps"])).any()
    over = {"board": {**b.to_dict(), "rows": side + 1}, "state": S, "minimal": False}
    assert_error(client.post("/api/solve", json=over), 400, code="too_large")
    side = int(limits.MAX_MINIMAL_TILES**0.5)
    b = ml.Board.grid(side, side, 3, "knight", wrap=True)
    r = client.post(
        "/api/hint", json={"board": b.to_dict(), "state": b.random_state(rng=2).tolist()}
    )
    assert r.status_code == 200 and len(r.json()["tap"]) == 2


def test_body_size_limit(client):
    big = (
        b'{"board": {"rows": 3, "cols": 3}, "state": ['
        + b"0," * (limits.MAX_BODY_BYTES // 2)
        + b"0]}"
    )
    assert_error(
        client.post("/api/solve", content=big, headers={"content-type": "application/json"}),
        413,
        code="too_large",
    )

    def chunks():  # no content-length: streamed
        for _ in range(limits.MAX_BODY_BYTES // (1 << 16) + 2):
            yield b" " * (1 << 16)

    assert_error(
        client.post("/api/solve", content=chunks(), headers={"content-type": "application/json"}),
        413,
    )


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"[]",
        b"null",
        b"42",
        b'"x"',
        b"\xff\xfe",
        b'{"board": {"rows": 3, "cols": 3}, "state": NaN}',
    ],
)
def test_malformed_json(client, raw):
    for path in ("/api/solve", "/api/analyse", "/api/hint", "/api/generate"):
        assert_error(
            client.post(path, content=raw, headers={"content-type": "application/json"}), 400, 422
        )


def test_unknown_route_and_method(client):
    assert_error(client.get("/api/nothing"), 404, code="not_found")
    assert_error(client.get("/api/solve"), 405, code="method_not_allowed")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "board",
                    "state",
                    "target",
                    "minimal",
                    "budget",
                    "rows",
                    "cols",
                    "states",
                    "pattern",
                    "locked",
                    "holes",
                    "wrap",
                    "effects",
                    "n_cells",
                    "difficulty",
                    "unique",
                    "seed",
                    "x",
                ]
            ),
            children,
            max_size=6,
        )
    ),
    max_leaves=30,
)


@st.composite
def fuzzed_bodies(draw):
    """Valid bodies with one field replaced by junk, or junk outright."""
    base = draw(
        st.sampled_from(
            [
                {"board": B, "state": S},
                {"board": B, "state": S, "target": 1, "budget": 0.1},
                {"board": BOARDS["graph-n3"].to_dict(), "state": [0] * 5},
                {"board": BOARDS["mixed-n4"].to_dict(), "state": S},
                {"rows": 3, "cols": 3, "states": 3, "seed": 1},
            ]
        )
    )
    if draw(st.booleans()):
        return draw(json_values)
    body = json.loads(json.dumps(base))
    where = body
    if "board" in body and draw(st.booleans()):
        where = body["board"]
    key = draw(st.sampled_from(sorted(where) + ["x"]))
    where[key] = draw(json_values)
    return body


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["/api/solve", "/api/analyse", "/api/hint", "/api/generate"]), fuzzed_bodies()
)
def test_fuzzed_bodies_never_500(client, path, body):
    r = client.post(path, json=body)
    assert r.status_code in (200, 400, 413, 422), (r.status_code, r.text)
    if r.status_code != 200:
        assert_error(r, r.status_code)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=40))
def test_fuzzed_paths_never_500(client, text):
    text = urllib.parse.quote(text, safe="")
    for path in (f"/api/puzzle/{text}", f"/api/daily/{text}", f"/api/campaign/{text}/0/0"):
        r = client.get(path)
        assert r.status_code in (200, 400, 404, 422), (path, r.status_code, r.text)


# ----------------------------------------------------------------------------- concurrency
def test_a_slow_solve_does_not_hold_a_fast_analyse():
    slow_board = ml.Board.grid(24, 24, 2, "square", wrap=True)  # unprovable: uses its budget
    slow = {
        "board": slow_board.to_dict(),
        "state": slow_board.random_state(rng=1).tolist(),
        "budget": 3.0,
    }
    fast = {"board": ml.Board.grid(5, 5, 3).to_dict()}
    done: dict[str, float] = {}

    async def main():
        transport = httpx.ASGITransport(app=create_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            t0 = time.perf_counter()

            async def go(name, path, body):
                r = await c.post(path, json=body)
                done[name] = time.perf_counter() - t0
                return r

            slow_task = asyncio.create_task(go("slow", "/api/solve", slow))
            await asyncio.sleep(0.3)  # the search is under way
            r_fast = await go("fast", "/api/analyse", fast)
            r_slow = await slow_task
            return r_slow, r_fast

    r_slow, r_fast = asyncio.run(main())
    assert r_slow.status_code == r_fast.status_code == 200
    assert r_slow.json()["proven_minimal"] is False
    assert done["fast"] < done["slow"] - 1.0, done  # answered while the search ran
    assert r_fast.json()["kernel_size"] == ml.Solver(ml.Board.grid(5, 5, 3)).kernel_size


# ----------------------------------------------------------------------------- serve
def test_modlights_serve_subprocess():
    exe = Path(sys.executable).with_name("modlights")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "modlights"]
    proc = subprocess.Popen(
        cmd + ["serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line + proc.stderr.read() if proc.poll() is not None else line
        url = m.group(0)
        for _ in range(50):
            try:
                r = httpx.get(url + "api/health", timeout=5)
                break
            except httpx.ConnectError:
                time.sleep(0.1)
        assert r.status_code == 200 and r.json()["status"] == "ok"
        b = ml.Board.grid(3, 3, 2)
        r = httpx.post(
            url + "api/solve",
            json={"board": b.to_dict(), "state": [[1, 0, 0], [0, 0, 0], [0, 0, 0]]},
            timeout=30,
        )
        taps = np.array(r.json()["taps"])
        assert not b.apply([[1, 0, 0], [0, 0, 0], [0, 0, 0]], taps).any()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_serve_bad_port_is_a_one_line_error(capsys):
    import socket

    from modlights.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert "port" in err and len(err.strip().splitlines()) == 1
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and len(err.strip().splitlines()) == 1
    assert main(["serve", "--host", "no such host.invalid"]) == 2
    assert "cannot resolve host" in capsys.readouterr().err


def test_serve_serves_the_static_sites_files():
    """`modlights serve` answers every file `modlights site` writes with the same bytes
    (and a type browsers accept for module scripts and streamed WebAssembly); the API
    keeps its routes and its JSON 404 / 405 answers."""
    from modlights.web import site

    files = site.site_files(web_app.STATIC_DIR)
    c = TestClient(create_app())
    for rel, source in files.items():
        r = c.get("/" + rel)
        want = source.read_bytes() if hasattr(source, "read_bytes") else source()
        assert r.status_code == 200 and r.content == want, rel
        assert r.headers["content-type"].startswith(
            site.MEDIA_TYPES["." + rel.rsplit(".", 1)[1]].split(";")[0]
        ), rel
    assert c.get("/").content == files["index.html"].read_bytes()
    assert_error(c.get("/no-such-file.js"), 404, code="not_found")
    assert_error(c.get("/api/no-such-route"), 404, code="not_found")
    assert c.get("/api/solve").status_code == 405
    assert c.post("/index.html").status_code == 405
