"""The covering program of the hardest-board search (search/hardest.py has the method):
the tap groups pinned by the kernel, and the integer program over their values with one
constraint per kernel element, solved by HiGHS in this process or, past
INPROCESS_NNZ_MAX non-zeros, in a child process killed at the deadline or on Ctrl-C."""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from typing import Any

import numpy as np

from modlights.engines.reference import LocalSmith
from modlights.model.ring import factorize
from modlights.search.lpbound import TapGroups as _TapGroups

# ----------------------------------------------------------------------------- tap groups
# ----------------------------------------------------------------------------- the program
#: HiGHS threads per integer program (set in _highs_worker).


def pinned_groups(gens: np.ndarray, sizes: np.ndarray, n: int) -> np.ndarray:
    """Tap groups whose values ker A takes in every combination, the smallest first.

    ``gens`` (k x g) are the kernel generators' values on the groups, ``sizes`` the
    groups' sizes. A set S of groups is returned (greedily, single taps first) such that
    c -> (c_g for g in S) maps ker A onto (Z/n)^S: the generators restricted to S have
    rank |S| mod every prime p | n (a matrix over Z/p^e whose rows span everything mod p
    spans everything, and Z/n is the product of its prime-power parts). Then every coset
    x + ker A holds a y whose most frequent value on each group of S is 0: add a c whose
    value on such a group is minus that group's most frequent value in x. So the max-min
    may be taken over those y only (a single tap is then 0), an exact way to drop the
    translations x -> x + c (all of them when |ker A| = n^|S| and S holds single taps).
    """
    primes = [p for p, _ in factorize(n)]
    chosen: list[int] = []
    for g in np.argsort(sizes, kind="stable"):
        trial = chosen + [int(g)]
        if all(LocalSmith(gens[:, trial] % p, p, 1).rank == len(trial) for p in primes):
            chosen = trial
            if len(chosen) == gens.shape[0]:
                break
    return np.array(chosen, dtype=np.int64)


