"""The C library's certificate checker (csrc/verify: ml_verify_json, bound for tests as
``_core.verify_json``) against Python's ``modlights.verify`` (with ``max_work=None``: the
C checker has no work bound): for the golden certificates of js/test/golden/verify.json,
for certificates of random boards (every named pattern and custom offsets, n in 2..9,
locks, holes, wrap, mixed maps, graph boards; enumeration and tree proofs with pruned
prefixes and symmetries; hardest certificates with lp-dual and lp-tree bounds), for
copies with every step of the check made to fail once, and for copies with a value
replaced by junk: the same verdict, the same summary or message, and "not a
certificate" (ML_M_CERT_FORMAT) exactly where Python raises FormatError. Deterministic
(fixed seeds); the many-certificate sweeps are in the matrix group."""

from __future__ import annotations

import copy
import json
import pathlib
import random

import numpy as np
import pytest
from verify_certs import BOARDS, minimal_cert

import modlights as ml
from modlights.native import _core
from modlights.search import verify as V

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "js" / "test" / "golden" / "verify.json").read_text())["cases"]


def verdicts(cert) -> tuple[tuple, tuple]:
    """(C's answer, Python's) as (True, summary) or (False, message id, message)."""
    got = _core.verify_json(json.dumps(cert))
    try:
        want: tuple = (True, V.summary(cert, max_work=None))
    except V.FormatError as e:
        want = (False, "ML_M_CERT_FORMAT", str(e))
    except ValueError as e:
        want = (False, "ML_M_CERT_INVALID", str(e))
    return got, want


def same(cert, what=""):
    got, want = verdicts(cert)
    assert got == want, what
    return got


# ------------------------------------------------------------------ certificates
def solution_certs(seed: int, count: int) -> list:
    """Solution certificates (sol.certificate()) of random states on the boards of
    verify_certs and a few larger ones (trees for larger kernels)."""
    rng = np.random.default_rng(seed)
    boards = list(BOARDS) + [
        ml.Board.grid(5, 5),
        ml.Board.grid(4, 4, states=6, wrap=True),
        ml.Board.grid(3, 5, states=8, pattern="knight", holes=[(1, 2)], locked=[(0, 0)]),
        ml.Board.grid(6, 6, states=7, pattern="diagonal"),
        ml.Board.grid(4, 3, states=9, pattern=[["cross", "square", "knight"]] * 4),
        ml.Board.grid(9, 9),
        ml.Board.grid(2, 7, states=5, wrap=True, pattern="vertical"),
    ]
    out = []
    for i in range(count):
        b = boards[int(rng.integers(len(boards)))] if i >= len(boards) else boards[i]
        sol = ml.Solver(b).solve(b.random_state(rng), minimal=True)
        out.append(json.loads(json.dumps(sol.certificate())))
    return out


def tree_certs() -> list:
    """Tree proofs with symmetries (the dihedral group of a square, translations of a
    torus) and with a pruned prefix."""
    out = []
    for n, size, wrap in [
        (2, 4, False),
        (3, 4, False),
        (4, 4, False),
        (6, 4, False),
        (3, 5, True),
        (2, 5, False),
    ]:
        b = ml.Board.grid(size, size, states=n, wrap=wrap)
        sol = ml.Solver(b).solve(np.zeros((size, size), dtype=np.uint8), 1)
        cert = json.loads(json.dumps(sol.certificate()))
        k = len(cert["kernel"]["orders"])
        s = size - 1
        if wrap:
            maps = [lambda r, c, m=size: ((r + 1) % m, c), lambda r, c, m=size: (r, (c + 2) % m)]
        else:
            maps = [lambda r, c, s=s: (r, s - c), lambda r, c, s=s: (s - r, c), lambda r, c: (c, r)]
        cells = [
            [rr * size + cc for r in range(size) for c in range(size) for rr, cc in [f(r, c)]]
            for f in maps
        ]
        syms = [{"cells": p, "taps": p} for p in cells]
        cert["proof"] = {"method": "tree", "leaf_dim": min(1, k), "pruned": [], "symmetries": syms}
        out.append(cert)
        tree = copy.deepcopy(cert)
        tree["proof"] = {"method": "tree", "leaf_dim": 0, "pruned": [[0], [0]][: min(1, k)]}
        out.append(tree)
    return out


def hardest_certs() -> list:
    out = []
    for rows, cols, kw in [
        (3, 3, {}),
        (4, 4, {}),
        (5, 5, {}),
        (3, 3, {"states": 3}),
        (4, 4, {"states": 4, "wrap": True}),
        (2, 3, {"states": 5}),
    ]:
        h = ml.Solver(ml.Board.grid(rows, cols, **kw)).hardest()
        out.append(json.loads(json.dumps(h.certificate())))
    return out


