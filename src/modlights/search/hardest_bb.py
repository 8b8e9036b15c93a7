"""An exact branch and bound for the hardest board over tap-group counts, with a
certificate of its upper bound that survives branching (``lp-tree`` with
``branch-group`` nodes, docs/certificates.md).

The hardest value is ``max over x of min over c in ker A of weight(x + c)``
(:mod:`modlights.search.hardest`). Taps with the same kernel column (a *group*) are
interchangeable, so over GF(2) a board is the count a_G of taps set to 1 in each group
G, and weight(x + c) = sum_G (a_G if c is 0 on G else |G| - a_G) + untouched taps.
For n > 2 every touched tap is a unit of its own and its value is what is counted.

A *node* is one interval [lo_u, hi_u] per unit u (a plain tuple: it pickles, so
subtrees are independent tasks). Its bound is the linear program over the kernel
elements (rows generated lazily from the whole kernel, as in
:func:`modlights.search.lpbound.lp_bound`) with the unit's count or value relaxed to
its interval; HiGHS's duals are rounded to integer weights q and the bound is then
recomputed exactly (integers) the way the certificate checker does it: fixed taps
sum_c q_c ((v + c_j) mod n), each unit the largest of its per-value sums over its
interval. Single pinned taps (ker A maps onto them, :func:`pinned_groups`) are 0 at the
root. Best-first: the open node of the largest bound is split in two on the unit whose
weights' sums spread the most; a node whose bound (floored) is at most the best proved
value is closed; a node with every unit fixed is one board, its bound its exact value
over the complete kernel (a better board raises the lower bound). The search ends when
the largest open bound meets the lower bound, or at the budget; the certificate's
``upper`` is then the largest leaf bound (each open leaf is closed at its own bound).
With the board's symmetries (:mod:`modlights.search.hardest_sym`), a new node whose
image under one lies in a node before it in preorder is closed without a linear program,
and so is an open leaf after it whose image lies in it (``symmetry`` nodes of the
certificate).

Complexity: one linear program per node (groups x n columns, a few hundred rows,
pricing O(|ker A| x groups) per round); the tree is exponential in the worst case. The
kernel must be small enough to enumerate (``lpbound.ENUMERATE_MAX``).
"""

from __future__ import annotations

import heapq
import time
from fractions import Fraction
from typing import Any

import numpy as np

from modlights.search.hardest_program import pinned_groups
from modlights.search.lpbound import (
    ROWS_PER_ROUND,
    KernelElements,
    TapGroups,
    _new_lp,
    _run,
    rationalise,
)

__all__ = ["GroupSearch", "Node", "group_certificate", "group_hardest", "join", "split_root"]

#: A node: one (lo, hi) interval per unit.
Node = tuple


