"""Solution.certificate(): the proof the minimal search hands back, as JSON that
modlights.verify accepts, for every path of Solver.solve (native and reference
backends, an executor, a trivial kernel); ValueError when nothing is proved."""

from __future__ import annotations

import concurrent.futures as cf
import copy
import json
import pickle

import numpy as np
import pytest

import modlights as ml
from oracle import BruteForce


def boards():
    rng = np.random.default_rng(23)
    out = [
        ml.Board.grid(5, 5),
        ml.Board.grid(4, 4, states=3),
        ml.Board.grid(4, 4, states=4),
        ml.Board.grid(4, 5, states=6, pattern="square", wrap=True),
        ml.Board.grid(3, 4, states=5, locked=[(0, 1)], holes=[(2, 3)]),
        ml.Board.grid(9, 9),
        ml.Board.grid(4, 4, states=2, pattern="knight"),
        ml.Board.from_effects([[0, 1], [1, 2], [0, 2], [0, 1, 2], [2]], 2, n_cells=3),
        ml.Board.from_effects([[0, 0], [1], [0, 1, 1], [2, 2], [2]], 4, n_cells=3),
    ]
    for _ in range(4):
        n = int(rng.choice([2, 3, 4, 6]))
        locked = rng.random((3, 4)) < 0.2
        out.append(ml.Board.grid(3, 4, states=n, locked=locked, wrap=bool(rng.random() < 0.5)))
    return out


BOARDS = boards()


@pytest.mark.parametrize("idx", range(len(BOARDS)))
@pytest.mark.parametrize("backend", ["native", "reference"])
def test_certificate_holds_and_is_the_minimum(idx, backend):
    b = BOARDS[idx]
    s = ml.Solver(b, backend=backend)
    sol = s.solve(b.random_state(rng=idx))
    assert sol.proven_minimal
    cert = sol.certificate()
    assert json.loads(json.dumps(cert)) == cert  # JSON-safe, nothing lost
    assert ml.verify(cert) is True
    assert cert["length"] == sol.length
    assert cert["taps"] == b.tap_vector(sol.taps).tolist()
    assert len(cert["kernel"]["generators"]) == len(cert["kernel"]["orders"])
    if b.states**b.n_taps <= 1 << 16:
        assert BruteForce(b.matrix(), b.states).min_length(cert["rhs"]) == sol.length


def test_executor_path():
    b = ml.Board.grid(9, 9)
    with cf.ThreadPoolExecutor(2) as ex:
        sol = ml.Solver(b).solve(b.random_state(rng=1), executor=ex)
    assert sol.proven_minimal and ml.verify(sol.certificate())


def test_target_and_state_give_the_rhs():
    b = ml.Board.grid(4, 4, states=3)
    state = b.random_state(rng=2)
    sol = ml.Solver(b).solve(state, 1)
    cert = sol.certificate()
    assert cert["rhs"] == ((1 - b.cell_vector(state).astype(int)) % 3).tolist()
    assert ml.verify(cert)


def test_not_proved_raises_value_error_saying_why():
    b = ml.Board.grid(5, 5)  # |ker A| = 4
    s = ml.Solver(b)
    state = b.random_state(rng=3)
    with pytest.raises(ValueError, match=r"minimal=False"):
        s.solve(state, minimal=False).certificate()
    b = ml.Board.grid(9, 9)  # |ker A| = 256
    sol = ml.Solver(b).solve(b.random_state(rng=3), budget=3)
    if not sol.proven_minimal:
        with pytest.raises(ValueError, match=r"budget ran out"):
            sol.certificate()


def test_trivial_kernel_without_search():
    b = ml.Board.grid(4, 5, states=4)
    s = ml.Solver(b)
    assert s.kernel_size == 1
    sol = s.solve(b.random_state(rng=4), minimal=False)
    cert = sol.certificate()
    assert cert["kernel"] == {"generators": [], "orders": []}
    assert cert["proof"] == {"method": "enumeration"} and ml.verify(cert)


