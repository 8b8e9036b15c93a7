#!/usr/bin/env python
"""compare.py: modlights against its peers on the same work, in one run.

Contenders
  modlights      Solver(board) with the default backend; the table prints
                 Solver(...).engine so it says which engine actually ran
  modlights-ref  Solver(board, backend="reference") (ring workloads only)
  galois         galois.GF(n) arrays: np.linalg.matrix_rank / .row_reduce() of [A|B]
  flint          python-flint nmod_mat: .rank() / .rref() of [A|B] (flint's solve
                 refuses singular systems, and board matrices are often singular)
  m4ri           libm4ri through the C harness bench/m4ri_bench.c (mzd_echelonize,
                 mzd_solve_left); compiled here when /usr/include/m4ri/m4ri.h exists

Method
  Every Python contender runs in its own worker process (so a peer that aborts the
  process, such as FLINT on a non-field modulus, or one that exceeds the time cap
  is killed and reported, not fatal). Inputs are converted to each library's own
  type outside the timed region; the timed region is the work itself:
    rank:    Solver(Board.from_matrix(A, n)).rank | matrix_rank | nmod_mat.rank |
             mzd_echelonize
    solve:   Solver(board) + solve(state, minimal=False) (factor + solve) |
             row_reduce([A|B]) | nmod_mat.rref([A|B]) | mzd_solve_left(A, B)
    many:    Solver(board) + solve_many(states) | the same as solve with B holding
             every right-hand side as a column
  Rounds are interleaved (round r runs every contender once, in rotated order) and
  the table shows the median over the rounds and the ratio modlights/peer
  (< 1 means modlights is faster). A call longer than --cap seconds is killed
  and the contender skips the larger sizes of that workload family; a call longer
  than cap/3 is not repeated. Nothing is extrapolated silently: estimates are
  printed on their own, labelled lines.
  Every answer is checked by the harness: ranks must agree between contenders,
  solutions must satisfy A X = B (mod n) (grid boards: state + A x = 0 checked
  with Board.apply).

Usage
  python bench/compare.py                 default sizes, a few minutes
  python bench/compare.py --quick         smallest sizes, a minute or two
  python bench/compare.py --full          every size of issues 3/4 (N = 8192, k = 90, ...)
  python bench/compare.py --only gf2|zn|large   one family (large = issue 6, 200 x 200)
  python bench/compare.py --only dense --cap 120   dense GF(3), Z/4, Z/8, N = 1000..4000
  python bench/compare.py --repeat 5 --cap 60
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
M4RI_HEADER = "/usr/include/m4ri/m4ri.h"


# ====================================================================== helpers
def cross_matrix(k: int) -> np.ndarray:
    """Tap matrix of the k x k cross board (cells and taps row-major), uint8 0/1.
    Used only where Board.matrix() is not wanted (the large board)."""
    N = k * k
    A = np.zeros((N, N), dtype=np.uint8)
    idx = np.arange(N)
    r, c = idx // k, idx % k
    A[idx, idx] = 1
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        ok = (rr >= 0) & (rr < k) & (cc >= 0) & (cc < k)
        A[(rr * k + cc)[ok], idx[ok]] = 1
    return A


def rref_solution(R: np.ndarray, N: int, n: int):
    """Solution X (free variables 0) from the RREF R of [A | B] (A has N columns,
    monic pivots). Returns (X, consistent)."""
    R = np.asarray(R, dtype=np.int64) % n
    Apart = R[:, :N]
    nz = Apart.any(axis=1)
    consistent = not R[~nz, N:].any()
    piv = np.argmax(Apart[nz] != 0, axis=1)
    X = np.zeros((N, R.shape[1] - N), dtype=np.int64)
    X[piv] = R[nz, N:]
    return X, consistent


def write_mlbm(path: str, M: np.ndarray) -> None:
    """Matrix file for m4ri_bench: 'MLBM', uint32 rows, cols, 0, then bytes."""
    M = np.ascontiguousarray(M, dtype=np.uint8)
    with open(path, "wb") as f:
        f.write(b"MLBM")
        f.write(np.array([M.shape[0], M.shape[1], 0], dtype="<u4").tobytes())
        f.write(M.tobytes())


def read_mlbm(path: str) -> np.ndarray:
    with open(path, "rb") as f:
        assert f.read(4) == b"MLBM"
        rows, cols, _ = np.frombuffer(f.read(12), dtype="<u4")
        return np.frombuffer(f.read(), dtype=np.uint8).reshape(int(rows), int(cols))


# ====================================================================== worker
class _Worker:
    """Runs inside a worker process: one contender, requests as JSON lines on stdin,
    answers as JSON lines on stdout. Only the library call is timed."""

    def __init__(self, name: str):
        self.name = name
        self.cache_key = None
        self.cache = None
        if name.startswith("modlights"):
            import modlights as ml
            self.ml = ml
            self.backend = "reference" if name == "modlights-ref" else "native"
        elif name == "galois":
            import galois
            self.galois = galois
        elif name == "flint":
            import flint
            self.flint = flint
        else:
            raise ValueError(f"unknown contender {name}")

    # ---- inputs in the contender's own types (untimed, cached across rounds)
    def _prepare(self, req):
        key = (req["input"], req["task"])
        if self.cache_key == key:
            return self.cache
        self.cache = None
        d = dict(np.load(req["input"]))
        n, task = req["n"], req["task"]
        if self.name.startswith("modlights"):
            ml = self.ml
            if task == "rank" or task == "solve-dense":
                prep = ml.Board.from_matrix(d["A"], n)
            else:  # solve-grid, solve-many
                prep = ml.Board.grid(req["k"], req["k"], n)
        else:
            if task == "rank":
                M = d["A"]
            else:
                A = d["A"] if "A" in d else cross_matrix(req["k"])
                M = np.hstack([A, d["B"].astype(np.uint8)])
                del A
            if self.name == "galois":
                prep = self.galois.GF(n)(M)
            else:
                prep = self.flint.nmod_mat(M.tolist(), n)
            del M
        self.cache_key, self.cache = key, (prep, d)
        return self.cache

    def run(self, req):
        prep, d = self._prepare(req)
        task, n = req["task"], req["n"]
        out = {"ok": True}
        if self.name.startswith("modlights"):
            ml = self.ml
            if task == "rank":
                t0 = time.perf_counter()
                s = ml.Solver(prep, backend=self.backend)
                r = s.rank
                out["seconds"] = time.perf_counter() - t0
                out["rank"] = int(r)
            elif task == "solve-many":
                states = d["states"]
                t0 = time.perf_counter()
                s = ml.Solver(prep, backend=self.backend)
                xs = s.solve_many(states, minimal=False)
                out["seconds"] = time.perf_counter() - t0
                X = np.asarray(xs).reshape(len(states), -1).T
                np.save(req["out"], X)
            else:
                state = d["state"]
                t0 = time.perf_counter()
                s = ml.Solver(prep, backend=self.backend)
                try:
                    sol = s.solve(state, minimal=False)
                except ml.Unsolvable:
                    sol = None
                out["seconds"] = time.perf_counter() - t0
                out["consistent"] = sol is not None
                if sol is not None:
                    np.save(req["out"], np.asarray(sol.taps).reshape(-1, 1))
            out["engine"] = s.engine
            return out
        if self.name == "galois":
            if task == "rank":
                t0 = time.perf_counter()
                r = np.linalg.matrix_rank(prep)
                out["seconds"] = time.perf_counter() - t0
                out["rank"] = int(r)
                return out
            t0 = time.perf_counter()
            R = prep.row_reduce()
            out["seconds"] = time.perf_counter() - t0
            X, ok = rref_solution(R.view(np.ndarray), prep.shape[0], n)
        else:  # flint
            if task == "rank":
                t0 = time.perf_counter()
                r = prep.rank()
                out["seconds"] = time.perf_counter() - t0
                out["rank"] = int(r)
                return out
            t0 = time.perf_counter()
            R, rank = prep.rref()
            out["seconds"] = time.perf_counter() - t0
            X, ok = self._flint_solution(R, rank, prep.nrows(), n)
        out["consistent"] = bool(ok)
        if ok:
            np.save(req["out"], X)
        return out

    @staticmethod
    def _flint_solution(R, rank, N, n):
        """Read X off a flint RREF of [A|B] touching only O(N + rank*m) entries."""
        m = R.ncols() - N
        X = np.zeros((N, m), dtype=np.int64)
        j = 0
        for i in range(rank):
            while j < N and int(R[i, j]) == 0:
                j += 1
            if j >= N:
                return X, False          # pivot in the B part: inconsistent
            X[j] = [int(R[i, N + c]) for c in range(m)]
            j += 1
        return X, True


def worker_main(name: str) -> None:
    # The protocol gets a private copy of fd 1; fd 1 itself (C-level printf, e.g.
    # FLINT's exception messages) and sys.stdout go to the worker's stderr file.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        w = _Worker(name)
    except Exception as e:  # noqa: BLE001
        out.write(json.dumps({"unavailable": f"{type(e).__name__}: {e}"}) + "\n")
        out.flush()
        return
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req.get("prepare"):
                try:
                    w._prepare(req)
                    res = {"ok": True}
                except Exception as e:  # noqa: BLE001
                    res = {"ok": False,
                           "error": f"converting the input: {type(e).__name__}: {e}".strip()[:300]}
            else:
                res = w.run(req)
        except Exception as e:  # noqa: BLE001
            res = {"ok": False, "error": f"{type(e).__name__}: {e}".strip()[:300],
                   "trace": traceback.format_exc()[-600:]}
        out.write(json.dumps(res) + "\n")
        out.flush()


# ====================================================================== parent side
class WorkerProc:
    """A contender's worker process, restarted after a crash or timeout."""

    def __init__(self, name: str, workdir: str, mem_gb: float | None = None):
        self.name, self.workdir, self.mem_gb = name, workdir, mem_gb
        self.proc = None
        self.buf = b""
        self.unavailable = None
        self.prepare_limit = 600.0

    def _preexec(self):
        os.setsid()
        if self.mem_gb:
            lim = int(self.mem_gb * (1 << 30))
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))

    def start(self) -> bool:
        self.errpath = os.path.join(self.workdir, f"worker-{self.name}.stderr")
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", self.name],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(self.errpath, "wb"),
            preexec_fn=self._preexec)
        self.buf = b""
        msg, _ = self._read(120)
        if msg is None or "unavailable" in msg:
            self.unavailable = (msg or {}).get("unavailable", "worker failed to start")
            self.stop()
            return False
        return True

    def _read(self, timeout):
        """(message, noise) or (None, reason) on timeout / exit."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        import select
        noise = []
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                try:
                    return json.loads(line), noise
                except ValueError:
                    noise.append(line.decode(errors="replace"))
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "timeout"
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    self.proc.wait()
                    return None, "exit"
                self.buf += chunk

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)     # its own session: only this worker
            except ProcessLookupError:
                pass
            self.proc.wait()
        self.proc = None

    def call(self, req: dict, cap: float) -> dict:
        if self.proc is None and not self.start():
            return {"ok": False, "skip": f"not available: {self.unavailable}"}
        # untimed input conversion first (generous limit), then the timed call
        for phase, limit in (("prepare", self.prepare_limit), ("run", cap + 5)):
            self.proc.stdin.write((json.dumps(dict(req, prepare=phase == "prepare")) + "\n").encode())
            self.proc.stdin.flush()
            msg, why = self._read(limit)
            if msg is None:
                break
            if phase == "run" or not msg.get("ok"):
                return msg
        if why == "timeout":
            self.stop()
            what = "input conversion" if phase == "prepare" else "the call"
            return {"ok": False, "timeout": True,
                    "error": f"{what} gave no answer within {limit:g} s (killed)"}
        rc = self.proc.returncode
        self.proc = None
        try:
            tail = open(self.errpath, "rb").read().decode(errors="replace").strip().splitlines()[-3:]
        except OSError:
            tail = []
        sig = f"killed by signal {-rc}" if rc is not None and rc < 0 else f"exit status {rc}"
        return {"ok": False, "crash": True,
                "error": f"process died ({sig}): " + " | ".join(tail)[-300:]}


def build_m4ri(builddir: str) -> tuple[str | None, str]:
    if not os.path.exists(M4RI_HEADER):
        return None, f"M4RI skipped: {M4RI_HEADER} not found (apt-get install libm4ri-dev)"
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None:
        return None, "M4RI skipped: no C compiler (cc) found"
    os.makedirs(builddir, exist_ok=True)
    exe = os.path.join(builddir, "m4ri_bench")
    src = os.path.join(HERE, "m4ri_bench.c")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        p = subprocess.run([cc, "-O2", "-o", exe, src, "-lm4ri", "-lm"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return None, "M4RI skipped: build failed: " + p.stderr.strip()[-300:]
    return exe, f"M4RI harness: {exe}"


def m4ri_call(exe: str, wl: dict, cap: float) -> dict:
    f = wl["files"]
    if wl["task"] == "rank":
        cmd = [exe, "rank", f["A_bin"], "1"]
    elif "A_bin" in f:
        cmd = [exe, "solve", f["A_bin"], f["B_bin"], "1", f["X_bin"]]
    else:
        cmd = [exe, "solve-cross", str(wl["k"]), f["B_bin"], "1", f["X_bin"]]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=cap + 30)
    except subprocess.TimeoutExpired:
        return {"ok": False, "timeout": True, "error": f"no answer within {cap:g} s (killed)"}
    if p.returncode != 0:
        return {"ok": False, "crash": True,
                "error": f"m4ri_bench exit {p.returncode}: {p.stderr.strip()[-300:]}"}
    kv = dict(line.split(" ", 1) for line in p.stdout.strip().splitlines())
    out = {"ok": True, "seconds": float(kv["median"])}
    if "rank" in kv:
        out["rank"] = int(kv["rank"])
    if "consistent" in kv:
        out["consistent"] = kv["consistent"] == "1"
        if out["consistent"]:
            np.save(wl["out"]["m4ri"], read_mlbm(f["X_bin"]).astype(np.int64))
    return out


# ---------------------------------------------------------------------- workloads
def make_workloads(args, rng) -> list[dict]:
    only = args.only
    W = []

    def add(**kw):
        W.append(kw)

    q, full = args.quick, args.full
    if only in (None, "gf2"):
        for N in ([512, 1024] if q else [1024, 4096, 8192] if full else [1024, 4096]):
            add(family="gf2-rank", label=f"GF(2) rank dense {N}x{N}", task="rank", n=2, N=N,
                contenders=["modlights", "galois", "flint", "m4ri"])
        for k in ([16, 32] if q else [32, 64, 90] if full else [32, 64]):
            add(family="gf2-cross", label=f"GF(2) cross {k}x{k} (N={k*k}) factor+solve",
                task="solve-grid", n=2, k=k, contenders=["modlights", "galois", "flint", "m4ri"])
        K = 10_000 if q else 100_000
        add(family="gf2-many", label=f"GF(2) solve_many {K} x 5x5", task="solve-many", n=2,
            k=5, K=K, contenders=["modlights", "galois", "flint", "m4ri"])
    if only in (None, "zn"):
        for p in (3, 5):
            for k in ([16] if q else [16, 32, 48] if full else [16, 32]):
                add(family=f"gf{p}-cross", label=f"GF({p}) cross {k}x{k} (N={k*k}) factor+solve",
                    task="solve-grid", n=p, k=k, contenders=["modlights", "galois", "flint"])
        for N in ([500] if q else [1000, 2000, 4000] if full else [1000]):
            add(family="gf3-dense", label=f"GF(3) dense {N}x{N} factor+solve", task="solve-dense",
                n=3, N=N, contenders=["modlights", "galois", "flint"])
        for n in (4, 6, 8):
            for k in ([16] if q else [16, 32]):
                add(family=f"z{n}-cross", label=f"Z/{n} cross {k}x{k} (N={k*k}) factor+solve",
                    task="solve-grid", n=n, k=k,
                    contenders=["modlights", "modlights-ref", "galois", "flint"])
    if only == "dense":
        # issue 15: dense GF(3) (bit-sliced) against python-flint, dense Z/4 and Z/8
        # against it (flint has no rings)
        for N in ([500] if q else [1000, 2000, 4000]):
            add(family="gf3-dense", label=f"GF(3) dense {N}x{N} factor+solve", task="solve-dense",
                n=3, N=N, contenders=["modlights", "flint"])
            for n in (4, 8):
                add(family=f"z{n}-dense", label=f"Z/{n} dense {N}x{N} factor+solve",
                    task="solve-dense", n=n, N=N, contenders=["modlights"])
    if only == "large" or (args.large and only is None):
        if only == "large":   # a small size to scale the peers' estimates from
            add(family="gf2-cross", label="GF(2) cross 32x32 (N=1024) factor+solve",
                task="solve-grid", n=2, k=32, contenders=["modlights", "galois", "flint", "m4ri"])
        add(family="large", label="GF(2) cross 200x200 (N=40000) factor+solve", task="solve-grid",
            n=2, k=200, large=True, contenders=["modlights", "galois", "flint", "m4ri"])
    return W


def materialise(wl: dict, workdir: str, rng, ml, want_m4ri: bool) -> None:
    """Inputs for every contender: an npz for the Python workers, .bin files for M4RI.
    Keeps what the harness needs to check answers in wl['check']."""
    tag = f"w{id(wl)}"
    path = os.path.join(workdir, tag + ".npz")
    n, task = wl["n"], wl["task"]
    d = {}
    files = {}
    if task == "rank":
        A = rng.integers(0, n, size=(wl["N"], wl["N"]), dtype=np.uint8)
        d["A"] = A
        wl["check"] = {}
    elif task == "solve-dense":
        N = wl["N"]
        A = rng.integers(0, n, size=(N, N), dtype=np.uint8)
        x = rng.integers(0, n, size=N)
        b = (A.astype(np.int64) @ x) % n                 # consistent by construction
        d.update(A=A, B=b.reshape(-1, 1).astype(np.uint8), state=((-b) % n).astype(np.uint8))
        wl["check"] = {"A": A, "B": d["B"]}
    else:   # grid boards
        k = wl["k"]
        board = ml.Board.grid(k, k, n)
        if task == "solve-many":
            states = np.stack([board.random_state(rng=rng) for _ in range(wl["K"])])
            d["states"] = states
            d["B"] = ((-states.reshape(len(states), -1).astype(np.int64)) % n).T.astype(np.uint8)
        else:
            state = board.random_state(rng=rng)
            d["state"] = state
            d["B"] = ((-state.reshape(-1, 1).astype(np.int64)) % n).astype(np.uint8)
        if not wl.get("large"):
            d["A"] = board.matrix()
        wl["check"] = {"board": board, "states": d.get("states"), "state": d.get("state")}
    np.savez(path, **d)
    wl["input"] = path
    wl["out"] = {c: os.path.join(workdir, f"{tag}-{c}.npy") for c in wl["contenders"]}
    if want_m4ri and "m4ri" in wl["contenders"]:
        if "A" in d:
            files["A_bin"] = os.path.join(workdir, tag + "-A.bin")
            write_mlbm(files["A_bin"], d["A"])
        if "B" in d:
            files["B_bin"] = os.path.join(workdir, tag + "-B.bin")
            write_mlbm(files["B_bin"], d["B"])
        files["X_bin"] = os.path.join(workdir, tag + "-X.bin")
    wl["files"] = files


def check_solution(wl: dict, contender: str, res: dict) -> str | None:
    """None when the answer is right, else what is wrong."""
    n, task = wl["n"], wl["task"]
    if task == "rank":
        return None                      # ranks are compared across contenders later
    field_note = ""
    if contender == "galois" and any(n % p == 0 for p in range(2, n)):
        field_note = f" (galois.GF({n}) is the field with {n} elements, not Z/{n}Z)"
    if not res.get("consistent", True):
        return "said 'no solution' to a solvable system" + field_note
    X = np.load(wl["out"][contender]).astype(np.int64) % n
    c = wl["check"]
    if task == "solve-dense":
        ok = not ((c["A"].astype(np.int64) @ X - c["B"]) % n).any()
    elif task == "solve-many":
        board = c["board"]
        states = c["states"]
        if X.shape != (board.n_taps, len(states)):
            return f"solution has shape {X.shape}"
        A = board.matrix().astype(np.int64)
        ok = not ((states.reshape(len(states), -1).T + A @ X) % n).any()
    else:
        board, state = c["board"], c["state"]
        if X.size != board.n_taps:
            return f"solution has {X.size} entries, want {board.n_taps}"
        after = board.apply(state, X.reshape(board.shape))
        ok = not (np.asarray(after) % n).any()
    return None if ok else "WRONG ANSWER: state + A x != 0 (mod n)" + field_note


def run(args) -> int:
    rng = np.random.default_rng(args.seed)
    import modlights as ml
    workdir = tempfile.mkdtemp(prefix="mlbench-")
    m4ri_exe, m4ri_msg = build_m4ri(args.builddir)
    print(m4ri_msg)
    workloads = make_workloads(args, rng)
    workers: dict[str, WorkerProc] = {}
    large_workers: dict[str, WorkerProc] = {}
    skip_family: dict[tuple[str, str], str] = {}
    rows = []
    notes = []
    try:
        for wl in workloads:
            t_wl = time.monotonic()
            cap = args.large_cap if wl.get("large") else args.cap
            materialise(wl, workdir, rng, ml, m4ri_exe is not None)
            print(f"\n== {wl['label']}  (cap {cap:g} s/call, up to {args.repeat} rounds)", flush=True)
            results = {c: {"times": [], "error": None, "engine": None, "rank": set()}
                       for c in wl["contenders"]}
            active = []
            for c in wl["contenders"]:
                why = skip_family.get((c, wl["family"]))
                if c == "m4ri" and m4ri_exe is None:
                    why = m4ri_msg
                if c == "m4ri" and wl["n"] != 2:
                    why = "M4RI is GF(2) only"
                if why:
                    results[c]["error"] = "skipped: " + why
                else:
                    active.append(c)
            for rnd in range(args.repeat):
                order = active[rnd % max(1, len(active)):] + active[:rnd % max(1, len(active))]
                for c in order:
                    R = results[c]
                    if R["error"] is not None:
                        continue
                    if c == "m4ri":
                        res = m4ri_call(m4ri_exe, wl, cap)
                    else:
                        pool = large_workers if wl.get("large") else workers
                        if c not in pool:
                            pool[c] = WorkerProc(c, workdir, args.mem_gb if wl.get("large") else None)
                        req = {"task": wl["task"], "n": wl["n"], "k": wl.get("k"),
                               "input": wl["input"], "out": wl["out"][c]}
                        res = pool[c].call(req, cap)
                    if not res.get("ok"):
                        R["error"] = res.get("skip") or res.get("error", "failed")
                        if res.get("timeout"):
                            skip_family[(c, wl["family"])] = f"timed out at a smaller size ({wl['label']})"
                        if res.get("crash") or "error" in res and not res.get("timeout"):
                            notes.append((c, R["error"], wl["label"]))
                        continue
                    bad = check_solution(wl, c, res)
                    if bad:
                        R["error"] = bad
                        notes.append((c, bad, wl["label"]))
                        continue
                    R["times"].append(res["seconds"])
                    R["engine"] = res.get("engine", R["engine"])
                    if "rank" in res:
                        R["rank"].add(res["rank"])
                    if res["seconds"] > cap / 3:
                        R["stop"] = True         # not repeated
                    if res["seconds"] > cap:     # finished, but larger sizes would not
                        R["over_cap"] = True
                        skip_family[(c, wl["family"])] = (
                            f"took {res['seconds']:.1f} s > cap at a smaller size ({wl['label']})")
                    print(f"  round {rnd + 1}: {c:14s} {res['seconds']:.4f} s", flush=True)
                active = [c for c in active if results[c]["error"] is None
                          and not results[c].get("stop")]
                if not active:
                    break
            # ranks must agree
            if wl["task"] == "rank":
                ranks = {c: R["rank"] for c, R in results.items() if R["rank"]}
                allr = set().union(*ranks.values()) if ranks else set()
                if len(allr) > 1:
                    ref = results.get("m4ri", {}).get("rank") or results.get("flint", {}).get("rank")
                    for c, rs in ranks.items():
                        if not ref:
                            results[c]["error"] = f"ranks disagree: {ranks}"
                        elif rs != ref:
                            results[c]["error"] = f"WRONG rank {sorted(rs)} vs {sorted(ref)}"
                            notes.append((c, results[c]["error"], wl["label"]))
                wl["rank"] = sorted(allr)
            rows.append((wl, results))
            print(f"   ({time.monotonic() - t_wl:.0f} s wall)", flush=True)
    finally:
        for w in list(workers.values()) + list(large_workers.values()):
            w.stop()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print_table(rows, args)
    if any(wl.get("large") for wl, _ in rows):
        print_large_estimates(rows, args)
    if notes:
        print("\nPeers that could not do a workload (error messages):")
        grouped: dict[tuple[str, str], list[str]] = {}
        for c, err, label in notes:
            grouped.setdefault((c, err), []).append(label)
        for (c, err), labels in grouped.items():
            print(f"  - {c}: {err}\n      on: " + "; ".join(labels))
    return 0


def _fmt_t(t):
    return f"{t:.4f}" if t < 10 else f"{t:.1f}"


def print_table(rows, args):
    print("\n" + "=" * 100)
    print(f"median seconds over interleaved rounds; ratio = modlights / peer (< 1: modlights faster)")
    hdr = f"{'workload':46s} {'contender':14s} {'engine':12s} {'median s':>10s} {'runs':>4s} {'ratio':>8s}  note"
    print(hdr)
    print("-" * len(hdr))
    for wl, results in rows:
        ml_t = results.get("modlights", {}).get("times")
        ml_med = statistics.median(ml_t) if ml_t else None
        first = True
        for c, R in results.items():
            label = wl["label"] if first else ""
            first = False
            wrong = (R["error"] or "").startswith(("WRONG", "ranks disagree", "said"))
            if R["times"] and not wrong:
                med = statistics.median(R["times"])
                ratio = "" if c == "modlights" or ml_med is None else f"{ml_med / med:.3g}"
                note = "over cap: larger sizes skipped" if R.get("over_cap") else ""
                if wl["task"] == "solve-many":
                    note = f"{wl['K'] / med:,.0f} boards/s"
                if wl["task"] == "rank" and R["rank"]:
                    note = f"rank {min(R['rank'])}" + (f"; {note}" if note else "")
                if R["error"]:
                    note += f"; a later round failed: {R['error']}"
                print(f"{label:46s} {c:14s} {R['engine'] or '':12s} {_fmt_t(med):>10s} "
                      f"{len(R['times']):>4d} {ratio:>8s}  {note}")
            else:
                print(f"{label:46s} {c:14s} {'':12s} {'-':>10s} {0:>4d} {'':>8s}  {R['error']}")


def print_large_estimates(rows, args):
    """Issue 6: labelled N^3 estimates for peers that could not run N = 40000,
    from their measured cross-board times in this run (if any)."""
    print("\nLarge board (N = 40000) estimates, labelled as such (dense elimination ~ N^3):")
    print(f"  (workers on the large board ran with an address-space limit of {args.mem_gb:g} GiB, --mem-gb)")
    base = {}
    for wl, results in rows:
        if wl["family"] == "gf2-cross":
            for c, R in results.items():
                if R["times"] and statistics.median(R["times"]) > 0.05:  # too small: noise
                    base[c] = (wl["k"] ** 2, statistics.median(R["times"]))
    mem = {"galois": 40000 ** 2, "flint": 40000 ** 2 * 8, "m4ri": 40000 ** 2 // 8}
    measured = {c for wl, results in rows if wl.get("large")
                for c, R in results.items() if R["times"]}
    for c in ("galois", "flint", "m4ri"):
        line = f"  {c:8s} dense matrix alone: {mem[c] / 2**30:.1f} GiB"
        if c in measured:
            line += "; measured (see table), no estimate needed"
        elif c in base:
            N0, t0 = base[c]
            line += f"; time ~ {t0 * (40000 / N0) ** 3:,.0f} s (from {t0:.3g} s at N = {N0}, x (40000/{N0})^3)"
        else:
            line += "; no smaller measurement in this run to scale from (run without --only)"
        print(line)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smallest sizes")
    ap.add_argument("--full", action="store_true", help="every size of issues 3 and 4")
    ap.add_argument("--only", choices=["gf2", "zn", "large", "dense"])
    ap.add_argument("--large", action="store_true", help="also run the 200x200 board (issue 6)")
    ap.add_argument("--repeat", type=int, default=None, help="interleaved rounds (default 3)")
    ap.add_argument("--cap", type=float, default=None, help="seconds per call before a "
                    "contender is killed and skips larger sizes (default 20, quick 10)")
    ap.add_argument("--large-cap", type=float, default=120.0, help="cap for the 200x200 board")
    ap.add_argument("--mem-gb", type=float, default=6.0,
                    help="address-space limit of workers on the 200x200 board (GiB)")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--builddir", default=os.path.join(tempfile.gettempdir(), "modlights-bench-build"),
                    help="where the M4RI harness is compiled (outside git)")
    ap.add_argument("--keep", action="store_true", help="keep the input/output files")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker_main(args.worker)
        return 0
    if args.repeat is None:
        args.repeat = 3
    if args.cap is None:
        args.cap = 10.0 if args.quick else 20.0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
