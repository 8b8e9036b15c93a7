"""The hardest-board table of the k x k GF(2) cross (zero boundary), one certificate per
size (issue 35): ``python -m bench hardest-table --param sizes=1-100``.

For each size k, in one process and in order: ``Solver.hardest(budget=...)``; its
certificate (``Hardest.certificate(budget=cert)``: the tap tree of the upper bound when
the search proved a value below the linear program's bound); when the certificate's
bounds still differ and the kernel can be enumerated (|ker A| x taps <= 2^26), the group
branch and bound (:func:`modlights.search.hardest_bb.group_hardest`, ``--groups`` of the
CLI) for ``groups`` seconds from the certificate's lower bound, its certificate taken
when it is no looser on either side. The certificate is written to
``<out>/{k}x{k}.json`` unless a file is there already whose bounds are at least as
tight: a file is replaced only by one strictly tighter on one side and no looser on the
other. Sizes listed in ``keep`` are not searched: their file (from a longer run) is
only checked.

Every file is then checked by both checkers, each in a subprocess with a timeout
(``verify_timeout``): ``modlights verify FILE --max-work inf`` (its wall time, the
interpreter's start included) and the C library's ``ml_verify_json`` (the call's time).
One row per size (``Context.row``): nullity, the published value (wmboyles/LightsOut-Math,
``min_clicks_answers.txt``, 2021), the file's lower and upper bound, the run's own, wall
and CPU seconds of the search, cores, CPU model, the file's bytes and both verification
times. ``progress``: a path to which each row is appended as a JSON line as soon as it is
known (a long run keeps what it did).

The check (after the run): every file holds for both checkers, and no bound contradicts
a published exact value other than 19 x 19's 197 (which the certificate's upper bound
refutes): a disagreement fails the run, naming the size and its certificate.
"""

from __future__ import annotations

import copy
import json
import os
import resource
import subprocess
import sys
import time
import types
from pathlib import Path

from ..registry import Context, Subject, workload
from ..runner import _cpu_model

ROOT = Path(__file__).resolve().parents[2]

#: wmboyles/LightsOut-Math, code/serialization/min_clicks_answers.txt (2021), k = 1..100:
#: an int is an exact value, (a, b) the bounds a..b, (a, "<b") the bounds a..b - 1
PUBLISHED: dict[int, int | tuple] = {
    **{k: k * k for k in range(1, 101)},
    **{4: 7, 5: 15, 9: 37, 11: 65, 14: 123, 16: 124, 17: 199, 19: 197, 23: (239, 305)},
    **{24: 375, 29: 443, 30: (180, "<900"), 32: (205, "<1024"), 33: (218, 573), 34: 763},
    **{35: 721, 39: (305, 877), 41: 1191, 44: 1287, 47: (442, 1313), 49: 1397, 50: 1344},
    **{53: 1999, 54: 1947, 59: (697, 1901), 61: (745, "<3721"), 62: (769, "<3844")},
    **{64: (820, 2743), 65: (845, 3015), 67: (898, 2437), 69: 2797, 71: (1009, 3025)},
    **{74: 3675, 77: 4239, 79: (1249, 3677), 83: 4145, 84: (3579, 3591), 89: 4371},
    **{92: (1693, "<8484"), 94: 5947, 95: (1805, 5441), 98: (1921, "<9604")},
    **{99: (1961, 5797)},
}
#: the published value refuted by a certificate (19 x 19: at most 176 taps)
PUBLISHED_WRONG = {19}
ENUMERATE_MAX = 1 << 26
#: seconds of the first tap tree when the group branch and bound can follow it
FIRST_TREE_SECONDS = 2.0


def published_text(k: int) -> str:
    """The published entry as the docs table shows it: ``199``, ``239..305``, ``180..<900``."""
    v = PUBLISHED[k]
    return str(v) if isinstance(v, int) else f"{v[0]}..{v[1]}"


def parse_sizes(text: str) -> list[int]:
    """``1-100`` or ``9,14,20-24``: the sizes, in order, without repeats."""
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        for k in range(int(lo), int(hi or lo) + 1):
            if k < 1:
                raise ValueError(f"sizes are >= 1, got {k}")
            if k not in out:
                out.append(k)
    return out


def _shown(path: Path) -> str:
    """The path relative to the repository when inside it."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _cpu() -> float:
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _tighter(new: dict, old: dict) -> bool:
    """Strictly tighter on one side, no looser on the other."""
    no_looser = new["lower"] >= old["lower"] and new["upper"] <= old["upper"]
    return no_looser and (new["lower"] > old["lower"] or new["upper"] < old["upper"])


def _verify_py(path: Path, timeout: float) -> tuple[bool | None, float]:
    """``modlights verify FILE --max-work inf``: (holds, wall seconds); None on timeout."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(
            [sys.executable, "-m", "modlights", "verify", str(path), "--max-work", "inf"],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0
    return p.returncode == 0, time.perf_counter() - t0


