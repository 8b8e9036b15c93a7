"""The C tests of csrc/tests (one t-<module>.c per C module, each checking its routines
against a slower method on random input), built with the system C compiler and run.

Each test names its sources and its variants (extra compiler flags) in two comment lines,
``ml-test-sources:`` and ``ml-test-variant:`` (csrc/tests/README.md). Skipped, with the
reason, only when no C compiler or no source tree is at hand (an installed package)."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
CC = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")


def c_tests() -> list[tuple[str, pathlib.Path, list[str], list[str]]]:
    """(id, test file, sources under csrc/, extra flags) for every test and variant."""
    out = []
    for t in sorted((CSRC / "tests").glob("t-*.c")):
        text = t.read_text()
        m = re.search(r"ml-test-sources:([^\n*]*)", text)
        assert m, f"{t.name} has no ml-test-sources line"
        srcs = m.group(1).split()
        out.append((t.stem, t, srcs, []))
        for v in re.findall(r"ml-test-variant:([^\n*]*)", text):
            name, *flags = v.split()
            out.append((f"{t.stem}-{name}", t, srcs, flags))
    return out


_TESTS = c_tests() if (CSRC / "tests").is_dir() else []
#: the C tests of several CPU seconds each (GF(2) against O(n^3) routines up to 257 x 257,
#: the WebAssembly export layer compiled with most of the core): in the heavy group; the
#: default run builds and runs the others
HEAVY = {
    "t-gf2",
    "t-gf2-chunk2",
    "t-cube",
    # 2.8 s with its build (exhaustive walks up to 2^21); the default run keeps the
    # transform search's Python comparisons (tests/native/test_capi_minimal.py)
    "t-cube_plan",
    "t-interrupt",
    "t-zn",
    "t-zn-blocked",
    "t-coset",
    # 5 s with its build: GF(p)'s fast products, division and half-gcd against the base
    # cases for every prime up to 251 (tests/native/test_poly.py and the GF(p) nullities of
    # tests/engines/algebraic/test_cross.py keep them in the default run)
    "t-gfpx_fast",
    "t-rowsolve",  # 8 s with its build: 576 random chase patterns and chosen ones, every SIMD path
    # the chase's and the batch search's own tests: 0.1-2.1 CPU s each at -O1, 11-14 s
    # with their builds; the default run keeps the tests of the chase engines over them
    # (tests/engines/chase, tests/native/test_capi_chase.py) and the batch search's
    "t-plan",
    "t-numeric",
    "t-symbolic",
    "t-runner",
    "t-rowchase",
    "t-coset_batch",
    # builds the row-solve chase, the symmetric chase and the polynomials with the
    # registry; the default run keeps tests/native/test_capi_registry.py
    "t-registry",
    # 2-3.5 s each with their builds; their subjects keep Python comparisons in the default
    # run (test_capi_board_json.py, test_capi_puzzle.py, test_gf2_batch.py, the packed
    # engines' tests)
    "t-play-puzzle",
    "t-play-generate",
    "t-board_json",
    "t-gf2_batch",
    "t-packed",
    # the row-recurrence chase against the board's equations and dense ranks, with the
    # polynomial isomorphism (2 CPU s with its build, poly.c the most of it); the default
    # run keeps the Python tests of RowRec
    "t-rowrec",
    # the symmetric 3 x 3 chase against the board's equations and dense ranks (3.5 CPU s
    # with its build, which links the packed rows and GF(2) dense code); the default run
    # keeps the Python tests of SymChase
    "t-symchase",
    # t-bitsliced itself (1.1 CPU s with its build) stays in the default run; its variant
    # with tiny tables repeats those checks on other loop shapes (1.4 CPU s)
    "t-bitsliced-tiny",
    # the solver core and the dense engines through their vtables (15-17 s each with their
    # builds, which link the dense factorisations, the canonical form and the registry) and
    # the WebAssembly exports built natively (4 s); the default run keeps
    # tests/native/test_capi_solver.py and the Node tests of the exports (tests/js)
    "t-solver",
    "t-engines-dense",
    "t-exports",
    # the same for the solver's lifetimes and stops, the minimal solve and its results,
    # and the chase and algebraic engines (each links the whole solver with every engine
    # in C); the default run keeps test_capi_minimal.py, test_capi_chase.py,
    # test_capi_algebraic.py and test_capi_tensor.py against Python's Solver
    "t-solver_life",
    "t-solve",
    "t-solutions",
    "t-solve_packed",
    "t-solver_engine",  # links the whole solver and every structured engine: 14 s with its build
    "t-symmetry",
    "t-result",
    "t-engines-chase",
    "t-engines-algebraic",
    "t-engines-symodd",  # links the registry and every engine as t-engines-algebraic
    "t-engines-tensor",  # 24 s with its build
    # the Z/n branch and bound through ml_solver_solve (links the whole solver, 28 s with
    # its build); the default run keeps t-bnb_zn and tests/search/test_bnb_zn.py
    "t-api-bnb",
    # the split searches, one coset and many (link the whole solver; test_capi_search.py
    # in the default run)
    "t-search",
    "t-search_many",
    # 21 s with its build (it links the registry and every engine it references); the
    # default run keeps tests/native/test_capi_torus.py
    "t-engines-torus",
    # the same build (the registry and every engine it references); the default run
    # keeps tests/native/test_capi_torus2.py
    "t-engines-torus2",
    # 25 s with its build (the registry and every engine it references); the default run
    # keeps tests/native/test_capi_lifted.py
    "t-engines-lifted",
    # the same build; the default run keeps the odd-width parts over Z/p^k in
    # tests/native/test_capi_lifted.py
    "t-engines-lifted-zq",
    # the same build; the default run keeps test_capi_lifted.py's tori over Z/p^k
    "t-engines-zqtorus",
    # the JSON reader and writer (2 s with its build); the default run keeps the board JSON
    # and repr comparisons with Python (test_capi_board_json.py)
    "t-json",
    # 1-2.3 s each with their builds, whose subjects the default run compares with
    # Python: the boards (test_capi_board.py), the puzzle layer (test_play_native.py,
    # test_codes_native.py, test_capi_puzzle.py) and the Smith forms (test_smith.py,
    # which builds t-smith itself)
    "t-board",
    "t-board_play",
    "t-board_taps",
    "t-grid",
    "t-play-bands",
    "t-play-codes",
    "t-play-prng",
    "t-play-prng-sparse",
    "t-play-date",
    "t-smith",
    # 1.2-2.2 s each with their builds, whose subjects the default run compares with
    # Python: the torus engine's 2 x 2 polynomial matrices (test_capi_torus.py), the band
    # factors (test_capi_tensor.py), the polynomials (test_poly.py) and the factored
    # kernel sizes (every test_capi_*.py compares kernel_size)
    "t-polymat",
    "t-engines-band",
    "t-poly",
    "t-factored",
}


def build(
    test: pathlib.Path,
    srcs: list[str],
    flags: list[str],
    exe: pathlib.Path,
    extra: tuple[str, ...] = (),
) -> None:
    """Compile test + srcs into exe (GNU C11 as the build, -O1, the given flags)."""
    cmd = [
        CC,
        "-std=gnu11",
        "-O1",
        *extra,
        *flags,
        f"-I{CSRC}",
        str(test),
        *(str(CSRC / s) for s in srcs),
        "-lpthread",
        "-o",
        str(exe),
    ]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


@pytest.mark.skipif(
    CC is None or not _TESTS,
    reason="no C compiler or no source tree (csrc/tests): the C tests need both",
)
@pytest.mark.parametrize(
    "name,test,srcs,flags",
    [pytest.param(*t, id=t[0], marks=pytest.mark.heavy if t[0] in HEAVY else ()) for t in _TESTS],
)
def test_c(tmp_path, name, test, srcs, flags):
    exe = tmp_path / name
    try:
        build(test, srcs, flags, exe)
    except subprocess.CalledProcessError as e:
        pytest.fail(f"{name} does not build:\n{e.stderr[-3000:]}")
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{name} failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"


#: C modules whose only tests are still the Python ones (through the bindings, against the
#: reference engine); each gets its t-<module>.c, and leaves this set then.
NO_C_TEST_YET: set[str] = set()


def module_of(src: pathlib.Path) -> str:
    """The module a C file belongs to: its own stem, or, for a piece of a module split
    across files (csrc/<folder>/<module>_<part>.c beside that folder's <module>_impl.h,
    with no <module>_<part>.h of its own), the module's name (csrc/tests/README.md)."""
    for m in re.finditer("_", src.stem):
        base = src.stem[: m.start()]
        if (src.parent / f"{base}_impl.h").exists() and not src.with_suffix(".h").exists():
            return base
    return src.stem


