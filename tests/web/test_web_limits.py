"""The web service's limits (modlights.web.limits): the issue's heavy requests are
refused fast or answered correctly, costs count what they claim, and request bodies
are capped per route, parsed in a worker when large and given a deadline."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import modlights as ml  # noqa: E402
from modlights.web import create_app, limits  # noqa: E402
from serving import (  # noqa: E402
    assert_error,
    body_limit_of,
    thread_server,
    trickle,
)


# ----------------------------------------------------------------------------- cost
def reproducers():
    """The heavy requests (name, path, body) listed in bench/web_load.py."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        import web_load
    finally:
        sys.path.pop(0)
    return web_load.issue_requests()


@pytest.mark.parametrize("name, path, body", reproducers(), ids=[r[0] for r in reproducers()])
def test_heavy_requests_are_refused_fast_or_answered(client, name, path, body):
    raw = json.dumps(body)
    t0 = time.perf_counter()
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    took = time.perf_counter() - t0
    if r.status_code == 200:
        assert took < limits.WORK_SECONDS + 2, took
        board = ml.Board.from_dict(body["board"])
        if path == "/api/solve":
            taps = np.array(r.json()["taps"])
            assert not board.apply(np.array(body["state"]), taps).any()
        else:
            s = ml.Solver(board)
            assert r.json() == {
                "rank": s.rank,
                "nullity": s.nullity,
                "kernel_size": s.kernel_size,
                "is_invertible": s.is_invertible,
                "engine": s.engine,
            }
    else:
        assert_error(r, 400, "too_large")
        assert took < 2, took  # refused, not worked on
    assert (
        name not in ("analyse-4096-offsets", "analyse-200-offsets", "graph-solve", "generate-mixed")
        or r.status_code == 400
    )


def test_kernel_sizes_past_the_int_to_str_limit_are_answered(client):
    """|ker A| of 6,000 digits (a 50 x 50 board over Z/255 whose one offset lands on
    one tile: 2,499 generators) is answered exactly, not refused by Python's int -> str
    limit (4,300 digits)."""
    board = ml.Board.grid(50, 50, states=255, pattern=[(49, 49)])
    r = client.post("/api/analyse", json={"board": board.to_dict()})
    assert r.status_code == 200, r.text
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        got = r.json()
    finally:
        sys.set_int_max_str_digits(limit)
    s = ml.Solver(board)
    assert got["nullity"] == s.nullity and got["kernel_size"] == s.kernel_size


def test_board_cost_counts_tiles_offsets_reach_and_bits():
    cost = limits.board_cost
    assert cost({"rows": 10, "cols": 20}) == 10 * 20 * 5 * 1 * 1  # cross, n = 2
    assert cost({"rows": 10, "cols": 20, "states": 255, "pattern": "knight"}) == 10 * 20 * 9 * 2 * 8
    assert (
        cost({"rows": 4, "cols": 4, "states": 5, "pattern": [[0, 0], [3, -7], [3, -7]]})
        == 16 * 2 * 7 * 3
    )  # distinct
    mixed = [["cross", [[0, 0], [0, 4]]], ["knight", "cross"]]
    assert limits.pattern_stats(mixed, 2, 2) == (3, 9, 4)
    assert cost({"rows": 2, "cols": 2, "pattern": mixed}) == 4 * 9 * 4
    assert cost({"effects": [[0], [1, 5]], "states": 3, "n_cells": 2}) == 2 * 6 * 2
    assert cost({"rows": "x"}) == 0 and cost(None) == 0
    many = [[[[i, j]] for j in range(8)] for i in range(9)]  # 72 patterns
    with pytest.raises(limits.TooLarge, match="64 distinct"):
        limits.pattern_stats(many, 9, 8)
    with pytest.raises(limits.TooLarge, match="offset entries"):
        limits.pattern_stats([[[[0, 0]] * 400] * 64] * 64, 64, 64)


def test_cost_limit_is_the_boundary(monkeypatch):
    b = {"rows": 10, "cols": 10, "states": 4, "pattern": "square"}  # 100*9*1*2
    monkeypatch.setattr(limits, "MAX_COST", 1800)
    limits.check_board(b)
    monkeypatch.setattr(limits, "MAX_COST", 1799)
    with pytest.raises(limits.TooLarge, match="1,800 work units"):
        limits.check_board(b, limits.MAX_COST)


