"""The web service's worker processes, admission control, cost limits, CORS, metrics,
access log and ``modlights serve``'s flags: a dead, slow or memory-hungry worker
costs one request a JSON error and never the server; the issue's heavy requests are
refused fast or answered correctly."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import socket
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
from modlights.web.workers import WorkerPool  # noqa: E402
from serving import alive, descendants, metric, serve, stop  # noqa: E402


def assert_error(r, status, code):
    assert r.status_code == status, (r.status_code, r.text)
    doc = r.json()
    assert set(doc) == {"error", "detail"} and doc["error"] == code, doc
    assert "Traceback" not in r.text
    return doc


def wait_dead(pid: int, seconds: float = 3.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


@pytest.fixture(scope="module")
def hooked():
    """An app with one worker and the test hooks, its lifespan run (workers started)."""
    app = create_app(workers=1, queue=1, memory_bytes=768 << 20, test_hooks=True)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def small_analyse(c):
    b = ml.Board.grid(5, 5, 3, "knight")
    r = c.post("/api/analyse", json={"board": b.to_dict()})
    assert r.status_code == 200, r.text
    assert r.json()["rank"] == ml.Solver(b, backend="reference").rank


# ----------------------------------------------------------------------------- workers
def test_work_runs_in_a_worker_process(hooked):
    r = hooked.post("/api/_test/pid", json={})
    assert r.status_code == 200
    pid = r.json()["result"]
    assert pid != os.getpid() and alive(pid)
    assert hooked.app.state.pool.memory_bytes == 768 << 20


def test_deadline_is_408_and_the_worker_is_killed(hooked, tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "DEADLINE_MARGIN_SECONDS", 0.2)
    before = metric(hooked.get("/metrics").text, "modlights_worker_restarts_total")
    pidfile = tmp_path / "pid"
    t0 = time.perf_counter()
    r = hooked.post("/api/_test/pid", json={"args": [30, str(pidfile)], "budget": 0.3})
    took = time.perf_counter() - t0
    assert_error(r, 408, "deadline")
    assert 0.4 < took < 3, took  # budget 0.3 + margin 0.2
    assert wait_dead(int(pidfile.read_text()))
    text = hooked.get("/metrics").text
    assert metric(text, "modlights_worker_restarts_total") == before + 1
    assert metric(text, "modlights_work_total", outcome="deadline") >= 1
    small_analyse(hooked)  # a new worker serves


@pytest.mark.parametrize("hook, sig", [("abort", "SIGABRT"), ("segfault", "SIGSEGV")])
def test_a_dead_worker_is_503_and_the_next_request_succeeds(hooked, hook, sig):
    t0 = time.perf_counter()
    doc = assert_error(hooked.post(f"/api/_test/{hook}", json={}), 503, "engine_failure")
    assert sig in doc["detail"] and time.perf_counter() - t0 < 5
    assert hooked.get("/api/health").status_code == 200
    small_analyse(hooked)


def test_memory_cap_is_a_json_error(hooked):
    doc = assert_error(
        hooked.post("/api/_test/allocate", json={"args": [1 << 30]}), 503, "engine_failure"
    )
    assert "memory" in doc["detail"]
    r = hooked.post("/api/_test/allocate", json={"args": [64 << 20]})
    assert r.status_code == 200 and r.json()["result"] == 64 << 20


def test_pool_arguments_are_checked():
    for kw in ({"workers": 0}, {"queue": -1}, {"memory_bytes": -5}, {"workers": 1.5}):
        with pytest.raises(ValueError):
            WorkerPool(**kw)
    with pytest.raises(ValueError):
        create_app(workers=0)


async def until(condition, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "condition not met in time"
        await asyncio.sleep(0.01)


HEAVY_BOARD = {"rows": 200, "cols": 200}


def test_busy_is_503_with_retry_after_and_health_does_not_wait():
    assert limits.board_lane(HEAVY_BOARD, False) == "heavy"
    app = create_app(workers=1, queue=0, test_hooks=True, cors_origins="https://a.example")

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=30) as c:
            assert (await c.post("/api/_test/pid", json={})).status_code == 200  # warm
            slow = asyncio.create_task(c.post("/api/_test/pid", json={"args": [1.5]}))
            await until(lambda: app.state.pool.in_flight == 1)
            t0 = time.perf_counter()
            busy = await c.post(  # a board of the heavy lane (its cost is over CHEAP_COST)
                "/api/analyse",
                json={"board": HEAVY_BOARD},
                headers={"origin": "https://a.example"},
            )
            t_busy = time.perf_counter() - t0
            t0 = time.perf_counter()
            health = await c.get("/api/health")
            t_health = time.perf_counter() - t0
            metrics = (await c.get("/metrics")).text
            done = await slow
            after = await c.post("/api/analyse", json={"board": HEAVY_BOARD})
            return busy, t_busy, health, t_health, metrics, done, after

    try:
        busy, t_busy, health, t_health, metrics, done, after = asyncio.run(main())
    finally:
        app.state.pool.close()
    assert_error(busy, 503, "busy")
    assert busy.headers["retry-after"] == str(limits.RETRY_AFTER_SECONDS)
    assert busy.headers["access-control-allow-origin"] == "https://a.example"  # CORS too
    assert "retry-after" in busy.headers["access-control-expose-headers"].lower()
    assert t_busy < 0.5, t_busy  # at once, not queued
    assert health.status_code == 200 and t_health < 0.5, t_health
    assert metric(metrics, "modlights_workers_busy") == 1
    assert metric(metrics, "modlights_work_total", outcome="busy") == 1
    assert (
        metric(
            metrics,
            "modlights_requests_total",
            endpoint="/api/analyse",
            method="POST",
            status="503",
        )
        == 1
    )
    assert done.status_code == 200 and after.status_code == 200


def test_queue_waits_then_serves():
    app = create_app(workers=1, queue=1, test_hooks=True)

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=30) as c:
            assert (await c.post("/api/_test/pid", json={})).status_code == 200  # warm
            first = asyncio.create_task(c.post("/api/_test/pid", json={"args": [1.0]}))
            await until(lambda: app.state.pool.in_flight == 1)
            second = asyncio.create_task(c.post("/api/_test/pid", json={}))
            await until(lambda: app.state.pool.pending == 2)
            metrics = (await c.get("/metrics")).text
            return await first, await second, metrics

    try:
        first, second, metrics = asyncio.run(main())
    finally:
        app.state.pool.close()
    assert first.status_code == second.status_code == 200
    assert metric(metrics, "modlights_queue_length") == 1


def _thread_server(app):
    """Serve ``app`` with uvicorn in a thread on a free loopback port: yields (app,
    port), then stops the server."""
    import uvicorn

    srv = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="on")
    )
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    end = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < end and thread.is_alive(), "server did not start"
        time.sleep(0.02)
    yield app, srv.servers[0].sockets[0].getsockname()[1]
    srv.should_exit = True
    thread.join(10)


@pytest.fixture()
def live_server():
    """A uvicorn server in a thread with one worker and the test hooks."""
    yield from _thread_server(create_app(workers=1, queue=2, test_hooks=True))


def test_a_client_disconnect_kills_its_worker(live_server, tmp_path):
    app, port = live_server
    url = f"http://127.0.0.1:{port}"
    assert httpx.post(url + "/api/_test/pid", json={}).status_code == 200  # warm
    pidfile = tmp_path / "pid"
    body = json.dumps({"args": [30, str(pidfile)], "budget": 60}).encode()
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(
            b"POST /api/_test/pid HTTP/1.1\r\nhost: x\r\ncontent-type: "
            b"application/json\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        end = time.monotonic() + 10
        while not pidfile.exists() or not pidfile.read_text():
            assert time.monotonic() < end
            time.sleep(0.02)
        pid = int(pidfile.read_text())
        assert alive(pid)
    t0 = time.perf_counter()  # the client is gone
    assert wait_dead(pid, 3), "the worker still runs after its client left"
    assert time.perf_counter() - t0 < 2
    time.sleep(0.1)
    text = httpx.get(url + "/metrics").text
    assert metric(text, "modlights_work_total", outcome="client_gone") == 1
    assert metric(text, "modlights_worker_restarts_total") == 1
    assert httpx.post(url + "/api/_test/pid", json={}).json()["result"] != pid


# ----------------------------------------------------------------------------- cost
def reproducers():
    """The heavy requests (name, path, body) listed in bench/web_load.py."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        import web_load
    finally:
        sys.path.pop(0)
    return web_load.issue_requests()


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2), raise_server_exceptions=False) as c:
        yield c


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


