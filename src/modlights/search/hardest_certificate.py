"""Certificates of :func:`modlights.search.hardest.hardest`'s bounds (kind "hardest" of
docs/certificates.md): the witness (a "minimal" claim), and the upper bound as exact
LP duals (``lp-dual``) or a branch and bound over taps with exact duals at every closed
node (``lp-tree``).

:class:`CertificateData` is what a :class:`~modlights.search.hardest.Hardest` keeps
(plain data: it pickles): the board, the kernel generators, the witness's proof and the
root's dual weights. :meth:`CertificateData.build` returns the JSON-safe certificate;
when the value the search proved is below the root's bound, it first runs
:func:`lp_tree` (once, kept) to certify it, within a budget.

The tree: taps ``pinned`` (single taps on which ker A takes every combination of
values, see :func:`modlights.search.hardest.pinned_groups`) are 0 at the root (every
coset has an element that is 0 there). A node fixes taps to values; it is closed when
the exact bound of its linear program (:func:`modlights.search.lpbound.lp_bound`) is at
most the target when floored; else it branches on the free tap whose value matters most
to the node's weights (the largest spread of sum_c lambda_c ((v + c_j) mod n) over v),
one child per value. A node with every tap fixed is the board itself: its bound is its
fewest taps over the elements, at most the target when the target holds. Complexity:
one linear program per node; the tree is exponential in the worst case (the budget
bounds it).
"""

from __future__ import annotations

import copy
import time
from fractions import Fraction
from typing import Any

import numpy as np

from modlights.search.lpbound import KernelElements, TapGroups, lp_bound

__all__ = ["TREE_NODES_MAX", "CertificateData", "lp_tree"]

#: Nodes the certificate's branch and bound opens at most when no budget is given.
TREE_NODES_MAX = 2_000


def _fraction_text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _weights(q: Any) -> list[Fraction]:
    qs = [int(v) for v in q]
    total = sum(qs)
    return [Fraction(v, total) for v in qs]


def lp_tree(
    E: KernelElements,
    groups: Any,
    n: int,
    target: int,
    pinned: list[int],
    *,
    deadline: float | None = None,
    max_nodes: int | None = TREE_NODES_MAX,
) -> tuple[list[dict], list[tuple]] | None:
    """The ``lp-tree`` of the module docstring for ``target``: (nodes in preorder with
    weights keyed by element number, the elements' coefficient tuples in that
    numbering), or None when the budget (``deadline``, ``max_nodes``) ran out first or
    a node with every tap fixed stays above the target (the target is then wrong)."""
    elements: dict[tuple, int] = {}
    nodes: list[dict] = []
    opened = [0]
    root = {int(j): 0 for j in pinned}

    def visit(fixed: dict[int, int], warm: np.ndarray | None) -> bool:
        if deadline is not None and time.perf_counter() >= deadline:
            return False
        if max_nodes is not None and opened[0] >= max_nodes:
            return False
        opened[0] += 1
        bound, idx, q, _ = lp_bound(E, groups, fixed, n, deadline=deadline, warm=warm)
        if bound.__floor__() <= target:
            w = {}
            for i, f in zip(idx, _weights(q)):
                key = tuple(int(a) for a in E.coeffs[int(i)])
                e = elements.setdefault(key, len(elements))
                w[str(e)] = _fraction_text(f)
            nodes.append({"weights": w})
            return True
        free = [j for j in range(E.values.shape[1]) if j not in fixed]
        if not free:
            return False
        # branch where the weights' per-value sums spread the most
        V = E.values[idx].astype(np.int64)
        qv = np.array([int(v) for v in q], dtype=np.float64)
        S = np.stack([((V[:, free] + v) % n).T @ qv for v in range(n)])  # n x free
        j = free[int(np.argmax(S.max(axis=0) - S.min(axis=0)))]
        nodes.append({"branch": int(j)})
        for v in range(n):
            if not visit({**fixed, int(j): v}, idx):
                return False
        return True

    if not visit(root, None):
        return None
    order = sorted(elements, key=lambda e: elements[e])
    return nodes, order


