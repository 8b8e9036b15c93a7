"""search/verify/ (the package), the certificate checker, against brute force and tampering.

Certificates are built here from the brute-force oracle (every tap vector of a tiny
board), from the Solver, and by hand (trees, symmetries, LP duals): the checker must
accept exactly the true claims. Each tampering of docs/certificates.md is rejected
with the step that fails. Deterministic: boards and states from fixed seeds."""

from __future__ import annotations

import ast
import copy
import itertools
import json
import os
import pathlib
import random
import subprocess
import sys

import numpy as np
import pytest
from verify_certs import BOARDS, kernel_of, minimal_cert, rejects

import modlights as ml
from modlights.search import verify as V
from modlights.search.verify import algebra as VA
from oracle import BruteForce, all_tap_vectors, group_closure_size


# ------------------------------------------------------------------ the import rule
def test_verify_imports_nothing_of_modlights():
    """The checker may not use the code it checks: no modlights import at all (it reads
    the board from the certificate's dict itself), numpy and the standard library only,
    its package's own modules by relative import, and no import by name at run time.
    Every module of the package (search/verify/*.py) is held to this."""
    package = pathlib.Path(V.__file__).parent
    files = sorted(package.glob("*.py"))
    assert {f.name for f in files} >= {
        "__init__.py",
        "data.py",
        "work.py",
        "algebra.py",
        "claims.py",
    }
    siblings = {f.stem for f in files if f.name != "__init__.py"}
    mods = set()
    for f in files:
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    assert node.level == 1 and node.module in siblings, (f.name, node.module)
                else:
                    mods.add(node.module)
            elif isinstance(node, ast.Import):
                mods.update(a.name for a in node.names)
            elif isinstance(node, ast.Name):
                assert node.id not in ("__import__", "importlib"), (f.name, node.id)
    assert mods <= {
        "__future__",
        "itertools",
        "re",
        "collections.abc",
        "fractions",
        "math",
        "typing",
        "numpy",
    }, mods


def test_verify_runs_without_modlights(tmp_path):
    """The verify package loaded from its files alone, in a process that never imports modlights,
    checks certificates of every kind (grid, mixed, graph board; minimal, hardest) and
    rejects a bad one; modlights is still not imported at the end."""
    b = ml.Board.grid(
        3,
        4,
        states=3,
        pattern=[["cross", "knight", [[0, 0]], "square"]] * 3,
        locked=[(0, 0)],
        holes=[(2, 3)],
        wrap=True,
    )
    g = ml.Board.from_effects([[0, 1], [1, 2], [2, 0], [0]], 4, n_cells=3)
    certs = [
        ml.Solver(b).solve(b.random_state(rng=1)).certificate(),
        ml.Solver(g).solve(g.random_state(rng=2)).certificate(),
        ml.Solver(ml.Board.grid(3, 3)).hardest().certificate(),
    ]
    bad = copy.deepcopy(certs[0])
    bad["board"]["holes"] = [[5, 5]]
    path = tmp_path / "certs.json"
    path.write_text(json.dumps({"good": certs, "bad": bad}))
    code = (
        "import importlib.util, json, sys\n"
        "import os\n"
        "spec = importlib.util.spec_from_file_location(\n"
        "    'checker', sys.argv[1], submodule_search_locations=[os.path.dirname(sys.argv[1])]\n"
        ")\n"
        "V = importlib.util.module_from_spec(spec)\n"
        "sys.modules['checker'] = V\n"
        "spec.loader.exec_module(V)\n"
        "docs = json.load(open(sys.argv[2]))\n"
        "print([V.verify(c) for c in docs['good']])\n"
        "try:\n"
        "    V.verify(docs['bad'])\n"
        "except ValueError as e:\n"
        "    print(e)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'modlights'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, V.__file__, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "[True, True, True]",
        "holes (5, 5) is off the board: rows 0..2, cols 0..3",
        "[]",
    ], out.stdout


