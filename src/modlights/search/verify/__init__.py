"""The certificate checker: ``verify(cert)`` checks a certificate of docs/certificates.md
in exact arithmetic, or raises ValueError naming the first step that fails.

This module is meant to be audited on its own. It imports NumPy and the standard library
only, nothing of modlights: it reads the board from the certificate's dict and builds the
tap matrix A itself (:func:`_read_board`, with the board model's rules and messages), so
it shares no code with the board model, the engines, the C core or the solver whose
answers it checks.
Arithmetic is exact: Python ints and Fractions; NumPy int64 only on entries below n
(<= 255), sums of at most a few million of them, and products of two such entries, far
below 2^63 (each use says why it cannot overflow); float64 once, for products of
coefficient and generator matrices whose every partial sum is an integer below 2^53.

Outline (docs/certificates.md gives the format):

1. the board (from its dict), A in coordinate form, n and its prime powers q = p^e;
2. the kernel: every generator h_i lies in ker A, o_i is its additive order, and the
   generators generate all of ker A (the sizes of both groups by elimination mod q);
   then every solution of A y = b is x + sum c_i h_i with 0 <= c_i < o_i, each exactly
   once (the map c -> sum c_i h_i is onto ker A and both sides have prod(o_i) elements);
3. kind "minimal": x solves A x = b, sum(x) = L, and the proof shows every y in x + ker A
   has sum(y) >= L: by enumeration, or by a tree of pruned prefixes (a lower bound per
   pruned subtree) and leaves checked directly, up to symmetries of A and b;
4. kind "hardest": the witness is a "minimal" claim of length ``lower`` (or a board whose
   covering weights bound its every solution below by ``lower``), and an LP dual
   (weights over kernel elements, possibly one set per leaf of a branching over taps)
   bounds max_x min_c sum(x + c) by ``upper``;
5. kind "bounds" (no kernel): x solves A x = b with sum(x) = ``upper``, and covering
   weights over the cells that must change bound every solution's length below by
   ``lower``.

Errors: ValueError for every certificate that does not hold or is malformed (wrong types,
lengths, ranges, unknown methods); ``FormatError`` (a ValueError) when the object is not
a modlights certificate of a known version and kind at all; ``WorkLimitError`` (a
ValueError, no verdict) when the check needs more work than ``max_work`` allows.

The work bound. A certificate declares how much checking it needs (an enumeration
walks prod(orders) coset elements of r taps), so an untrusted one could hold the
checker for days. Before the first expensive step, :func:`_plan` estimates every step
from the sizes the certificate declares, in work units: building the board and A; the
kernel checks (k generators read and applied, eliminations of A and of H, whose row
updates are estimated from A's profile once A is built, :func:`_plan_updates`); the
claim (an enumeration: the coset's elements through :class:`_Walk`; a tree: its pruned
prefixes, symmetries, and the leaves under no pruned prefix); the upper bound of a
hardest claim (kernel elements x taps, each LP leaf's weights). Past ``max_work`` the
check is refused (:class:`_Meter`). What shows only as it is done is metered: the
leaves a tree walks (the estimate takes one in symmetries + 1, as if the listed
symmetries mapped the others away), the row updates of the elimination of A, and the
limbs of LP weights; past the bound the check stops. A unit is about a nanosecond of
one core of the machine the constants were measured on: each constant (``_PY``,
``_CALL``, ``_ENTRY``, ``_COL``, ...) is the measured CPU time of its step per element
(the elements of a NumPy operation, the iterations of a loop), rounded up, fitted on
certificates of every kind by the workload ``verify-costs`` of bench/workloads/bounds.py,
which prints the CPU nanoseconds per unit of each (0.3 to 2 on a loaded 2-core machine,
0.5 to 1 for the enumerations and trees that dominate). ``MAX_WORK`` (10^9) is thus
about a second.
"""

from __future__ import annotations

from typing import Any

