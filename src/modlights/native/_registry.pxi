"""Bindings to the public C API's registry and plans (csrc/include/modlights.h: engines
and plans; csrc/api/registry.c, registry_plan.c): the registered engines, each engine's
covers and cost, ml_plan_choose as a dict, and the seam (an engine of Python callables
registered with ml_engine_register: its covers and cost, and with ``build`` its whole
Engine protocol, so a C solver answers through a Python engine as through its own).
modlights.engines.registry is a view of this one table: its register() goes through
capi_register, its choose() is capi_plan (tests/native/test_capi_registry.py)."""

import threading

from cpython.ref cimport Py_INCREF, Py_DECREF
from libc.string cimport memcpy, memset


_QUESTION_BITS = {"solve": 1, "generators": 2, "nullity": 4, "kernel_size": 8, "det": 16,
                  "inverse": 32, "pseudo_inverse": 64, "kernel_fits": 128,
                  "solve_packed": 256}


def _bits_names(unsigned bits):
    return frozenset(k for k, v in _QUESTION_BITS.items() if bits & v)


cdef object _engine_info(int i):
    """The engine at index i as a dict, or None (no engine there)."""
    cdef const char *name = ml_engine_name(i)
    cdef const char *family = ml_engine_family(i)
    cdef const char *description = ml_engine_description(i)
    if name == NULL or family == NULL or description == NULL:
        return None
    bk = ml_engine_backends(i)
    return {
        "name": name.decode(),
        "family": family.decode(),
        "description": description.decode(),
        "answers": _bits_names(ml_engine_answers(i)),
        "backends": tuple(n for n, b in (("native", ML_BACKEND_NATIVE),
                                         ("reference", ML_BACKEND_REFERENCE)) if bk & b),
        "auto": bool(ml_engine_auto(i)),
    }


#: The cost constants of the C library's own engines (csrc/api/registry_costs.h, the one
#: place they live): {name: (seconds a tile, crossover tiles)}, and the dense engines'
#: seconds per tap-matrix entry. modlights.engines.registry reads them from here.
ENGINE_COSTS = {
    ML__ENGINE_COSTS[i].name.decode(): (ML__ENGINE_COSTS[i].per_tile,
                                        int(ML__ENGINE_COSTS[i].crossover))
    for i in range(ML__N_ENGINE_COSTS)
}
DENSE_PER_ENTRY = ML__DENSE_PER_ENTRY
#: The lifted engine's rule for a part over Z/p^k of a torus invertible mod p: the torus
#: algebra when span + 3 <= ratio k, else digit by digit ({2: ratio for p = 2, 3: for odd
#: p}; registry_costs.h's ML__LIFTED_TORUS_RATIO_2, _ODD).
LIFTED_TORUS_RATIO = {2: ML__LIFTED_TORUS_RATIO_2, 3: ML__LIFTED_TORUS_RATIO_ODD}
#: The lifted engine's rule for a part over Z/p^k singular mod p (the cross family, the
#: symmetric 3 x 3 patterns): the algebra over Z/p^k when its rank m <= rho w (and 512),
#: else the chase ({"cross": rho of the cross family, "sym": of the symmetric patterns};
#: registry_costs.h's ML__LIFTED_ZQ_RHO_CROSS, _SYM).
LIFTED_ZQ_RHO = {"cross": ML__LIFTED_ZQ_RHO_CROSS, "sym": ML__LIFTED_ZQ_RHO_SYM}


def capi_engines():
    """[{name, family, description, answers, backends, auto}] in registration order
    (MemoryError when the library's engines could not be loaded). The strings stay
    valid if another thread unregisters an engine meanwhile, but indices shift then
    (modlights.h, ml_engine_count): list the engines while none come or go."""
    count = ml_engine_count()
    if count < 0:
        raise MemoryError("out of memory loading the C library's engines")
    out = []
    for i in range(count):
        e = _engine_info(i)
        if e is not None:
            out.append(e)
    return out


def capi_engine(name):
    """The engine registered as ``name`` as capi_engines() gives it, or None."""
    return _engine_info(ml_engine_index(name.encode()))