# ------------------------------------------------------------------ kernel sizes
@pytest.mark.parametrize("seed", range(40))
def test_kernel_and_span_sizes_match_brute_force(seed):
    """|ker A| and the size of a generated subgroup by elimination mod p^e, against
    counting every tap vector and a closure by search."""
    b = BOARDS[seed]
    n = b.states
    A = V._Matrix(V._read_board(b.to_dict()))
    bf = BruteForce(b.matrix(), n)
    logs = {p: V._log_kernel(A, p, e) for p, e in V._prime_powers(n)}
    assert np.prod([p**v for p, v in logs.items()], dtype=object) == bf.kernel_size()
    rng = np.random.default_rng(seed)
    H = rng.integers(0, n, size=(int(rng.integers(0, 4)), b.n_taps))
    if rng.random() < 0.5 and len(H):  # multiples: non-unit entries
        H = H * int(rng.choice([d for d in range(1, n + 1) if n % d == 0])) % n
    span = np.prod([p ** V._log_span(H, p, e) for p, e in V._prime_powers(n)], dtype=object)
    assert span == group_closure_size(H, n)


def test_solve_mod_prime_powers_against_brute_force():
    rng = np.random.default_rng(5)
    for n in (2, 4, 8, 9, 3, 6, 12):
        for _ in range(20):
            M = rng.integers(0, n, size=(3, 3))
            X = all_tap_vectors(3, n)
            images = {tuple(v) for v in (X @ M.T) % n}
            z = rng.integers(0, n, size=3)
            ok = tuple(z) in images
            for p, e in V._prime_powers(n):
                q = p**e
                Xs = V._solve(M % q, (z % q)[:, None], p, e)
                if ok:
                    assert Xs is not None and not ((M @ Xs[:, 0] - z) % q).any()
            if not ok:
                assert any(
                    V._solve(M % p**e, (z % p**e)[:, None], p, e) is None
                    for p, e in V._prime_powers(n)
                )


# ------------------------------------------------------------------ minimal claims
@pytest.mark.parametrize("seed", range(40))
def test_enumeration_accepts_exactly_the_minimal_solutions(seed):
    """For a few right-hand sides, every solution y of A y = b with an enumeration
    proof: accepted iff sum(y) is the brute-force minimum."""
    b = BOARDS[seed]
    n = b.states
    bf = BruteForce(b.matrix(), n)
    H, orders = kernel_of(b)
    rng = np.random.default_rng(seed)
    for x in bf.X[rng.choice(len(bf.X), size=min(3, len(bf.X)), replace=False)]:
        sols = bf.solutions((bf.A @ x) % n)
        best = int(sols.sum(axis=1).min())
        for y in sols[rng.choice(len(sols), size=min(6, len(sols)), replace=False)]:
            cert = json.loads(json.dumps(minimal_cert(b, y, H=H, orders=orders)))
            if int(y.sum()) == best:
                assert V.verify(cert) is True
            else:
                rejects(cert, "enumeration", f"{best} <")


@pytest.mark.parametrize("seed", range(40))
def test_solution_certificates_hold(seed):
    """sol.certificate() of the Solver's minimal solutions: accepted, and the length
    is the brute-force minimum."""
    b = BOARDS[seed]
    rng = np.random.default_rng(1000 + seed)
    sol = ml.Solver(b).solve(b.random_state(rng=rng))
    cert = json.loads(json.dumps(sol.certificate()))
    assert V.verify(cert) is True
    bf = BruteForce(b.matrix(), b.states)
    assert cert["length"] == bf.min_length(cert["rhs"])


def nontrivial(min_kernel: int = 4):
    return [b for b in BOARDS if ml.Solver(b).kernel_size >= min_kernel]


def test_some_boards_have_large_kernels():
    assert len(nontrivial()) >= 6
    assert {b.states for b in nontrivial(2)} >= {2, 3, 4}