class GroupSearch:
    """The units, kernel elements and node bounds of one board (plain data).

    ``units[u]`` lists the taps of unit u; ``counted[u]`` whether its taps are an
    n = 2 group counted together (else a single tap, its value in the interval);
    ``untouched`` the taps no kernel element touches (n - 1 in the hardest board);
    ``pinned`` single taps that are 0 at the root."""

    def __init__(self, board: Any, H: np.ndarray, orders: list[int]):
        n, r = board.states, board.n_taps
        self.board, self.n, self.r = board, n, r
        self.H = np.asarray(H, dtype=np.uint8).reshape(len(orders), r)
        self.orders = [int(o) for o in orders]
        self.E = KernelElements.build(self.H, self.orders, n, r)
        if not self.E.complete:
            raise ValueError(
                "the group branch and bound needs a kernel small enough to enumerate "
                f"(|ker A| x taps <= 2^26), got |ker A| = {int(np.prod(self.orders))}"
            )
        groups = TapGroups(self.H, r)
        self.untouched = [int(j) for j in groups.fixed]
        gens = self.H.astype(np.int64)[:, groups.rep] % n if len(groups) else None
        pinned_g = pinned_groups(gens, groups.sizes, n) if gens is not None else np.zeros(0, int)
        self.pinned = sorted(int(groups.members[g][0]) for g in pinned_g if groups.sizes[g] == 1)
        if n == 2:
            self.units = [[int(j) for j in m] for m in groups.members]
        else:
            self.units = [[int(j)] for m in groups.members for j in m]
        self.counted = [n == 2 and len(u) > 1 for u in self.units]
        self.size = np.array([len(u) for u in self.units], dtype=np.int64)
        # the unit's column in the element table: its first tap
        self.W = np.ascontiguousarray(self.E.values[:, [u[0] for u in self.units]])
        self.coeff_index: dict[tuple, int] = {}

    def root(self) -> Node:
        """Every unit over its whole range, the pinned taps at 0."""
        pinned = set(self.pinned)
        hi_of = lambda u: (self.n - 1) * len(u)  # noqa: E731
        return tuple(
            (0, 0) if u[0] in pinned and len(u) == 1 else (0, hi_of(u)) for u in self.units
        )

    # ------------------------------------------------------------------ bounds
    def exact(self, node: Node, idx: np.ndarray, q: np.ndarray) -> Fraction:
        """The checker's bound of weights q on the elements idx at ``node``, exactly."""
        n = self.n
        qs = np.array([int(v) for v in q], dtype=object)
        Q = int(sum(qs))
        Wv = self.W[idx].astype(np.int64)
        total = (n - 1) * Q * len(self.untouched)
        for u, (lo, hi) in enumerate(node):
            col = Wv[:, u]
            sums = [int(((col + v) % n).astype(object) @ qs) for v in range(n)]
            if self.counted[u]:  # a group of n = 2: count k of ones, linear in k
                m = int(self.size[u])
                total += max((m - k) * sums[0] + k * sums[1] for k in (lo, hi))
            else:
                total += max(sums[lo : hi + 1])
        return Fraction(total, Q)

    def bound(
        self, node: Node, warm: np.ndarray | None = None, deadline: float | None = None
    ) -> tuple[Fraction, np.ndarray, np.ndarray]:
        """The node's linear program by row generation over every kernel element, made
        exact: (bound, element indices, integer weights)."""
        import highspy

        n = self.n
        inf = highspy.kHighsInf
        U = len(self.units)
        h = _new_lp()
        ncols = U * n
        ub = np.repeat(self.size, n).astype(float)
        for u, (lo, hi) in enumerate(node):  # a single tap's values outside lo..hi: none
            if not self.counted[u]:
                ub[u * n : u * n + lo] = 0.0
                ub[u * n + hi + 1 : u * n + n] = 0.0
        h.addVars(ncols + 1, np.zeros(ncols + 1), np.append(ub, inf))
        h.changeColCost(ncols, 1.0)
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        vals = np.arange(n, dtype=float)
        for u, (lo, hi) in enumerate(node):
            cols = np.arange(u * n, u * n + n, dtype=np.int32)
            m = float(self.size[u])
            h.addRow(m, m, n, cols, np.ones(n))
            h.addRow(float(lo), float(hi), n, cols, vals)
        const = float((n - 1) * len(self.untouched))
        rows: list[int] = []
        in_rows = np.zeros(len(self.E), dtype=bool)
        shift = (np.arange(n)[None, :] + np.arange(n)[:, None]) % n  # [w, v]

        def add(cands) -> None:
            new = [int(i) for i in cands if not in_rows[i]]
            if not new:
                return
            coef = shift[self.W[new].astype(np.int64)]  # k x U x n: ((v + w_u) mod n)
            k = len(new)
            full = np.concatenate([-coef.reshape(k, -1), np.ones((k, 1))], axis=1)
            rr, cc = np.nonzero(full)
            starts = np.searchsorted(rr, np.arange(k)).astype(np.int32)
            h.addRows(
                k,
                np.full(k, -inf),
                np.full(k, const),
                len(cc),
                starts,
                cc.astype(np.int32),
                full[rr, cc].astype(float),
            )
            in_rows[new] = True
            rows.extend(new)

        a0 = np.zeros((U, n))
        for u, (lo, hi) in enumerate(node):  # the middle of every interval
            if self.counted[u]:
                a0[u, 1] = (lo + hi) / 2
                a0[u, 0] = self.size[u] - a0[u, 1]
            else:
                a0[u, lo : hi + 1] = 1.0 / (hi - lo + 1)
        start = np.argsort(self._row_values(a0 @ shift.T), kind="stable")[:ROWS_PER_ROUND]
        add(np.union1d(start, warm if warm is not None else []).astype(np.int64))
        while True:
            _run(h, deadline)
            if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                break
            obj = h.getInfo().objective_function_value
            if deadline is not None and time.perf_counter() >= deadline:
                break
            a = np.asarray(h.getSolution().col_value[:ncols]).reshape(U, n)
            value = const + self._row_values(a @ shift.T)
            value[in_rows] = np.inf
            cand = np.argpartition(value, min(len(value) - 1, ROWS_PER_ROUND))[:ROWS_PER_ROUND]
            cand = cand[np.isfinite(value[cand]) & (value[cand] < obj - 1e-7)]
            if not cand.size:
                break
            add(cand)
        duals = np.abs(np.asarray(h.getSolution().row_dual)[2 * U :])
        idx = np.array(rows, dtype=np.int64)
        q = rationalise(duals if len(duals) else np.ones(1))
        keep = np.array([int(v) > 0 for v in q], dtype=bool)
        idx, q = idx[keep], q[keep]
        return self.exact(node, idx, q), idx, q

    def _row_values(self, T: np.ndarray) -> np.ndarray:
        """sum over units u of T[u, w_u(c)] for every element c (T: U x n, T[u, w] the
        unit's weight when the element is w there), in blocks of elements."""
        out = np.full(len(self.W), T[:, 0].sum() if len(T) else 0.0)
        for lo in range(0, len(self.W), 8192):
            block = self.W[lo : lo + 8192]
            for w in range(1, self.n):
                out[lo : lo + 8192] += (block == w).astype(np.float32) @ (T[:, w] - T[:, 0]).astype(
                    np.float32
                )
        return out

    def split(self, node: Node, idx: np.ndarray, q: np.ndarray) -> tuple[int, int] | None:
        """(unit, first value of the upper child) of the open unit whose per-value
        weight sums spread the most; None when every unit is fixed."""
        n = self.n
        qf = np.array([float(v) for v in q])
        best, pick = -1.0, None
        Wv = self.W[idx].astype(np.int64)
        for u, (lo, hi) in enumerate(node):
            if lo == hi:
                continue
            sums = [float(((Wv[:, u] + v) % n) @ qf) for v in range(n)]
            spread = (
                (max(sums) - min(sums)) * (hi - lo + 1) * (self.size[u] if self.counted[u] else 1)
            )
            if spread > best:
                best, pick = spread, (u, (lo + hi + 1) // 2)
        return pick

    def realise(self, node: Node) -> np.ndarray:
        """The board (tap vector) of a node with every unit fixed."""
        x = np.zeros(self.r, dtype=np.uint8)
        x[self.untouched] = self.n - 1
        for u, (lo, _) in zip(self.units, node):
            if len(u) > 1 and self.n == 2:
                x[u[:lo]] = 1
            else:
                x[u[0]] = lo
        return x

    def weights_json(self, idx: np.ndarray, q: np.ndarray) -> dict:
        """{"element number": "p/q"} with the elements numbered in ``coeff_index``."""
        Q = sum(int(v) for v in q)
        out = {}
        for i, v in zip(idx, q):
            key = tuple(int(a) for a in self.E.coeffs[int(i)])
            e = self.coeff_index.setdefault(key, len(self.coeff_index))
            f = Fraction(int(v), Q)
            out[str(e)] = (
                str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
            )
        return out


def group_hardest(
    board: Any,
    H: np.ndarray,
    orders: list[int],
    *,
    lower: int = 0,
    budget: float | None = None,
    max_nodes: int | None = None,
    progress: Any = None,
    start: Node | None = None,
    symmetry: bool = True,
) -> dict:
    """The best-first branch and bound of the module docstring.

    ``lower``: a proved lower bound (a board needing that many taps, e.g. from
    :func:`modlights.search.hardest.hardest`); nodes whose bound floors to it are closed.
    ``budget`` seconds / ``max_nodes`` bound the search (None: until settled).
    ``progress(nodes, lower, upper)`` is called about once a second. ``start``: a
    node (default the root, :meth:`GroupSearch.root`) whose subtree alone is searched:
    its ``upper_bound`` then covers that subtree only, and :func:`join` makes the
    parent of two such subtrees (independent tasks: a node is a plain tuple).
    ``symmetry`` (the whole tree only, not with ``start``): the board's symmetries
    prune nodes whose image lies in an earlier node (:mod:`.hardest_sym`); the pinned
    taps are then a set the symmetries used map onto itself, when the board has such a
    set as large as the plain one and the root's bound with it floors no higher (one
    more linear program); else no symmetry is used.

    Returns {"lower", "upper", "board" (tap vector of the best board found with value
    ``lower`` when the search found it, else None), "nodes", "by_symmetry" (nodes
    closed by a symmetry), "seconds", "settled",
    "upper_bound" (the ``lp-tree`` dict of docs/certificates.md)}.
    """
    t0 = time.perf_counter()
    deadline = None if budget is None else t0 + float(budget)
    S = GroupSearch(board, H, orders)
    index = None
    root = S.root() if start is None else tuple((int(a), int(b)) for a, b in start)
    b, idx, q = S.bound(root, None, deadline)
    if symmetry and start is None:
        from modlights.search.hardest_sym import SymmetryIndex, UnitGroup, pinned_subgroup

        group, pinned = pinned_subgroup(
            S.H, S.n, S.units, UnitGroup(board, S.units, S.untouched, S.r), len(S.pinned)
        )
        if len(group) and pinned != S.pinned:  # kept when its root bound is no worse
            plain = S.pinned
            S.pinned = pinned
            sb, sidx, sq = S.bound(S.root(), None, deadline)
            if sb.__floor__() <= b.__floor__():
                root, b, idx, q = S.root(), sb, sidx, sq
            else:
                S.pinned, group = plain, group.subset([])
        if len(group):
            index = SymmetryIndex(group, len(S.units))
    best_x = None
    # id -> ("leaf", idx, q, floor) | ("split", u, cut, lo_id, hi_id) | ("sym", s, target)
    tree: dict[int, Any] = {}
    paths = {0: ""}
    heap: list = [(-b, 0, root, idx)]
    tree[0] = ("leaf", idx, q, b.__floor__())
    if index is not None:
        index.add(0, "", root, True)
    next_id, opened, last, by_symmetry = 1, 1, t0, 0
    while heap:
        negb, nid, node, idx = heap[0]
        if tree[nid][0] == "sym":  # closed by symmetry while queued
            heapq.heappop(heap)
            continue
        top = (-negb).__floor__()
        if top <= lower:
            break
        if (deadline is not None and time.perf_counter() >= deadline) or (
            max_nodes is not None and opened >= max_nodes
        ):
            break
        heapq.heappop(heap)
        if index is not None:
            index.close(nid)
        q = tree[nid][2]
        pick = S.split(node, idx, q)
        if pick is None:  # one board: its value is its least weight over the whole kernel
            x = S.realise(node)
            weight = ((x[None, :].astype(np.int64) + S.E.values) % S.n).sum(axis=1)
            c = int(np.argmin(weight))
            value = int(weight[c])
            tree[nid] = ("leaf", np.array([c]), np.array([1], dtype=object), value)
            if value > lower:
                lower, best_x = value, x
            continue
        u, cut = pick
        lo, hi = node[u]
        kids = []
        for i, part in enumerate(((lo, cut - 1), (cut, hi))):
            child = node[:u] + (part,) + node[u + 1 :]
            cid = next_id
            next_id += 1
            opened += 1
            kids.append(cid)
            path = paths[cid] = paths[nid] + str(i)
            hit = index.covered(path, child) if index is not None else None
            if hit is not None:  # its image lies in an earlier node: no program needed
                assert index is not None
                tree[cid] = ("sym", hit[0], hit[1])
                index.add(cid, path, child, False)
                by_symmetry += 1
                continue
            cb, cidx, cq = S.bound(child, idx, None)
            tree[cid] = ("leaf", cidx, cq, cb.__floor__())
            heapq.heappush(heap, (-cb, cid, child, cidx))
            if index is not None:
                index.add(cid, path, child, True)
                for other, s in index.covering(path, child):  # later open leaves it covers
                    index.close(other)
                    tree[other] = ("sym", s, cid)
                    by_symmetry += 1
        tree[nid] = ("split", u, cut, kids[0], kids[1])
        if progress is not None and time.perf_counter() - last >= 1.0:
            last = time.perf_counter()
            progress(opened, lower, max([lower] + [(-e[0]).__floor__() for e in heap[:1]]))
    upper = max([lower] + [(-e[0]).__floor__() for e in heap if tree[e[1]][0] != "sym"])
    nodes: list[dict] = []
    position: dict[int, int] = {}
    used: dict[int, int] = {}  # group element -> its index in the certificate
    stack = [0]
    while stack:  # preorder
        nid = stack.pop()
        position[nid] = len(nodes)
        entry = tree[nid]
        if entry[0] == "leaf":
            nodes.append({"weights": S.weights_json(entry[1], entry[2])})
        elif entry[0] == "sym":
            s = used.setdefault(entry[1], len(used))
            nodes.append({"symmetry": s, "to": position[entry[2]]})
        else:
            _, u, cut, a, c = entry
            nodes.append({"branch-group": list(S.units[u]), "splits": [int(cut)]})
            stack.extend([c, a])
    order = sorted(S.coeff_index, key=S.coeff_index.__getitem__)
    ub = {
        "method": "lp-tree",
        "elements": [list(e) for e in order],
        "pinned": list(S.pinned),
    }
    if used:
        assert index is not None
        elements = index.group.elements
        ub["symmetries"] = [
            {"cells": elements[g][0].tolist(), "taps": elements[g][1].tolist()}
            for g in sorted(used, key=used.__getitem__)
        ]
    ub["nodes"] = nodes
    return {
        "lower": int(lower),
        "upper": int(upper),
        "board": best_x,
        "nodes": opened,
        "by_symmetry": by_symmetry,
        "seconds": time.perf_counter() - t0,
        "settled": upper <= lower,
        "upper_bound": ub,
    }


def group_certificate(solver: Any, hardest: Any, result: dict) -> dict:
    """The "hardest" certificate (docs/certificates.md) of ``result`` (from
    :func:`group_hardest` on ``solver.board``): the upper bound its ``lp-tree``; the
    witness ``hardest``'s (a proved :class:`~modlights.search.hardest.Hardest` whose
    ``lower`` was handed to the search) unless the search found a harder board, whose
    fewest taps the solver's exact coset search then proves (its proof carries the
    solver's generators). ValueError when that proof fails (a budget) or the values
    disagree."""
    cert = hardest.certificate()
    x = result.get("board")
    if x is not None and result["lower"] > cert["lower"]:
        board = solver.board
        n = board.states
        state = board.apply(
            np.zeros(board.shape, dtype=np.uint8),
            board.from_tap_vector((n - np.asarray(x, dtype=np.int64)) % n),
        )
        sol = solver.solve(state)
        w = sol.certificate()
        if not sol.proven_minimal or w["length"] != result["lower"]:
            raise ValueError("the harder board's fewest taps was not proved equal to its value")
        proof = dict(w["proof"], generators=w["kernel"]["generators"], orders=w["kernel"]["orders"])
        cert["witness"] = {
            "rhs": w["rhs"],
            "taps": w["taps"],
            "length": w["length"],
            "proof": proof,
        }
        cert["lower"] = w["length"]
    cert["upper"] = max(int(result["upper"]), cert["lower"])
    cert["upper_bound"] = result["upper_bound"]
    return cert


def split_root(board: Any, H: np.ndarray, orders: list[int], node: Node | None = None):
    """(taps, cut, lower child, upper child) of the split :func:`group_hardest` makes at
    ``node`` (default the root): the two children are independent subtrees."""
    S = GroupSearch(board, H, orders)
    node = S.root() if node is None else node
    _, idx, q = S.bound(node)
    pick = S.split(node, idx, q)
    if pick is None:
        raise ValueError("every unit of the node is fixed: nothing to split")
    u, cut = pick
    lo, hi = node[u]
    kids = [node[:u] + (part,) + node[u + 1 :] for part in ((lo, cut - 1), (cut, hi))]
    return list(S.units[u]), cut, kids[0], kids[1]


def join(taps: list[int], cut: int, low: dict, high: dict) -> dict:
    """The ``lp-tree`` of a node split into [lo, cut - 1] and [cut, hi] on ``taps``,
    from the ``upper_bound`` dicts of its two subtrees (each from :func:`group_hardest`
    with ``start`` the child): one element list (the second tree's weights renumbered)
    and the branch-group node first."""
    elements = [list(e) for e in low["elements"]]
    index = {tuple(e): i for i, e in enumerate(elements)}
    remap = {}
    for i, e in enumerate(high["elements"]):
        key = tuple(e)
        if key not in index:
            index[key] = len(elements)
            elements.append(list(e))
        remap[str(i)] = str(index[key])
    high_nodes = [
        {"weights": {remap[k]: v for k, v in nd["weights"].items()}} if "weights" in nd else nd
        for nd in high["nodes"]
    ]
    return {
        "method": "lp-tree",
        "elements": elements,
        "pinned": list(low["pinned"]),
        "nodes": [{"branch-group": list(taps), "splits": [int(cut)]}]
        + list(low["nodes"])
        + high_nodes,
    }