class CertificateData:
    """What a Hardest keeps to write its certificate (plain data; pickles).

    board : the Board; H, orders : the kernel generators the elements' coefficients
    refer to; rhs, taps, length : the witness (cell and tap vectors); proof : the
    witness's ``<proof>`` dict or None (not proved); root : (coefficient rows, integer
    weights, floored bound) of the ``lp-dual`` bound, or with a fourth entry, the taps
    pinned to 0, of the one-leaf ``lp-tree`` with those taps fixed; pinned : single taps the
    tree may fix to 0 at its root; upper : the upper bound the search claims (an integer
    program's optimum may be below the root's bound, the tree then certifies it)."""

    def __init__(
        self,
        board: Any,
        H: np.ndarray,
        orders: list[int],
        rhs: np.ndarray,
        taps: np.ndarray,
        length: int,
        proof: dict | None,
        root: tuple,
        pinned: list[int],
        upper: int,
    ):
        self.board = board
        self.H = np.asarray(H, dtype=np.uint8)
        self.orders = [int(o) for o in orders]
        self.rhs = [int(v) for v in rhs]
        self.taps = [int(v) for v in taps]
        self.length = int(length)
        self.proof = proof
        self.root = root
        self.pinned = [int(j) for j in pinned]
        self.upper = int(upper)
        self.tree: tuple | None = None  # (nodes, element coefficient tuples)
        self.tree_failed = False

    def _upper_bound(self, budget: float | None) -> tuple[dict, int]:
        coeffs, q, floor_b = self.root[:3]
        if self.upper < floor_b and self.tree is None and not self.tree_failed:
            self._prove_tree(budget)
        if self.upper < floor_b and self.tree is not None:
            nodes, elements = self.tree
            return (
                {
                    "method": "lp-tree",
                    "elements": [list(e) for e in elements],
                    "pinned": list(self.pinned),
                    "nodes": nodes,
                },
                self.upper,
            )
        if len(self.root) > 3:  # the root with pinned taps, one leaf
            return (
                {
                    "method": "lp-tree",
                    "elements": [list(map(int, c)) for c in coeffs],
                    "pinned": [int(j) for j in self.root[3]],
                    "nodes": [
                        {"weights": {str(i): _fraction_text(f) for i, f in enumerate(_weights(q))}}
                    ],
                },
                int(floor_b),
            )
        return (
            {
                "method": "lp-dual",
                "elements": [list(map(int, c)) for c in coeffs],
                "weights": [_fraction_text(f) for f in _weights(q)],
            },
            int(floor_b),
        )

    def _prove_tree(self, budget: float | None) -> None:
        n = self.board.states
        r = self.board.n_taps
        E = KernelElements.build(self.H, self.orders, n, r)
        groups = TapGroups(self.H, r)
        deadline = None if budget is None else time.perf_counter() + budget
        out = lp_tree(
            E,
            groups,
            n,
            self.upper,
            self.pinned,
            deadline=deadline,
            max_nodes=None if budget is not None else TREE_NODES_MAX,
        )
        if out is None:
            self.tree_failed = budget is None
            return
        self.tree = out

    def build(self, budget: float | None = None) -> dict:
        """The certificate (a new JSON-safe dict). ``budget``: seconds for the tree
        when one is needed (None: at most ``TREE_NODES_MAX`` nodes); when it does not
        close, the upper bound is the root's (``lp-dual``), so ``upper`` may be above
        the search's."""
        upper_bound, upper = self._upper_bound(budget)
        proof = self.proof
        H, orders = self.H, self.orders
        if proof is not None and "generators" in proof:
            H, orders, proof, upper_bound = _reexpress(self, proof, upper_bound)
        cert = {
            "format": "modlights-certificate",
            "version": 1,
            "kind": "hardest",
            "board": self.board.to_dict(),
            "kernel": {
                "generators": H.astype(int).tolist() if hasattr(H, "astype") else H,
                "orders": list(orders),
            },
            "lower": self.length,
            "upper": max(upper, self.length),
            "witness": {
                "rhs": list(self.rhs),
                "taps": list(self.taps),
                "length": self.length,
                "proof": copy.deepcopy(proof) if proof is not None else None,
            },
            "upper_bound": upper_bound,
        }
        return cert


def _reexpress(data: CertificateData, proof: dict, upper_bound: dict):
    """The witness's proof lists its own generators (a reordering of the kernel's):
    the certificate's kernel becomes those, and the upper bound's element
    coefficients are permuted to match. When they are another basis of ker A, the
    kernel stays ``data.H`` and the proof keeps its generators (the checker checks a
    proof's own generators as a kernel, docs/certificates.md)."""
    G = np.asarray(proof["generators"], dtype=np.int64)
    orders = [int(o) for o in proof["orders"]]
    old = data.H.astype(np.int64)
    perm = []
    for row in G:
        hit = [i for i in range(len(old)) if i not in perm and np.array_equal(old[i], row)]
        if not hit:  # another basis (the transform search's): the proof keeps its own
            return data.H.astype(int).tolist(), list(data.orders), proof, upper_bound
        perm.append(hit[0])
    proof = {k: v for k, v in proof.items() if k not in ("generators", "orders")}
    ub = copy.deepcopy(upper_bound)
    ub["elements"] = [[int(e[i]) for i in perm] for e in ub["elements"]]
    return G.astype(int).tolist(), orders, proof, ub
