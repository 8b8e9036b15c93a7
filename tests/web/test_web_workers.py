"""The web service's worker processes and lanes: a dead, slow or memory-hungry worker
costs one request a JSON error and never the server; deadlines count work, not waiting;
a full lane is 503 while the cheap lane serves."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import modlights as ml  # noqa: E402
from modlights.web import create_app, limits  # noqa: E402
from modlights.web.workers import WorkerPool  # noqa: E402
from serving import (  # noqa: E402
    alive,
    assert_error,
    body_limit_of,
    metric,
    thread_server,
    wait_dead,
)


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


@pytest.fixture()
def live_server():
    """A uvicorn server in a thread with one worker and the test hooks."""
    yield from thread_server(create_app(workers=1, queue=2, test_hooks=True))


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
        return answers, body_limit_of(app).held

    answers, held = _run_app(app, main)
    assert [r.status_code for r in answers] == [200] * 40
    assert held == 0
