/* interrupt.h: stopping long native work early (Ctrl-C).
 *
 * One process-wide stop flag. Long loops (coset walks, the chase's symbolic pass, the
 * dense eliminations) call ml_interrupt_poll() every so often; it returns nonzero once
 * the work must stop, and the loop then unwinds quickly, leaving its outputs
 * memory-safe but meaningless (the caller discards them).
 *
 * The flag is set by ml_interrupt_request() or by the hook: a function the embedding
 * program registers (the Cython bindings register one that takes the GIL on Python's
 * main thread and runs PyErr_CheckSignals). ml_interrupt_poll() calls the hook at
 * most every ML_INTERRUPT_POLL_NS nanoseconds per thread, so polling often is cheap:
 * between hook calls it costs one atomic load and one clock read.
 *
 * The C core has no Python dependency: without a hook only ml_interrupt_request()
 * stops work. */
#ifndef ML_INTERRUPT_H
#define ML_INTERRUPT_H

/* The hook: returns nonzero when the current work must stop. */
typedef int (*ml_interrupt_hook_t)(void);

#ifndef ML_INTERRUPT_POLL_NS
#define ML_INTERRUPT_POLL_NS 20000000L     /* 20 ms */
#endif

/* Install the hook (NULL: none). */
void ml_interrupt_set_hook(ml_interrupt_hook_t hook);
/* Nonzero once the work must stop (the flag, then the hook when its time has come). */
int ml_interrupt_poll(void);
/* The flag alone: nonzero once a stop was requested. */
int ml_interrupt_pending(void);
/* Request a stop (any thread). */
void ml_interrupt_request(void);
/* Clear the flag; returns its previous value (nonzero: the work was interrupted). */
int ml_interrupt_take(void);

#endif