# ----------------------------------------------------------------------------- http
def test_cors_preflight():
    app = create_app(workers=1, cors_origins=["https://a.example", "https://b.example"])
    c = TestClient(app)
    try:
        pre = {
            "origin": "https://b.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        }
        r = c.options("/api/solve", headers=pre)
        assert r.status_code == 200, r.text
        assert r.headers["access-control-allow-origin"] == "https://b.example"
        assert "POST" in r.headers["access-control-allow-methods"]
        r = c.get("/api/health", headers={"origin": "https://a.example"})
        assert r.headers["access-control-allow-origin"] == "https://a.example"
        r = c.options("/api/solve", headers={**pre, "origin": "https://evil.example"})
        assert r.status_code == 400 and "access-control-allow-origin" not in r.headers
    finally:
        app.state.pool.close()
    c = TestClient(create_app(workers=1))  # no CORS: no header
    r = c.get("/api/health", headers={"origin": "https://a.example"})
    assert "access-control-allow-origin" not in r.headers


def test_metrics_and_access_log(client, caplog):
    with caplog.at_level(logging.INFO, logger="modlights.web.access"):
        b = ml.Board.grid(3, 3, 2)
        assert client.post("/api/analyse", json={"board": b.to_dict()}).status_code == 200
        assert client.get("/api/nothing").status_code == 404
        assert client.get("/api/puzzle/x").status_code == 400
    lines = [r.getMessage() for r in caplog.records if r.name == "modlights.web.access"]
    assert re.fullmatch(r"POST /api/analyse 200 \d+\.\d ms", lines[0]), lines
    assert re.fullmatch(r"GET /api/nothing 404 \d+\.\d ms", lines[1]), lines
    assert len(lines) == 3
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    assert (
        metric(
            text, "modlights_requests_total", endpoint="/api/analyse", method="POST", status="200"
        )
        >= 1
    )
    assert (
        metric(
            text,
            "modlights_requests_total",
            endpoint="/api/puzzle/{code}",
            method="GET",
            status="400",
        )
        >= 1
    )
    assert (
        metric(text, "modlights_requests_total", endpoint="other", method="GET", status="404") >= 1
    )
    assert metric(text, "modlights_request_seconds_count", endpoint="/api/analyse") >= 1
    assert metric(text, "modlights_request_seconds_bucket", endpoint="/api/analyse", le="+Inf") >= 1
    assert metric(text, "modlights_workers") == 2
    for name in (
        "modlights_queue_length",
        "modlights_workers_busy",
        "modlights_worker_restarts_total",
        "process_resident_memory_bytes",
    ):
        assert re.search(rf"^{name} \S+$", text, re.M), name


def test_client_controlled_labels_and_log_lines_stay_bounded(client, caplog):
    """Methods a client invents are counted as "other" (no new series per method), and
    a path that decodes to a newline cannot write a second access-log line."""
    with caplog.at_level(logging.INFO, logger="modlights.web.access"):
        for i in range(5):
            client.request(f"X{i}", "/api/health")
        client.get("/api/x%0AGET /api/forged 200 1.0 ms")
    text = client.get("/metrics").text
    methods = set(re.findall(r'modlights_requests_total\{[^}]*method="([^"]*)"', text))
    assert not any(m.startswith("X") for m in methods) and "other" in methods
    lines = [r.getMessage() for r in caplog.records if r.name == "modlights.web.access"]
    assert len(lines) == 6 and all("\n" not in line for line in lines)
    assert lines[-1].startswith("GET /api/x\\nGET /api/forged 200 1.0 ms 404 ")


# ----------------------------------------------------------------------------- serve
SLOW = ml.Board.grid(24, 24, 2, "square", wrap=True)  # unprovable: uses its budget
SLOW_BODY = {"board": SLOW.to_dict(), "state": SLOW.random_state(rng=1).tolist(), "budget": 5}


@pytest.mark.parametrize(
    "how",
    [pytest.param(h, marks=pytest.mark.heavy) for h in ("SIGTERM", "SIGINT twice")],  # 12-16 s each
)
def test_serve_flags_and_shutdown_with_a_request_in_flight(how):
    proc, url, port = serve(
        "--workers", "2", "--cors-origin", "https://a.example", "--shutdown-timeout", "1"
    )
    try:
        assert httpx.get(url + "api/health").status_code == 200  # in the access log
        r = httpx.options(
            url + "api/analyse",
            headers={"origin": "https://a.example", "access-control-request-method": "POST"},
        )
        assert (
            r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://a.example"
        )
        assert "modlights_requests_total" in httpx.get(url + "metrics").text
        answers = {}

        def slow():
            try:
                answers["slow"] = httpx.post(url + "api/solve", json=SLOW_BODY, timeout=30)
            except httpx.HTTPError as e:
                answers["slow"] = e

        t = threading.Thread(target=slow)
        t.start()
        end = time.monotonic() + 10  # forkserver and 2 workers
        while len(kids := descendants(proc.pid)) < 3 and time.monotonic() < end:
            time.sleep(0.05)
        assert len(kids) >= 3, kids
        time.sleep(0.5)  # the search is under way
        t0 = time.perf_counter()
        if how == "SIGTERM":
            proc.send_signal(signal.SIGTERM)
        else:
            proc.send_signal(signal.SIGINT)
            time.sleep(0.2)
            proc.send_signal(signal.SIGINT)
        proc.wait(10)
        took = time.perf_counter() - t0
        t.join(10)
        err = proc.stderr.read()
        assert took < 6, took  # a few seconds
        assert proc.returncode == 0, (proc.returncode, err)
        assert "Traceback" not in err and "CancelledError" not in err, err
        assert re.search(r"GET /api/health 200 \d+\.\d ms", err), err
        slow_answer = answers["slow"]
        if isinstance(slow_answer, httpx.Response):
            assert_error(slow_answer, 503, "engine_failure")
        end = time.monotonic() + 5
        while any(alive(k) for k in kids) and time.monotonic() < end:
            time.sleep(0.05)
        assert not any(alive(k) for k in kids), "workers outlived the server"
    finally:
        stop(proc)


@pytest.mark.heavy  # 14 s: real-time header timeouts
def test_serve_header_timeout_and_no_access_log():
    proc, url, port = serve(
        "--workers", "1", "--header-timeout", "0.5", "--no-access-log", "--shutdown-timeout", "1"
    )
    try:
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nhost: x\r\n")  # never finished
            s.settimeout(5)
            t0 = time.perf_counter()
            assert s.recv(100) == b""  # closed by the server
            assert time.perf_counter() - t0 < 3
        assert httpx.get(url + "api/health").status_code == 200
        t0 = time.perf_counter()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        err = proc.stderr.read()
        stop(proc)
    assert time.perf_counter() - t0 < 3  # idle: stops at once
    assert "/api/health" not in err, err


@pytest.mark.heavy  # 11 s: a real-time body timeout
def test_serve_body_timeout():
    proc, url, port = serve(
        "--workers", "1", "--body-timeout", "0.5", "--no-access-log", "--shutdown-timeout", "1"
    )
    try:
        took, got = trickle(port, "/api/solve", seconds=5, length=1000)
        assert got.startswith(b"HTTP/1.1 408") and b'"deadline"' in got, got[:300]
        assert took < 0.5 + 1.5, took
        assert httpx.get(url + "api/health").status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        stop(proc)


@pytest.mark.parametrize(
    "flags, word",
    [
        (["--workers", "0"], "--workers"),
        (["--shutdown-timeout", "-1"], "--shutdown-timeout"),
        (["--keep-alive", "nan"], "--keep-alive"),
        (["--max-connections", "x"], "--max-connections"),
        (["--worker-memory", "-1"], "--worker-memory"),
        (["--body-timeout", "0"], "--body-timeout"),
    ],
)
def test_serve_bad_flags_are_one_line_errors(capsys, flags, word):
    from modlights.cli import main

    assert main(["serve", *flags]) == 2
    err = capsys.readouterr().err
    assert word in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.slow
def test_load_bench_keeps_health_fast(capsys):
    """bench/web_load.py, shortened: 20 clients for 10 s (run with -m slow)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import web_load

    code = web_load.main(["--clients", "20", "--seconds", "10"])
    out = capsys.readouterr().out
    assert "server up" in out, out
    assert code == 0, out


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
    yield from _thread_server(create_app(workers=1, queue=2))


def trickle(port: int, path: str, seconds: float, length: int) -> tuple[float, bytes]:
    """Send a request head announcing a body of ``length`` bytes, then a byte every
    0.2 s for at most ``seconds``; (seconds until the answer came, what the server sent before it
    closed the connection)."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(
            f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json"
            f"\r\ncontent-length: {length}\r\n\r\n".encode()
        )
        s.setblocking(False)
        t0 = time.perf_counter()
        got = b""
        while time.perf_counter() - t0 < seconds:
            try:
                s.send(b" ")
            except OSError:
                break
            time.sleep(0.2)
            try:
                chunk = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                break
            if not chunk:
                break
            got += chunk
        took = time.perf_counter() - t0
        s.settimeout(2)
        try:
            while chunk := s.recv(65536):
                got += chunk
        except OSError:
            pass
        return took, got


