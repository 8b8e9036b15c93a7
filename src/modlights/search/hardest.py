"""The hardest board: the largest fewest-taps over every solvable board.

A board s is solvable to all zeros exactly when s = -A x for some tap vector x, and its
fewest taps is the least physical length ``sum(y)`` (entries 0..n-1) over the coset
y in x + ker A. The hardest board's value is therefore

    max over x of min over c in ker A of weight(x + c),

the covering radius of the code ker A in the physical-length metric.

Tap groups. Two taps whose columns of the kernel matrix agree (every kernel vector takes
the same value on both) are interchangeable: for a kernel element c with value w_G on
group G, the weight of x + c is ``sum_G sum_v a_{G,v} * ((v + w_G) mod n)``, where a_{G,v}
counts the taps of G that x sets to v. So the max-min is an integer program over the
counts, with one constraint per kernel element:

    maximise t  subject to  t <= weight(x + c) for every c in ker A,
                            sum_v a_{G,v} = |G|,  a_{G,v} >= 0 integer.

Taps that no kernel vector touches (the zero column) are set to n - 1: every constraint
only grows with them.

The program HiGHS solves drops the |ker A|-fold symmetry x -> x + c of that max-min
exactly: on groups S on which ker A takes every combination of values, x is made 0 in
the majority (a single tap 0; every coset has such elements: ``pinned_groups``), and
for the kernel elements that are 0 on S, x is pinned to the lightest of its coset by
packing rows weight(x + c) >= weight(x) (see ``_CoveringProgram``); on the 9x9 cross all
8 kernel dimensions are single pinned taps, so no leader rows are left.

Constraint generation. Kernels of up to ``FULL_KERNEL_MAX`` elements get every row at
once; larger ones start from the generators. The program's optimum over the working set
is an upper bound. Its answer is realised as a board (x) and that board's true fewest
taps is computed by the exact coset search (:func:`modlights.search.minimal.coset_minimum`
on x + ker A: x solves the board -A x): a
proved minimum is a lower bound, and its minimiser is a kernel element whose row the
answer breaks, added to the working set. The loop ends when the bounds meet
(``proven``) or the budget runs out (the best board found is returned,
``proven=False``). Each round adds a row the program's answer broke, so the loop ends
after at most |ker A| rounds.

Before the program. The linear relaxation's exact dual bound
(:mod:`modlights.search.lpbound`) is the first upper bound (and caps the program's t);
for n = 2 it is (touched taps) / 2 + untouched taps, certified by uniform weights over
a small subgroup. On kernels past ``FULL_KERNEL_MAX`` elements a local search
(:mod:`modlights.search.anneal`) proposes hard boards first; each counts only once the
coset search proves its fewest taps, and the best is the program's incumbent.

Certificates: the Hardest keeps the witness's proof (from the coset search) and the
bound's weights; ``Hardest.certificate()`` writes them
(:mod:`modlights.search.hardest_certificate`).

Executors: ``executor=`` is passed on to every coset search that covers its whole coset
(split into sub-cubes over its workers); the integer programs run on this machine (HiGHS
uses the local cores itself).

Complexity: each round is one integer program (exponential in the worst case; HiGHS's
branch and bound) and one coset search (at most |ker A| elements); at most |ker A|
rounds.

Stopping: the budget is a deadline for the whole call and Ctrl-C stops it within a
second. HiGHS looks at its clock and its interrupt callbacks only between stages, so a
large program (more than ``INPROCESS_NNZ_MAX`` non-zeros) is solved in a child process
(:mod:`modlights.search._highs_worker`) that is killed at the deadline or on Ctrl-C;
a small one on a thread of this process, stopped through the callbacks.
"""

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
from modlights.model.validation import check_budget
from modlights.search.hardest_certificate import CertificateData
from modlights.search.lpbound import KernelElements, lp_bound, root_bound
from modlights.search.lpbound import TapGroups as _TapGroups
from modlights.search.minimal import (
    MIN_DESCENT_SECONDS,
    Kernel,
    check_executor,
    coset_minimum,
    deadline_after,
)

__all__ = ["Hardest", "hardest", "check_seconds", "pinned_groups"]


