"""Run registered workloads: interleaved timing rounds, medians, ratios, result files.

:func:`run_workload` times one workload's contenders in this process;
:func:`write_results` writes ``<out>/YYYY-MM-DD-<workload>.json`` (every run of the day,
appended) and a short ``.md`` beside it; :func:`machine` describes the machine and the
trees (CPU, cores, load, git commits) so a figure can be read later.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .registry import MAIN, Context, Missing, Subject, Timed, Workload

__all__ = [
    "run_workload",
    "machine",
    "git_commit",
    "write_results",
    "format_run",
    "render_md",
    "RESULTS",
]

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parent.parent


def git_commit(path: str | os.PathLike) -> str | None:
    """The commit checked out at ``path`` (with '+dirty' when the tree has changes to
    tracked files), or None outside a git tree."""
    try:
        head = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """The machine, the interpreter and the trees of this run."""
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    info: dict[str, Any] = {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "load": load,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "bench_commit": git_commit(ROOT),
    }
    try:
        import numpy

        info["numpy"] = numpy.__version__
    except ImportError:
        pass
    try:
        import modlights

        info["modlights"] = getattr(modlights, "__version__", None)
        info["modlights_path"] = str(Path(modlights.__file__).resolve().parent)
        pkg = Path(modlights.__file__).resolve().parent
        # a source tree (DIR/src/modlights) has a commit; an installed copy has none
        info["modlights_commit"] = (
            git_commit(pkg.parent.parent) if pkg.parent.name == "src" else "installed"
        )
    except ImportError as e:
        info["modlights"] = f"not importable: {e}"
    return info


def _as_subject(value: Any) -> Subject | Missing:
    if isinstance(value, (Subject, Missing)):
        return value
    if callable(value):
        return Subject(run=value)
    raise TypeError(f"a contender is a callable, a Subject or a Missing, got {value!r}")


def run_workload(
    w: Workload,
    params: dict[str, Any] | None = None,
    repeats: int | None = None,
    seed: int = 0,
    only: list[str] | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run workload ``w`` and return its result record.

    params: the workload's parameters (default: its own defaults).
    repeats: timed rounds (default: the workload's); round r runs every contender once,
        starting at contender r mod k, so all see the same machine load. The workload's
        ``warmup`` rounds run first, untimed.
    only: time just these contenders (e.g. ``["modlights"]``); the others are reported
        as missing with the reason "not selected".
    Raises ValueError for repeats < 1; a contender whose answer fails its check, or
    whose run raises, is reported with the error and leaves the rounds.
    """
    reps = w.repeats if repeats is None else repeats
    if reps < 1:
        raise ValueError(f"repeats must be >= 1, got {reps}")
    say = log or (lambda s: None)
    with tempfile.TemporaryDirectory(prefix=f"bench-{w.name}-") as tmp:
        ctx = Context(
            params=dict(w.params if params is None else params), seed=seed, workdir=Path(tmp)
        )
        try:
            return _run(w, ctx, reps, seed, only, say)
        finally:
            for fn in reversed(ctx.cleanups):
                fn()


def _run(
    w: Workload,
    ctx: Context,
    reps: int,
    seed: int,
    only: list[str] | None,
    say: Callable[[str], None],
) -> dict[str, Any]:
    t0 = time.perf_counter()
    try:
        given = w.func(ctx) or {}
    except (ValueError, KeyboardInterrupt):
        raise  # bad parameters: the caller says so
    except Exception as e:  # the library lacks what it needs
        say(f"  setup failed: {type(e).__name__}: {e}")
        given = {c: Missing(f"setup failed: {type(e).__name__}: {e}") for c in w.contenders()}
        ctx.figures.clear()
        ctx.rows.clear()
    setup = time.perf_counter() - t0
    unknown = set(given) - set(w.contenders())
    if unknown:
        raise ValueError(
            f"workload {w.name!r} returned undeclared contenders "
            f"{sorted(unknown)}; declare them in peers="
        )
    subjects: dict[str, Subject | Missing] = {}
    for name in w.contenders():
        if only is not None and name not in only:
            subjects[name] = Missing("not selected")
        elif name not in given:
            if name == MAIN and (ctx.figures or ctx.rows):
                continue  # a figures-only workload
            subjects[name] = Missing("the workload did not provide it")
        else:
            subjects[name] = _as_subject(given[name])
    results: dict[str, dict[str, Any]] = {}
    live = [n for n, s in subjects.items() if isinstance(s, Subject)]
    for n, s in subjects.items():
        if isinstance(s, Missing):
            results[n] = {"missing": s.reason}
            say(f"  {n}: missing ({s.reason})")
        else:
            results[n] = {"times": [], "label": s.label}
    warm = w.warmup
    for r in range(-warm, reps):
        order = live[r % len(live) :] + live[: r % len(live)] if live else []
        for n in order:
            s = subjects[n]
            assert isinstance(s, Subject)
            t0 = time.perf_counter()
            try:
                ans = s.run()
                dt = time.perf_counter() - t0
                if isinstance(ans, Timed):
                    dt, ans = ans.seconds, ans.answer
                if r == -warm and s.check is not None:
                    s.check(ans)  # the first answer, untimed
            except KeyboardInterrupt:
                raise
            except Exception as e:  # reported, not fatal
                results[n]["error"] = f"{type(e).__name__}: {e}"
                live.remove(n)
                say(f"  {n}: error ({results[n]['error']})")
                continue
            del ans
            if r < 0:
                say(f"  warm-up {n}: {dt:.4f} s")
                continue
            results[n]["times"].append(dt)
            say(f"  round {r + 1}/{reps} {n}: {dt:.4f} s")
    for res in results.values():
        if res.get("times"):
            res["median"] = statistics.median(res["times"])
            res["min"] = min(res["times"])
        if "label" in res and not res["label"]:
            del res["label"]
    main = results.get(MAIN, {}).get("median")
    for n, res in results.items():
        if n != MAIN and main and res.get("median"):
            res["ratio_to_modlights"] = res["median"] / main
    return {
        "workload": w.name,
        "help": w.help,
        "params": ctx.params,
        "seed": seed,
        "repeats": reps,
        "setup_seconds": setup,
        "contenders": results,
        "figures": ctx.figures,
        **({"rows": ctx.rows} if ctx.rows else {}),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def _fmt(t: float | None) -> str:
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.1f} us"
    if t < 1:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.3f} s"


