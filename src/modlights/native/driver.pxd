# Declarations of csrc/search/driver.h (its contract is there), for the bindings of
# modlights.native._core: declared here once, cimported where used.
from libc.stdint cimport int64_t, uint32_t, uint8_t


cdef extern from "search/driver.h":
    int ML_DRIVER_OK
    int ML_DRIVER_STOPPED
    int ML_DRIVER_INTERRUPTED
    int ml_driver_descend(const uint8_t *H, size_t k, size_t L, const uint32_t *orders,
                          unsigned n, uint8_t *x, int64_t deadline_ns) nogil
    int64_t ml_driver_now_ns() nogil