@pytest.mark.parametrize("path", ["/api/solve", "/api/analyse", "/api/health"])
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
        row = "[" + ",".join(["0"] * 2000) + "]"
        huge = (
            '{"board":{"rows":2000,"cols":2000},"state":['
            + ",".join([row] * 2000)
            + '],"minimal":false}'
        ).encode()
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
    row = "[" + ",".join(["0"] * 2000) + "]"
    huge = (
        '{"board":{"rows":2000,"cols":2000},"state":['
        + ",".join([row] * 2000)
        + '],"minimal":false}'
    ).encode()

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
    body_limit = _body_limit(app)
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


def _body_limit(app):
    """The app's limits.BodyLimit middleware instance (the stack is built on first use)."""
    node = app.middleware_stack
    while node is not None and not isinstance(node, limits.BodyLimit):
        node = getattr(node, "app", None)
    assert node is not None
    return node


# ----------------------------------------------------------------------------- lanes
def _hooked_app(**kw):
    return create_app(test_hooks=True, **kw)


def _run_app(app, main):
    """asyncio.run(main(client)) with an httpx client on ``app``; the pool closed after."""

    async def go():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=60) as c:
            return await main(c)

    try:
        return asyncio.run(go())
    finally:
        app.state.pool.close()


def test_a_deadline_counts_work_not_waiting(monkeypatch):
    """A request queued 1.2 s behind another, whose deadline is 0.3 s of work, is
    answered (it used to get 408: its deadline counted the wait)."""
    monkeypatch.setattr(limits, "DEADLINE_MARGIN_SECONDS", 0.2)
    app = _hooked_app(workers=1, queue=2)

    async def main(c):
        assert (await c.post("/api/_test/pid", json={})).status_code == 200  # warm
        first = asyncio.create_task(c.post("/api/_test/pid", json={"args": [1.2], "budget": 5}))
        await until(lambda: app.state.pool.in_flight == 1)
        t0 = time.perf_counter()
        second = await c.post("/api/_test/pid", json={"budget": 0.1})
        return await first, second, time.perf_counter() - t0

    first, second, waited = _run_app(app, main)
    assert first.status_code == 200
    assert second.status_code == 200, second.text
    assert waited > 0.8, waited  # it did wait behind the first


