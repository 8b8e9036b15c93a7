"""The native core: one extension module, :mod:`modlights.native._core`, binding the C
code of csrc/ (dense GF(2) and Z/nZ elimination, the chases, the structured engines, the
coset search). It holds the one process-wide stop flag (Ctrl-C) and SIMD choice."""