# ------------------------------------------------------------------ every step made to fail
def _claim(c):
    return c["witness"] if c["kind"] == "hardest" else c


def _proof(c):
    return _claim(c)["proof"]


#: (label, change): each makes one step of the check fail on the certificates it fits.
STEPS = [
    ("not a dict", lambda c: [c]),
    ("format", lambda c: c.__setitem__("format", None)),
    ("version", lambda c: c.__setitem__("version", "1")),
    ("version 1.0 is 1", lambda c: c.__setitem__("version", 1.0)),
    ("kind", lambda c: c.__setitem__("kind", ["minimal"])),
    ("no board", lambda c: c.pop("board")),
    ("board unknown field", lambda c: c["board"].__setitem__("colour", 1)),
    ("rows bool", lambda c: c["board"].__setitem__("rows", True)),
    ("rows str", lambda c: c["board"].__setitem__("rows", "3")),
    ("rows 0", lambda c: c["board"].__setitem__("rows", 0)),
    ("too large", lambda c: c["board"].update(rows=1 << 20, cols=1 << 20)),
    ("states null", lambda c: c["board"].__setitem__("states", None)),
    ("wrap 1", lambda c: c["board"].__setitem__("wrap", 1)),
    ("pattern name", lambda c: c["board"].__setitem__("pattern", " Knight ")),
    ("pattern unknown", lambda c: c["board"].__setitem__("pattern", "nope")),
    ("pattern type", lambda c: c["board"].__setitem__("pattern", 7)),
    ("pattern pair", lambda c: c["board"].__setitem__("pattern", [[0, 0, 1]])),
    ("pattern reach", lambda c: c["board"].__setitem__("pattern", [[0, 2000]])),
    ("pattern big", lambda c: c["board"].__setitem__("pattern", [[0, 10**30]])),
    (
        "mixed row",
        lambda c: c["board"].__setitem__(
            "pattern", [["cross"] * c["board"]["cols"]] * (c["board"]["rows"] - 1) + [["cross"]]
        ),
    ),
    ("locked type", lambda c: c["board"].__setitem__("locked", "all")),
    ("locked pair", lambda c: c["board"].__setitem__("locked", [[0]])),
    ("locked off", lambda c: c["board"].__setitem__("locked", [[0, -1]])),
    ("locked mask", lambda c: c["board"].__setitem__("locked", [[True, False]])),
    ("locked and hole", lambda c: c["board"].update(locked=[[0, 0]], holes=[[0, 0]])),
    ("effects entry", lambda c: c["board"]["effects"][0].append("a")),
    ("effects range", lambda c: c["board"].__setitem__("n_cells", 0)),
    ("effects big", lambda c: c["board"]["effects"][0].append(-(2**40))),
    ("no kernel", lambda c: c.pop("kernel")),
    ("generators type", lambda c: c["kernel"].__setitem__("generators", {})),
    ("generators count", lambda c: c["kernel"]["orders"].append(2)),
    ("generator length", lambda c: c["kernel"]["generators"][0].append(0)),
    ("generator entry", lambda c: c["kernel"]["generators"][0].__setitem__(0, 0.5)),
    ("generator range", lambda c: c["kernel"]["generators"][0].__setitem__(0, 300)),
    ("order 0", lambda c: c["kernel"]["orders"].__setitem__(0, 0)),
    ("order wrong", lambda c: c["kernel"]["orders"].__setitem__(0, 1)),
    (
        "not in ker",
        lambda c: c["kernel"]["generators"][0].__setitem__(
            0, (c["kernel"]["generators"][0][0] + 1) % c["board"]["states"]
        ),
    ),
    (
        "dependent",
        lambda c: (
            c["kernel"]["generators"].append(c["kernel"]["generators"][0]),
            c["kernel"]["orders"].append(c["kernel"]["orders"][0]),
        ),
    ),
    ("incomplete", lambda c: (c["kernel"]["generators"].pop(), c["kernel"]["orders"].pop())),
    ("rhs length", lambda c: _claim(c)["rhs"].append(0)),
    ("taps range", lambda c: _claim(c)["taps"].__setitem__(0, -1)),
    ("length type", lambda c: _claim(c).__setitem__("length", "9")),
    ("length big", lambda c: _claim(c).__setitem__("length", 10**25)),
    ("length sum", lambda c: _claim(c).__setitem__("length", _claim(c)["length"] + 1)),
    (
        "rhs changed",
        lambda c: _claim(c)["rhs"].__setitem__(0, (_claim(c)["rhs"][0] + 1) % c["board"]["states"]),
    ),
    ("no proof", lambda c: _claim(c).pop("proof")),
    ("proof type", lambda c: _claim(c).__setitem__("proof", "enumeration")),
    ("method", lambda c: _proof(c).__setitem__("method", None)),
    ("own kernel", lambda c: _proof(c).update(generators=[], orders=[])),
    ("leaf_dim", lambda c: _proof(c).__setitem__("leaf_dim", -1)),
    ("pruned type", lambda c: _proof(c).__setitem__("pruned", {})),
    ("pruned long", lambda c: _proof(c).__setitem__("pruned", [[0] * 99])),
    ("pruned entry", lambda c: _proof(c).__setitem__("pruned", [[99]])),
    ("pruned bound", lambda c: _proof(c).__setitem__("pruned", [[]])),
    ("symmetries type", lambda c: _proof(c).__setitem__("symmetries", {})),
    ("symmetry perm", lambda c: _proof(c)["symmetries"][0]["cells"].__setitem__(0, 1)),
    (
        "symmetry automorphism",
        lambda c: _proof(c)["symmetries"][0].__setitem__(
            "taps", list(range(len(_claim(c)["taps"])))
        ),
    ),
    (
        "symmetry rhs",
        lambda c: (
            _claim(c)["rhs"].__setitem__(0, 0)
            or _claim(c).__setitem__("rhs", [1] + [0] * (len(_claim(c)["rhs"]) - 1))
        ),
    ),
    ("lower type", lambda c: c.__setitem__("lower", None)),
    ("lower > upper", lambda c: c.__setitem__("lower", c["upper"] + 1)),
    ("witness type", lambda c: c.__setitem__("witness", [])),
    ("witness length", lambda c: c.__setitem__("lower", c["lower"] - 1)),
    ("upper type", lambda c: c.__setitem__("upper_bound", None)),
    ("upper method", lambda c: c["upper_bound"].__setitem__("method", "lp")),
    ("elements empty", lambda c: c["upper_bound"].__setitem__("elements", [])),
    ("element length", lambda c: c["upper_bound"]["elements"][0].append(0)),
    (
        "element range",
        lambda c: (
            c["upper_bound"]["elements"][0].__setitem__(0, 99)
            if c["upper_bound"]["elements"][0]
            else c["upper_bound"].__setitem__("elements", [[1]])
        ),
    ),
    ("weights count", lambda c: c["upper_bound"]["weights"].append("0")),
    ("weights type", lambda c: c["upper_bound"].__setitem__("weights", "1")),
    ("weight text", lambda c: c["upper_bound"]["weights"].__setitem__(0, "1/2/3")),
    ("weight zero den", lambda c: c["upper_bound"]["weights"].__setitem__(0, "1/0")),
    ("weight negative", lambda c: c["upper_bound"]["weights"].__setitem__(0, "-1/3")),
    (
        "weights sum",
        lambda c: c["upper_bound"].__setitem__(
            "weights", ["1/3"] * len(c["upper_bound"]["weights"])
        ),
    ),
    (
        "weights dict",
        lambda c: c["upper_bound"].__setitem__(
            "weights", {str(i): w for i, w in enumerate(c["upper_bound"]["weights"])}
        ),
    ),
    ("weights key", lambda c: c["upper_bound"].__setitem__("weights", {"x": "1"})),
    (
        "weights big",
        lambda c: c["upper_bound"].__setitem__(
            "weights", [f"{10**50}/{10**50}"] + ["0"] * (len(c["upper_bound"]["weights"]) - 1)
        ),
    ),
    ("upper - 1", lambda c: c.update(upper=c["upper"] - 1, lower=c["upper"] - 1)),
    ("pinned dup", lambda c: c["upper_bound"].__setitem__("pinned", [0, 0])),
    ("pinned range", lambda c: c["upper_bound"].__setitem__("pinned", [10**6])),
    (
        "pinned onto",
        lambda c: c["upper_bound"].__setitem__("pinned", list(range(len(c["witness"]["taps"])))),
    ),
    ("nodes type", lambda c: c["upper_bound"].__setitem__("nodes", {})),
    ("nodes early", lambda c: c["upper_bound"]["nodes"].pop()),
    ("nodes after", lambda c: c["upper_bound"]["nodes"].append({"branch": 0})),
    (
        "branch fixed",
        lambda c: (
            c["upper_bound"]["nodes"].insert(0, {"branch": 0})
            if not c["upper_bound"]["pinned"]
            else c["upper_bound"]["nodes"].insert(0, {"branch": c["upper_bound"]["pinned"][0]})
        ),
    ),
    ("node weights", lambda c: c["upper_bound"]["nodes"].__setitem__(-1, {"w": 1})),
    ("lower above upper", lambda c: c.__setitem__("lower", c["upper"] + 1)),
    ("upper sum", lambda c: (c["lower_bound"], c.__setitem__("upper", c["upper"] + 1))),
    ("no lower_bound", lambda c: c.pop("lower_bound")),
    ("cover method", lambda c: c["lower_bound"].__setitem__("method", "lp")),
    ("cover denominator", lambda c: c["lower_bound"].__setitem__("denominator", 0)),
    ("cover weight", lambda c: c["lower_bound"]["weights"].__setitem__(0, -1)),
    (
        "cover idle cell",
        lambda c: c["lower_bound"]["weights"].__setitem__(c["rhs"].index(0), 1),
    ),
    (
        "cover column",
        lambda c: c["lower_bound"].__setitem__(
            "weights", [c["lower_bound"]["denominator"] if v else 0 for v in c["rhs"]]
        ),
    ),
    ("cover bound", lambda c: (c["lower_bound"], c.__setitem__("lower", c["lower"] + 1))),
    (
        "witness cover weight",
        lambda c: c["witness"]["lower_bound"]["weights"].__setitem__(0, -1),
    ),
    (
        "witness cover bound",
        lambda c: (c["witness"]["lower_bound"], c.__setitem__("lower", c["lower"] + 1)),
    ),
    ("witness cover method", lambda c: c["witness"]["lower_bound"].__setitem__("method", 1)),
]


