"""The web service's HTTP surface around the routes: CORS, the Prometheus metrics and
the access log, with client-controlled labels and log lines kept bounded."""

from __future__ import annotations

import logging
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")
from fastapi.testclient import TestClient  # noqa: E402

import modlights as ml  # noqa: E402
from modlights.web import create_app  # noqa: E402
from serving import (  # noqa: E402
    metric,
)


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