def test_a_full_lane_is_503_while_the_cheap_lane_serves():
    app = _hooked_app(workers=1, queue=0, cheap_workers=1)

    async def main(c):
        assert (await c.post("/api/_test/pid", json={})).status_code == 200  # warm
        slow = asyncio.create_task(c.post("/api/_test/pid", json={"args": [1.5]}))
        await until(lambda: app.state.pool.in_flight == 1)
        busy = await c.post("/api/_test/pid", json={})
        t0 = time.perf_counter()
        cheap = await c.post("/api/_test/pid", json={"lane": "cheap"})
        solve = await c.post(
            "/api/solve",
            json={"board": {"rows": 3, "cols": 3}, "state": [[1, 0, 0]] + [[0] * 3] * 2},
        )
        took = time.perf_counter() - t0
        return await slow, busy, cheap, solve, took

    slow, busy, cheap, solve, took = _run_app(app, main)
    assert slow.status_code == 200
    assert_error(busy, 503, "busy")
    assert busy.headers["retry-after"] == str(limits.RETRY_AFTER_SECONDS)
    assert cheap.status_code == 200 and cheap.json()["result"] != slow.json()["result"]
    assert solve.status_code == 200 and took < 1.0, took


def test_a_cheap_task_that_runs_long_moves_to_the_heavy_lane(monkeypatch):
    monkeypatch.setattr(limits, "CHEAP_SECONDS", 0.3)
    app = _hooked_app(workers=1, cheap_workers=1)

    async def main(c):
        heavy = (await c.post("/api/_test/pid", json={})).json()["result"]
        cheap = (await c.post("/api/_test/pid", json={"lane": "cheap"})).json()["result"]
        # 0.8 s of CPU (the lane counts the worker's CPU time, not the machine's load)
        long = await c.post("/api/_test/spin", json={"lane": "cheap", "args": [0.8], "budget": 5})
        after = await c.post("/api/_test/pid", json={"lane": "cheap"})
        return heavy, cheap, long, after, (await c.get("/metrics")).text

    heavy, cheap, long, after, text = _run_app(app, main)
    assert heavy != cheap
    assert long.status_code == 200 and long.json()["result"] == heavy  # run again, heavy
    assert after.status_code == 200 and after.json()["result"] not in (cheap, heavy)
    assert metric(text, "modlights_work_total", outcome="demoted") == 1
    assert not alive(cheap)