@pytest.mark.parametrize("idx", range(6))
def test_tampering_is_rejected(idx):
    """One flipped entry in taps / rhs / a generator, a wrong order, a dropped or a
    repeated generator, a length one too small: each rejected with its step."""
    b = nontrivial()[idx]
    n = b.states
    sol = ml.Solver(b).solve(b.random_state(rng=idx))
    good = sol.certificate()
    assert V.verify(good)
    rng = random.Random(idx)

    c = copy.deepcopy(good)
    cols = np.flatnonzero(b.matrix().any(axis=0))  # a tap that changes some cell
    tap = j = int(cols[rng.randrange(len(cols))])
    c["taps"][j] = (c["taps"][j] + 1) % n
    c["length"] = sum(c["taps"])
    rejects(c, "do not solve")
    c["length"] -= 1  # length no longer the sum
    rejects(c, "length")
    c = copy.deepcopy(good)
    j = rng.randrange(len(c["rhs"])) if c["rhs"] else None
    if j is not None:
        c["rhs"][j] = (c["rhs"][j] + 1) % n
        rejects(c, "do not solve")
    c = copy.deepcopy(good)
    g = c["kernel"]["generators"][0]
    g[tap] = (g[tap] + 1) % n  # column tap of A is not zero
    rejects(c, "kernel generator 0 is not in ker A")
    c = copy.deepcopy(good)
    c["kernel"]["orders"][0] = n if c["kernel"]["orders"][0] != n else 1
    rejects(c, "order")
    c = copy.deepcopy(good)
    del c["kernel"]["generators"][-1], c["kernel"]["orders"][-1]
    rejects(c, "incomplete")
    c = copy.deepcopy(good)
    c["kernel"]["generators"].append(c["kernel"]["generators"][0])
    c["kernel"]["orders"].append(c["kernel"]["orders"][0])
    rejects(c, "not independent")
    c = copy.deepcopy(good)
    c["length"] -= 1
    rejects(c, "length")


def test_another_basis_of_the_kernel_is_accepted():
    """The checker does not depend on the Solver's basis: h_0 + h_1, h_1, ... (n = 2)."""
    for b in [b for b in nontrivial() if b.states == 2][:3]:
        sol = ml.Solver(b).solve(b.random_state(rng=3))
        c = sol.certificate()
        g = c["kernel"]["generators"]
        if len(g) < 2:
            continue
        g[0] = [(u + v) % 2 for u, v in zip(g[0], g[1])]
        assert V.verify(c)


def test_a_proof_with_its_own_generators():
    """A proof that carries "generators"/"orders" is checked against them (reversed
    here), as a kernel of its own."""
    b = nontrivial()[0]
    c = ml.Solver(b).solve(b.random_state(rng=4)).certificate()
    c["proof"] = {
        "method": "enumeration",
        "generators": c["kernel"]["generators"][::-1],
        "orders": c["kernel"]["orders"][::-1],
    }
    assert V.verify(c)
    c["proof"]["generators"] = c["proof"]["generators"][1:]
    c["proof"]["orders"] = c["proof"]["orders"][1:]
    rejects(c, "proof kernel is incomplete")


# ------------------------------------------------------------------ trees
def group_bound(y, Hfree, n):
    """The pruned-prefix bound written plainly: taps grouped by their column."""
    groups = {}
    for j in range(len(y)):
        groups.setdefault(tuple(int(h[j]) for h in Hfree), []).append(int(y[j]))
    total = 0
    for key, ys in groups.items():
        if not any(key):
            total += sum(ys)
        else:
            total += min(sum((v + s) % n for v in ys) for s in range(n))
    return total


def tree_proof(x, H, orders, n, m, rng, L):
    """A tree proof with leaf_dim m: each prefix (random depth) whose plain bound is
    >= L is pruned with probability 1/2."""
    k = len(orders)
    pruned = []
    for d in range(0, k - m + 1):
        for P in itertools.product(*[range(orders[k - 1 - t]) for t in range(d)]):
            y = x.copy()
            for t, c in enumerate(P):
                y = (y + c * H[k - 1 - t]) % n
            if rng.random() < 0.5 and group_bound(y, H[: k - d], n) >= L:
                pruned.append(list(P))
    return {"method": "tree", "leaf_dim": m, "pruned": pruned}


@pytest.mark.parametrize("idx", range(8))
def test_tree_proofs_accept_exactly_the_true_claims(idx):
    """Random trees (every leaf_dim) over the minimal solution: accepted; the same
    trees for a solution one or more taps longer: rejected."""
    b = nontrivial(2)[idx % len(nontrivial(2))]
    n = b.states
    H, orders = kernel_of(b)
    H = H.astype(np.int64)
    rng = random.Random(idx)
    bf = BruteForce(b.matrix(), n)
    x0 = bf.X[rng.randrange(len(bf.X))]
    sols = bf.solutions((bf.A @ x0) % n)
    lens = sols.sum(axis=1)
    best = sols[int(np.argmin(lens))]
    for m in range(len(orders) + 1):
        proof = tree_proof(best, H, orders, n, m, rng, int(best.sum()))
        assert V.verify(minimal_cert(b, best, proof, H, orders))
        if lens.max() > lens.min():
            worse = sols[int(np.argmax(lens))]
            proof = tree_proof(worse, H, orders, n, m, rng, int(worse.sum()))
            rejects(minimal_cert(b, worse, proof, H, orders))