def test_generate_cost_counts_placement_tries(client):
    body = {"rows": 32, "cols": 32, "states": 255, "pattern": "knight"}
    limits.check_generate(body)  # 147k units
    wide = [[0, 0], [3, 3], [-3, 1], [2, -2], [1, 0], [0, 1], [-1, 0], [0, -1]]
    limits.check_generate({**body, "pattern": wide})  # one board: 197k units
    limits.check_generate({**body, "pattern": wide, "holes": 3, "unique": False})
    with pytest.raises(limits.TooLarge, match="256 boards"):  # 256 tries: 50 M
        limits.check_generate({**body, "pattern": wide, "holes": 3})
    r = client.post("/api/generate", json={**body, "pattern": wide, "holes": 3})
    assert_error(r, 400, "too_large")


def test_minimal_graph_search_bound(client):
    ok = ml.Board.from_effects([[0, 1], [1], [2, 0]], 5, n_cells=3)
    r = client.post("/api/solve", json={"board": ok.to_dict(), "state": [1, 2, 3]})
    assert r.status_code == 200
    assert not ok.apply([1, 2, 3], np.array(r.json()["taps"])).any()
    wide = {"effects": [[j % 4] for j in range(300)], "states": 3, "n_cells": 4}
    assert_error(
        client.post("/api/solve", json={"board": wide, "state": [1, 0, 0, 0]}), 400, "too_large"
    )
    r = client.post("/api/solve", json={"board": wide, "state": [1, 0, 0, 0], "minimal": False})
    assert r.status_code == 200


def test_an_answer_too_large_to_send_is_refused(client):
    b = ml.Board.grid(250, 250, 255, "knight", holes=[(125, 125)])
    state = b.random_state(rng=3, solvable=True)
    body = {"board": b.to_dict(), "state": state.tolist(), "minimal": False}
    t0 = time.perf_counter()
    doc = assert_error(client.post("/api/solve", json=body), 400, "too_large")
    assert f"limited to {limits.MAX_ANSWER_MOVES} moves" in doc["detail"]
    assert time.perf_counter() - t0 < limits.WORK_SECONDS
    small = ml.Board.grid(40, 40, 255, "knight")  # under the cap: answered
    state = small.random_state(rng=3, solvable=True)
    r = client.post(
        "/api/solve", json={"board": small.to_dict(), "state": state.tolist(), "minimal": False}
    )
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert not small.apply(state, np.array(r.json()["taps"])).any()
    assert r.json()["length"] == len(r.json()["moves"]) <= limits.MAX_ANSWER_MOVES


def test_long_puzzle_code_is_refused(client):
    assert_error(client.get("/api/puzzle/" + "A" * (limits.MAX_CODE_CHARS + 1)), 400, "too_large")


# ----------------------------------------------------------------------------- bodies
def largest_bodies():
    """(route, body) of the largest valid bodies of each route that the tile caps allow,
    as json.dumps writes them: locked and holes as boolean masks, values with the most
    digits, the longest pattern data."""

    def mask(rows, cols):
        return [[False] * cols for _ in range(rows)]

    def grid(rows, cols, states, pattern="horizontal"):
        return {
            "rows": rows,
            "cols": cols,
            "states": states,
            "pattern": pattern,
            "locked": mask(rows, cols),
            "holes": mask(rows, cols),
            "wrap": False,
        }

    top = [[254] * 150 for _ in range(150)]
    return [
        (
            "/api/solve",
            {
                "board": grid(1, limits.MAX_TILES, 2),
                "state": [[1] * limits.MAX_TILES],
                "target": [[1] * limits.MAX_TILES],
                "minimal": False,
            },
        ),
        ("/api/analyse", {"board": grid(limits.MAX_TILES, 1, 2)}),
        ("/api/hint", {"board": grid(150, 150, 255), "state": top}),
        ("/api/encode", {"board": grid(64, 64, 255), "start": [[254] * 64] * 64}),
        (
            "/api/generate",
            {
                "rows": 32,
                "cols": 32,
                "states": 255,
                "pattern": [[[[-31, -31]] * 19] * 32] * 32,
                "locked": mask(32, 32),
                "holes": mask(32, 32),
                "seed": "s" * 200,
            },
        ),
    ]


@pytest.mark.parametrize("route, body", largest_bodies(), ids=lambda v: str(v)[:14])
def test_largest_valid_bodies_fit_their_route_caps(route, body):
    size = len(json.dumps(body).encode())
    assert size <= limits.body_cap(route), (route, size, limits.body_cap(route))


