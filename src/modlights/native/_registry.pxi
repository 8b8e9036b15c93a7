"""Bindings to the public C API's registry and plans (csrc/include/modlights.h: engines
and plans; csrc/api/registry.c, plan.c): the registered engines, each engine's covers
and cost, ml_plan_choose as a dict, and the seam (an engine of Python callables
registered with ml_engine_register). Python's registry does not use it yet (issue 33
P12 switches it over); tests/native/test_capi_registry.py compares it with
modlights.engines.registry."""

from cpython.ref cimport Py_INCREF, Py_DECREF
from libc.string cimport memset


_QUESTION_BITS = {"solve": 1, "generators": 2, "nullity": 4, "kernel_size": 8, "det": 16,
                  "inverse": 32, "pseudo_inverse": 64, "kernel_fits": 128,
                  "solve_packed": 256}


def _bits_names(unsigned bits):
    return frozenset(k for k, v in _QUESTION_BITS.items() if bits & v)


def capi_engines():
    """[{name, family, description, answers, backends, auto}] in registration order
    (MemoryError when the library's engines could not be loaded). The strings stay
    valid if another thread unregisters an engine meanwhile, but indices shift then
    (modlights.h, ml_engine_count): list the engines while none come or go."""
    out = []
    count = ml_engine_count()
    if count < 0:
        raise MemoryError("out of memory loading the C library's engines")
    cdef const char *name
    cdef const char *family
    cdef const char *description
    for i in range(count):
        bk = ml_engine_backends(i)
        name = ml_engine_name(i)
        family = ml_engine_family(i)
        description = ml_engine_description(i)
        if name == NULL or family == NULL or description == NULL:
            continue
        out.append({
            "name": name.decode(),
            "family": family.decode(),
            "description": description.decode(),
            "answers": _bits_names(ml_engine_answers(i)),
            "backends": tuple(n for n, b in (("native", ML_BACKEND_NATIVE),
                                             ("reference", ML_BACKEND_REFERENCE)) if bk & b),
            "auto": bool(ml_engine_auto(i)),
        })
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


def capi_plan(CBoard board, method=None, backend=None):
    """ml_plan_choose as a dict: engine, family, reason, variant, method, backend, cost,
    rejected (a dict in the plan's order), explain (text), json (ml_plan_to_json)."""
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
        return {
            "engine": ml_plan_engine(p).decode(),
            "family": ml_plan_family(p).decode(),
            "reason": ml_plan_reason(p).decode(),
            "variant": None if variant == NULL else variant.decode(),
            "method": ml_plan_method(p).decode(),
            "backend": ml_plan_backend(p).decode(),
            "cost": ml_plan_cost(p),
            "rejected": rejected,
            "explain": _plan_text(p, 0),
            "json": _plan_text(p, 1),
        }
    finally:
        ml_plan_free(p)


# ---------------------------------------------------------------- the seam
#: the exception a callback raised, re-raised by the call that ran it
_SEAM_ERROR = []


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
        _SEAM_ERROR.append(e)
        return ml_ctx_fail(ctx, ML_ECALLBACK, str(e).encode())


cdef int _seam_cost(void *user, ml_ctx *ctx, const ml_board *b, double *seconds) noexcept with gil:
    try:
        fn = (<tuple>user)[1]
        seconds[0] = float(fn(CBoard._wrap(ml_board_retain(<ml_board *>b))))
        return ML_OK
    except BaseException as e:
        _SEAM_ERROR.append(e)
        return ml_ctx_fail(ctx, ML_ECALLBACK, str(e).encode())


cdef void _seam_release(void *user) noexcept with gil:
    Py_DECREF(<object>user)


def capi_register(name, covers, cost, *, description="", family=None, answers=(),
                  backends=("native",), auto=True):
    """ml_engine_register of an engine whose covers(CBoard) -> None | why and
    cost(CBoard) -> float are Python callables (the seam)."""
    cdef ml_engine_def d
    memset(&d, 0, sizeof(d))
    bname = name.encode()
    bdesc = description.encode()
    bfam = None if family is None else family.encode()
    user = (covers, cost)
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
    Py_INCREF(user)
    rc = ml_engine_register(NULL, &d)
    if rc != ML_OK:
        Py_DECREF(user)
        _ml_raise(rc)


def capi_unregister(name):
    """ml_engine_unregister."""
    rc = ml_engine_unregister(NULL, name.encode())
    _ml_ok(rc)


def capi_seam_errors():
    """The exceptions seam callbacks raised since the last call (cleared)."""
    out = list(_SEAM_ERROR)
    _SEAM_ERROR.clear()
    return out