from .algebra import (  # noqa: F401
    _check_kernel,
    _coset_min,
    _eliminate,
    _Kernel,
    _log_kernel,
    _log_span,
    _Matrix,
    _rank_gf2,
    _solve,
    _Walk,
    _wht,
)
from .claims import (  # noqa: F401
    _check_bounds,
    _check_covering_witness,
    _check_minimal,
    _check_tree,
    _check_upper,
    _covering,
    _dual_bound,
    _elements,
    _groups,
    _lower_image,
    _lower_upper,
    _prefix_bound,
    _symmetries,
    _value_text,
    _weights,
)
from .data import (  # noqa: F401
    _GRAPH_FIELDS,
    _GRID_FIELDS,
    _MAX_OFFSETS,
    _MAX_REACH,
    _MAX_SIDE,
    _MAX_TILES,
    _PATTERNS,
    _RATIONAL,
    CHUNK_ENTRIES,
    FORMAT,
    KINDS,
    LIMB,
    VERSION,
    WHT_DIM,
    FormatError,
    _Board,
    _board_int,
    _check_entry,
    _check_fields,
    _crt,
    _effect_cells,
    _field,
    _in_field,
    _int,
    _ints,
    _is_int,
    _is_int_type,
    _is_mixed,
    _is_scalar,
    _items,
    _mask_of,
    _Offsets,
    _offsets,
    _prime_powers,
    _rational,
    _read_board,
    _read_graph,
    _read_mixed,
    _read_pattern,
    _read_positions,
    _short,
)
from .work import (  # noqa: F401
    _ADD_AT,
    _BASE,
    _CALL,
    _COL,
    _ENTRY,
    _FLOP,
    _PY,
    _ROW,
    _ROWS,
    _WORD,
    MAX_WORK,
    WorkLimitError,
    _check_max_work,
    _cost_board,
    _cost_dual,
    _cost_eliminate,
    _cost_kernel,
    _cost_minimal,
    _cost_tree,
    _cost_updates_of_A,
    _cost_upper,
    _cost_walk,
    _cost_weights,
    _count,
    _leaves_left,
    _Meter,
    _orders_of,
    _parts,
    _plan,
    _plan_updates,
    _size,
    _units,
    _walk_shape,
)

# The imports above keep every name of the checker importable from
# modlights.search.verify, as when it was one module.
__all__ = ["verify", "summary", "estimate", "FormatError", "WorkLimitError", "MAX_WORK"]

# The public errors keep the name they had (modlights.search.verify.WorkLimitError in
# tracebacks, reprs and pickles).
FormatError.__module__ = WorkLimitError.__module__ = __name__


# ------------------------------------------------------------------ the entry points
def _check_format(cert: Any) -> None:
    """FormatError unless ``cert`` is a modlights certificate of a known version and kind."""
    if not isinstance(cert, dict):
        raise FormatError(f"a certificate is a JSON object, got {type(cert).__name__}")
    if cert.get("format") != FORMAT:
        raise FormatError(f"not a modlights certificate (format must be {FORMAT!r})")
    if cert.get("version") != VERSION:
        raise FormatError(
            f"unknown certificate version {cert.get('version')!r}: this "
            f"checker reads version {VERSION}"[:300]
        )
    kind = cert.get("kind")
    if kind not in KINDS:
        raise FormatError(
            f"unknown certificate kind {kind!r}: use 'minimal', 'hardest' or 'bounds'"[:300]
        )


def _board_and_plan(cert: Any, meter: _Meter) -> _Matrix:
    """A of the board of a certificate of a known format, each built once its cost is
    within the bound, and the estimate of the check planned (refused past the bound)
    before any step that costs more."""
    _check_format(cert)
    bd = _field(cert, "board", "certificate")
    meter.plan([(_cost_board(bd), "board", "building the board")])
    board = _read_board(bd)
    meter.plan(_plan(cert, board))
    A = _Matrix(board)
    meter.plan(_plan_updates(cert, A))
    return A


def _check(cert: Any, meter: _Meter) -> str:
    A = _board_and_plan(cert, meter)
    kind = cert["kind"]
    if kind == "bounds":
        return _check_bounds(cert, A, meter)
    kernel = _check_kernel(_field(cert, "kernel", "certificate"), A, "kernel", meter)
    if kind == "minimal":
        how = _check_minimal(cert, "", A, kernel, meter)
        return f"no solution has fewer than {cert['length']} taps ({how})"
    lower, upper = _lower_upper(cert)
    witness = _field(cert, "witness", "certificate")
    if isinstance(witness, dict) and "lower_bound" in witness:  # a board's covering bound
        how = _check_covering_witness(witness, lower, A)
    else:
        how = _check_minimal(witness, "witness ", A, kernel, meter)
        if witness["length"] != lower:
            raise ValueError(f"the witness needs {witness['length']} taps, not lower = {lower}")
    up = _check_upper(_field(cert, "upper_bound", "certificate"), upper, A, kernel, meter)
    return f"the hardest board needs {_value_text(lower, upper)} taps (witness: {how}; upper: {up})"