def test_altered_pruned_prefix_is_rejected():
    """A pruned prefix whose bound is below the length: rejected, naming it."""
    for b in nontrivial(4):
        n = b.states
        H, orders = kernel_of(b)
        H = H.astype(np.int64)
        sol = ml.Solver(b).solve(b.random_state(rng=2))
        x = b.tap_vector(sol.taps).astype(np.int64)
        k = len(orders)
        weak = [
            [c]
            for c in range(orders[-1])
            if group_bound((x + c * H[-1]) % n, H[: k - 1], n) < sol.length
        ]
        if weak:
            cert = minimal_cert(
                b, x, {"method": "tree", "leaf_dim": 0, "pruned": weak[:1]}, H, orders
            )
            rejects(cert, f"pruned prefix {weak[0]} has bound", f"< length {sol.length}")
            return
    pytest.fail("no board with a weak prefix")


def test_tree_shape_errors():
    b = nontrivial(4)[0]
    H, orders = kernel_of(b)
    sol = ml.Solver(b).solve(b.random_state(rng=2))
    x = b.tap_vector(sol.taps)
    k = len(orders)
    for proof, words in [
        ({"method": "tree", "leaf_dim": k + 1}, ["leaf_dim"]),
        ({"method": "tree", "leaf_dim": 0, "pruned": [[orders[-1]]]}, ["entry 0"]),
        ({"method": "tree", "leaf_dim": k, "pruned": [[0]]}, ["at most 0"]),
        ({"method": "tree", "leaf_dim": 0, "pruned": "x"}, ["list"]),
        ({"method": "bogus"}, ["unknown"]),
    ]:
        rejects(minimal_cert(b, x, proof, H, orders), *words)


# ------------------------------------------------------------------ symmetries
def sym_board_cert(n=2, wrap=False, size=4, seed=0):
    """A square grid, a rhs invariant under its symmetries, the minimal solution."""
    b = ml.Board.grid(size, size, states=n, wrap=wrap)
    s = ml.Solver(b)
    sol = s.solve(np.zeros((size, size), dtype=np.uint8), 1)  # all-on: symmetric
    return b, s, sol


def grid_perm(size, f):
    """The permutation of tile indices of a size x size grid for the map f(r, c)."""
    out = np.empty(size * size, dtype=np.int64)
    for r in range(size):
        for c in range(size):
            rr, cc = f(r, c)
            out[r * size + c] = rr * size + cc
    return out.tolist()


def dihedral(size):
    s = size - 1
    maps = [
        lambda r, c: (r, s - c),
        lambda r, c: (s - r, c),
        lambda r, c: (c, r),
        lambda r, c: (s - c, s - r),
        lambda r, c: (c, s - r),
        lambda r, c: (s - r, s - c),
        lambda r, c: (s - c, r),
    ]
    return [{"cells": grid_perm(size, f), "taps": grid_perm(size, f)} for f in maps]


@pytest.mark.parametrize("n,size", [(2, 4), (2, 5), (3, 4), (4, 4), (6, 4), (5, 5)])
def test_symmetric_tree_is_accepted_and_checks_fewer_leaves(n, size):
    b, s, sol = sym_board_cert(n, size=size)
    if s.kernel_size == 1:
        pytest.skip("trivial kernel")
    base = sol.certificate()
    cert = copy.deepcopy(base)
    cert["proof"] = {"method": "tree", "leaf_dim": 0, "pruned": [], "symmetries": dihedral(size)}
    out = V.summary(cert)
    assert "mapped by symmetries" in out
    checked = int(out.split(" leaves checked")[0].rsplit(" ", 1)[1])
    assert checked < s.kernel_size