_C_CHECK = (
    "import sys, time\n"
    "from modlights.native import _core\n"
    "text = open(sys.argv[1]).read()\n"
    "t0 = time.perf_counter()\n"
    "ok = _core.verify_json(text)[0]\n"
    "print(ok is True, time.perf_counter() - t0)\n"
)


def _verify_c(path: Path, timeout: float) -> tuple[bool | None, float]:
    """The C checker (``ml_verify_json``) in a subprocess: (holds, seconds of the call);
    None on timeout (its seconds then the wall time until it)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(
            [sys.executable, "-c", _C_CHECK, str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0
    try:
        ok, secs = p.stdout.split()
        return ok == "True", float(secs)
    except ValueError:
        return False, time.perf_counter() - t0


def _search(k: int, budget: float, cert_budget: float, groups: float) -> dict:
    """One size: the certificate of the tightest bounds reached and the figures."""
    import modlights as ml
    from modlights.search.hardest_bb import group_certificate, group_hardest

    out: dict = {"cert": None, "groups_nodes": None, "groups_s": None}
    solver = ml.Solver(ml.Board.grid(k, k))
    out["nullity"] = solver.nullity
    t0 = time.perf_counter()
    h = solver.hardest(budget=budget)
    out["search_s"] = time.perf_counter() - t0
    out["run_lower"], out["run_upper"], out["proven"] = h.lower, h.upper, h.proven
    size = 2**solver.nullity * k * k
    enumerable = groups > 0 and size <= ENUMERATE_MAX
    try:  # a short tap tree first when the group branch and bound can follow
        first = min(cert_budget, FIRST_TREE_SECONDS) if enumerable else cert_budget
        cert = h.certificate(budget=first)
    except ValueError as e:  # no witness proved within the budget
        out["note"] = f"no certificate: {e}"
        out["cert_s"] = time.perf_counter() - t0 - out["search_s"]
        return out
    if cert["lower"] < cert["upper"] and enumerable:
        H, orders = solver._kernel().generators()
        g0 = time.perf_counter()
        res = group_hardest(solver.board, H, orders, lower=cert["lower"], budget=groups)
        out["groups_s"], out["groups_nodes"] = time.perf_counter() - g0, res["nodes"]
        if res["upper"] < cert["upper"] or res["lower"] > cert["lower"]:
            base = types.SimpleNamespace(certificate=lambda: copy.deepcopy(cert))
            try:
                new = group_certificate(solver, base, res)
            except ValueError as e:
                out["note"] = f"group certificate refused: {e}"
            else:
                try:
                    holds = ml.verify(copy.deepcopy(new), max_work=None)
                except ValueError as e:
                    holds, out["note"] = False, f"group certificate does not check: {e}"
                if holds and _tighter(new, cert):
                    cert = new
        if cert["lower"] < cert["upper"] and cert_budget > FIRST_TREE_SECONDS:
            again = h.certificate(budget=cert_budget)  # the tap tree, its whole budget
            if _tighter(again, cert):
                cert = again
    out["cert_s"] = time.perf_counter() - t0 - out["search_s"] - (out["groups_s"] or 0.0)
    out["cert"] = cert
    return out


@workload(
    "hardest-table",
    help="the hardest k x k GF(2) cross board for every size of `sizes` (hardest(), its "
    "certificate, the group branch and bound), each certificate written to `out` and "
    "checked by both checkers: one row per size (bounds, times, bytes, verification)",
    groups=("issue35",),
    params={
        "sizes": "1-100",
        "budget": 120.0,
        "cert": 30.0,
        "groups": 60.0,
        "keep": "",
        "out": "certificates/hardest",
        "verify_timeout": 600.0,
        "progress": "",
    },
    repeats=1,
    warmup=0,
    heavy=True,
)
def hardest_table(ctx: Context):
    sizes = parse_sizes(ctx["sizes"])
    keep = set(parse_sizes(ctx["keep"]))
    budget, cert_budget, groups = float(ctx["budget"]), float(ctx["cert"]), float(ctx["groups"])
    out_dir = Path(ctx["out"])
    if not out_dir.is_absolute():
        out_dir = ROOT / out_dir
    timeout = float(ctx["verify_timeout"])
    progress = Path(ctx["progress"]) if ctx["progress"] else None
    cpu_model = _cpu_model()
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()

    def one(k: int) -> dict:
        path = out_dir / f"{k}x{k}.json"
        old = json.loads(path.read_text()) if path.exists() else None
        c0, w0 = _cpu(), time.perf_counter()
        if k in keep:
            if old is None:
                raise ValueError(f"keep={k}: no file {path} to keep")
            got = {"nullity": len(old["kernel"]["generators"]), "cert": None, "note": "kept"}
        else:
            got = _search(k, budget, cert_budget, groups)
        wall, cpu = time.perf_counter() - w0, _cpu() - c0
        new, action = got["cert"], "kept"
        if new is not None and (old is None or _tighter(new, old)):
            out_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(new) + "\n")
            action = "new" if old is None else "replaced"
        final = json.loads(path.read_text()) if path.exists() else None
        row = {
            "size": k,
            "nullity": got["nullity"],
            "published": published_text(k),
            "lower": final["lower"] if final else None,
            "upper": final["upper"] if final else None,
            "settled": bool(final and final["lower"] == final["upper"]),
            "run_lower": new["lower"] if new else got.get("run_lower"),
            "run_upper": new["upper"] if new else got.get("run_upper"),
            "file": action if final else "none",
            "search_s": got.get("search_s"),
            "cert_s": got.get("cert_s"),
            "groups_s": got.get("groups_s"),
            "groups_nodes": got.get("groups_nodes"),
            "wall_s": wall,
            "cpu_s": cpu,
            "cores": cores,
            "machine": cpu_model,
            "certificate": _shown(path) if final else None,
            "bytes": path.stat().st_size if final else None,
            "verify_py_ok": None,
            "verify_py_s": None,
            "verify_c_ok": None,
            "verify_c_s": None,
            "note": got.get("note", ""),
        }
        if final is not None:
            row["verify_py_ok"], row["verify_py_s"] = _verify_py(path, timeout)
            row["verify_c_ok"], row["verify_c_s"] = _verify_c(path, timeout)
        return row

    def run():
        rows = []
        for k in sizes:
            row = one(k)
            rows.append(row)
            print(
                f"  {k}x{k}: {row['lower']}..{row['upper']} ({row['file']}) "
                f"search {row['search_s'] or 0:.1f} s, verify {row['verify_py_s'] or 0:.1f} s "
                f"/ C {row['verify_c_s'] or 0:.1f} s",
                file=sys.stderr,
                flush=True,
            )
            if progress is not None:
                with progress.open("a") as f:
                    f.write(json.dumps(row) + "\n")
        return rows

    def check(rows):
        bad = []
        for r in rows:
            k, v = r["size"], PUBLISHED[r["size"]]
            ctx.row(**r)
            if r["file"] != "none" and not (r["verify_py_ok"] and r["verify_c_ok"]):
                bad.append(f"{k}x{k}: {r['certificate']} does not check ({r})")
            if isinstance(v, int) and k not in PUBLISHED_WRONG and r["lower"] is not None:
                if not r["lower"] <= v <= r["upper"]:
                    bad.append(
                        f"{k}x{k}: published {v}, certificate {r['certificate']} proves "
                        f"{r['lower']}..{r['upper']}"
                    )
        settled = [r["size"] for r in rows if r["settled"]]
        ctx.figure("settled", len(settled), "sizes", note=f"of {len(rows)}")
        ctx.figure("search", round(sum(r["wall_s"] for r in rows), 1), "s", note="wall, all sizes")
        ctx.figure("cpu", round(sum(r["cpu_s"] for r in rows), 1), "s", note="CPU, all sizes")
        for name, key in (("verify python", "verify_py_s"), ("verify C", "verify_c_s")):
            total = sum(r[key] or 0.0 for r in rows)
            ctx.figure(name, round(total, 1), "s", note="every file of the run, summed")
        assert not bad, "; ".join(bad)

    return {"modlights": Subject(run, check)}


def _seconds(s: float | None) -> str:
    if s is None:
        return ""
    return f"{s:.2f} s" if s < 10 else f"{s:.0f} s"


def docs_rows(rows: list[dict], searched: dict[int, str] | None = None) -> list[str]:
    """The rows of docs/tutorials/hardest-boards.md's table from a run's rows: size,
    published, here (**v** settled, lower..upper, "-" without a certificate), search
    time (``searched[k]`` instead for a kept file's earlier run), certificate (path and
    KB), verify (``modlights verify`` / C; "> t (stopped)" for a check its timeout
    stopped)."""
    out = []
    for r in rows:
        k = r["size"]
        pub = published_text(k) + (" (wrong)" if k in PUBLISHED_WRONG else "")
        if r["lower"] is None:
            here = "-"
        elif r["settled"]:
            here = f"**{r['lower']}**"
        else:
            here = f"{r['lower']}..{r['upper']}"
        took = (searched or {}).get(k) or _seconds(r["wall_s"])
        if r["groups_s"] is not None:
            took += f" (groups {r['groups_nodes']} nodes)"
        cert = (
            f"`{r['certificate']}` ({max(1, round(r['bytes'] / 1024))} KB)"
            if r["certificate"]
            else "none"
        )
        checks = [
            _seconds(r[f"verify_{c}_s"])
            if r[f"verify_{c}_ok"] is not None
            else f"> {_seconds(r[f'verify_{c}_s'])} (stopped)"
            for c in ("py", "c")
        ]
        verify = " / ".join(checks) if r["certificate"] else ""
        out.append(f"| {k} x {k} | {pub} | {here} | {took} | {cert} | {verify} |")
    return out