def test_route_caps_are_smaller_than_solves():
    caps = {r: limits.body_cap(r) for r in limits.BODY_ROUTES}
    assert caps["/api/solve"] == limits.MAX_BODY_BYTES
    for route in ("/api/hint", "/api/encode", "/api/generate"):
        assert caps[route] < limits.MAX_BODY_BYTES // 4, caps
    assert caps["/api/analyse"] < limits.MAX_BODY_BYTES


def test_a_body_over_its_routes_cap_is_413_and_under_it_is_answered(client):
    b = ml.Board.grid(150, 150, 255, "cross")
    body = {"board": {**b.to_dict(), "locked": [[False] * 150] * 150}, "state": [[254] * 150] * 150}
    raw = json.dumps(body).encode()
    r = client.post("/api/hint", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    for route in ("/api/hint", "/api/encode", "/api/generate", "/api/analyse"):
        over = raw + b" " * (limits.body_cap(route) + 1 - len(raw))
        doc = assert_error(
            client.post(route, content=over, headers={"content-type": "application/json"}),
            413,
            "too_large",
        )
        assert str(limits.body_cap(route)) in doc["detail"]


@pytest.fixture()
def slow_body_server(monkeypatch):
    """A uvicorn server in a thread whose body deadline is 1 s."""
    monkeypatch.setattr(limits, "BODY_SECONDS", 1.0)
    yield from thread_server(create_app(workers=1, queue=2))


@pytest.mark.parametrize(
    "path",
    # 1.5 s each (the body deadline): the default run keeps /api/solve
    [
        "/api/solve",
        pytest.param("/api/analyse", marks=pytest.mark.heavy),
        pytest.param("/api/health", marks=pytest.mark.heavy),
    ],
)
def test_a_trickled_body_is_408_within_its_deadline(slow_body_server, path):
    app, port = slow_body_server
    took, got = trickle(port, path, seconds=6, length=min(8_000_000, limits.body_cap(path)))
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), got[:300]
    assert json.loads(body)["error"] == "deadline"
    assert took < 1.0 + 1.5, took  # the deadline, and a margin
    r = httpx.get(f"http://127.0.0.1:{port}/api/health")
    assert r.status_code == 200


def test_large_bodies_hold_their_bytes_and_small_ones_always_get_in(monkeypatch):
    """Bodies over limits.SMALL_BODY_BYTES hold their announced size from arrival to
    answer, within limits.MAX_HELD_BODY_BYTES: one more is 503 busy (Retry-After) at
    once while it is full; a small request is still served meanwhile."""
    monkeypatch.setattr(limits, "MAX_HELD_BODY_BYTES", 300_000)
    app = create_app(workers=1, queue=4)
    b = ml.Board.grid(120, 120, 2)
    raw = json.dumps({"board": b.to_dict()}).encode()
    raw += b" " * (200_000 - len(raw))  # 200 KB: a large body

    async def main():
        transport = httpx.ASGITransport(app=app)
        go = asyncio.Event()

        async def trickled():
            yield raw[:1000]
            await go.wait()
            yield raw[1000:]

        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=30) as c:
            headers = {"content-type": "application/json", "content-length": str(len(raw))}
            first = asyncio.create_task(c.post("/api/analyse", content=trickled(), headers=headers))
            await asyncio.sleep(0.3)
            second = await c.post("/api/analyse", content=raw, headers=headers)
            small = await c.post("/api/analyse", json={"board": {"rows": 3, "cols": 3}})
            go.set()
            return await first, second, small

    try:
        first, second, small = asyncio.run(main())
    finally:
        app.state.pool.close()
    assert_error(second, 503, "busy")
    assert second.headers["retry-after"] == str(limits.RETRY_AFTER_SECONDS)
    assert small.status_code == 200 and small.json()["rank"] == 9
    assert first.status_code == 200 and first.json()["rank"] == ml.Solver(b).rank


def huge_solve_body() -> bytes:
    """A 2000 x 2000 solve body of about 8 MB (past every route's tile cap)."""
    row = "[" + ",".join(["0"] * 2000) + "]"
    return (
        '{"board":{"rows":2000,"cols":2000},"state":['
        + ",".join([row] * 2000)
        + '],"minimal":false}'
    ).encode()


def big(body: dict) -> bytes:
    """``body`` as JSON padded with spaces past limits.RAW_BODY_BYTES."""
    raw = json.dumps(body).encode()
    return raw + b" " * max(0, limits.RAW_BODY_BYTES + 1 - len(raw))


