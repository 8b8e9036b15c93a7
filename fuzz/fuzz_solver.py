#!/usr/bin/env python
"""Coverage-guided fuzzing of the Solver with atheris: ``fuzz/run`` builds and runs it.

Each input decodes (``cases.decode``) into small board parameters (shape including
1 x N and tall / wide, n in 2..255, named patterns, custom offsets with and without
the centre, one-sided, repeated, reach up to +-4, mixed per-tile patterns, locks,
holes, wrap, graph boards) and a ``method=``; ``cases.check`` runs it through the
native Solver (rank, nullity, kernel, det, solvable, solve) and compares every answer
with the reference engine and Board.apply. A ValueError is a clean refusal; a wrong
answer or another exception raises (atheris saves the input as ``crash-*`` and, in
fork mode with ``-ignore_crashes=1``, goes on); a crash of the native code is caught by
the sanitizer (or the signal) the same way. ``python fuzz/triage.py DIR`` turns the
saved inputs into corpus files (tests/fuzz_corpus/, replayed by the default suite).

Python coverage comes from atheris' bytecode instrumentation of modlights and the
harness; native coverage from the extensions built with ``-fsanitize=fuzzer-no-link``
(``-DMODLIGHTS_FUZZ=ON``) and a preloaded ASan runtime with libFuzzer linked in.
Arguments after the script are libFuzzer's (``-max_total_time=600``, a corpus dir...).
"""
import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

with atheris.instrument_imports(include=["modlights", "cases"]):
    import cases
    import modlights
    import modlights.engines.registry

assert ("auto", *modlights.engines.registry.METHOD_FAMILIES) == cases.METHODS, \
    "cases.METHODS is out of date"


def test_one_input(data: bytes) -> None:
    cases.check(cases.decode(data))


def main() -> None:
    print(f"fuzzing {modlights.__file__}", file=sys.stderr, flush=True)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
