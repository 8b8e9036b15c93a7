"""web-load: a bounded load test of ``modlights serve`` on 127.0.0.1 (bench/web_load.py).

Figures: the /api/health probe's latency p50 / p99 / max under the load (target p99 <
100 ms), and whether the server still answers. The run fails (an error) when the server
died, a probe failed or the p99 is over the target.
"""

from __future__ import annotations

import contextlib
import io
import re

from ..registry import Context, Subject, Timed, workload


@workload(
    "web-load",
    help="modlights serve under CLIENTS clients sending the heavy requests "
    "for SECONDS s: /api/health p50/p99/max (figures)",
    params={"clients": 40, "seconds": 30.0, "workers": 0, "big_bodies": False},
    repeats=1,
    warmup=0,
    heavy=True,
)
def web_load(ctx: Context):
    from .. import web_load as wl

    argv = ["--clients", str(ctx["clients"]), "--seconds", str(ctx["seconds"])]
    if ctx["workers"]:
        argv += ["--workers", str(ctx["workers"])]
    if ctx["big_bodies"]:
        argv.append("--big-bodies")

    def run():
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = wl.main(argv)
        return Timed(float(ctx["seconds"]), (code, buf.getvalue()))

    def check(ans):
        code, text = ans
        m = re.search(r"p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms", text)
        if m:
            for name, v in zip(("health_p50", "health_p99", "health_max"), m.groups()):
                ctx.figure(name, float(v), "ms")
        assert code == 0 and "server up" in text, text[-1500:]

    return {"modlights": Subject(run, check, label="seconds of load (fixed)")}
