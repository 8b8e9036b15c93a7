"""gf2-c-vs-m4ri: the C GF(2) core against M4RI with no Python in between.

Compiles bench/workloads/gf2_vs_m4ri.c with the repository's csrc (gf2.c and the pieces
it is split into, pack.c, cpu.c and interrupt.c, found wherever they sit under csrc/) and
libm4ri, runs it once and records each line it
prints (dense echelon 1024/4096/8192, cross-board factor + solve 32/64/90, dense factor +
solve 1024/4096: medians of process CPU time, modlights / M4RI) as figures.
MODLIGHTS_SIMD=portable|avx2|avx512 forces a SIMD path.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from ..peers import CACHE, M4RI_HEADER
from ..registry import Context, Missing, workload

HERE = Path(__file__).resolve().parent
CSRC = HERE.parent.parent / "csrc"


def _find(name: str) -> Path | None:
    hits = sorted(CSRC.rglob(name))
    return hits[0] if hits else None


@workload(
    "gf2-c-vs-m4ri",
    help="C level: csrc's GF(2) echelon / factor + solve against "
    "M4RI (CPU-time medians; figures: modlights / M4RI)",
    peers=("m4ri",),
    repeats=1,
    warmup=0,
    heavy=True,
)
def gf2_c_vs_m4ri(ctx: Context):
    if not M4RI_HEADER.exists():
        return {"m4ri": Missing(f"{M4RI_HEADER} not found (apt-get install libm4ri-dev)")}
    srcs = [_find("gf2.c"), _find("pack.c"), _find("cpu.c"), _find("interrupt.c")]
    if None in srcs or _find("gf2.h") is None:
        return {"m4ri": Missing("csrc/**/gf2.c, pack.c, cpu.c, interrupt.c or gf2.h not found")}
    # the pieces of gf2.c (csrc/tests/README.md: beside gf2_impl.h, no header of their own)
    gf2 = srcs[0]
    assert gf2 is not None
    srcs += sorted(p for p in gf2.parent.glob("gf2_*.c") if not p.with_suffix(".h").exists())
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return {"m4ri": Missing("no C compiler")}
    incs = [f"-I{CSRC}", *sorted({f"-I{p.parent}" for p in CSRC.rglob("*.h")})]
    CACHE.mkdir(parents=True, exist_ok=True)
    exe = CACHE / "gf2_vs_m4ri"
    cmd = [
        cc,
        "-O3",
        *incs,
        str(HERE / "gf2_vs_m4ri.c"),
        *map(str, srcs),
        "-lm4ri",
        "-lm",
        "-o",
        str(exe),
    ]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"gf2_vs_m4ri.c did not compile: {p.stderr.strip()[-400:]}")
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=1800)
    if run.returncode:
        raise RuntimeError(f"gf2_vs_m4ri exit {run.returncode}: {run.stderr.strip()[-300:]}")
    for line in run.stdout.splitlines():
        m = re.match(
            r"\((\w)\) (.*?): .*?M4RI.*? ([\d.]+) ms, modlights ([\d.]+) ms, ratio "
            r"([\d.]+)",
            line,
        )
        if m:
            key = f"{m.group(1)} {m.group(2)}"
            ctx.figure(
                f"{key}: modlights / M4RI",
                float(m.group(5)),
                "x",
                f"M4RI {m.group(3)} ms, modlights {m.group(4)} ms (CPU)",
            )
    if not ctx.figures:
        raise RuntimeError(f"gf2_vs_m4ri printed nothing readable: {run.stdout[-300:]}")
    return {"m4ri": Missing("timed inside the C harness: see the figures")}