def capi_engine_names():
    """The registered names in registration order (MemoryError as capi_engines)."""
    count = ml_engine_count()
    if count < 0:
        raise MemoryError("out of memory loading the C library's engines")
    cdef const char *name
    out = []
    for i in range(count):
        name = ml_engine_name(i)
        if name != NULL:
            out.append(name.decode())
    return out


def capi_engine_index(name):
    """ml_engine_index (-1 when none)."""
    return ml_engine_index(name.encode())


def capi_engine_covers(int index, CBoard board):
    """None when the engine at index covers the board, else why (ml_engine_covers)."""
    cdef int covers = 0
    cdef size_t length = 0
    rc = ml_engine_covers(NULL, index, board.b, &covers, NULL, 0, &length)
    _ml_ok(rc)
    if covers:
        return None
    cdef char *buf = <char *>malloc(length + 1)
    if buf == NULL:
        raise MemoryError("capi_engine_covers")
    try:
        rc = ml_engine_covers(NULL, index, board.b, &covers, buf, length + 1, &length)
        _ml_ok(rc)
        return buf[:length].decode("utf-8", "replace")
    finally:
        free(buf)


def capi_engine_cost(int index, CBoard board):
    """The engine's estimated seconds (ml_engine_cost)."""
    cdef double s = 0
    rc = ml_engine_cost(NULL, index, board.b, &s)
    _ml_ok(rc)
    return s


cdef str _plan_text(ml_plan *p, int json):
    cdef size_t length = 0
    rc = ml_plan_to_json(NULL, p, NULL, 0, &length) if json else \
        ml_plan_explain(NULL, p, NULL, 0, &length)
    _ml_ok(rc)
    cdef char *buf = <char *>malloc(length + 1)
    if buf == NULL:
        raise MemoryError("capi_plan")
    try:
        rc = ml_plan_to_json(NULL, p, buf, length + 1, &length) if json else \
            ml_plan_explain(NULL, p, buf, length + 1, &length)
        _ml_ok(rc)
        return buf[:length].decode("utf-8", "replace")
    finally:
        free(buf)


def capi_board_key(CBoard board):
    """The address of the board's ml_board: the same for every CBoard wrapping it (a
    seam callback's board and the caller's), while one of them lives."""
    return <size_t>board.b


def capi_graph_shape(int states, int64_t n_cells, size_t n_taps):
    """A graph board of n_cells cells and n_taps taps whose taps advance no cell (A = 0):
    what the library's engines' covers and costs read of a graph board (its kind, n,
    cells and taps), made in O(n_taps) without the entries. ValueError as
    ml_board_from_effects."""
    cdef ml_board *b = NULL
    indptr = np.zeros(n_taps + 1, dtype=np.int64)
    cells = np.zeros(1, dtype=np.int64)
    cdef const int64_t[::1] ip = indptr
    cdef const int64_t[::1] cv = cells
    rc = ml_board_from_effects(NULL, states, n_cells, n_taps, &ip[0], &cv[0], &b)
    _ml_ok(rc)
    return CBoard._wrap(b)


def capi_board_from_csc(int states, int64_t n_cells, indptr, cells):
    """ml_board_from_effects of a graph board's columns as arrays (tap j advances the
    cells cells[indptr[j]:indptr[j + 1]]), read without Python lists: O(entries).
    ValueError as ml_board_from_effects."""
    cdef ml_board *b = NULL
    ip_a = np.ascontiguousarray(indptr, dtype=np.int64)
    cv_a = np.ascontiguousarray(cells, dtype=np.int64)
    if ip_a.ndim != 1 or ip_a.shape[0] < 1 or cv_a.ndim != 1:
        raise ValueError("indptr must be 1-D with n_taps + 1 entries, cells 1-D")
    if cv_a.shape[0] == 0:
        cv_a = np.zeros(1, dtype=np.int64)
    cdef const int64_t[::1] ip = ip_a
    cdef const int64_t[::1] cv = cv_a
    cdef size_t taps = ip_a.shape[0] - 1
    cdef int rc
    with nogil:
        rc = ml_board_from_effects(NULL, states, n_cells, taps, &ip[0], &cv[0], &b)
    _ml_ok(rc)
    return CBoard._wrap(b)


