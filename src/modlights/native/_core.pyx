# cython: language_level=3, boundscheck=False, wraparound=False
"""The one native extension module: bindings to the C core in csrc/.

One module, so the C core and its process-wide state (the stop flag that Ctrl-C sets,
the SIMD path of every kernel) exist once per process. The C declarations are in one
``.pxd`` file per C module (``modlights/native/<module>.pxd``); the bindings are one
``.pxi`` file per subject, included below. Every argument is checked in the bindings,
before any C code runs: bad input is a ValueError, never a crash. The GIL is released
during long C work, which Ctrl-C stops (KeyboardInterrupt).
"""
from modlights.native.band cimport *
from modlights.native.board cimport *
from modlights.native.canon cimport *
from modlights.native.driver cimport *
from modlights.native.cpu cimport *
from modlights.native.gf2 cimport *
from modlights.native.gf2_batch cimport *
from modlights.native.interrupt cimport *
from modlights.native.pack cimport *
from modlights.native.packed cimport *
from modlights.native.puzzle cimport *
from modlights.native.poly cimport *
from modlights.native.registry cimport *
from modlights.native.rowrec cimport *
from modlights.native.search cimport *
from modlights.native.solver cimport *
from modlights.native.symchase cimport *
from modlights.native.zn cimport *

# process-wide state: the stop flag (Ctrl-C) and the SIMD path
include "_interrupt.pxi"
include "_simd.pxi"
# dense elimination: GF(2) (bit-packed) and Z/nZ
include "_pack.pxi"
include "_gf2.pxi"
include "_zn.pxi"
# the canonical kernel's work bound (and the argument checks the bindings share); the greedy descent
include "_canon.pxi"
include "_driver.pxi"
# structured boards: polynomials, row recurrences, symmetric chase, band, packed states
include "_poly.pxi"
include "_band.pxi"
include "_packed.pxi"
# the public C API (csrc/include/modlights.h): boards
include "_board.pxi"
include "_puzzle.pxi"
include "_solver.pxi"
include "_engine.pxi"
include "_search.pxi"
# the registry and plans of the public C API (modlights.h: engines and plans, the seam)
include "_registry.pxi"
# the puzzle layer of the public C API (modlights.h): PRNG, seeds, bands, stars, dates
include "_play.pxi"
# the certificate checker of the C library (csrc/verify), for its tests
include "_verify.pxi"