def test_data_that_cannot_be_pickled_fails_its_request_not_the_pool():
    """Arguments nested past Python's recursion limit (the issue's nested board, had it
    passed the body's depth limit) and an answer of that kind: each fails its own
    request; the workers and the pool serve the next ones."""
    from modlights.web import workers as w

    pool = WorkerPool(workers=1, cheap_workers=1)
    deep: list = []
    for _ in range(100_000):
        deep = [deep]

    async def main():
        first = await pool.run(w.hook_pid, timeout=10)
        with pytest.raises(w.Unpicklable):
            await pool.run(w.hook_pid, deep, timeout=10)
        with pytest.raises(RuntimeError, match="could not be sent"):
            await pool.run(w.hook_nested, 100_000, timeout=10)
        return first, [await pool.run(w.hook_pid, timeout=10) for _ in range(3)]

    try:
        first, later = asyncio.run(main())
    finally:
        pool.close()
    assert later == [first] * 3  # the same worker, alive
    assert pool.restarts == 0


def test_the_pool_replaces_its_supervisor_and_dead_idle_workers():
    from modlights.web import workers as w

    pool = WorkerPool(workers=1, cheap_workers=1)

    async def main():
        first = await pool.run(w.hook_pid, timeout=10)
        await until(lambda: pool.readiness()[0], 60)
        os.kill(first, signal.SIGKILL)  # an idle worker dies (the OOM killer, say)
        assert wait_dead(first)
        await until(lambda: pool.restarts == 1, 10)
        second = await pool.run(w.hook_pid, timeout=10)
        pool._closing = True  # the supervisor thread ends...
        pool._wake.set()
        await until(lambda: not pool._supervisor.is_alive(), 10)
        pool._closing = False
        not_ready = pool.readiness()[0]
        third = await pool.run(w.hook_pid, timeout=10)  # ...and work starts it again
        await until(lambda: pool.readiness()[0], 60)
        return first, second, not_ready, third

    try:
        first, second, not_ready, third = asyncio.run(main())
    finally:
        pool.close()
    assert second != first and third == second
    assert not_ready is False