class Hardest:
    """The answer of :func:`hardest` (``Solver.hardest``).

    Attributes
    ----------
    min_taps : int
        The largest fewest-taps found over every solvable board (target 0). When
        ``proven`` it is the covering radius of ker A; otherwise a proved lower bound.
    state : numpy.ndarray
        A board (shaped like ``board.shape``) whose fewest taps is exactly ``min_taps``,
        proved by the exact coset search and checked.
    taps : numpy.ndarray
        A solution of ``state`` with ``min_taps`` physical taps.
    proven : bool
        True only when ``lower == upper`` and the witness's minimum was proved.
    lower, upper : int
        The proved bounds on the true value (``lower == min_taps``).
    seconds : float
        Wall time of the search.
    iterations : int
        Rounds of constraint generation (integer programs solved).

    Examples
    --------
    >>> h = ml.Solver(ml.Board.grid(3, 3, states=2)).hardest()
    >>> h.min_taps, h.proven, h.lower, h.upper
    (9, True, 9, 9)
    >>> h.state.shape, int(h.taps.sum()) == h.min_taps
    ((3, 3), True)
    >>> ml.Solver(ml.Board.grid(3, 3, states=2)).solve(h.state).length
    9
    """

    __slots__ = (
        "min_taps",
        "state",
        "taps",
        "proven",
        "lower",
        "upper",
        "seconds",
        "iterations",
        "_certificate",
    )

    def __init__(
        self,
        min_taps: int,
        state: np.ndarray,
        taps: np.ndarray,
        proven: bool,
        lower: int,
        upper: int,
        seconds: float,
        iterations: int,
        certificate: Any = None,
    ):
        self.min_taps = int(min_taps)
        self.state = state
        self.taps = taps
        self.proven = bool(proven)
        self.lower = int(lower)
        self.upper = int(upper)
        self.seconds = float(seconds)
        self.iterations = int(iterations)
        self._certificate = certificate

    def __getstate__(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, d: dict) -> None:
        for k in self.__slots__:
            setattr(self, k, d.get(k))

    def certificate(self, budget: Any = None) -> dict:
        """A JSON-safe certificate of ``lower`` and ``upper`` (kind "hardest" of
        docs/certificates.md), checked by :func:`modlights.verify`.

        The witness is ``state`` with its fewest taps and the coset search's proof; the
        upper bound is the exact dual of the linear program over kernel elements
        (``lp-dual``), or, when the search proved a value below that program's bound,
        a branch and bound over taps with exact duals at every closed node (``lp-tree``,
        built on the first call and kept). ``budget``: seconds for that tree (None: at
        most ``TREE_NODES_MAX`` nodes of
        :mod:`modlights.search.hardest_certificate`); when it does not close, the
        certificate's ``upper`` is the program's bound, above ``self.upper``.

        Raises ValueError when the witness's minimum was not proved (nothing to certify
        below it) or for a bad budget.

        Examples
        --------
        >>> h = ml.Solver(ml.Board.grid(4, 4, states=2)).hardest()
        >>> cert = h.certificate()
        >>> cert["kind"], cert["lower"] == h.lower, cert["upper"] == h.upper
        ('hardest', True, True)
        >>> ml.verify(cert)
        True
        """
        seconds = check_seconds(budget)
        data = self._certificate
        if data is None:
            raise ValueError(
                "this Hardest carries no certificate data (made by an older modlights)"
            )
        if data.proof is None:
            raise ValueError("the witness's fewest taps was not proved: no certificate")
        return data.build(seconds)

    def to_dict(self) -> dict:
        """JSON-safe: lists and numbers only."""
        return {
            "min_taps": self.min_taps,
            "state": self.state.tolist(),
            "taps": self.taps.tolist(),
            "proven": self.proven,
            "lower": self.lower,
            "upper": self.upper,
            "seconds": self.seconds,
            "iterations": self.iterations,
        }

    def __repr__(self) -> str:
        tag = "proven" if self.proven else f"not proven, at most {self.upper}"
        return f"Hardest(min_taps={self.min_taps}, {tag}, {self.seconds:.2f} s)"