def tampered(cert):
    for label, change in STEPS:
        c = copy.deepcopy(cert)
        try:
            out = change(c)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):
            continue
        if label == "not a dict":
            c = out
        yield label, c


def bounds_certs() -> list:
    """Kind "bounds" certificates (covering lower bounds) of random states, every
    pattern, n 2..9, locks, holes, wrap and a graph board."""
    from modlights.search.covering import bounds_certificate

    rng = np.random.default_rng(5)
    out = []
    for b in list(BOARDS) + [
        ml.Board.grid(6, 6),
        ml.Board.grid(4, 5, states=6, wrap=True, pattern="knight"),
        ml.Board.grid(5, 4, states=9, pattern="square", holes=[(1, 1)], locked=[(0, 2)]),
        ml.Board.grid(3, 7, states=7, pattern="diagonal"),
    ]:
        state = b.random_state(rng=rng)
        if not state.any():
            continue
        out.append(bounds_certificate(b, ml.Solver(b).solve(state, minimal=False).taps))
    return out


def covering_witness_certs() -> list:
    """Hardest certificates whose witness is a board's covering weights (the all-on
    board of the 4 x 4 and 5 x 5 crosses, a Z/3 square)."""
    from modlights.search.covering import covering_witness

    out = []
    for b in [
        ml.Board.grid(4, 4),
        ml.Board.grid(5, 5),
        ml.Board.grid(3, 4, states=3, pattern="square"),
    ]:
        h = json.loads(json.dumps(ml.Solver(b).hardest().certificate()))
        on = np.ones(b.shape, dtype=np.int64)
        cert = covering_witness({**h, "lower": 0}, b, ml.Solver(b).solve(on, minimal=False).taps)
        assert "lower_bound" in cert["witness"]
        out.append(cert)
    return out