def capi_plan(CBoard board, method=None, backend=None, texts=True):
    """ml_plan_choose as a dict: engine, family, reason, variant, method, backend, cost,
    rejected (a dict in the plan's order), and with ``texts`` explain (text) and json
    (ml_plan_to_json). A seam callback's exception fails it as RuntimeError (the
    exception itself in capi_seam_errors())."""
    cdef ml_plan *p = NULL
    cdef const char *name = NULL
    cdef const char *why = NULL
    m = None if method is None else method.encode()
    bk = None if backend is None else backend.encode()
    rc = ml_plan_choose(NULL, board.b, <const char *>m if m is not None else NULL,
                        <const char *>bk if bk is not None else NULL, &p)
    _ml_ok(rc)
    try:
        rejected = {}
        for i in range(ml_plan_rejected_count(p)):
            rc = ml_plan_rejected(p, i, &name, &why)
            _ml_ok(rc)
            rejected[name.decode()] = why.decode()
        variant = ml_plan_variant(p)
        out = {
            "engine": ml_plan_engine(p).decode(),
            "family": ml_plan_family(p).decode(),
            "reason": ml_plan_reason(p).decode(),
            "variant": None if variant == NULL else variant.decode(),
            "method": ml_plan_method(p).decode(),
            "backend": ml_plan_backend(p).decode(),
            "cost": ml_plan_cost(p),
            "rejected": rejected,
        }
        if texts:
            out["explain"] = _plan_text(p, 0)
            out["json"] = _plan_text(p, 1)
        return out
    finally:
        ml_plan_free(p)


# ---------------------------------------------------------------- the seam
#: the exceptions callbacks raised on each thread (callbacks run on the calling thread),
#: for the call that ran them to re-raise (capi_seam_errors)
_SEAM_TLS = threading.local()


cdef list _seam_errors():
    try:
        return _SEAM_TLS.errors
    except AttributeError:
        _SEAM_TLS.errors = []
        return _SEAM_TLS.errors


cdef int _seam_covers(void *user, ml_ctx *ctx, const ml_board *b, int *covers, char *why,
                      size_t cap) noexcept with gil:
    try:
        fn = (<tuple>user)[0]
        r = fn(CBoard._wrap(ml_board_retain(<ml_board *>b)))
        if r is None:
            covers[0] = 1
            return ML_OK
        covers[0] = 0
        data = str(r).encode()
        if cap:
            k = min(len(data), cap - 1)
            for i in range(k):
                why[i] = data[i]
            why[k] = 0
        return ML_OK
    except BaseException as e:
        _seam_errors().append(e)
        return ml_ctx_fail(ctx, ML_ECALLBACK, str(e).encode())


cdef int _seam_cost(void *user, ml_ctx *ctx, const ml_board *b, double *seconds) noexcept with gil:
    try:
        fn = (<tuple>user)[1]
        seconds[0] = float(fn(CBoard._wrap(ml_board_retain(<ml_board *>b))))
        return ML_OK
    except BaseException as e:
        _seam_errors().append(e)
        return ml_ctx_fail(ctx, ML_ECALLBACK, str(e).encode())


cdef void _seam_release(void *user) noexcept with gil:
    Py_DECREF(<object>user)


# ---------------------------------------------------------------- the seam's engines
cdef int _seam_fail(ml_ctx *ctx, e) noexcept:
    """A Python engine's exception as the callback's status: Ctrl-C is ML_EINTERRUPTED
    (KeyboardInterrupt again in the binding), anything else ML_ECALLBACK with its text
    (RuntimeError in the binding; the exception itself in capi_seam_errors())."""
    _seam_errors().append(e)
    if isinstance(e, KeyboardInterrupt):
        return ml_ctx_fail(ctx, ML_EINTERRUPTED, b"interrupted")
    return ml_ctx_fail(ctx, ML_ECALLBACK, f"{type(e).__name__}: {e}".encode())


cdef class _SeamEngine:
    """A Python engine built through the seam, as a C solver holds it (a reference while
    the solver lives): the engine, the board's m, r and n, its generators once asked."""
    cdef object eng
    cdef uint64_t m, r
    cdef int n
    cdef object gens


