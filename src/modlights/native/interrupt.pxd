# Declarations of csrc/base/interrupt.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.


cdef extern from "base/interrupt.h" nogil:
    ctypedef int (*ml_interrupt_hook_t)()
    void ml_interrupt_set_hook(ml_interrupt_hook_t hook)
    int ml_interrupt_pending()
    int ml_interrupt_take()
    void ml_interrupt_request()
