"""A real ``modlights serve`` in a subprocess, for the web tests: start it on a free
loopback port, find its worker processes, stop it."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest


def serve(*flags: str, env: dict | None = None, ready: bool = True, wait: bool = True):
    """Start ``modlights serve --port 0 *flags``: (process, base URL ending in "/",
    port). Unless not ``wait`` (then it returns once the server printed its URL: its
    socket listens, its app may still be starting), waits until /api/health answers,
    and when ``ready`` until /api/ready says 200 (every lane has a warm worker), at most
    60 s."""
    exe = Path(sys.executable).with_name("modlights")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "modlights"]
    proc = subprocess.Popen(
        cmd + ["serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        pytest.fail(line + proc.stderr.read())
    url = m.group(0)
    if not wait:
        return proc, url, int(m.group(1))
    end = time.monotonic() + 60
    path = "api/ready" if ready else "api/health"
    while True:
        try:
            if httpx.get(url + path, timeout=5).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > end or proc.poll() is not None:
            stop(proc)
            pytest.fail(
                f"the server did not become {'ready' if ready else 'live'}: {proc.stderr.read()}"
            )
        time.sleep(0.05)
    return proc, url, int(m.group(1))


def stop(proc: subprocess.Popen) -> str:
    """SIGTERM, then SIGKILL after 10 s; the server's stderr."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    return proc.stderr.read() if proc.stderr else ""


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (its children, theirs...)."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), ()):
            out.add(c)
            todo.append(c)
    return out


def workers_of(pid: int) -> list[int]:
    """The worker processes of the server ``pid`` (named modlights-*-worker by
    multiprocessing; their command line is the forkserver's)."""
    out = []
    for child in descendants(pid):
        try:
            with open(f"/proc/{child}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{child}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        # workers are the forkserver's children, the forkserver the server's child
        if int(fields[1]) != pid and b"forkserver" in cmd:
            out.append(child)
    return sorted(out)


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):  # gone, or reaped while read
        return False


def metric(text: str, name: str, **labels) -> float:
    """The value of one sample of the Prometheus text (0 when absent)."""
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pat = re.escape(name) + (r"\{" + re.escape(want) + r"\}" if want else "") + r" (\S+)"
    m = re.search(r"^" + pat + r"$", text, re.M)
    return float(m.group(1)) if m else 0.0


def assert_error(r, status, code):
    """Assert that ``r`` is the JSON error ``code`` with HTTP ``status`` (no traceback);
    its document."""
    assert r.status_code == status, (r.status_code, r.text)
    doc = r.json()
    assert set(doc) == {"error", "detail"} and doc["error"] == code, doc
    assert "Traceback" not in r.text
    return doc


def wait_dead(pid: int, seconds: float = 3.0) -> bool:
    """Whether process ``pid`` is gone within ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


def thread_server(app):
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


def body_limit_of(app):
    """The app's limits.BodyLimit middleware instance (the stack is built on first use)."""
    from modlights.web import limits

    node = app.middleware_stack
    while node is not None and not isinstance(node, limits.BodyLimit):
        node = getattr(node, "app", None)
    assert node is not None
    return node