def all_certs() -> list:
    return (
        solution_certs(3, 12)
        + tree_certs()
        + hardest_certs()
        + bounds_certs()
        + covering_witness_certs()
    )


# ------------------------------------------------------------------ the tests
@pytest.mark.parametrize("part", range(4))
def test_golden_certificates(part):
    """The 340 golden cases: C's verdict, summary and message are Python's."""
    for case in GOLDEN[part::4]:
        same(case["cert"], case["name"])


def test_every_step_made_to_fail():
    """Each certificate with each step of STEPS made to fail: the same verdict and
    message on both sides; every step fails somewhere (the tampering reaches it)."""
    failed: dict[str, int] = {label: 0 for label, _ in STEPS}
    for cert in all_certs():
        same(cert)
        for label, c in tampered(cert):
            if not same(c, label)[0]:
                failed[label] += 1
    never = [
        label
        for label, k in failed.items()
        if not k
        and label
        not in ("version 1.0 is 1", "pattern name", "weights dict", "weights big", "own kernel")
    ]
    assert not never, never


JUNK = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    255,
    256,
    10**20,
    -(10**20),
    0.5,
    1.0,
    "",
    "x",
    "1/2",
    "-0",
    "cross",
    [],
    [0],
    [[0, 1]],
    [0, 1, 2],
    {},
    {"0": "1"},
    {"branch": 0},
    {"method": "tree"},
]