def check_seconds(budget: Any) -> float | None:
    """Validate a time budget: None (no limit) or a number of seconds >= 0."""
    if budget is None:
        return None
    if isinstance(budget, (bool, np.bool_)) or not isinstance(
        budget, (int, float, np.integer, np.floating)
    ):
        raise ValueError(
            f"budget must be None (no limit) or seconds (a number >= 0), got {budget!r}"
        )
    if not budget >= 0 or math.isnan(budget):
        raise ValueError(f"budget must be a number of seconds >= 0, got {budget!r}")
    return float(budget)


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


# ----------------------------------------------------------------------------- the search
#: Kernels of at most this many elements start with every constraint (one integer
#: program, no generation rounds); larger ones start from the generators and their
#: negatives and grow by the coset search's minimisers.
FULL_KERNEL_MAX = 1 << 12
#: Cosets of at most this many elements x taps are always searched whole, budget or
#: not (a few milliseconds in the C search); larger ones within what is left of it.
WHOLE_COSET_WORK = 1 << 22


def _kernel_on_groups(gens: np.ndarray, orders: list, n: int, kernel_size: int):
    """The starting working set (values on the group representatives): every kernel
    element when there are at most FULL_KERNEL_MAX, else each generator and its negative."""
    if kernel_size > FULL_KERNEL_MAX:
        return [w for h in gens for w in (h, (-h) % n)]
    W = np.zeros((1, gens.shape[1]), dtype=np.int64)
    for h, o in zip(gens, orders):
        W = (W[None, :, :] + np.arange(o)[:, None, None] * h[None, None, :]) % n
        W = W.reshape(-1, gens.shape[1])
    return list(W[1:])