def test_pickle_and_copy_keep_the_certificate():
    b = ml.Board.grid(5, 5, states=3)
    sol = ml.Solver(b).solve(b.random_state(rng=5))
    for other in (
        pickle.loads(pickle.dumps(sol)),
        copy.deepcopy(sol),
        pickle.loads(pickle.dumps(sol, protocol=0)),
    ):
        assert other == sol and other.certificate() == sol.certificate()


def test_pickled_solution_without_proof_slots():
    """A state of a Solution pickled before certificates existed loads; asking it for
    a certificate of a non-trivial kernel then says it kept no proof."""
    b = ml.Board.grid(5, 5)
    sol = ml.Solver(b).solve(b.random_state(rng=6))
    state = sol.__getstate__()
    del state["_proof"], state["_kernel"]
    old = ml.Solution.__new__(ml.Solution)
    old.__setstate__(state)
    assert old == sol
    with pytest.raises(ValueError, match="no proof"):
        old.certificate()


def test_a_reordering_proof_replaces_the_kernel():
    """A proof with "generators"/"orders" (the search reordered them): they become
    the certificate's kernel (a proof of Python's search: the reference backend's; the
    C solver's solutions carry its certificate)."""
    b = ml.Board.grid(5, 5, states=3)
    sol = ml.Solver(b, backend="reference").solve(b.random_state(rng=7))
    H, orders = sol._kernel
    sol._proof = [{"method": "enumeration", "generators": H[::-1], "orders": orders[::-1]}]
    cert = sol.certificate()
    assert cert["kernel"]["generators"] == H[::-1].tolist()
    assert "generators" not in cert["proof"] and ml.verify(cert)


#: OEIS A075464: the fewest taps for the all-on k x k board (k = 1..24), published data.
A075464 = [
    1,
    4,
    5,
    4,
    15,
    28,
    33,
    40,
    25,
    44,
    55,
    72,
    105,
    56,
    117,
    104,
    147,
    188,
    141,
    224,
    245,
    276,
    231,
    270,
]


def test_all_on_certificates_hold_with_the_published_values():
    """The all-on k x k boards, k = 1..24 (nullity up to 16): each certificate holds
    and its length is the OEIS value."""
    for k, value in enumerate(A075464, start=1):
        b = ml.Board.grid(k, k)
        sol = ml.Solver(b).solve(np.zeros((k, k), dtype=np.uint8), 1)
        cert = sol.certificate()
        assert cert["length"] == value and ml.verify(cert), k


#: The published 23 x 23 witness of the "most clicks problem" (a press pattern x; the
#: board is A x), data quoted in issue 23: it needs exactly 239 taps.
WITNESS_23 = """
10011110010100001110000 01000100101101101110110 11100000001110100001000
10001000101111111010110 00101001100101001000010 10100001100101000111000
10001101100111010010100 11000111000011110010110 00011000001110001000011
11000000001001100010010 01100001011000010001010 10010100010100111111001
00000011111010110101110 00010101101011011001100 11010100011010110010101
00011101000100010100111 11010011110001010111100 10110010011101010100010
00101101001101001000110 10011000010011000010010 00010010010100000000111
01110101101111000011110 11100100000101101110111"""


def test_published_23x23_witness_certificate():
    x = np.array([[int(ch) for ch in row] for row in WITNESS_23.split()], dtype=np.uint8)
    b = ml.Board.grid(23, 23)
    state = b.apply(np.zeros((23, 23), dtype=np.uint8), x)
    sol = ml.Solver(b).solve(state)
    cert = sol.certificate()
    assert sol.length == cert["length"] == 239 and ml.verify(cert)


def test_proved_answer_with_a_kernel_past_the_dense_limit():
    """A board with no cells and 2^16 taps: the empty tap set is proved minimal at once,
    but ker A (2^16 generators of 2^16 taps, 4 GiB dense) is past the limit: solve
    answers, and certificate() says why it cannot hold the kernel."""
    b = ml.Board.from_effects([[]] * 65536, 2, 0)
    sol = ml.Solver(b).solve(np.zeros(0, np.uint8))
    assert sol.length == 0 and sol.proven_minimal
    with pytest.raises(ValueError, match="more than the 1 GiB a certificate may hold"):
        sol.certificate()