def test_large_bodies_are_parsed_in_a_worker(monkeypatch):
    """A POST body over limits.RAW_BODY_BYTES is never decoded by the server's process
    (its Request.json fails here); the worker decodes, validates, checks and works on
    it, with the answers and errors of a small body."""
    from starlette.requests import Request

    async def no_json(self):
        raise AssertionError("a large body was parsed in the event loop")

    b = ml.Board.grid(300, 300, 2, "cross")
    state = b.random_state(rng=3)
    ok = json.dumps({"board": b.to_dict(), "state": state.tolist(), "minimal": False}).encode()
    assert len(ok) > limits.RAW_BODY_BYTES
    app = create_app(workers=1, queue=4)
    with TestClient(app, raise_server_exceptions=False) as c:
        monkeypatch.setattr(Request, "json", no_json)

        def post(raw: bytes):
            return c.post("/api/solve", content=raw, headers={"content-type": "application/json"})

        r = post(ok)
        assert r.status_code == 200, r.text
        assert not b.apply(state, np.array(r.json()["taps"])).any()
        huge = huge_solve_body()
        assert_error(post(huge), 400, "too_large")
        bad = {"board": b.to_dict(), "state": [[3] * 300] * 300, "minimal": False}
        assert_error(post(big(bad)), 400, "bad_input")
        assert_error(post(big({**bad, "minimal": "yes"})), 422, "invalid_request")
        corner = [[1, 0, 0, 0, 0]] + [[0] * 5] * 4  # 5 x 5: unsolvable
        assert_error(
            post(big({"board": {"rows": 5, "cols": 5}, "state": corner, "minimal": False})),
            422,
            "unsolvable",
        )
        r = c.post(
            "/api/analyse",
            content=big({"board": b.to_dict()}),
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 200 and r.json()["rank"] == ml.Solver(b).rank, r.text
        monkeypatch.undo()
        assert_error(post(b'{"board": {"rows": 3}, "state": []}'), 400, "bad_input")


SMALL_BAD = [
    (b'{"board": {"rows": 3, "cols": 3}, "state": NaN}', "application/json"),
    (b'{"board": {"rows": 3, "cols": 3}, "state": [[0, 0, 0]] * 3}', "application/json"),
    (
        b'{"board": {"rows": 3, "cols": 3}, "state": [[0, 0, 0]], "minimal": "yes", "x": 1}',
        "application/json",
    ),
    (b"[]", "application/json"),
    (b'"x"', "application/json"),
    (b"\xff\xfe", "application/json"),
    (b'{"board": {"rows": 3, "cols": 3}, "state": [[0, 0, 0]]}', None),
    (b'{"board": {"rows": 3, "cols": 3}, "state": [[0, 0, 0]]}', "text/plain"),
    (b'{"board": {"rows": 3, "cols": 3}, "state": [[0, 0, 0]]}', "application/vnd.x+json"),
    (b'{"board": {"rows": 3, "cols": 9}, "state": [[0, 0, 0]]}', "application/json"),
    (
        b'{"board": {"rows": 3, "cols": 3, "pattern": "star"}, "state": [[0] * 3]}',
        "application/json",
    ),
    (b'{"board": {"rows": 1000, "cols": 1000}, "state": [[0]]}', "application/json"),
]


@pytest.mark.parametrize("raw, ctype", SMALL_BAD, ids=[str(i) for i in range(len(SMALL_BAD))])
def test_a_large_solve_body_is_answered_as_the_same_small_one(client, raw, ctype):
    same_answer(client, "/api/solve", raw, ctype)


def same_answer(client, path, raw, ctype):
    """``raw`` and ``raw`` padded past limits.RAW_BODY_BYTES get the same answer (a
    JSON decode error's position aside)."""
    headers = {"content-type": ctype} if ctype else {}
    small = client.post(path, content=raw, headers=headers)
    large = client.post(path, content=raw + b" " * limits.RAW_BODY_BYTES, headers=headers)
    assert large.status_code == small.status_code, (small.text, large.text)
    if small.status_code == 200:
        assert large.json() == small.json()
        return
    a, b = small.json(), large.json()
    assert a["error"] == b["error"]
    if "JSON decode error" not in a["detail"]:  # its position may differ
        assert a["detail"] == b["detail"]


OTHER_BODIES = [
    ("/api/analyse", {"board": ml.Board.grid(5, 5, 3, "knight").to_dict()}),
    ("/api/analyse", {"board": {"rows": 1000, "cols": 1000}}),
    ("/api/analyse", {"board": []}),
    ("/api/analyse", {"board": {"rows": 3, "cols": 3, "pattern": "star"}}),
    ("/api/hint", {"board": {"rows": 3, "cols": 3}, "state": [[1, 0, 0], [0, 0, 0], [0, 0, 0]]}),
    ("/api/hint", {"board": {"rows": 300, "cols": 300}, "state": [[0]]}),
    ("/api/hint", {"board": {"rows": 3, "cols": 3}}),
    ("/api/generate", {"rows": 4, "cols": 4, "states": 3, "seed": 7}),
    ("/api/generate", {"rows": 5.0, "cols": 5}),
    ("/api/generate", {"rows": 1000, "cols": 1000}),
    ("/api/generate", {"rows": 5, "cols": 5, "difficulty": "extreme"}),
    ("/api/encode", {"board": {"rows": 3, "cols": 3, "states": 4}, "start": [[1] * 3] * 3}),
    ("/api/encode", {"board": {"rows": 100, "cols": 100}, "start": [[0]]}),
    ("/api/encode", {"board": {"rows": 3, "cols": 3}, "start": [[5] * 3] * 3}),
]


@pytest.mark.parametrize(
    "path, body", OTHER_BODIES, ids=[f"{i}{p}" for i, (p, _) in enumerate(OTHER_BODIES)]
)
def test_large_bodies_of_the_other_routes_are_answered_as_small_ones(client, path, body):
    same_answer(client, path, json.dumps(body).encode(), "application/json")


@pytest.mark.heavy  # 9 s: four 8 MB bodies parsed
def test_large_solve_bodies_leave_the_event_loop_free():
    """Four 8 MB /api/solve bodies at once (over the tile limit, so refused after
    parsing) leave the server's event loop free: the time it stalls in all (the ticks
    late by more than 50 ms, summed) is under two parses of one body, measured in the
    same run (parsed in the event loop, the four would stall it for four parses; a
    machine under load stalls a ticker by its own preemptions, not by parses)."""
    app = create_app(workers=2, queue=4)
    huge = huge_solve_body()

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=60) as c:
            assert (
                await c.post("/api/analyse", json={"board": {"rows": 3, "cols": 3}})
            ).status_code == 200  # warm
            gaps, done = [], asyncio.Event()

            async def tick():
                last = time.perf_counter()
                while not done.is_set():
                    await asyncio.sleep(0.005)
                    now = time.perf_counter()
                    gaps.append(now - last)
                    last = now

            ticker = asyncio.create_task(tick())
            answers = await asyncio.gather(
                *(
                    c.post("/api/solve", content=huge, headers={"content-type": "application/json"})
                    for _ in range(4)
                )
            )
            done.set()
            await ticker
            return answers, sum(g for g in gaps if g > 0.05)

    try:
        answers, stalled = asyncio.run(main())
    finally:
        app.state.pool.close()
    for r in answers:
        assert_error(r, 400, "too_large")
    parse = []
    for _ in range(2):
        t0 = time.perf_counter()
        json.loads(huge)
        parse.append(time.perf_counter() - t0)
    assert stalled < 2 * min(parse), (stalled, parse)


