"""Puzzle codes in C (csrc/play/codes.c) against the Python encoder and decoder kept as
the oracle (tests/play/code_oracle.py: what play/puzzles.py ran before the codes moved to
C) on many random puzzles and broken codes.

The C side is csrc/tests/t-play-codes.c, built here with the system C compiler (with
AddressSanitizer and UndefinedBehaviorSanitizer where the compiler has them) and run on
a file of cases this test writes from Python: every named pattern, offsets (named ones
spelled out, repeats, the empty pattern, offsets at and past -128..127, more than 255),
mixed palettes (repeated and unused entries, more than 255 distinct), every n in
2..255 and 256, sides 1..255 and 256, locks, holes, wrap; then each code Python wrote,
the golden codes (js/test/golden/codes.json) and broken variants of them (truncated,
padded, one character changed, a character from outside base64url, whitespace, NULs,
surrogates, too long). Each case must give Python's code, Python's puzzle or Python's
message, character for character. Skipped only without a C compiler or a source tree.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import random
import shutil
import subprocess
import zlib

import code_oracle
import numpy as np
import pytest

import modlights as ml
from modlights.model.patterns import PATTERNS

ROOT = pathlib.Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
TEST = CSRC / "tests" / "t-play-codes.c"
CC = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]

pytestmark = pytest.mark.skipif(
    CC is None or not TEST.exists(), reason="no C compiler or no source tree (csrc/tests)"
)


@pytest.fixture(scope="module")
def checker(tmp_path_factory) -> pathlib.Path:
    """t-play-codes built from its ml-test-sources (sanitized where the compiler can)."""
    text = TEST.read_text()
    srcs = text.split("ml-test-sources:")[1].split("*/")[0].split()
    exe = tmp_path_factory.mktemp("codes") / "t-play-codes"
    base = [CC, "-std=gnu11", "-O1", "-g", f"-I{CSRC}", str(TEST)]
    base += [str(CSRC / s) for s in srcs] + ["-lpthread", "-o", str(exe)]
    for extra in (SAN, []):
        proc = subprocess.run(base[:1] + extra + base[1:], capture_output=True, text=True)
        if proc.returncode == 0:
            return exe
    pytest.fail(f"t-play-codes does not build:\n{proc.stderr[-3000:]}")


def run(exe: pathlib.Path, lines: list[str], tmp_path: pathlib.Path) -> None:
    path = tmp_path / "cases.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    env = dict(
        os.environ,
        ASAN_OPTIONS="detect_leaks=1:abort_on_error=1",
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
    )
    proc = subprocess.run(
        [str(exe), str(path)], capture_output=True, text=True, env=env, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert f"{len(lines) // 2} cases, 0 differ" in proc.stdout


# ----------------------------------------------------------------------------- the format
def puzzle_text(rows, cols, n, wrap, palette, index, locked, holes, start) -> str:
    """The checker's <puzzle>: palette a list of offset tuples, index None (uniform) or
    each tile's entry; locked / holes flat 0/1 sequences or None; start flat values."""
    out = [rows, cols, n, int(bool(wrap)), int(index is not None), len(palette)]
    for offs in palette:
        out.append(len(offs))
        for dr, dc in offs:
            out += [dr, dc]
    words = [str(v) for v in out]
    for tag, mask in (("L", locked), ("H", holes)):
        words.append(tag)
        words.append("".join(str(int(v)) for v in mask) if mask is not None and any(mask) else "-")
    words.append("I")
    words += ["-"] if index is None else [str(int(i)) for i in index]
    words.append("S")
    words += [str(int(v)) for v in start]
    return " ".join(words)


def decoded_text(board: ml.Board, start: np.ndarray) -> str:
    """<puzzle> of a decoded board: the palette in the order tiles first use it."""
    rows, cols = board.shape
    if board.mixed is None:
        palette, index = [tuple(board.pattern)], None
    else:
        palette, index, seen = [], [], {}
        for row in board.mixed:
            for offs in row:
                offs = tuple(offs)
                if offs not in seen:
                    seen[offs] = len(palette)
                    palette.append(offs)
                index.append(seen[offs])
    return puzzle_text(
        rows,
        cols,
        board.states,
        board.wrap,
        palette,
        index,
        board.locked.reshape(-1),
        board.holes.reshape(-1),
        np.asarray(start).reshape(-1),
    )


