"""The binding of the C library's certificate checker (ml_verify_json, csrc/verify): the
tests compare it with modlights.verify (Python's checker, which never calls it: the two
checkers share no code, and Python's stays the package's)."""

cimport modlights.native.verify as mlv
from libc.stdlib cimport malloc, free


def verify_json(text):
    """ml_verify_json on a certificate's JSON text (str or bytes): ``(True, summary)``
    when every step holds, else ``(False, message id name, message)`` for a verdict
    (ML_EINVAL: "ML_M_CERT_INVALID", "ML_M_CERT_FORMAT" or "ML_M_JSON_SYNTAX");
    MemoryError or KeyboardInterrupt for the other failures. The GIL is released while
    the C checker runs."""
    cdef bytes b = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    cdef const char *p = b
    cdef size_t n = len(b), need = 0, cap = 4096
    cdef int rc
    cdef char *buf = <char *>malloc(cap)
    if buf == NULL:
        raise MemoryError("no memory for the summary")
    try:
        with nogil:
            rc = mlv.ml_verify_json(NULL, p, n, buf, cap, &need)
        if rc == mlv.ML_OK and need >= cap:
            free(buf)
            cap = need + 1
            buf = <char *>malloc(cap)
            if buf == NULL:
                raise MemoryError("no memory for the summary")
            with nogil:
                rc = mlv.ml_verify_json(NULL, p, n, buf, cap, &need)
        if rc == mlv.ML_OK:
            return True, buf[:need].decode("utf-8")
        msg = mlv.ml_errmsg(NULL).decode("utf-8", "replace")
        if rc == mlv.ML_EINVAL:
            return False, mlv.ml_msg_name(mlv.ml_errmsg_id(NULL)).decode("ascii"), msg
        if rc == mlv.ML_ENOMEM:
            raise MemoryError(msg)
        if rc == mlv.ML_EINTERRUPTED:
            raise KeyboardInterrupt(msg)
        raise RuntimeError(msg)
    finally:
        free(buf)