def hardest(
    board: Any, kernel: Kernel, *, budget: Any = None, executor: Any = None, seed: int = 0
) -> Hardest:
    """The hardest solvable board of ``board`` (target 0) and its fewest taps.

    Parameters
    ----------
    board : Board
        The board (``apply``, ``tap_vector``, ``from_tap_vector`` are used).
    kernel : Kernel
        ker A of the factored board (``Solver.hardest`` hands it over): its generators
        and |ker A|; the coset searches run on it (a board -A x has the particular
        solution x, so no solve is needed).
    budget : float, optional
        Seconds for the whole search (None: until proved): a deadline counted from the
        call (+10% or +0.25 s at most, whichever is larger, on an idle machine). Past
        it the best board found is returned with ``proven=False`` and ``upper`` the
        best proved upper bound. Ctrl-C stops the search within a second
        (KeyboardInterrupt), the kernel untouched.
    executor : concurrent.futures.Executor, optional
        Splits each exact coset search that covers its whole coset over the executor's
        workers (:func:`modlights.search.minimal.coset_minimum`); same answers as
        without it.
    seed : int
        The local search's random stream (:mod:`modlights.search.anneal`): the same
        seed gives the same boards when the budget does not cut the walk short.

    Stages: (1) the exact bound of the linear program over kernel elements
    (:func:`modlights.search.lpbound.root_bound`) is the first upper bound; (2) on
    kernels past ``FULL_KERNEL_MAX`` elements, simulated annealing over boards
    (:class:`modlights.search.anneal.Annealer`, ``ANNEAL_SHARE`` of the budget, or
    ``ANNEAL_MOVES_PER_TAP`` x taps moves without one) proposes hard boards, each
    proved by the exact coset search before it counts; the best is handed to the
    integer program as its incumbent; (3) the integer program's constraint generation
    (module docstring) until the bounds meet or the budget runs out.

    Returns
    -------
    Hardest
        ``min_taps``, the witness ``state`` (its fewest taps proved equal to
        ``min_taps``), ``proven``, ``lower``, ``upper``, ``seconds``, ``iterations``;
        ``certificate()`` writes the proof of the bounds.

    Raises
    ------
    ValueError
        A budget that is not None or seconds >= 0; an executor without ``submit``.
    """
    seconds = check_seconds(budget)
    check_executor(executor)
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + seconds
    n, r = board.states, board.n_taps
    H, orders = kernel.generators()
    H = np.asarray(H, dtype=np.uint8).reshape(len(orders), r)
    groups = _TapGroups(H, r)
    top = (n - 1) * r
    constant = (n - 1) * len(groups.fixed)
    kernel_size = kernel.size
    search_steps = min(1 << 62, kernel_size)

    def remaining() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    def fewest(x: np.ndarray):
        """The board -A x, (y, proven): the least-length tap vector y of the coset
        x + ker A (x solves that board), whether the search proved it least, and the
        search's proof dict (None when not proved)."""
        state = board.apply(
            np.zeros(board.shape, dtype=np.uint8),
            board.from_tap_vector((n - x.astype(np.int64)) % n),
        )
        left = remaining()
        # a small coset (WHOLE_COSET_WORK: milliseconds) is searched whole even when the
        # budget is spent: the board the program paid for is then proved; larger
        # cosets get what is left of the budget (a deadline: unproved when it runs out)
        budget = (
            search_steps if left is None or kernel_size * max(1, r) <= WHOLE_COSET_WORK else left
        )
        steps, seconds = check_budget(budget, search_steps)
        proof: list = []
        y, proven, _, _ = coset_minimum(
            x.astype(np.uint8),
            kernel,
            steps=steps,
            seconds=seconds,
            deadline=deadline_after(seconds),
            executor=executor,
            descent=MIN_DESCENT_SECONDS,
            proof=proof,
        )
        if (
            proven
            and proof
            and proof[0].get("method") == "tree"
            and proof[0].get("pruned") != [[]]
            and not np.array_equal(y, x)
        ):
            # a tree proof's prefixes are read against the certificate's taps (the
            # witness y): searched again from y itself, so that start and answer agree
            again: list = []
            y2, proven2, _, _ = coset_minimum(
                y.astype(np.uint8),
                kernel,
                steps=steps,
                seconds=seconds,
                deadline=deadline_after(seconds),
                executor=executor,
                descent=MIN_DESCENT_SECONDS,
                proof=again,
            )
            if proven2 and again and np.array_equal(y2, y):
                return state, y, True, again[0]
            return state, y, False, None
        return state, y, proven, (proof[0] if proven and proof else None)

    # the zero board needs no taps: a proved start (the tree pruned at its root)
    zero_proof = {"method": "tree", "leaf_dim": 0, "pruned": [[]]}
    best = (
        0,
        np.zeros(board.shape, dtype=np.uint8),
        board.from_tap_vector(np.zeros(r, dtype=np.uint8)),
        zero_proof,
    )
    iterations = 0
    # (1) the linear program's exact bound
    elements = KernelElements.build(H, orders, n, r)
    cover = KernelElements.cover(H, orders, n, r, seed=seed)
    bound, bound_set, idx, q = root_bound(
        elements if elements.complete else None,
        cover,
        groups,
        n,
        deadline=_share(deadline, LP_SHARE),
    )
    upper = min(top, bound.__floor__())
    root: tuple[Any, ...] = (bound_set.coeffs[idx], q, bound.__floor__())
    pinned_taps: list[int] = []
    if len(groups) == 0:
        # trivial kernel, or no tap touched by it: every x is its board's only
        # solution, the all n-1 vector is the heaviest
        x = groups.realise(np.zeros((0, n), dtype=np.int64), n, r)
        state, y, proven, proof = fewest(x)
        if proven:
            best = (int(y.sum(dtype=np.int64)), state, board.from_tap_vector(y), proof)
        upper = min(upper, constant)
    else:
        gens = np.asarray(H, dtype=np.int64)[:, groups.rep] % n
        pinned = pinned_groups(gens, groups.sizes, n)
        pinned_taps = [int(groups.members[g][0]) for g in pinned if groups.sizes[g] == 1]
        # (1b) the program with the pinned taps at 0 (a one-leaf lp-tree): often lower
        if pinned_taps and elements.complete and best[0] < upper:
            b2, idx2, q2, _ = lp_bound(
                elements,
                groups,
                {j: 0 for j in pinned_taps},
                n,
                deadline=_share(deadline, PINNED_SHARE),
            )
            if b2.__floor__() < upper:
                upper = b2.__floor__()
                root = (elements.coeffs[idx2], q2, upper, pinned_taps)
        # (2) local search on large kernels
        incumbent = None
        if best[0] < upper and kernel_size > FULL_KERNEL_MAX:
            best, incumbent = _anneal(
                board,
                elements if elements.complete else None,
                H,
                orders,
                n,
                r,
                groups,
                pinned,
                fewest,
                best,
                deadline,
                seed,
            )
        if best[0] < upper and (deadline is None or time.perf_counter() < deadline):
            program = _CoveringProgram(groups, n, constant, pinned, upper=upper)
            try:
                if incumbent is not None:
                    program.start(*incumbent)
                best, upper, iterations = _generate(
                    program,
                    gens,
                    orders,
                    n,
                    r,
                    kernel_size,
                    groups,
                    board,
                    fewest,
                    remaining,
                    best,
                    upper,
                )
            finally:
                program.close()
    min_taps, state, taps, proof = best
    _check_witness(board, state, taps, min_taps)
    upper = max(upper, min_taps)
    rhs = board.cell_vector(board.coerce_state((-state.astype(np.int64)) % n))
    data = CertificateData(
        board, H, orders, rhs, board.tap_vector(taps), min_taps, proof, root, pinned_taps, upper
    )
    return Hardest(
        min_taps,
        state,
        taps,
        min_taps >= upper,
        min_taps,
        upper,
        time.perf_counter() - t0,
        iterations,
        data,
    )