def summary(cert: Any, *, max_work: Any = MAX_WORK) -> str:
    """Check ``cert`` as :func:`verify` does and say in one line what it proves."""
    return _guarded(_check, cert, _Meter(_check_max_work(max_work)))


def _guarded(fn: Any, cert: Any, meter: _Meter) -> Any:
    """fn(cert, meter), with the errors of malformed input made ValueErrors."""
    try:
        return fn(cert, meter)
    except ValueError:
        raise
    except (TypeError, KeyError, IndexError, AttributeError, OverflowError, ZeroDivisionError) as e:
        raise ValueError(f"malformed certificate: {type(e).__name__}: {e}"[:300]) from None


def estimate(cert: Any) -> int:
    """The work units checking ``cert`` would take by the estimate :func:`verify`
    compares with ``max_work`` (10^9 units are about a second of one core), without
    checking anything past the format and the board. Leaves mapped by symmetries and
    LP weights of more than 30 bits can make the check itself take more (it is
    metered: see :func:`verify`). ValueError (``FormatError``) as :func:`verify` for a
    document that is not a certificate or whose board is malformed.

    Examples
    --------
    >>> b = ml.Board.grid(4, 4, states=3)
    >>> cert = ml.Solver(b).solve(b.random_state(rng=1)).certificate()
    >>> from modlights.search.verify import MAX_WORK, estimate
    >>> 0 < estimate(cert) < MAX_WORK
    True
    """
    meter = _Meter(None)
    _guarded(_board_and_plan, cert, meter)
    return meter.need


def verify(cert: Any, *, max_work: Any = MAX_WORK) -> bool:
    """Check a certificate (a dict as ``sol.certificate()`` / ``h.certificate()`` make
    it, see docs/certificates.md) in exact arithmetic, within a bound on the work.

    Parameters
    ----------
    cert : dict
        The certificate (parsed JSON).
    max_work : int, float or None
        The most work units the check may take (default ``MAX_WORK`` = 10^9, about a
        second of one core; None: no bound). The work is estimated from the sizes the
        certificate declares (the board, the kernel, the coset an enumeration walks,
        the leaves and prefixes of a tree, the LP weights) before anything expensive
        is done; work that shows only as it is done (leaves a tree proof maps by
        symmetries, LP weights of many digits) is metered.

    Returns True when every step holds; raises ValueError naming the step that fails
    (``FormatError`` when ``cert`` is not a modlights certificate of a known version
    and kind), or ``WorkLimitError`` (a ValueError, no verdict on the certificate) when
    the check needs more than ``max_work``: refused before the expensive steps when
    the estimate says so, else as soon as the metered work passes the bound. Never
    another exception type for any JSON-like input.

    Complexity: the kernel checks eliminate A mod every prime power of n (O(min(m, r)
    m r) entry operations, GF(2) bit-packed); an enumeration walks every coset element
    (O(r) each, O(log) each with a Walsh-Hadamard transform when n = 2); a tree costs
    O(r) per pruned prefix and a walk per leaf checked; an LP dual O(E r n) for E
    weighted elements. :func:`estimate` gives the units.

    Examples
    --------
    >>> b = ml.Board.grid(4, 4, states=3)
    >>> cert = ml.Solver(b).solve(b.random_state(rng=1)).certificate()
    >>> ml.verify(cert)
    True
    >>> ml.verify(cert, max_work=1000)
    Traceback (most recent call last):
        ...
    modlights.search.verify.WorkLimitError: the check needs about ... work units ...
    >>> cert["length"] -= 1
    >>> ml.verify(cert)
    Traceback (most recent call last):
        ...
    ValueError: length 9 is not the sum of the taps (10)
    >>> ml.verify({"format": "something else"})
    Traceback (most recent call last):
        ...
    modlights.search.verify.FormatError: not a modlights certificate (format must be ...
    """
    summary(cert, max_work=max_work)
    return True
