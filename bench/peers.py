"""The peers a workload compares with, each found here or reported as missing.

galois (pip install galois), python-flint (pip install python-flint) and M4RI (Debian's
libm4ri-dev; timed through the C harness bench/m4ri_bench.c, compiled on first use into
a cache directory outside the repository). Each ``*_peer`` function returns the module
or the harness path, or a :class:`~bench.registry.Missing` saying how to get it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from .registry import Missing, Subject, Timed

__all__ = [
    "galois_peer",
    "flint_peer",
    "m4ri_peer",
    "write_mlbm",
    "read_mlbm",
    "m4ri_solve",
    "m4ri_rank",
    "flint_solve",
    "galois_solve",
]

HERE = Path(__file__).resolve().parent
M4RI_HEADER = Path("/usr/include/m4ri/m4ri.h")
CACHE = Path(
    os.environ.get("MODLIGHTS_BENCH_CACHE", Path(tempfile.gettempdir()) / "modlights-bench-build")
)


def galois_peer():
    """The galois module, or Missing."""
    try:
        import galois

        return galois
    except ImportError as e:
        return Missing(f"galois not importable ({e}); pip install galois")


def flint_peer():
    """The python-flint module, or Missing."""
    try:
        import flint

        return flint
    except ImportError as e:
        return Missing(f"python-flint not importable ({e}); pip install python-flint")


def m4ri_peer() -> Path | Missing:
    """The compiled M4RI harness (bench/m4ri_bench.c), or Missing (no libm4ri-dev, no
    C compiler, or the compile failed: the compiler's message is in the reason)."""
    if not M4RI_HEADER.exists():
        return Missing(f"{M4RI_HEADER} not found (apt-get install libm4ri-dev)")
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return Missing("no C compiler (cc) to build bench/m4ri_bench.c")
    src = HERE / "m4ri_bench.c"
    exe = CACHE / "m4ri_bench"
    CACHE.mkdir(parents=True, exist_ok=True)
    if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
        p = subprocess.run(
            [cc, "-O2", "-o", str(exe), str(src), "-lm4ri", "-lm"], capture_output=True, text=True
        )
        if p.returncode != 0:
            return Missing(f"bench/m4ri_bench.c did not compile: {p.stderr.strip()[-300:]}")
    return exe


def write_mlbm(path: str | os.PathLike, M: np.ndarray) -> None:
    """Matrix file for m4ri_bench: 'MLBM', uint32 rows, cols, 0, then the bytes."""
    M = np.ascontiguousarray(M, dtype=np.uint8)
    with open(path, "wb") as f:
        f.write(b"MLBM" + np.array([M.shape[0], M.shape[1], 0], "<u4").tobytes())
        f.write(M.tobytes())


def read_mlbm(path: str | os.PathLike) -> np.ndarray:
    """The matrix of an MLBM file (see :func:`write_mlbm`)."""
    with open(path, "rb") as f:
        head = f.read(16)
        if head[:4] != b"MLBM":
            raise ValueError(f"{path} is not an MLBM file")
        rows, cols, _ = np.frombuffer(head[4:], "<u4")
        return np.frombuffer(f.read(), np.uint8).reshape(int(rows), int(cols))


def m4ri_solve(exe: Path, a_bin: Path, b_bin: Path, x_bin: Path) -> Timed:
    """One mzd_solve_left(A, B) call of the harness; its own timing of the M4RI call
    (copies and file I/O excluded) and the solution X as the answer."""
    p = subprocess.run(
        [str(exe), "solve", str(a_bin), str(b_bin), "1", str(x_bin)], capture_output=True, text=True
    )
    if p.returncode != 0:
        raise RuntimeError(f"m4ri_bench exit {p.returncode}: {p.stderr.strip()[-300:]}")
    kv = dict(line.split(" ", 1) for line in p.stdout.strip().splitlines())
    return Timed(float(kv["median"]), read_mlbm(x_bin))


def m4ri_rank(exe: Path, a_bin: Path) -> Timed:
    """One mzd_echelonize(A) call of the harness: its own timing, the rank as the answer."""
    p = subprocess.run([str(exe), "rank", str(a_bin), "1"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"m4ri_bench exit {p.returncode}: {p.stderr.strip()[-300:]}")
    kv = dict(line.split(" ", 1) for line in p.stdout.strip().splitlines())
    return Timed(float(kv["median"]), int(kv["rank"]))


def flint_solve(flint, A: np.ndarray, B: np.ndarray, n: int, check=None) -> Subject:
    """python-flint on A X = B (B is N x m): nmod_mat.rref of [A | B] (flint's solve refuses
    singular systems), X read off the echelon form touching O(N + rank m) entries. The
    matrix is converted outside the timing. Answer: X (N x m)."""
    N, m = A.shape[1], B.shape[1]
    M = flint.nmod_mat(np.concatenate([A, B], axis=1).tolist(), n)

    def run():
        R, rank = M.rref()
        X = np.zeros((N, m), np.int64)
        j = 0
        for i in range(rank):
            while j < N and int(R[i, j]) == 0:
                j += 1
            if j >= N:
                raise ValueError("flint: inconsistent system")
            X[j] = [int(R[i, N + c]) for c in range(m)]
            j += 1
        return X

    return Subject(run, check)


def galois_solve(galois, A: np.ndarray, B: np.ndarray, n: int, check=None) -> Subject:
    """galois on A X = B: GF(n) row_reduce of [A | B] (galois.GF(n) is the field with n
    elements: n prime here). Converted outside the timing. Answer: X (N x m)."""
    N = A.shape[1]
    M = galois.GF(n)(np.concatenate([A, B], axis=1))

    def run():
        R = np.asarray(M.row_reduce(), np.int64)
        X = np.zeros((N, B.shape[1]), np.int64)
        for row in R:
            nz = np.flatnonzero(row[:N])
            if nz.size:
                X[nz[0]] = row[N:]
        return X

    return Subject(run, check)