def test_symmetry_that_is_no_automorphism_or_moves_b_is_rejected():
    b, s, sol = sym_board_cert(2, size=5)
    cert = sol.certificate()
    sym = dihedral(5)[0]
    bad = copy.deepcopy(sym)
    bad["taps"] = list(range(25))  # cells moved, taps not: not A's
    cert["proof"] = {"method": "tree", "leaf_dim": 0, "symmetries": [bad]}
    rejects(cert, "automorphism")
    cert["proof"]["symmetries"] = [{"cells": [0] * 25, "taps": list(range(25))}]
    rejects(cert, "permutations")
    # a rhs that is not symmetric: the reflection no longer preserves it
    state = b.press(np.zeros((5, 5), dtype=np.uint8), (0, 1))  # solvable, asymmetric
    c2 = s.solve(state).certificate()
    c2["proof"] = {"method": "tree", "leaf_dim": 0, "symmetries": [sym]}
    rejects(c2, "rhs")


def test_symmetry_not_preserving_the_leaf_span_is_rejected():
    """leaf_dim m > 0: the reflection must map span(h_0..h_{m-1}) into itself."""
    for size in (4, 5, 6, 9):
        b, s, sol = sym_board_cert(2, size=size)
        if s.nullity < 2:
            continue
        H = s.kernel()
        for sym in dihedral(size):
            tau = np.array(sym["taps"])
            moved = np.empty_like(H[0])
            moved[tau] = H[0]
            if not np.array_equal(moved, H[0]):  # h_0 not fixed: span(h_0) not kept
                cert = sol.certificate()
                cert["proof"] = {"method": "tree", "leaf_dim": 1, "symmetries": [sym]}
                rejects(cert, "span")
                return
    pytest.fail("no reflection moving h_0")


def test_symmetries_do_not_hide_a_false_claim():
    """A non-minimal solution with every symmetry listed: still rejected."""
    for size in (4, 6, 9):
        b, s, sol = sym_board_cert(2, size=size)
        H, orders = s.kernel().astype(np.int64), s.kernel_orders
        x = b.tap_vector(sol.taps).astype(np.int64)
        coset = [(x + np.asarray(c) @ H) % 2 for c in itertools.product((0, 1), repeat=len(orders))]
        worse = max(coset, key=lambda v: int(v.sum()))
        if worse.sum() > x.sum():
            ident = list(range(size * size))  # fixes every leaf: maps none lower
            syms = dihedral(size) + [{"cells": ident, "taps": ident}]
            cert = minimal_cert(
                b, worse, {"method": "tree", "leaf_dim": 0, "symmetries": syms}, H, orders
            )
            rejects(cert, "leaf")
            return
    pytest.fail("no board with solutions of different lengths")


def test_torus_translations():
    size = 5
    b, s, sol = sym_board_cert(3, wrap=True, size=size)
    shifts = [
        {
            "cells": grid_perm(size, lambda r, c, a=a, d=d: ((r + a) % size, (c + d) % size)),
            "taps": grid_perm(size, lambda r, c, a=a, d=d: ((r + a) % size, (c + d) % size)),
        }
        for a in range(size)
        for d in range(size)
        if a or d
    ]
    cert = sol.certificate()
    if s.kernel_size == 1:
        pytest.skip("trivial kernel")
    cert["proof"] = {"method": "tree", "leaf_dim": 0, "symmetries": shifts}
    assert V.verify(cert)


# ------------------------------------------------------------------ the coset walk
@pytest.mark.parametrize("n", [2, 3, 4, 6])
@pytest.mark.parametrize("small_blocks", [False, True])
def test_coset_min_against_plain_enumeration(monkeypatch, n, small_blocks):
    """The walk (transform blocks for n = 2, vector blocks otherwise, and the outer
    loop when blocks are made tiny) gives the least length of plain enumeration."""
    if small_blocks:
        monkeypatch.setattr(VA, "WHT_DIM", 2)
        monkeypatch.setattr(VA, "CHUNK_ENTRIES", 16)
    rng = np.random.default_rng(n)
    for _ in range(60):
        k, r = int(rng.integers(0, 6)), int(rng.integers(0, 10))
        orders = [int(rng.choice([d for d in range(2, n + 1) if n % d == 0])) for _ in range(k)]
        H = np.array(
            [rng.integers(0, o, size=r) * (n // o) for o in orders], dtype=np.int64
        ).reshape(k, r)
        y = rng.integers(0, n, size=r)
        best = min(
            int(((y + np.asarray(c, dtype=np.int64) @ H) % n).sum())
            for c in itertools.product(*[range(o) for o in orders])
        )
        assert V._coset_min(y, H, orders, n) == best