def test_readiness_waits_for_warm_workers():
    app = create_app(workers=1, cheap_workers=1)

    async def main(c):
        app.state.pool.start()
        early = await c.get("/api/ready")
        await until(lambda: app.state.pool.readiness()[0], 60)
        late = await c.get("/api/ready")
        return early, late, await c.get("/api/health")

    early, late, health = _run_app(app, main)
    assert early.status_code == 503 and early.json()["error"] == "not_ready"
    assert early.headers["retry-after"]
    assert late.status_code == 200 and late.json()["status"] == "ready"
    assert health.status_code == 200


@pytest.mark.parametrize(
    "kw",
    [{"cheap_workers": 0}, {"cheap_queue": -1}, {"nice": 20}, {"cheap_seconds": 0}],
)
def test_lane_arguments_are_checked(kw):
    with pytest.raises(ValueError, match=next(iter(kw))):
        WorkerPool(**kw)


def test_requests_without_a_body_hold_no_bytes():
    """GETs (neither content-length nor transfer-encoding: no body) never count against
    the bytes held: 40 at once are all answered (they were counted as chunked bodies of
    the largest size, and the ninth got 503 busy)."""
    app = create_app(workers=1, cheap_workers=1)

    async def main(c):
        answers = await asyncio.gather(*(c.get("/api/patterns") for _ in range(40)))
        return answers, _body_limit(app).held

    answers, held = _run_app(app, main)
    assert [r.status_code for r in answers] == [200] * 40
    assert held == 0