class _CoveringProgram:
    """The max-min over group counts a_{g,v} (column g * n + v) and its value t (the
    last column), with the groups S = ``pinned`` made 0 in the majority (see
    :func:`pinned_groups`); K_S is the part of ker A that is 0 on them:

        maximise t  s.t.  t <= weight(x),
                          t <= weight(x + c)        for c in the working set, not in K_S,
                          weight(x + c) >= weight(x) for c in the working set and in K_S,
                          sum_v a_{g,v} = |G|,  a_{g,0} >= a_{g,v} on the groups of S.

    Every coset holds an x that is 0 in the majority on S and the lightest of x + K_S
    (adding an element of K_S keeps the counts on S); it meets every row with t = its
    coset's value: so the optimum over any working set bounds the answer from above,
    and over all of ker A it is the answer. The K_S rows pin x to a leader of x + K_S:
    since x_j + c_j < 2n, weight(x + c) - weight(x) = weight(c) - n * #{j : x_j + c_j >= n},
    a packing row (the taps with x_j >= n - c_j number at most floor(weight(c) / n)).
    Pinning removes the symmetry x -> x + c, which makes the plain max-min slow for
    HiGHS (branch and bound would revisit every translate of a board).
    """

    def __init__(
        self,
        groups: _TapGroups,
        n: int,
        constant: int,
        pinned: np.ndarray,
        upper: int | None = None,
    ):
        import highspy

        self._inf = highspy.kHighsInf
        self.n = n
        self.g = len(groups)
        self.sizes = groups.sizes
        self.pinned = pinned
        self.constant = constant  # (n-1) * |zero column|
        self._ops: list = []  # the model (see _highs_worker), for a new child
        self._nnz = 0
        self._local: Any = None  # (Highs, ops applied) while solved in this process
        self._child: Any = None  # (Popen, ops sent) while solved in a child
        self._stop = False
        self._deadline: float | None = None
        self._start: np.ndarray | None = None
        ncols = self.g * n
        self.t = ncols  # the value's column
        # a proved upper bound (the linear program's) caps t: HiGHS prunes with it
        t_max = None if upper is None else float(max(0, upper - constant))
        col_upper = np.repeat(groups.sizes, n).astype(float)
        for g in pinned[groups.sizes[pinned] == 1]:  # a pinned single tap is 0
            col_upper[g * n + 1 : (g + 1) * n] = 0.0
        self._ops += [
            (
                "vars",
                ncols + 1,
                np.zeros(ncols + 1),
                np.append(
                    col_upper, float((n - 1) * groups.sizes.sum() if t_max is None else t_max)
                ),
            ),
            ("integer", np.arange(ncols, dtype=np.int32)),
            ("cost", self.t, 1.0),
            ("maximize",),
        ]
        for g in range(self.g):  # sum_v a_{g,v} = |G|
            size = float(groups.sizes[g])
            self._add_row(size, size, (g * n + np.arange(n)).astype(np.int32), np.ones(n))
        for g in pinned[groups.sizes[pinned] > 1]:  # a_{g,0} >= a_{g,v}
            for v in range(1, n):
                self._add_row(
                    0.0,
                    self._inf,
                    np.array([g * n, g * n + v], dtype=np.int32),
                    np.array([1.0, -1.0]),
                )
        self._add_value_row(np.zeros(self.g, dtype=np.int64))  # t <= weight(x)

    def _add_row(self, lower: float, upper: float, idx: np.ndarray, vals: np.ndarray) -> None:
        self._add_rows(np.array([lower]), np.array([upper]), np.zeros(1, dtype=np.int32), idx, vals)

    def _add_rows(self, lower, upper, starts, idx, vals) -> None:
        self._ops.append(
            (
                "rows",
                np.asarray(lower, dtype=float),
                np.asarray(upper, dtype=float),
                np.asarray(starts, dtype=np.int32),
                np.asarray(idx, dtype=np.int32),
                np.asarray(vals, dtype=float),
            )
        )
        self._nnz += len(idx)
        if (
            self._child is None
            and self._local is None
            and _CHILD_OK
            and self._nnz > INPROCESS_NNZ_MAX
        ):
            self._start_child()  # its imports overlap the rest of the model

    def _interrupt(self, ctype, message, data_out, data_in, user_data) -> None:
        """HiGHS's interrupt callback (on its thread, in-process runs): stop on Ctrl-C
        (``_stop``, set by ``solve``) or past the deadline."""
        if self._stop or (self._deadline is not None and time.perf_counter() >= self._deadline):
            data_in.user_interrupt = True

    def _add_value_row(self, w: np.ndarray) -> None:
        """t <= weight(x + c) = sum_{g,v} ((v + w_g) mod n) a_{g,v}."""
        n = self.n
        coef = (np.arange(n)[None, :] + w[:, None]) % n  # g x n
        idx = np.flatnonzero(coef)
        self._add_row(
            -self._inf,
            0.0,
            np.append(idx, self.t).astype(np.int32),
            np.append(-coef.reshape(-1)[idx], 1.0).astype(float),
        )

    def start(self, counts: np.ndarray, value: int) -> None:
        """Hand HiGHS a feasible answer (group counts g x n meeting the pinning and
        leader rows, and the board's fewest taps) as its incumbent."""
        self._start = np.append(
            np.asarray(counts, dtype=float).reshape(-1), float(value - self.constant)
        )

    def add_cuts(self, W: np.ndarray) -> None:
        """:meth:`add_cut` for every row of W (m x g); the t rows go in as blocks."""
        n = self.n
        W = np.asarray(W, dtype=np.int64).reshape(-1, self.g)
        value = W[:, self.pinned].any(axis=1) if self.pinned.size else np.zeros(len(W), dtype=bool)
        for w in W[~value]:
            self.add_cut(w)
        V = W[value]
        for a in range(0, len(V), 4096):
            block = V[a : a + 4096]
            coef = (np.arange(n)[None, None, :] + block[:, :, None]) % n
            full = np.concatenate(
                [-coef.reshape(len(block), -1), np.ones((len(block), 1), dtype=np.int64)], axis=1
            )
            rows, cols = np.nonzero(full)
            starts = np.searchsorted(rows, np.arange(len(block))).astype(np.int32)
            self._add_rows(
                np.full(len(block), -self._inf),
                np.zeros(len(block)),
                starts,
                cols.astype(np.int32),
                full[rows, cols].astype(float),
            )

    def add_cut(self, w: np.ndarray) -> None:
        """The row of the kernel element c with value w_g on group g: t <= weight(x + c)
        when c is not 0 on the pinned groups, else the leader row weight(x + c) >=
        weight(x): sum over g, v >= n - w_g (w_g > 0) of a_{g,v} <= floor(sum_g |G| w_g / n)."""
        n = self.n
        w = w.astype(np.int64)
        live = np.flatnonzero(w)
        if live.size == 0:
            return
        if w[self.pinned].any():
            self._add_value_row(w)
            return
        cols = [g * n + np.arange(n - w[g], n) for g in live]
        idx = np.concatenate(cols).astype(np.int32)
        rhs = float(int(self.sizes[live] @ w[live]) // n)
        self._add_row(-self._inf, rhs, idx, np.ones(len(idx)))

    def solve(self, seconds: float | None) -> tuple[int | None, np.ndarray | None]:
        """(upper bound or None, group counts g x n of the best answer or None), within
        ``seconds`` (None: no limit; +~0.2 s). Models of at most ``INPROCESS_NNZ_MAX``
        non-zeros run on a thread here, stopped by HiGHS's interrupt callback at the
        deadline or on Ctrl-C; larger ones in a child process (:mod:`._highs_worker`;
        POSIX), killed at the deadline (the answer is then (None, None)) or on Ctrl-C.
        KeyboardInterrupt is re-raised within a fraction of a second either way."""
        self._deadline = None if seconds is None else time.perf_counter() + seconds
        self._stop = False
        if self._start is not None:  # rows added since drop HiGHS's copy of it
            self._ops.append(("start", self._start))
        if self._local is None and self._nnz > INPROCESS_NNZ_MAX and _CHILD_OK:
            res = self._solve_child(seconds)
        else:
            res = self._solve_local(seconds)
        if res is None:
            return None, None
        optimal, objective, dual_bound, feasible, cols = res
        bound = objective if optimal else dual_bound
        upper = math.floor(bound + 1e-6) + self.constant if math.isfinite(bound) else None
        if not feasible or cols is None:  # no feasible answer yet
            return upper, None
        counts = np.rint(cols[: self.t]).astype(np.int64).reshape(self.g, self.n)
        return upper, counts

    def _solve_local(self, seconds: float | None):
        from highspy import cb

        from modlights.search import _highs_worker as hw

        if self._local is None:
            h = hw.new_highs()
            self._cb = self._interrupt  # kept alive with the model
            h.setCallback(self._cb, None)
            # HiGHS asks these in the simplex and IPM iterations and the branch and
            # bound; the MIP one alone is asked too rarely
            for kind in (
                "kCallbackSimplexInterrupt",
                "kCallbackIpmInterrupt",
                "kCallbackMipInterrupt",
            ):
                if hasattr(cb.HighsCallbackType, kind):  # all three since highspy 1.7
                    h.startCallback(getattr(cb.HighsCallbackType, kind))
            self._local = (h, 0)
        h, done = self._local
        hw.apply(h, self._ops[done:])
        self._local = (h, len(self._ops))
        hw.set_time_limit(h, seconds)
        hw.run_on_thread(h, lambda: setattr(self, "_stop", True))
        return hw.result(h)

    def _start_child(self) -> None:
        """Start the worker process (it imports numpy and highspy meanwhile)."""
        import subprocess

        # the child imports this very modlights: its parent directory goes first
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = os.pathsep.join(
            [root] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        proc = subprocess.Popen(
            [sys.executable, "-m", "modlights.search._highs_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
            env=env,
        )
        self._child = (proc, 0)

    def _solve_child(self, seconds: float | None):
        import pickle
        import select

        if self._child is None or self._child[0].poll() is not None:
            self.close()
            self._start_child()
        proc, sent = self._child
        try:
            limit = None if seconds is None else seconds * CHILD_TIME_SHARE
            kill_at = (
                None
                if seconds is None or self._deadline is None
                else self._deadline + min(1.0, max(CHILD_GRACE_MIN, CHILD_GRACE_SHARE * seconds))
            )
            payload = pickle.dumps(
                ("ops", self._ops[sent:]), pickle.HIGHEST_PROTOCOL
            ) + pickle.dumps(("solve", limit), pickle.HIGHEST_PROTOCOL)
            self._child = (proc, len(self._ops))
            # written on a thread: the pipe takes 64 KiB at a time while the model is
            # megabytes and the child may still be importing; this thread keeps
            # watching the deadline and Ctrl-C
            writer = threading.Thread(target=_write_all, args=(proc.stdin, payload), daemon=True)
            writer.start()
            fd = proc.stdout.fileno()
            while True:  # Ctrl-C reaches us here
                if select.select([fd], [], [], 0.02)[0]:
                    answer = pickle.load(proc.stdout)
                    writer.join()
                    return answer
                if kill_at is not None and time.perf_counter() >= kill_at:
                    self.close()  # past the deadline: killed
                    writer.join()
                    return None
                if proc.poll() is not None:
                    raise RuntimeError(
                        f"the HiGHS worker process ended unexpectedly (exit {proc.returncode})"
                    )
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """End the child process, if any (killed: it may be inside a long run)."""
        if self._child is not None:
            proc = self._child[0]
            self._child = None
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for f in (proc.stdin, proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def _write_all(stream, data: bytes) -> None:
    """Write data to the child's stdin and flush; a child killed meanwhile (closed
    pipe) ends the write quietly."""
    try:
        stream.write(data)
        stream.flush()
    except (OSError, ValueError):
        pass


#: Covering programs of more non-zeros than this are solved in a child process that is
#: killed at the deadline or on Ctrl-C: HiGHS's presolve and root LP of such a model can
#: run past a second without asking the interrupt callback. Smaller ones run in this
#: process (a child's start-up, numpy and highspy, costs more than they take).
INPROCESS_NNZ_MAX = 5_000
#: Whether a child process can be used: POSIX (the parent waits on the pipe with
#: select) with a Python executable to start; elsewhere every program runs in-process.
_CHILD_OK = os.name == "posix" and bool(sys.executable)
#: The child's HiGHS gets this share of the seconds left as its time limit, so that in
#: the branch and bound (where it checks its clock often) it stops and reports its best
#: answer before the deadline ...
CHILD_TIME_SHARE = 0.9
#: ... and it may answer up to this share of the seconds (at least ``CHILD_GRACE_MIN``,
#: at most 1 s) after the deadline before it is killed (its answer then lost).
CHILD_GRACE_SHARE = 0.02
CHILD_GRACE_MIN = 0.02
