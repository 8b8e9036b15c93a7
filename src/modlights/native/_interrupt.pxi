# Ctrl-C for every native call (included once by _core.pyx).
#
# csrc/base/interrupt.c keeps the one process-wide stop flag that the long C loops poll;
# this module installs its hook: on Python's main thread it takes the GIL and runs
# PyErr_CheckSignals (the SIGINT handler raises KeyboardInterrupt there, and the
# exception stays set on this thread); a nonzero return sets the flag and the C work
# unwinds within one polling interval. Every call into C that can poll is followed by
# _check_interrupt(), before anything else touches the Python error state, so the
# exception surfaces and the partial result (memory-safe, meaningless) is dropped.
import threading as _threading

cdef extern from "Python.h":
    ctypedef int PyGILState_STATE
    PyGILState_STATE PyGILState_Ensure() nogil
    void PyGILState_Release(PyGILState_STATE state) nogil
    int PyErr_CheckSignals() nogil     # called with the GIL taken (PyGILState_Ensure)
    unsigned long PyThread_get_thread_ident() nogil
    void *PyErr_Occurred()

cdef unsigned long _main_thread_ident = _threading.main_thread().ident


cdef int _signal_hook() noexcept nogil:
    """1 when a Python signal handler raised (KeyboardInterrupt on Ctrl-C)."""
    if PyThread_get_thread_ident() != _main_thread_ident:
        return 0                  # only the main thread runs Python's signal handlers
    cdef PyGILState_STATE g = PyGILState_Ensure()
    cdef int rc = PyErr_CheckSignals()
    PyGILState_Release(g)
    return rc < 0


ml_interrupt_set_hook(_signal_hook)


cdef inline bint _interrupted() noexcept nogil:
    """Whether the native work just run was stopped early (clean up, then call
    _check_interrupt)."""
    return ml_interrupt_pending() != 0


cdef int _check_interrupt() except -1:
    """Raise the pending signal handler's exception (KeyboardInterrupt) when the native
    work was stopped early; 0 otherwise."""
    if PyErr_Occurred() != NULL:      # this thread's signal handler raised: deliver it
        ml_interrupt_take()
        return -1
    if not ml_interrupt_pending():
        return 0
    # a stop requested without an exception (_request_interrupt), or another thread's
    # Ctrl-C that stopped this work too: that thread (the main one) clears the flag
    if PyThread_get_thread_ident() == _main_thread_ident:
        ml_interrupt_take()
    raise KeyboardInterrupt("native work was interrupted")


def _request_interrupt():
    """Set the process-wide stop flag (tests; executor threads to stop): the next polling
    native loop stops and its binding raises KeyboardInterrupt."""
    ml_interrupt_request()


def _clear_interrupt():
    """Clear the process-wide stop flag; True when it was set."""
    return ml_interrupt_take() != 0


cdef int _raise_memory_error(msg) except -1:
    """MemoryError(msg) for a failed native allocation, unless the work was interrupted
    (an interrupted allocation also fails): then the interrupt's exception."""
    _check_interrupt()
    raise MemoryError(msg)