def test_trickled_bodies_hold_their_bytes_no_longer_than_the_deadline(
    slow_body_server, monkeypatch
):
    """Large bodies trickled (1 MB announced each) fill the bytes held (2.5 MB here)
    until their body deadline; one more large body meanwhile is 503 busy at once, a
    small request is answered; afterwards large bodies are admitted again."""
    app, port = slow_body_server
    body_limit = body_limit_of(app)
    monkeypatch.setattr(body_limit, "held_bytes", 2_500_000)
    out: list = []
    threads = [
        threading.Thread(
            target=lambda: out.append(trickle(port, "/api/hint", seconds=6, length=1_000_000))
        )
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    time.sleep(0.4)
    took, got = trickle(port, "/api/hint", seconds=6, length=1_000_000)
    small = httpx.post(
        f"http://127.0.0.1:{port}/api/analyse", json={"board": {"rows": 3, "cols": 3}}, timeout=30
    )
    for t in threads:
        t.join(10)
    assert got.startswith(b"HTTP/1.1 503"), got[:300]
    assert b'"busy"' in got and took < 1.0, took
    assert small.status_code == 200, small.text
    assert len(out) == 2 and all(g.startswith(b"HTTP/1.1 408") for _, g in out), out
    assert body_limit.held == 0
    took, got = trickle(port, "/api/hint", seconds=3, length=1_000_000)
    assert got.startswith(b"HTTP/1.1 408"), got[:300]  # admitted again, then its deadline