#: Shares of the time left: the root linear program (when it is solved by constraint
#: generation: composite n), the program with the pinned taps at 0, and the local
#: search on large kernels.
LP_SHARE = 0.2
PINNED_SHARE = 0.3
ANNEAL_SHARE = 0.5
ANNEAL_SHARE_LARGE = 0.15
#: Without a budget the local search makes this many moves per tap (in
#: ``ANNEAL_SEGMENTS`` segments of falling temperature, the best board of each proved).
ANNEAL_MOVES_PER_TAP = 100
ANNEAL_SEGMENTS = 4
#: Moves per tap of one chain of the walk at most (then a new chain from a new board).
ANNEAL_CHAIN_MOVES_PER_TAP = 2500
#: Cosets of more elements x taps than this are proved once, after the whole walk (a
#: proof takes seconds there: 2^32 elements on 39 x 39).
ANNEAL_PROOF_WORK = float(1 << 34)
#: Random kernel elements the local search watches when the kernel is too large to
#: enumerate (with a subgroup touching every tap; the minimisers the coset searches
#: find are added as they come).
ANNEAL_SAMPLES = 1 << 15


def _share(deadline: float | None, share: float) -> float | None:
    """The perf_counter value ``share`` of the time left to ``deadline`` from now."""
    if deadline is None:
        return None
    now = time.perf_counter()
    return now + share * max(0.0, deadline - now)