def junked(rng: random.Random, cert):
    """A copy with one value somewhere replaced by junk."""
    c = copy.deepcopy(cert)
    node = c
    for _ in range(8):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = rng.choice(keys)
        child = node[key]
        if isinstance(child, (dict, list)) and child and rng.random() < 0.7:
            node = child
            continue
        node[key] = copy.deepcopy(rng.choice(JUNK))
        break
    return c


@pytest.mark.parametrize("seed", range(2))
def test_junk_values(seed):
    rng = random.Random(seed)
    certs = [c["cert"] for c in GOLDEN if c["ok"]]
    for _ in range(150):
        same(junked(rng, rng.choice(certs)))


def test_big_rationals_and_a_long_summary():
    """LP weights of 2,100-digit halves: the exact bound in the summary (Python's
    Fraction), longer than the binding's first buffer."""
    cert = copy.deepcopy(next(c["cert"] for c in GOLDEN if c["name"] == "hardest 5x5 {}"))
    D = 10**2100 + 7
    cert["upper_bound"]["weights"] = [f"{D + 4}/{4 * D}", f"{D - 4}/{4 * D}", "1/4", "1/4"]
    ok, text = same(cert)
    assert ok and len(text) > 4096


def test_a_json_text_that_is_not_json():
    ok, name, msg = _core.verify_json('{"format": ')
    assert (ok, name) == (False, "ML_M_JSON_SYNTAX")
    assert msg.startswith("certificate is not valid JSON")


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(6))
def test_many_certificates_and_junk(seed):
    """More solution certificates (random boards and states) with every step made to
    fail, and more junk."""
    rng = random.Random(100 + seed)
    for cert in solution_certs(100 + seed, 30):
        assert same(cert)[0]
        for label, c in tampered(cert):
            same(c, label)
        for _ in range(20):
            same(junked(rng, cert))


def test_a_certificate_of_a_board_read_by_hand():
    """A board the model builds from a dense matrix is a graph board in its dict: the
    C checker reads it from its effects (the certificate's own board)."""
    b = BOARDS[-3]
    cert = minimal_cert(b, np.zeros(b.n_taps, dtype=np.int64))
    assert same(cert)[0]


def test_claims_just_too_long_are_rejected():
    """A claim of the coset's second smallest length (the element just longer than the
    fewest): both checkers find the shorter element (enumeration), or the leaf that
    holds it (tree)."""
    import itertools

    count = 0
    for cert in solution_certs(5, 40):
        n, kernel = cert["board"]["states"], cert["kernel"]
        H, orders = kernel["generators"], kernel["orders"]
        if not H or np.prod(orders) > 4096:
            continue
        x = np.array(cert["taps"])
        ys = [
            (x + np.array(cs) @ np.array(H)) % n
            for cs in itertools.product(*[range(o) for o in orders])
        ]
        longer = [y for y in ys if int(y.sum()) > cert["length"]]
        if not longer:
            continue
        y = min(longer, key=lambda y: int(y.sum()))
        for proof in ({"method": "enumeration"}, {"method": "tree", "leaf_dim": 0}):
            c = copy.deepcopy(cert)
            c.update(taps=y.tolist(), length=int(y.sum()), proof=proof)
            got = same(c)
            assert not got[0] and f"{cert['length']} < {int(y.sum())}" in got[2], got
        count += 1
    assert count >= 3


def test_gf2_cosets_of_eight_generators_and_more_read_by_the_transform():
    """Enumeration proofs over 8 and 16 generators of order 2 (the C checker reads the
    coset through a Walsh-Hadamard transform from 8 on, Python's _Walk always): the
    same verdict and summary, and a length one short refused with the same message."""
    for k, state in [(9, None), (16, None), (19, None), (14, 3)]:
        b = ml.Board.grid(k, k)
        st = np.ones((k, k), dtype=np.int64) if state is None else b.random_state(rng=state)
        cert = json.loads(json.dumps(ml.Solver(b).solve(st).certificate()))
        assert cert["proof"]["method"] == "enumeration"
        assert same(cert)[0]
        taps = cert["taps"]
        heavier = copy.deepcopy(cert)
        gen = cert["kernel"]["generators"][-1]
        heavier["taps"] = [(t + g) % 2 for t, g in zip(taps, gen)]
        heavier["length"] = sum(heavier["taps"])
        same(heavier)  # another solution: holds exactly when it is as short
        shorter = {**cert, "length": cert["length"] - 1}
        assert not same(shorter)[0]
