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
taps is computed by the exact coset search on x + ker A (x solves the board -A x; a
native Solver's C solver, ``ml_solver_solve`` or the split search, its proof the C
result's certificate's; the reference backend's
:func:`modlights.search.minimal.coset_minimum`): a
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
(split over its workers: the C split search, :mod:`modlights.search.split`); the integer
programs run on this machine (HiGHS uses the local cores itself).

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
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from modlights.model.validation import check_budget
from modlights.search.hardest_certificate import CertificateData
from modlights.search.hardest_program import (
    _CoveringProgram,
    pinned_groups,
)
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
    board: Any,
    kernel: Kernel,
    *,
    budget: Any = None,
    executor: Any = None,
    seed: int = 0,
    coset: Callable[[np.ndarray, Any], Any] | None = None,
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
        Passed on to ``coset`` (``Solver.solve`` splits each exact coset search that
        covers its whole coset over the executor's workers); same answers as without
        it. Without ``coset`` (the reference backend's NumPy search) it is not used.
    seed : int
        The local search's random stream (:mod:`modlights.search.anneal`): the same
        seed gives the same boards when the budget does not cut the walk short.
    coset : callable (state, budget) -> Solution, optional
        The minimal solve of a board within a budget (an int count or float seconds,
        as ``Solver.solve`` takes it; ``executor`` passed on), its certificate read for
        the proof: ``Solver.hardest`` hands over its C solver's (``ml_solver_solve``,
        or the split search over the executor). None: the coset searches of
        :func:`modlights.search.minimal.coset_minimum` on ``kernel`` (the reference
        backend's NumPy enumeration).

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
        if coset is not None:  # the C solver's search; its certificate read when kept
            sol = coset(state, steps if steps is not None else seconds)
            y = board.tap_vector(sol.taps).astype(np.uint8)
            return state, y, sol.proven_minimal, (sol if sol.proven_minimal else None)
        proof: list = []
        y, proven, _, _ = coset_minimum(
            x.astype(np.uint8),
            kernel,
            steps=steps,
            seconds=seconds,
            deadline=deadline_after(seconds),
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
    if proof is not None and not isinstance(proof, dict):
        proof = _c_proof(proof, H, orders)
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


def _c_proof(sol: Any, H: np.ndarray, orders: list) -> dict | None:
    """The ``<proof>`` dict of a Solution of the C solver, read from its certificate
    (``ml_result_certificate``); its generators and orders in the dict when they are
    not ``H`` and ``orders`` (the transform search reorders them; the certificate's
    kernel is then re-expressed: ``hardest_certificate._reexpress``). None when the
    result keeps no certificate (a kernel past the dense limit)."""
    try:
        cert = sol.certificate()
    except ValueError:
        return None
    proof: dict = cert["proof"]
    G, o = cert["kernel"]["generators"], cert["kernel"]["orders"]
    same = list(o) == [int(v) for v in orders] and (
        not o or np.array_equal(np.asarray(G, dtype=np.int64), np.asarray(H, dtype=np.int64))
    )
    if not same:
        proof = dict(proof, generators=G, orders=o)
    return proof


def _check_witness(board: Any, state: np.ndarray, taps: np.ndarray, length: int) -> None:
    """The witness's taps solve it with ``length`` taps (its minimality was proved by the
    coset search that produced it)."""
    done = board.apply(state, taps)
    x = board.tap_vector(taps)
    if done.any() or int(x.sum(dtype=np.int64)) != length:
        raise AssertionError("hardest: the witness does not check; please report this")