def _anneal(board, elements, H, orders, n, r, groups, pinned, fewest, best, deadline, seed):
    """Stage (2) of :func:`hardest`: (best, incumbent for the program or None)."""
    from modlights.search.anneal import T_END, T_START, Annealer

    if elements is None:
        elements = KernelElements.build(H, orders, n, r, samples=ANNEAL_SAMPLES, seed=seed)
    walker = Annealer(elements.values, n, seed=seed)
    walker.start()
    large = np.prod(np.array(orders, dtype=float)) * r > ANNEAL_PROOF_WORK
    # a large coset leaves most of the budget to its one proof
    stop = _share(deadline, ANNEAL_SHARE_LARGE if large else ANNEAL_SHARE)
    if stop is None:
        moves = ANNEAL_MOVES_PER_TAP * max(1, r)
    else:  # as many moves as fit in the share, from the speed of a first few
        t = time.perf_counter()
        probe = 256
        walker.run(probe, deadline=stop, t_start=T_START, t_end=T_START)
        per = max(1e-7, (time.perf_counter() - t) / probe)
        moves = max(probe, int((stop - time.perf_counter()) / per))
    ratio = T_END / T_START
    found_x = None
    # a coset too large to walk in milliseconds is proved once, at the end of the walk
    segments = 1 if large else ANNEAL_SEGMENTS
    # independent chains of at most ANNEAL_CHAIN_MOVES_PER_TAP x r moves (restarts
    # beat one long cooling here), each from a new random board
    per_chain = max(1, min(moves, ANNEAL_CHAIN_MOVES_PER_TAP * max(1, r)))
    chains = max(1, -(-moves // per_chain))
    for chain in range(chains):
        if chain:
            if stop is not None and time.perf_counter() >= stop:
                break
            walker.start()
        for seg in range(segments):
            if stop is not None and time.perf_counter() >= stop:
                break
            hi = T_START * ratio ** (seg / segments)
            lo = T_START * ratio ** ((seg + 1) / segments)
            x, _ = walker.run(max(1, per_chain // segments), deadline=stop, t_start=hi, t_end=lo)
            state, y, proven, proof = fewest(x.astype(np.int64))
            length = int(y.sum(dtype=np.int64))
            if proven and length > best[0]:
                best = (length, state, board.from_tap_vector(y), proof)
                found_x = x
            c = (y.astype(np.int64) - x) % n
            if not elements.complete and c.any():
                walker.add_elements(c[None, :])
    incumbent = None
    if found_x is not None and elements.complete:
        incumbent = _incumbent(found_x, best[0], elements, groups, pinned, n)
    return best, incumbent


def _incumbent(
    x: np.ndarray,
    value: int,
    elements: KernelElements,
    groups: _TapGroups,
    pinned: np.ndarray,
    n: int,
):
    """The program's columns for the coset of x (value its fewest taps): the lightest
    y in x + ker A that is 0 in the majority on every pinned group (so it meets the
    pinning and leader rows), as (group counts g x n, value); None if none is found."""
    Y = (x.astype(np.int64)[None, :] + elements.values) % n  # m x r
    ok = np.ones(len(Y), dtype=bool)
    for g in pinned:
        taps = groups.members[g]
        counts = np.stack([(Y[:, taps] == v).sum(axis=1) for v in range(n)], axis=1)
        ok &= counts[:, 0] >= counts.max(axis=1)
    if not ok.any():
        return None
    cand = np.flatnonzero(ok)
    y = Y[cand[int(np.argmin(Y[cand].sum(axis=1)))]]
    counts = np.zeros((len(groups), n), dtype=np.int64)
    for g, taps in enumerate(groups.members):
        counts[g] = np.bincount(y[taps], minlength=n)
    return counts, value


def _generate(
    program, gens, orders, n, r, kernel_size, groups, board, fewest, remaining, best, upper
):
    """The constraint generation loop of :func:`hardest`: (best, upper, iterations)."""
    iterations = 0
    seen = set()

    def cut(w: np.ndarray) -> None:
        w = np.asarray(w, dtype=np.uint8)  # one key per element
        key = w.tobytes()
        if key not in seen:
            seen.add(key)
            program.add_cut(w)

    start = []
    for w in _kernel_on_groups(gens, orders, n, kernel_size):
        w = np.asarray(w, dtype=np.uint8)
        if w.tobytes() not in seen:
            seen.add(w.tobytes())
            start.append(w)
    program.add_cuts(np.array(start))
    while best[0] < upper:
        left = remaining()
        if left is not None and left <= 0:
            break
        bound, counts = program.solve(left)
        iterations += 1
        if bound is not None:
            upper = min(upper, bound)
        if counts is None or best[0] >= upper:
            break
        x = groups.realise(counts, n, r)
        state, y, proven, proof = fewest(x)
        length = int(y.sum(dtype=np.int64))
        if proven and length > best[0]:
            best = (length, state, board.from_tap_vector(y), proof)
        if best[0] >= upper:
            break
        c = (y.astype(np.int64) - x) % n
        w = c[groups.rep].astype(np.uint8)
        if not w.any() or w.tobytes() in seen:
            # the search found nothing below the program's answer and could not
            # prove it (budget): nothing to learn
            break
        cut(w)
    return best, upper, iterations


def _check_witness(board: Any, state: np.ndarray, taps: np.ndarray, length: int) -> None:
    """The witness's taps solve it with ``length`` taps (its minimality was proved by the
    coset search that produced it)."""
    done = board.apply(state, taps)
    x = board.tap_vector(taps)
    if done.any() or int(x.sum(dtype=np.int64)) != length:
        raise AssertionError("hardest: the witness does not check; please report this")
