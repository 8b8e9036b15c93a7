"""The C API fuzz target's corpus (fuzz/c_api_corpus/), replayed on every run: fuzz/c_api.c
built without libFuzzer, with fuzz/c_api_replay.c's main() feeding it each file, so
every input the fuzzer ever failed on (and the hand-made seeds) keeps running clean.

The target checks its invariants itself (statuses and messages of the table, round
trips, the board's accessors against each other; modlights.h's contract) and aborts on
a violation. Here it is built with the system C compiler at -O0 without sanitizers (a few
seconds); fuzz/c_api.sh runs the same corpus under ASan, UBSan and LeakSanitizer (CI:
.ci/run's fuzz step). Skipped, with the reason, when no C compiler or no source tree is
at hand (an installed package)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
FUZZ = ROOT / "fuzz"
CORPUS = FUZZ / "c_api_corpus"
CC = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
FLAGS = ["-std=gnu11", "-O0", "-w", f"-I{CSRC}"]

pytestmark = pytest.mark.skipif(
    CC is None or not (FUZZ / "c_api.c").is_file() or not CSRC.is_dir(),
    reason="no C compiler or no source tree (fuzz/, csrc/): the replay needs both",
)


def library_sources(everything: bool) -> list[Path]:
    """The C sources the target links: the API, the puzzle layer and base/ (all it calls
    today), or every module of the C core (once the API's solver functions call the
    engines). csrc/tests and csrc/wasm are not part of the library."""
    folders = None if everything else {"api", "play", "base"}
    return sorted(
        p
        for p in CSRC.glob("*/*.c")
        if p.parent.name not in ("tests", "wasm") and (folders is None or p.parent.name in folders)
    )


def compile_objects(srcs: list[Path], out: Path, patch: dict[str, tuple[str, str]]) -> list[Path]:
    """Each source to an object in out (2 at a time: the machine is shared); patch:
    {source name: (text, replacement)} compiles a changed copy instead."""

    def one(src: Path) -> Path:
        obj = out / (src.parent.name + "_" + src.stem + ".o")
        path = src
        if src.name in patch:
            old, new = patch[src.name]
            text = src.read_text()
            assert old in text, f"{src.name} no longer holds {old!r}"
            path = out / ("patched_" + src.name)
            path.write_text(text.replace(old, new))
        subprocess.run(
            [str(CC), *FLAGS, "-c", str(path), "-o", str(obj)],
            check=True,
            capture_output=True,
            text=True,
        )
        return obj

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, srcs))


def build(out: Path, patch: dict[str, tuple[str, str]] | None = None) -> Path:
    """fuzz/c_api*.c (the target's pieces) + fuzz/c_api_replay.c linked with the library's
    sources into out/c_api_replay (the sources of every module when the API's sources
    alone leave symbols undefined)."""
    patch = patch or {}
    exe = out / "c_api_replay"
    harness = compile_objects(
        [FUZZ / f for f in ("c_api.c", "c_api_boards.c", "c_api_texts.c", "c_api_replay.c")],
        out,
        {},
    )
    objs = compile_objects(library_sources(False), out, patch)

    def link(objs: list[Path]) -> subprocess.CompletedProcess:
        cmd = [str(CC), *map(str, harness + objs), "-lpthread", "-lm", "-o", str(exe)]
        return subprocess.run(cmd, capture_output=True, text=True)

    r = link(objs)
    if r.returncode != 0 and "undefined reference" in r.stderr:
        rest = [p for p in library_sources(True) if p not in library_sources(False)]
        r = link(objs + compile_objects(rest, out, patch))
    assert r.returncode == 0, f"the replay does not link:\n{r.stderr[-3000:]}"
    return exe


def replay(exe: Path, *paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), *map(str, paths)], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def replayer(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("c_api_replay"))


def test_the_corpus_is_there():
    """A dozen hand-made seeds at least (fuzz/c_api.sh's seeds), each a small input."""
    files = sorted(p.name for p in CORPUS.iterdir())
    assert len(files) >= 12, files
    assert all((CORPUS / f).stat().st_size <= 4096 for f in files)  # -max_len of the runs


@pytest.mark.corpus  # a corpus replay, as tests/test_fuzz_corpus.py's (a 6 s build first)
def test_the_corpus_replays_clean(replayer):
    """Every committed input runs through the target without a violated invariant."""
    files = sorted(p for p in CORPUS.iterdir() if not p.name.startswith("."))
    r = replay(replayer, CORPUS)
    last = re.findall(r"^run (.*)$", r.stdout, re.M)
    assert r.returncode == 0, (
        f"{last[-1] if last else 'the replay'} failed (exit {r.returncode}):\n{r.stderr[-3000:]}"
    )
    assert f"replayed {len(files)} inputs" in r.stdout


@pytest.mark.heavy  # a second build of the target (a few CPU seconds): CI's heavy group
def test_a_broken_library_fails_the_replay(tmp_path):
    """The corpus and the target's invariants catch a wrong answer: apply with one tap
    counted twice (board_play.c's add_taps) fails the replay with the invariant named."""
    exe = build(
        tmp_path,
        {
            "board_play.c": (
                "(o->out[at] + times * o->x) % o->n",
                "(o->out[at] + 2 * times * o->x) % o->n",
            )
        },
    )
    r = replay(exe, CORPUS)
    assert r.returncode != 0
    assert "invariant violated" in r.stderr, r.stderr[-2000:]
