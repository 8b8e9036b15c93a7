"""A real ``modlights serve`` in a subprocess, for the web tests: start it on a free
loopback port, find its worker processes, stop it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
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
