"""A bounded load test of ``modlights serve`` on 127.0.0.1 (issues 21 and 31).

Starts ``modlights serve`` (a real uvicorn process) on a free loopback port and waits
for its readiness; CLIENTS clients send a mix back to back for SECONDS seconds: the
heavy requests of issue 21 (:func:`issue_requests`), a minimal search that runs to its
5 s budget, and cheap requests (:func:`cheap_requests`: 3 x 3 solves, a small hint and
analyse, a daily puzzle), while IDLE connections that never finish their request line
are held open (each opened again as soon as the server closes it) and a probe, in a
process of its own, asks ``/api/health`` every 50 ms. Prints the probe's latency p50 /
p99 / max, the answers by request and status, the cheap class's share of 200s, the
requests served by a worker, the 408s, the server's worker restarts, and whether the
server still answers; exits 1 when the server died, a probe failed, the health p99 is
over its target (100 ms) or the cheap class got less than 95% 200.

    python -m bench web-load                    # 40 clients, 30 s, 300 idle connections
    python -m bench web-load --param clients=10 --param seconds=10 --param workers=2
    python -m bench web-load --param clients=8 --param big_bodies=true   # 8 MB solve bodies
    python bench/web_load.py --clients 40 --seconds 60 --idle 300

(the workload of bench/workloads/web.py calls :func:`main`; the test suite imports
:func:`issue_requests` from this module.)

Loopback only; bounded in time (SECONDS + the server's start and stop) and in clients.
Clients that get 503 "busy" wait its Retry-After (as a well-behaved client does) unless
``--no-retry-after``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import math
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter

TARGET_P99_MS = 100.0
#: The share of the cheap class's answers that must be 200.
TARGET_CHEAP_OK = 0.95


def issue_requests() -> list[tuple[str, str, dict]]:
    """The heavy requests of issue 21 as (name, path, JSON body as a dict): the test
    suite (tests/web/test_web_limits.py) checks each is refused fast or answered."""
    rnd = random.Random(21)
    offs = set()
    while len(offs) < 4096:
        offs.add((rnd.randint(-99, 99), rnd.randint(-99, 99)))
    offs = [list(o) for o in sorted(offs)]
    rnd.shuffle(offs)
    knight = {"rows": 250, "cols": 250, "states": 255, "pattern": "knight", "holes": [[125, 125]]}
    zeros = [[0] * 250 for _ in range(250)]
    mixed = [
        [[[rnd.randint(-3, 3), rnd.randint(-3, 3)] for _ in range(20)] for _ in range(32)]
        for _ in range(32)
    ]
    return [
        (
            "analyse-4096-offsets",
            "/api/analyse",
            {"board": {"rows": 100, "cols": 100, "states": 255, "pattern": offs}},
        ),
        (
            "analyse-200-offsets",
            "/api/analyse",
            {"board": {"rows": 100, "cols": 100, "states": 255, "pattern": offs[:200]}},
        ),
        (
            "graph-solve",
            "/api/solve",
            {
                "board": {"effects": [[0]] * 1024, "states": 255, "n_cells": 1024},
                "state": [7] + [0] * 1023,
                "budget": 5,
            },
        ),
        ("knight-solve", "/api/solve", {"board": knight, "state": zeros}),
        (
            "knight-solve-not-minimal",
            "/api/solve",
            {"board": knight, "state": zeros, "minimal": False},
        ),
        ("knight-analyse", "/api/analyse", {"board": knight}),
        (
            "generate-mixed",
            "/api/generate",
            {"rows": 32, "cols": 32, "states": 255, "pattern": mixed, "holes": 2},
        ),
    ]


def cheap_requests() -> list[tuple[str, str, dict | None]]:
    """Requests a game front end sends, estimated cheap by the service, as (name, path,
    JSON body or None for a GET)."""
    return [
        (
            "cheap-solve-3x3",
            "/api/solve",
            {"board": {"rows": 3, "cols": 3}, "state": [[1, 1, 0], [1, 0, 0], [0, 0, 0]]},
        ),
        (
            "cheap-hint-5x5",
            "/api/hint",
            {"board": {"rows": 5, "cols": 5, "states": 3}, "state": [[1] * 5] * 5},
        ),
        ("cheap-analyse-6x6", "/api/analyse", {"board": {"rows": 6, "cols": 6, "states": 4}}),
        ("cheap-daily", "/api/daily/2026-11-28", None),
    ]


def reproducers() -> list[tuple[str, str, bytes | None]]:
    """The load: :func:`issue_requests`, a minimal search that runs to its 5 s budget
    and :func:`cheap_requests`, as (name, path, JSON body or None for a GET)."""
    import modlights as ml

    slow_board = ml.Board.grid(24, 24, 2, "square", wrap=True)  # unprovable
    slow = slow_board.to_dict()
    slow_state = slow_board.random_state(rng=1, solvable=True).tolist()
    cases = issue_requests() + [
        ("slow-search-5s", "/api/solve", {"board": slow, "state": slow_state, "budget": 5}),
    ]
    cases += cheap_requests()
    return [
        (name, path, None if body is None else json.dumps(body).encode())
        for name, path, body in cases
    ]


def big_solve() -> tuple[str, str, bytes]:
    """A solve body just under the service's body cap that is over its tile limit: a
    2000 x 2000 board and state, compact JSON (about 8 MB); refused with 400."""
    row = "[" + ",".join(["0"] * 2000) + "]"
    body = (
        '{"board":{"rows":2000,"cols":2000},"state":['
        + ",".join([row] * 2000)
        + '],"minimal":false}'
    )
    return "solve-8mb", "/api/solve", body.encode()


def probe(port: int, seconds: float, out: multiprocessing.Queue) -> None:
    """GET /api/health every 50 ms for ``seconds``; puts the latencies in ms (None for
    a failure) on ``out``."""
    lat: list = []
    end = time.monotonic() + seconds
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    while time.monotonic() < end:
        t0 = time.perf_counter()
        try:
            conn.request("GET", "/api/health")
            r = conn.getresponse()
            r.read()
            lat.append((time.perf_counter() - t0) * 1000 if r.status == 200 else None)
        except (OSError, http.client.HTTPException):
            lat.append(None)
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        time.sleep(max(0.0, 0.05 - (time.perf_counter() - t0)))
    conn.close()
    out.put(lat)


async def client(
    port: int, cases: list, end: float, counts: Counter, seed: int, retry_after: bool
) -> None:
    """One client: requests of ``cases`` back to back until ``end`` (a loop time)."""
    rnd = random.Random(seed)
    loop = asyncio.get_running_loop()
    while loop.time() < end:
        name, path, body = rnd.choice(cases)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            if body is None:
                head = f"GET {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n"
                writer.write(head.encode())
            else:
                writer.write(
                    f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: "
                    f"application/json\r\ncontent-length: {len(body)}\r\n"
                    "connection: close\r\n\r\n".encode()
                    + body
                )
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
            rest = await asyncio.wait_for(reader.read(), 60)
            writer.close()
            status = int(head.split(b" ", 2)[1])
            if status == 503 and b'"busy"' in rest:
                why = re.search(rb"(cheap|heavy) lane|large request bodies|connections", rest)
                counts[(name, "503 busy" + (f" ({why.group(0).decode()})" if why else ""))] += 1
                if retry_after:
                    m = re.search(rb"retry-after: (\d+)", head, re.I)
                    await asyncio.sleep(float(m.group(1)) if m else 1.0)
                continue
            code = re.search(rb'"error": ?"(\w+)"', rest)
            counts[(name, f"{status}" + (f" {code.group(1).decode()}" if code else ""))] += 1
        except (
            OSError,
            asyncio.TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ValueError,
            IndexError,
        ) as e:
            counts[(name, f"client error {type(e).__name__}")] += 1
            await asyncio.sleep(0.1)


async def idle(port: int, count: int, end: float, opened: list) -> None:
    """``count`` connections that never finish their request line, each opened again as
    soon as the server closes it, until ``end``; ``opened[0]`` counts the openings."""

    async def one() -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < end:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET /api/health HTTP/1.1\r\nhost: x\r\n")
                opened[0] += 1
                try:
                    await asyncio.wait_for(reader.read(), max(0.0, end - loop.time()))
                except asyncio.TimeoutError:
                    pass
                writer.close()
            except OSError:
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one() for _ in range(count)))


async def load(
    port: int,
    clients: int,
    seconds: float,
    retry_after: bool,
    big: bool = False,
    idle_count: int = 0,
    only: str | None = None,
    cheap_clients: int = 0,
) -> tuple[Counter, int]:
    """(answers by (request, status), idle connections opened). ``only``: the clients
    send that request alone; ``cheap_clients`` more clients send cheap requests only."""
    cases = [big_solve()] if big else reproducers()
    if only is not None:
        cases = [c for c in cases if c[0] == only]
        if not cases:
            raise ValueError(f"no request named {only!r}")
    cheap = [c for c in reproducers() if c[0].startswith("cheap-")]
    counts: Counter = Counter()
    end = asyncio.get_running_loop().time() + seconds
    opened = [0]
    await asyncio.gather(
        idle(port, idle_count, end, opened),
        *(client(port, cases, end, counts, i, retry_after) for i in range(clients)),
        *(client(port, cheap, end, counts, 1000 + i, retry_after) for i in range(cheap_clients)),
    )
    return counts, opened[0]


def percentile(values: list, q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--idle", type=int, default=300, help="idle connections held during the run")
    ap.add_argument("--only", help="the clients send this request alone (a name of the mix)")
    ap.add_argument(
        "--cheap-clients", type=int, default=0, help="more clients sending cheap requests only"
    )
    ap.add_argument(
        "--big-bodies",
        action="store_true",
        help="clients send only an 8 MB /api/solve body over the tile limit",
    )
    ap.add_argument(
        "--no-retry-after", action="store_true", help="clients resend at once after 503 busy"
    )
    args = ap.parse_args(argv)
    if not (1 <= args.clients <= 200 and 1 <= args.seconds <= 120 and 0 <= args.idle <= 1000):
        ap.error("--clients must be 1..200, --seconds 1..120 and --idle 0..1000 (a bounded test)")
    cmd = [
        sys.executable,
        "-m",
        "modlights",
        "serve",
        "--port",
        "0",
        "--no-access-log",
        "--shutdown-timeout",
        "2",
    ]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    server = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=open(os.environ["WEB_LOAD_STDERR"], "w")
        if os.environ.get("WEB_LOAD_STDERR")
        else subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = server.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            print("the server did not start:", line, server.stderr.read(), file=sys.stderr)
            return 1
        port = int(m.group(1))
        t_ready = time.monotonic()
        for _ in range(1200):  # readiness: every lane has a warm worker (at most 60 s)
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                c.request("GET", "/api/ready")
                status = c.getresponse().status
                if status == 200:
                    break
                if status == 404:  # a server from before readiness: wait for its workers
                    time.sleep(3.0)
                    break
            except OSError:
                pass
            time.sleep(0.05)
        t_ready = time.monotonic() - t_ready
        q: multiprocessing.Queue = multiprocessing.Queue()
        p = multiprocessing.Process(target=probe, args=(port, args.seconds, q))
        p.start()
        t0 = time.monotonic()
        counts, opened = asyncio.run(
            load(
                port,
                args.clients,
                args.seconds,
                not args.no_retry_after,
                args.big_bodies,
                args.idle,
                args.only,
                args.cheap_clients,
            )
        )
        lat = q.get(timeout=args.seconds + 30)
        p.join(10)
        took = time.monotonic() - t0
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", "/api/health")
            r = c.getresponse()
            r.read()
            alive = r.status == 200 and server.poll() is None
            c.request("GET", "/metrics")
            metrics = c.getresponse().read().decode()
        except (OSError, http.client.HTTPException):
            alive, metrics = False, ""
        restarts = re.search(r"^modlights_worker_restarts_total (\S+)$", metrics, re.M)
        ok = [x for x in lat if x is not None]
        p50, p99 = (percentile(ok, 0.5), percentile(ok, 0.99)) if ok else (math.inf, math.inf)
        print(
            f"{args.clients} clients x {took:.1f} s, heavy workers "
            f"{args.workers or os.cpu_count()}, ready after {t_ready:.1f} s, load average "
            f"{os.getloadavg()[0]:.2f}"
        )
        print(f"idle connections: {args.idle} held ({opened} opened in all)")
        print(
            f"/api/health: {len(lat)} probes, {len(lat) - len(ok)} failed, "
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(ok, default=math.inf):.1f} ms "
            f"(target p99 < {TARGET_P99_MS:g} ms)"
        )
        print("answers (request, status): count")
        for (name, status), n in sorted(counts.items()):
            print(f"  {name:26s} {status:24s} {n}")
        cheap = {k: n for k, n in counts.items() if k[0].startswith("cheap-")}
        cheap_all = sum(cheap.values())
        cheap_ok = sum(n for (_, status), n in cheap.items() if status == "200")
        share = cheap_ok / cheap_all if cheap_all else 0.0
        served = sum(
            n
            for (name, status), n in counts.items()
            if status.startswith(("200", "400 too_large", "422"))
            and not name.startswith("cheap-daily")
        )
        timeouts = sum(n for (_, status), n in counts.items() if status.startswith("408"))
        print(
            f"cheap class: {cheap_all} answers, {100 * share:.1f}% 200 "
            f"(target >= {100 * TARGET_CHEAP_OK:g}%)"
        )
        print(
            f"served by a worker (200, or refused by it as too large / unsolvable): {served}; "
            f"408 deadline: {timeouts}"
        )
        outcomes = dict(
            re.findall(r'^modlights_work_total\{outcome="(\w+)"\} (\S+)$', metrics, re.M)
        )
        print(
            f"worker restarts: {restarts.group(1) if restarts else '?'}; outcomes "
            f"{outcomes or '?'}; server {'up' if alive else 'DOWN (or not answering)'}"
        )
        good = alive and not len(lat) - len(ok) and p99 < TARGET_P99_MS
        return 0 if good and (args.big_bodies or share >= TARGET_CHEAP_OK) else 1
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


if __name__ == "__main__":
    sys.exit(main())