def c_bytes(code: str) -> str:
    """A str as the C reads it (what the binding hands over), in hex."""
    return code.encode("utf-8", "surrogatepass").replace(b"\0", b"\xc0\x80").hex()


def decode_case(code: str) -> list[str]:
    try:
        board, start = code_oracle.decode(code)
        want = "= " + decoded_text(board, start)
    except ValueError as e:
        want = f"! {e}"
    return [f"D {c_bytes(code)}", want]


# ----------------------------------------------------------------------------- puzzles
NAMES = list(PATTERNS)


def random_offsets(rng: random.Random) -> tuple:
    r = rng.random()
    if r < 0.1:
        return ()
    if r < 0.25:  # a named pattern spelled out, maybe reordered (then it is not named)
        offs = list(PATTERNS[rng.choice(NAMES)])
        if rng.random() < 0.5:
            rng.shuffle(offs)
        return tuple(offs)
    if r < 0.3:  # at the edges of a signed byte, or past them
        lo, hi = (-128, 127) if rng.random() < 0.7 else (-130, 130)
        return tuple((rng.randint(lo, hi), rng.randint(lo, hi)) for _ in range(rng.randint(1, 4)))
    if r < 0.31:  # too many to write (or just enough)
        return tuple(
            (rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(rng.choice((255, 256, 300)))
        )
    k = rng.randint(1, 10)
    return tuple((rng.randint(-2, 2), rng.randint(-2, 2)) for _ in range(k))


def random_pattern(rng: random.Random):
    """(what Board.grid takes, its offsets)."""
    if rng.random() < 0.5:
        name = rng.choice(NAMES)
        return name, PATTERNS[name]
    offs = random_offsets(rng)
    return offs, offs


def random_puzzle(rng: random.Random, n: int | None = None):
    """(board, start, the checker's <puzzle>) or None when Board.grid refuses it."""
    big = rng.random() < 0.05
    rows = rng.randint(1, 40 if big else 9)
    cols = rng.randint(1, 40 if big else 9)
    if rng.random() < 0.01:
        rows, cols = rng.choice(((255, 1), (1, 255), (256, 1), (2, 256), (255, 3)))
    n = n if n is not None else (rng.randint(2, 9) if rng.random() < 0.7 else rng.randint(2, 255))
    tiles = rows * cols
    if rng.random() < 0.3:  # mixed: a palette (repeats and unused entries allowed)
        size = rng.randint(1, 6) if rng.random() < 0.9 else rng.randint(200, 300)
        entries = [random_pattern(rng) for _ in range(size)]
        index = [rng.randrange(size) for _ in range(tiles)]
        if size > 6 and tiles >= 256 and rng.random() < 0.5:
            index = [t % size for t in range(tiles)]
        given = [[entries[index[r * cols + c]][0] for c in range(cols)] for r in range(rows)]
        palette = [e[1] for e in entries]
    else:
        given, offs = random_pattern(rng)
        palette, index = [offs], None
    locked = holes = None
    if rng.random() < 0.3:
        locked = [int(rng.random() < 0.2) for _ in range(tiles)]
    if rng.random() < 0.3:
        holes = [int(rng.random() < (0.2 if rng.random() < 0.9 else 1.0)) for _ in range(tiles)]
        if locked is not None:
            holes = [h and not lk for h, lk in zip(holes, locked)]
    start = [rng.randrange(n) for _ in range(tiles)]
    kw = {"wrap": rng.random() < 0.3}
    if locked is not None:
        kw["locked"] = np.array(locked, bool).reshape(rows, cols)
    if holes is not None:
        kw["holes"] = np.array(holes, bool).reshape(rows, cols)
    try:
        board = ml.Board.grid(rows, cols, n, given, **kw)
    except ValueError:
        return None
    text = puzzle_text(rows, cols, n, kw["wrap"], palette, index, locked, holes, start)
    return board, np.array(start).reshape(rows, cols), text


def broken(code: str, rng: random.Random) -> list[str]:
    """Broken variants of a code."""
    out = [
        code[: rng.randrange(len(code))],
        code + rng.choice("AQw-_"),
        code[1:],
        f" \t{code}\n",
        code.swapcase(),
        code + "A" * rng.randint(1, 4),
    ]
    for _ in range(3):
        i = rng.randrange(len(code))
        out.append(
            code[:i]
            + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            + code[i + 1 :]
        )
    i = rng.randrange(len(code))
    out.append(
        code[:i]
        + rng.choice(
            [
                "=",
                "+",
                "/",
                " ",
                "\x00",
                "é",
                "\u200b",
                "\ud800",
                "😀",
                "'",
                '"',
                "\\",
                "\x85",
                "\u3000",
            ]
        )
        + code[i:]
    )
    return out


# ----------------------------------------------------------------------------- tests
# 7 s: thousands of random codes through the sanitized C build (the golden and odd
# codes stay in the default run)
@pytest.mark.heavy
def test_codes_encode_and_decode_as_python_on_random_puzzles(checker, tmp_path):
    rng = random.Random(33)
    lines: list[str] = []
    encoded = failed = 0
    plans = [n for n in range(2, 256)] + [256] + [None] * 2500
    for n in plans:
        made = random_puzzle(rng, n)
        if made is None:
            continue
        board, start, text = made
        try:
            code = code_oracle.encode(board, start)
            lines += [f"E {text}", f"= {code}"]
        except ValueError as e:
            lines += [f"E {text}", f"! {e}"]
            failed += 1
            continue
        encoded += 1
        lines += decode_case(code)
        for b in broken(code, rng):
            lines += decode_case(b)
    assert encoded > 2000 and failed > 20  # both sides of encode are exercised
    run(checker, lines, tmp_path)


def test_golden_and_odd_codes_decode_as_python(checker, tmp_path):
    golden = json.loads((ROOT / "js" / "test" / "golden" / "codes.json").read_text())
    codes = [c["code"] for c in golden["codes"]] + [c["code"] for c in golden["fuzz"]]
    rng = random.Random(34)
    for c in list(codes[: len(golden["codes"])]):
        codes += broken(c, rng)
    codes += [
        "",
        " ",
        "\n\t",
        "A",
        "AA",
        "AAA",
        "AAAA",
        "A" * 120_000,
        "A" * 120_001,
        "é" * 120_001,
        "AQADAwMAaCFAvSnc5Q",
        "\u3000AQADAwMAaCFAvSnc5Q\x85",
        "AQAD AwMA",
        "AQADAwMAaCFAvSnc5Q=",
        "\x00",
        "\ud800",
        "\udcff" + "A" * 8,
    ]
    # every short body: random bytes with a valid checksum, to reach every check
    for _ in range(4000):
        body = bytes(
            [
                1,
                rng.choice([0, 1, 2, 4, 6, 8, 16, 18, 20, 24, 32, rng.randrange(256)]),
                rng.randint(0, 4),
                rng.randint(0, 4),
                rng.randint(0, 6),
            ]
        )
        body += bytes(
            rng.randrange(256) if rng.random() < 0.5 else rng.randrange(4)
            for _ in range(rng.randint(0, 12))
        )
        payload = body + zlib.crc32(body).to_bytes(4, "big")
        codes.append(base64.urlsafe_b64encode(payload).rstrip(b"=").decode())
    lines: list[str] = []
    for c in codes:
        lines += decode_case(c)
    # the golden file's own answers (written by tests/js/js_golden.py): each board and
    # start encodes to its code, each broken code fails with its message
    for g in golden["codes"]:
        board = ml.Board.from_dict(g["board"])
        lines += [f"E {decoded_text(board, np.array(g['start']))}", f"= {g['code']}"]
    for g in golden["fuzz"]:
        if "message" in g:
            lines += [f"D {c_bytes(g['code'])}", f"! {g['message']}"]
        else:  # a code that decodes: to its board and start
            board = ml.Board.from_dict(g["board"])
            want = decoded_text(board, np.array(g["start"]))
            lines += [f"D {c_bytes(g['code'])}", f"= {want}", f"E {want}", f"= {g['decodes_to']}"]
    messages = {line for line in lines[1::2] if line.startswith("!")}
    assert len({m.split(" (")[0][:40] for m in messages}) > 20  # many different checks reached
    run(checker, lines, tmp_path)
