# Declarations of the certificate checker of csrc/include/modlights.h (ml_verify_json,
# implemented in csrc/verify/) and of the error slot it reports on, for
# modlights.native._core (_verify.pxi): declared here once, cimported there.


cdef extern from "include/modlights.h" nogil:
    ctypedef struct ml_ctx:
        pass
    enum:
        ML_OK
        ML_EINVAL
        ML_ENOMEM
        ML_EINTERRUPTED
    const char *ml_errmsg(const ml_ctx *ctx)
    int ml_errmsg_id(const ml_ctx *ctx)
    const char *ml_msg_name(int id)
    int ml_verify_json(ml_ctx *ctx, const char *json, size_t len, char *summary, size_t cap,
                       size_t *summary_len)
