"""The benchmark report: figures (SVG) and tables drawn from the runner's result files.

    python -m bench.report [--results bench/results] [--out docs/figures]

Reads the JSON files the runner writes (``bench/results/YYYY-MM-DD-<workload>.json``)
for the workloads below, checks every record it uses (a malformed one stops the report
with a :class:`ReportError` naming the file, the run and the field), and writes into
``--out``:

* ``scaling-cross.svg``: time against tiles, log-log, GF(2) k x k cross board from a
  random solvable start: modlights and every peer timed in the same run
  (``scaling-cross``: a C++ light chaser, M4RI, galois, python-flint), with the
  10^10-tile point (``packed-giant``, cross pattern, 100000 x 100000, packed);
* ``peers-cross.svg``: the same for the ``peers-cross`` runs (with the pure-NumPy
  reference engine);
* ``minimal-rate.svg``: coset elements searched a second (kernel size / median time of
  a proved minimal solve) against the kernel dimension (``minimal-rate``; and the all-on
  k x k cross boards of the ``a075464`` runs, whose searches use the board's symmetries);
* ``dense-ratios.svg``: peer time / modlights time on dense random systems
  (``dense-gf2-4096``, ``dense-gf3-2000``, ``peers-gf2-rank``; > 1: modlights faster);
* ``tables.md.inc``: the medians behind every figure, as Markdown tables (included by
  docs/benchmarks.md);
* ``figures.json``: the manifest: each figure's SHA-256, the result files it was drawn
  from and the matplotlib version that drew it.

Each figure is stamped with the machine (CPU, cores, Python, NumPy, modlights commit)
and the date of the runs it shows, read from the records. Where several records share a
workload and parameters, the latest (by its ``date``) is drawn. Output is deterministic:
the Agg backend, the DejaVu Sans font shipped with matplotlib, a fixed ``svg.hashsalt``
and no date or creator in the files' metadata, so the same results and the same
matplotlib give byte-identical files (``tests/bench/test_report.py`` checks it).

Validation needs no matplotlib (:func:`load_results`); drawing does (``pip install
".[bench]"``).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["ReportError", "load_results", "select_latest", "build_report", "FIGURES", "main"]

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
OUT = HERE.parent / "docs" / "figures"

#: figure file -> the workloads whose results it draws
FIGURES: dict[str, tuple[str, ...]] = {
    "scaling-cross.svg": ("scaling-cross", "packed-giant"),
    "peers-cross.svg": ("peers-cross",),
    "minimal-rate.svg": ("minimal-rate", "a075464"),
    "dense-ratios.svg": ("dense-gf2-4096", "dense-gf3-2000", "peers-gf2-rank"),
}
WORKLOADS = tuple(dict.fromkeys(w for ws in FIGURES.values() for w in ws))
LABELS = {
    "modlights": "modlights",
    "chase-cpp": "light chasing (C++)",
    "m4ri": "M4RI",
    "galois": "galois",
    "flint": "python-flint",
    "reference": "modlights reference (NumPy)",
}
STYLE = {
    "modlights": ("C0", "o"),
    "chase-cpp": ("C1", "s"),
    "m4ri": ("C2", "^"),
    "galois": ("C3", "v"),
    "flint": ("C4", "D"),
    "reference": ("C7", "x"),
}


class ReportError(ValueError):
    """A result file the report cannot use: unreadable, not JSON, or a record missing a
    field or holding a value of the wrong type. The message names the file, the run
    and the field."""


# ----------------------------------------------------------------------------- loading


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise ReportError(f"{where}: {what}")


def _is_num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _check_run(run: Any, where: str, workload: str) -> None:
    _need(isinstance(run, dict), where, "a run is not an object")
    _need(
        run.get("workload") == workload,
        where,
        f"'workload' is {run.get('workload')!r}, the file is for {workload!r}",
    )
    _need(isinstance(run.get("params"), dict), where, "'params' missing or not an object")
    _need(
        isinstance(run.get("date"), str) and len(run["date"]) >= 10,
        where,
        "'date' missing or not an ISO date",
    )
    m = run.get("machine")
    _need(isinstance(m, dict), where, "'machine' missing or not an object")
    _need(isinstance(m.get("cpu"), str) and m["cpu"], where, "'machine.cpu' missing")
    _need(isinstance(m.get("cores"), int), where, "'machine.cores' missing or not an int")
    cs = run.get("contenders")
    _need(isinstance(cs, dict), where, "'contenders' missing or not an object")
    for name, c in cs.items():
        w = f"{where}, contender {name!r}"
        _need(isinstance(c, dict), w, "not an object")
        if "missing" in c or "error" in c:
            continue
        _need(
            _is_num(c.get("median")) and c["median"] > 0,
            w,
            "'median' missing or not a positive number",
        )
        _need(
            isinstance(c.get("times"), list) and c["times"] and all(_is_num(t) for t in c["times"]),
            w,
            "'times' missing or not numbers",
        )
    figs = run.get("figures", {})
    _need(isinstance(figs, dict), where, "'figures' is not an object")
    for name, f in figs.items():
        _need(
            isinstance(f, dict) and _is_num(f.get("value")),
            f"{where}, figure {name!r}",
            "'value' missing or not a number",
        )


def load_results(
    results: Path | str = RESULTS, workloads: Iterable[str] = WORKLOADS
) -> dict[str, list[dict[str, Any]]]:
    """Every run of ``workloads`` in the result files under ``results``
    (``*-<workload>.json``), each checked; ``{workload: [run, ...]}`` with each run's
    ``"source"`` set to its file name, oldest file first.

    Raises ReportError for a file that is not JSON or not the runner's shape, and for a
    run missing a field the report reads. No matplotlib needed."""
    results = Path(results)
    _need(results.is_dir(), str(results), "not a directory")
    out: dict[str, list[dict[str, Any]]] = {}
    for wl in workloads:
        runs: list[dict[str, Any]] = []
        for path in sorted(results.glob(f"????-??-??-{wl}.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
                raise ReportError(f"{path.name}: not a readable JSON file ({e})") from None
            _need(
                isinstance(data, dict)
                and data.get("workload") == wl
                and isinstance(data.get("runs"), list),
                path.name,
                f"not a runner result file for {wl!r} (want {{'workload': {wl!r}, "
                "'runs': [...]}})",
            )
            for i, run in enumerate(data["runs"]):
                _check_run(run, f"{path.name}, run {i}", wl)
                runs.append({**run, "source": path.name})
        out[wl] = runs
    return out


def select_latest(runs: list[dict[str, Any]], **match: Any) -> list[dict[str, Any]]:
    """The runs whose params include ``match``, one per distinct params (the latest by
    date; a later file wins a tie)."""
    best: dict[str, dict[str, Any]] = {}
    for r in runs:
        if all(r["params"].get(k) == v for k, v in match.items()):
            key = json.dumps(r["params"], sort_keys=True)
            if key not in best or r["date"] >= best[key]["date"]:
                best[key] = r
    return list(best.values())


def _median(run: dict[str, Any], name: str) -> float | None:
    c = run["contenders"].get(name)
    return c["median"] if c and "median" in c else None


def _stamp(runs: list[dict[str, Any]]) -> str:
    """Machine and dates of ``runs``: one line per distinct machine."""
    machines: dict[str, set[str]] = {}
    loads: dict[str, list[float]] = {}
    for r in runs:
        m = r["machine"]
        commit = str(m.get("modlights_commit") or "?")[:7] + (
            "+dirty" if str(m.get("modlights_commit", "")).endswith("+dirty") else ""
        )
        key = (
            f"{m['cpu']}, {m['cores']} cores, Python {m.get('python', '?')}, "
            f"NumPy {m.get('numpy', '?')}, modlights {commit}"
        )
        machines.setdefault(key, set()).add(r["date"][:10])
        load = m.get("load")
        if isinstance(load, list) and load and _is_num(load[0]):
            loads.setdefault(key, []).append(float(load[0]))

    def span(key: str) -> str:
        ls = loads.get(key)
        return f"; load {min(ls):.1f}-{max(ls):.1f}" if ls else ""

    return "\n".join(
        f"measured on {k}; {', '.join(sorted(d))}{span(k)}" for k, d in sorted(machines.items())
    )


# ----------------------------------------------------------------------------- drawing


def _mpl():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update(matplotlib.rcParamsDefault)
    matplotlib.rcParams.update(
        {
            "svg.hashsalt": "modlights-bench-report",
            "svg.fonttype": "path",
            "font.family": "DejaVu Sans",
            "font.size": 9,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "figure.figsize": (7.0, 4.6),
            "path.simplify": False,
        }
    )
    return matplotlib, plt


def _finish(plt, fig, runs: list[dict[str, Any]], extra: str = "") -> bytes:
    width = int(fig.get_figwidth() * 19)  # characters of 6.5 pt a line
    text = "\n".join(
        textwrap.fill(line, width, subsequent_indent="  ")
        for line in (_stamp(runs) + (f"\n{extra}" if extra else "")).split("\n")
    )
    fig.text(0.01, 0.01, text, fontsize=6.5, color="0.35", va="bottom", ha="left")
    fig.tight_layout(rect=(0, 0.04 + 0.025 * text.count("\n"), 1, 1))
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return buf.getvalue()


def _time_axis(ax) -> None:
    from matplotlib.ticker import FuncFormatter

    ax.yaxis.set_major_formatter(FuncFormatter(lambda s, _: _fmt_seconds(s)))


def _fmt_seconds(s: float, space: str = " ") -> str:
    """``s`` seconds in s, ms, µs or ns, three significant digits (``space`` between the
    number and the unit: a no-break space in tables)."""
    if s <= 0:
        return "0"
    for unit, f in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= f:
            return f"{s / f:.3g}{space}{unit}"
    return f"{s:.1e}{space}s"


NBSP = "\u00a0"


def _size_sweep(plt, runs: list[dict[str, Any]], title: str, giant: list | None = None):
    fig, ax = plt.subplots()
    runs = sorted(runs, key=lambda r: r["params"]["size"])
    names = list(dict.fromkeys(n for r in runs for n in r["contenders"]))
    order = [n for n in STYLE if n in names] + [n for n in names if n not in STYLE]
    for n in order:
        pts = [(r["params"]["size"] ** 2, _median(r, n)) for r in runs]
        pts = [(x, y) for x, y in pts if y is not None]
        if not pts:
            continue
        color, marker = STYLE.get(n, ("C5", "."))
        ax.plot(
            *zip(*pts),
            marker=marker,
            color=color,
            label=LABELS.get(n, n),
            linewidth=2.0 if n == "modlights" else 1.2,
            markersize=4,
        )
    for g in giant or []:
        rows, cols = g["params"]["rows"], g["params"]["cols"] or g["params"]["rows"]
        ax.plot(
            [rows * cols],
            [_median(g, "modlights")],
            marker="*",
            markersize=12,
            linestyle="none",
            color="C0",
            label=f"modlights, packed {rows} x {cols} ({g['params']['pattern']})",
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    _time_axis(ax)
    ax.set_xlabel("tiles (k x k board)")
    ax.set_ylabel("median time, factor + solve")
    ax.set_title(title)
    ax.legend(fontsize=7.5, loc="upper left")
    return fig


def _table_sweep(runs: list[dict[str, Any]], title: str) -> str:
    runs = sorted(runs, key=lambda r: r["params"]["size"])
    names = list(dict.fromkeys(n for r in runs for n in r["contenders"]))
    lines = [
        f"**{title}** (median times)",
        "",
        "| k | tiles | " + " | ".join(LABELS.get(n, n) for n in names) + " |",
        "|---:|---:|" + "---:|" * len(names),
    ]
    for r in runs:
        k = r["params"]["size"]
        cells = []
        for n in names:
            m = _median(r, n)
            cells.append(_fmt_seconds(m, NBSP) if m is not None else "-")
        lines.append(f"| {k} | {k * k} | " + " | ".join(cells) + " |")
    return "\n".join(
        lines
        + [
            "",
            "-: not run at that size (the reason is in the result "
            "file: too slow there, or not installed)",
        ]
    )


def _rate_points(runs: list[dict[str, Any]]) -> list[tuple[int, float, float]]:
    """(nullity, coset elements, elements a second) of each minimal-rate run."""
    pts = []
    for r in runs:
        f, m = r["figures"], _median(r, "modlights")
        if m is None:
            continue
        _need(
            "nullity" in f and "kernel_size" in f,
            f"{r['source']}, {r['params']}",
            "figures 'nullity' and 'kernel_size' are needed",
        )
        pts.append(
            (
                int(f["nullity"]["value"]),
                int(f["kernel_size"]["value"]),
                f["kernel_size"]["value"] / m,
            )
        )
    return sorted(pts)


def _a075464_points(runs: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    """(k, nullity, 2^nullity / seconds) of every k of the a075464 runs (figures 'k=K'
    with a note 'T taps, nullity D')."""
    pts = {}
    for r in sorted(runs, key=lambda r: r["date"]):
        for name, f in r["figures"].items():
            if not name.startswith("k="):
                continue
            note = str(f.get("note", ""))
            _need(
                "nullity" in note,
                f"{r['source']}, figure {name!r}",
                "the note must say 'nullity D'",
            )
            d = int(note.rsplit("nullity", 1)[1].strip().split()[0].strip(",;"))
            if d > 0 and f["value"] > 0:
                pts[int(name[2:])] = (d, 2.0**d / f["value"])
    return sorted((k, d, rate) for k, (d, rate) in pts.items())


def build_report(results: Path | str = RESULTS) -> dict[str, bytes]:
    """Every output file's name and bytes (figures, tables, manifest), from the result
    files under ``results``. Raises ReportError on a malformed result, or when a figure
    has no run to draw."""
    data = load_results(results)
    matplotlib, plt = _mpl()
    files: dict[str, bytes] = {}
    tables: list[tuple[str, str]] = []
    used: dict[str, list[dict[str, Any]]] = {}

    # time against size, with every peer of the same run
    sc = select_latest(data["scaling-cross"])
    _need(
        bool(sc),
        str(results),
        "no scaling-cross run (python -m bench scaling-cross --param size=K)",
    )
    giant = select_latest(data["packed-giant"], pattern="cross")
    giant = [g for g in giant if _median(g, "modlights") is not None]
    fig = _size_sweep(
        plt, sc, "GF(2) k x k cross board: modlights against its peers, each size one run", giant
    )
    files["scaling-cross.svg"] = _finish(
        plt,
        fig,
        sc + giant,
        "modlights: the Python call (Board.grid + Solver + "
        "solve); C++ chaser and M4RI: their solve only "
        "(self-timed); a peer too slow at a size is not run "
        "there; star: solve_packed, random start",
    )
    used["scaling-cross.svg"] = sc + giant
    tables.append(
        (_table_sweep(sc, "GF(2) k x k cross board, factor + solve"), "scaling-cross.svg")
    )
    if giant:
        tables.append(
            (
                "\n".join(
                    [
                        "**The 10<sup>10</sup>-tile point** (median times)",
                        "",
                        "| board | pattern | median | peak memory |",
                        "|---|---|---:|---:|",
                    ]
                    + [
                        f"| {g['params']['rows']} x {g['params']['cols'] or g['params']['rows']} | "
                        f"{g['params']['pattern']} | "
                        f"{_fmt_seconds(_median(g, 'modlights'), NBSP)} | "
                        + (
                            f"{g['figures']['peak_mb']['value']:.0f} MB"
                            if "peak_mb" in g["figures"]
                            else "-"
                        )
                        + " |"
                        for g in giant
                    ]
                ),
                "scaling-cross.svg",
            )
        )

    pc = select_latest(data["peers-cross"], states=2)
    _need(bool(pc), str(results), "no peers-cross run with states=2")
    fig = _size_sweep(plt, pc, "GF(2) k x k cross: peers-cross runs (dense peers)")
    files["peers-cross.svg"] = _finish(plt, fig, pc)
    used["peers-cross.svg"] = pc
    tables.append((_table_sweep(pc, "peers-cross, GF(2)"), "peers-cross.svg"))

    # minimal search rate against kernel dimension
    mr = select_latest(data["minimal-rate"])
    _need(
        bool(mr),
        str(results),
        "no minimal-rate run (python -m bench minimal-rate --param nullity=D)",
    )
    fig, ax = plt.subplots()
    rows = [
        "**Minimal solutions: coset elements a second**",
        "",
        "| states | kernel dimension | coset elements | median | elements / s |",
        "|---:|---:|---:|---:|---:|",
    ]
    for i, n in enumerate(sorted({r["params"].get("states", 2) for r in mr})):
        rr = [r for r in mr if r["params"].get("states", 2) == n]
        pts = _rate_points(rr)
        ax.plot(
            [p[0] for p in pts],
            [p[2] for p in pts],
            marker="os"[i % 2],
            color=f"C{i}",
            label=f"Z/{n}: graph board, 64 cells, searched to the end",
        )
        for r in sorted(rr, key=lambda r: r["figures"]["nullity"]["value"]):
            f = r["figures"]
            m = _median(r, "modlights")
            if m is not None:
                rows.append(
                    f"| {n} | {int(f['nullity']['value'])} | "
                    f"{int(f['kernel_size']['value'])} | {_fmt_seconds(m, NBSP)} | "
                    f"{f['kernel_size']['value'] / m:.3g} |"
                )
    a = select_latest(data["a075464"])
    apts = [p for r in a for p in _a075464_points([r])]
    if apts:
        ax.plot(
            [p[1] for p in apts],
            [p[2] for p in apts],
            marker="*",
            linestyle="none",
            color="C3",
            markersize=8,
            label="GF(2) all-on k x k cross (A075464 runs): 2^d / time",
        )
    ax.set_yscale("log")
    ax.set_xlabel("kernel dimension d (coset of n^d elements)")
    ax.set_ylabel("coset elements covered a second")
    ax.set_title("Minimal solutions: search rate against kernel dimension")
    ax.legend(fontsize=7.5, loc="upper left")
    files["minimal-rate.svg"] = _finish(
        plt,
        fig,
        mr + a,
        "rate: the coset's size over the "
        "median time of a proved solve (sub-cubes pruned by "
        "the bound count as covered); small cosets: the fixed "
        "cost of one solve dominates",
    )
    used["minimal-rate.svg"] = mr + a
    tables.append(("\n".join(rows), "minimal-rate.svg"))

    # dense ratios
    bars: list[tuple[str, float]] = []
    druns: list[dict[str, Any]] = []
    for wl, what in (
        ("dense-gf2-4096", "GF(2) factor + solve"),
        ("dense-gf3-2000", "GF(3) factor + solve"),
        ("peers-gf2-rank", "GF(2) rank"),
    ):
        for r in sorted(select_latest(data[wl]), key=lambda r: r["params"]["size"]):
            m = _median(r, "modlights")
            if m is None:
                continue
            for n in r["contenders"]:
                p = _median(r, n)
                if n != "modlights" and p is not None:
                    bars.append((f"{what}, N = {r['params']['size']}: {LABELS.get(n, n)}", p / m))
            druns.append(r)
    _need(bool(bars), str(results), "no dense run with a peer timed")
    fig, ax = plt.subplots(figsize=(8.0, 1.2 + 0.28 * len(bars)))
    ys = list(range(len(bars)))[::-1]
    ax.barh(ys, [b[1] for b in bars], color=["C0" if b[1] >= 1 else "C3" for b in bars])
    ax.set_yticks(ys, [b[0] for b in bars], fontsize=7.5)
    ax.set_xscale("log")
    lo, hi = min(b[1] for b in bars), max(b[1] for b in bars)
    ax.set_xlim(min(lo, 1.0) / 1.5, max(hi, 1.0) * 4)
    ax.axvline(1.0, color="0.2", linewidth=1)
    for y, (_, v) in zip(ys, bars):
        ax.text(v, y, f" {v:.3g}x", va="center", fontsize=7)
    ax.set_xlabel("peer time / modlights time (median; > 1: modlights faster)")
    ax.set_title("Dense random N x N systems: peer time / modlights time")
    files["dense-ratios.svg"] = _finish(
        plt,
        fig,
        druns,
        "M4RI self-timed (its solve only); galois and python-flint: rref of [A | b]",
    )
    used["dense-ratios.svg"] = druns
    tables.append(
        (
            "\n".join(
                [
                    "**Dense random systems** (peer / modlights, medians)",
                    "",
                    "| workload and peer | ratio |",
                    "|---|---:|",
                ]
                + [f"| {b[0]} | {b[1]:.3g} |" for b in bars]
            ),
            "dense-ratios.svg",
        )
    )

    stamps = {name: _stamp(runs) for name, runs in used.items()}
    files["tables.md.inc"] = (
        "<!-- written by bench/report.py from bench/results: do not "
        "edit -->\n\n"
        + "\n\n".join(
            text + "\n\n" + "".join(f"*{line}*\n" for line in stamps[fig].split("\n"))
            for text, fig in tables
        )
    ).encode()
    manifest = {
        "generator": "bench/report.py",
        "matplotlib": matplotlib.__version__,
        "figures": {
            name: {
                "sha256": hashlib.sha256(files[name]).hexdigest(),
                "sources": sorted({r["source"] for r in used[name]}),
            }
            for name in FIGURES
        },
    }
    files["figures.json"] = (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bench.report", description="Draw the benchmark figures from bench/results."
    )
    ap.add_argument("--results", type=Path, default=RESULTS, help="result files (JSON)")
    ap.add_argument("--out", type=Path, default=OUT, help="where the figures go")
    args = ap.parse_args(argv)
    try:
        files = build_report(args.results)
    except ReportError as e:
        print(f"bench.report: malformed or missing result: {e}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (args.out / name).write_bytes(data)
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