def _primes_of(int n):
    out, p = [], 2
    while p * p <= n:
        if n % p == 0:
            out.append(p)
            while n % p == 0:
                n //= p
        p += 1
    return out + ([n] if n > 1 else [])


def _valuation(x, p):
    """(e, x / p^e) with p^e the largest power of p dividing x: by repeated squaring of
    p, O(log e) big divisions."""
    e, q, k, powers = 0, p, 1, []
    while x % q == 0:   # (no negative indices: this module has wraparound off)
        x //= q
        e += k
        powers.append((q, k))
        q, k = q * q, 2 * k
    for q, k in reversed(powers):
        if x % q == 0:
            x //= q
            e += k
    return e, x


def _seam_array(a, shape, int n, what):
    """A Python engine's array answer as C-contiguous uint8 of ``shape``, reduced mod n
    (integers only): TypeError / ValueError naming the question otherwise."""
    arr = np.asarray(a)
    if arr.dtype.kind not in "biu":
        raise TypeError(f"the engine's {what} must be integers, got dtype {arr.dtype}")
    if arr.shape != shape:
        raise ValueError(f"the engine's {what} has shape {arr.shape}, expected {shape}")
    return np.ascontiguousarray(arr.astype(np.int64) % n, dtype=np.uint8)


cdef int _seam_build(void *user, ml_ctx *ctx, const ml_board *b, void **engine) noexcept with gil:
    cdef _SeamEngine h
    try:
        h = _SeamEngine.__new__(_SeamEngine)
        h.eng = (<tuple>user)[2](CBoard._wrap(ml_board_retain(<ml_board *>b)))
        h.m = ml_board_n_cells(b)
        h.r = ml_board_n_taps(b)
        h.n = ml_board_states(b)
        Py_INCREF(h)
        engine[0] = <void *>h
        return ML_OK
    except BaseException as e:
        return _seam_fail(ctx, e)


cdef void _seam_destroy(void *user, void *engine) noexcept with gil:
    Py_DECREF(<object>engine)


cdef int _seam_solve(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                     uint8_t *X, uint8_t *ok) noexcept with gil:
    cdef _SeamEngine h = <_SeamEngine>engine
    cdef uint8_t[:, ::1] rv
    cdef const uint8_t[:, ::1] xv
    cdef const uint8_t[::1] okv
    try:
        rhs = np.empty((k, h.m), np.uint8)
        if k * h.m:
            rv = rhs
            memcpy(&rv[0, 0], R, k * h.m)
        Xo, oko = h.eng.solve(rhs)
        xs = _seam_array(Xo, (k, h.r), h.n, "solve's X")
        oks = np.ascontiguousarray(_seam_array(oko, (k,), 2, "solve's ok"))
        if k * h.r:
            xv = xs
            memcpy(X, &xv[0, 0], k * h.r)
        if k:
            okv = oks
            memcpy(ok, &okv[0], k)
        return ML_OK
    except BaseException as e:
        return _seam_fail(ctx, e)


cdef int _seam_nullity(void *user, ml_ctx *ctx, void *engine, uint64_t *out) noexcept with gil:
    cdef _SeamEngine h = <_SeamEngine>engine
    try:
        v = int(h.eng.nullity)
        if not 0 <= v <= h.r:
            raise ValueError(f"the engine's nullity {v} is not in 0..{h.r} (the taps)")
        out[0] = v
        return ML_OK
    except BaseException as e:
        return _seam_fail(ctx, e)


cdef int _seam_kernel_size(void *user, ml_ctx *ctx, void *engine,
                           ml_factored *out) noexcept with gil:
    cdef _SeamEngine h = <_SeamEngine>engine
    try:
        ks = int(h.eng.kernel_size)
        if ks < 1:
            raise ValueError(f"the engine's kernel_size {ks} is not a positive integer")
        primes, rest = _primes_of(h.n), ks
        out.count = len(primes)
        for i, p in enumerate(primes):
            e, rest = _valuation(rest, p)
            out.prime[i] = p
            out.exp[i] = e
        if rest != 1:
            raise ValueError(f"the engine's kernel_size is not a product of powers of the "
                             f"primes of n = {h.n}")
        return ML_OK
    except BaseException as e:
        return _seam_fail(ctx, e)