@pytest.mark.skipif(not (CSRC / "tests").is_dir(), reason="no source tree")
def test_every_c_module_has_a_test():
    """Each C module (csrc/<folder>/<module>.c and the pieces it is split into) has its
    csrc/tests/t-<module>.c, which builds every piece, except the listed ones (and a
    listed one that gained a test leaves the list)."""
    files = [p for p in CSRC.glob("*/*.c") if p.parent.name != "tests"]
    modules = {module_of(p) for p in files}
    # {module: the tests that test it}: t-<module>.c, and t-<folder>-<subject>.c for the
    # modules of csrc/<folder>/ its ml-test-sources line names (t-play-codec.c:
    # play/sha256.c and play/codec.c)
    testers: dict[str, set[str]] = {}
    for t in (CSRC / "tests").glob("t-*.c"):
        testers.setdefault(t.stem[2:], set()).add(t.stem)
    for t in (CSRC / "tests").glob("t-*-*.c"):
        folder = t.stem[2:].split("-")[0]
        m = re.search(r"ml-test-sources:([^\n*]*)", t.read_text())
        if (CSRC / folder).is_dir() and m:
            for s in m.group(1).split():
                if s.startswith(folder + "/"):
                    testers.setdefault(s[len(folder) + 1 : -2], set()).add(t.stem)
    tested = set(testers)
    assert sorted(modules - tested - NO_C_TEST_YET) == [], "C modules without a test"
    assert sorted(NO_C_TEST_YET & tested) == [], "tested now: remove from NO_C_TEST_YET"
    assert NO_C_TEST_YET <= modules, "NO_C_TEST_YET names a module that does not exist"
    srcs = {name: set(s) for name, _, s, flags in _TESTS if not flags}
    # every piece of a tested module is built by one of its tests
    unbuilt = sorted(
        p.relative_to(CSRC).as_posix()
        for p in files
        if module_of(p) in tested
        and not any(
            p.relative_to(CSRC).as_posix() in srcs.get(t, set()) for t in testers[module_of(p)]
        )
    )
    assert unbuilt == [], "pieces of a module its t-<module>.c does not build"