def format_run(rec: dict[str, Any]) -> str:
    """A short plain-text (and Markdown) table of one run record."""
    lines = [
        f"{rec['workload']}: {rec['help']}",
        f"params {rec['params']}, seed {rec['seed']}, {rec['repeats']} rounds after "
        f"{rec.get('warmup', 0)} warm-up "
        f"(medians; ratio = peer / modlights, > 1: modlights faster)",
        "",
        "| contender | median | min | ratio | note |",
        "|---|---|---|---|---|",
    ]
    for n, res in rec["contenders"].items():
        if "missing" in res:
            lines.append(f"| {n} | missing | | | {res['missing']} |")
            continue
        note = res.get("error", res.get("label", ""))
        ratio = res.get("ratio_to_modlights")
        lines.append(
            f"| {n} | {_fmt(res.get('median'))} | {_fmt(res.get('min'))} | "
            f"{'' if ratio is None else f'{ratio:.2f}x'} | {note} |"
        )
    for name, f in rec.get("figures", {}).items():
        lines.append(f"| {name} | {f['value']:.6g} {f['unit']} | | | {f['note']} |")
    rows = rec.get("rows") or []
    if rows:
        keys = list(rows[0])
        lines += ["", "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
        lines += ["| " + " | ".join(_cell(r.get(k)) for k in keys) + " |" for r in rows]
    return "\n".join(lines)


def _cell(v: Any) -> str:
    """A table cell: floats to 4 significant digits, None empty."""
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v).replace("|", "/")


def write_results(
    rec: dict[str, Any], mach: dict[str, Any], out: Path | str = RESULTS, kind: str = ""
) -> tuple[Path, Path]:
    """Append ``rec`` (with the machine ``mach``) to ``<out>/<date>-<name>.json`` and
    rewrite the ``.md`` beside it; return both paths. ``name`` is the workload, with
    ``kind`` (e.g. "compare") in front when given."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    day = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d")
    stem = f"{day}-{kind + '-' if kind else ''}{rec['workload']}"
    jpath, mpath = out / f"{stem}.json", out / f"{stem}.md"
    doc: dict[str, Any] = {"workload": rec["workload"], "runs": []}
    if jpath.exists():
        try:
            doc = json.loads(jpath.read_text())
            if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
                raise ValueError("not a results file of the runner")
        except (OSError, ValueError):  # kept aside, never overwritten
            doc = {"workload": rec["workload"], "runs": []}
            jpath.rename(jpath.with_suffix(f".unreadable-{int(time.time())}.json"))
    doc["runs"].append({**rec, "machine": mach})
    jpath.write_text(json.dumps(doc, indent=1, default=str) + "\n")
    mpath.write_text(render_md(stem, doc))
    return jpath, mpath


def render_md(title: str, doc: dict[str, Any]) -> str:
    """The Markdown of a results file: every run with its machine line and table."""
    md = [f"# {title}", ""]
    for i, run in enumerate(doc["runs"], 1):
        m = run["machine"]
        where = (
            ""
            if "trees" in m
            else f"modlights {m.get('modlights_commit')} ({m.get('modlights_path')}), "
        )
        md += [
            f"## run {i}, {run['date']}",
            "",
            f"{m.get('cpu')}, {m.get('usable_cores')} of {m.get('cores')} cores, load "
            f"{m.get('load')}; {where}bench {m.get('bench_commit')}",
            "",
            run.get("table") or format_run(run),
            "",
        ]
    return "\n".join(md)