cdef int _seam_generators(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                          uint8_t *H, uint32_t *orders) noexcept with gil:
    cdef _SeamEngine h = <_SeamEngine>engine
    cdef const uint8_t[:, ::1] gv
    try:
        if h.gens is None:   # asked twice (the count, then the rows): made once
            G, O = h.eng.generators()
            O = [int(o) for o in O]
            if any(o < 2 or h.n % o for o in O):
                raise ValueError(f"the engine's generator orders {O[:8]} must divide "
                                 f"n = {h.n} (and be at least 2)")
            h.gens = (_seam_array(G, (len(O), h.r), h.n, "generators"), O)
        G, O = h.gens
        take = min(<uint64_t>len(O), limit)
        k[0] = take
        if H != NULL:
            if take * h.r:
                gv = G
                memcpy(H, &gv[0, 0], take * h.r)
            for i in range(take):
                orders[i] = O[i]
        return ML_OK
    except BaseException as e:
        return _seam_fail(ctx, e)


cdef int _seam_det(void *user, ml_ctx *ctx, void *engine, unsigned *out) noexcept with gil:
    cdef _SeamEngine h = <_SeamEngine>engine
    try:
        out[0] = int(h.eng.det()) % h.n
        return ML_OK
    except BaseException as e:
        return _seam_fail(ctx, e)


def capi_register(name, covers, cost, *, description="", family=None, answers=(),
                  backends=("native",), auto=True, build=None, before=None):
    """ml_engine_register of an engine whose covers(CBoard) -> None | why and
    cost(CBoard) -> float are Python callables (the seam). With ``build(CBoard) ->
    engine`` (the Engine protocol of modlights.engines.base: ``solve(R) -> (X, ok)``,
    ``nullity``, ``kernel_size``, ``generators() -> (H, orders)``, and ``det()`` when
    ``answers`` names "det") a C solver of the engine (ml_solver_new) asks it every
    question; the others are the registry's dense fallback's. Its answers are checked
    (shapes, integers; arrays reduced mod n, orders dividing n) before C reads them:
    a wrong one fails the question with its message (RuntimeError), an exception too
    (kept in capi_seam_errors()), Ctrl-C in one is KeyboardInterrupt. ``before``: the
    name of the registered engine it goes before in the table (ml__engine_register_before;
    None or an unknown name: at the end)."""
    cdef ml_engine_def d
    memset(&d, 0, sizeof(d))
    bname = name.encode()
    bdesc = description.encode()
    bfam = None if family is None else family.encode()
    user = (covers, cost, build)
    d.size = sizeof(ml_engine_def)
    d.name = bname
    d.description = bdesc
    d.family = <const char *>bfam if bfam is not None else NULL
    d.answers = sum(_QUESTION_BITS[q] for q in answers)
    d.backends = (ML_BACKEND_NATIVE if "native" in backends else 0) | \
        (ML_BACKEND_REFERENCE if "reference" in backends else 0)
    d.auto_choose = 1 if auto else 0
    d.user = <void *>user
    d.covers = _seam_covers
    d.cost = _seam_cost
    d.release = _seam_release
    if build is not None:
        d.build = _seam_build
        d.destroy = _seam_destroy
        d.solve = _seam_solve
        d.nullity = _seam_nullity
        d.kernel_size = _seam_kernel_size
        d.generators = _seam_generators
        if "det" in answers:
            d.det = _seam_det
    bbefore = None if before is None else before.encode()
    Py_INCREF(user)
    rc = ml__engine_register_before(NULL, &d, <const char *>bbefore if bbefore is not None
                                    else NULL)
    if rc != ML_OK:
        Py_DECREF(user)
        _ml_raise(rc)


def capi_unregister(name):
    """ml_engine_unregister."""
    rc = ml_engine_unregister(NULL, name.encode())
    _ml_ok(rc)


def capi_seam_errors():
    """The exceptions seam callbacks raised since the last call (cleared)."""
    errors = _seam_errors()
    out = list(errors)
    errors.clear()
    return out
