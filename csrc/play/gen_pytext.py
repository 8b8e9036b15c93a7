"""Writes csrc/play/pytext_data.h: the Unicode tables of Python's str that the C of
csrc/play/pytext.c needs to give Python's answers (str.isprintable for repr(),
str.isspace for str.strip(), the decimal digits re's \\d matches), from the running
Python's unicodedata.

    python3 csrc/play/gen_pytext.py          write the file
    python3 csrc/play/gen_pytext.py --check  exit 1 when the file differs from what this
                                             Python would write

tests/play/test_play_native.py checks the file against the running Python when its
Unicode version is the file's.
"""

from __future__ import annotations

import pathlib
import sys
import unicodedata

OUT = pathlib.Path(__file__).with_name("pytext_data.h")


def ranges(pred) -> list[tuple[int, int]]:
    """Inclusive ranges of the code points >= 0x80 where pred holds."""
    out: list[list[int]] = []
    for c in range(0x80, 0x110000):
        if pred(chr(c)):
            if out and out[-1][1] == c - 1:
                out[-1][1] = c
            else:
                out.append([c, c])
    return [(a, b) for a, b in out]


def render() -> str:
    hidden = ranges(lambda ch: not ch.isprintable())
    spaces = [c for c in range(0x80, 0x110000) if chr(c).isspace()]
    zeros = [
        c
        for c in range(0x110000)
        if unicodedata.category(chr(c)) == "Nd" and unicodedata.digit(chr(c)) == 0
    ]
    for z in zeros:  # each Nd block is ten consecutive code points, 0..9
        assert all(unicodedata.digit(chr(z + i), None) == i for i in range(10)), hex(z)
    lines = [
        "/* pytext_data.h: Unicode tables of Python's str for csrc/play/pytext.c, written by",
        " * csrc/play/gen_pytext.py from Python's unicodedata (do not edit by hand). */",
        f'#define ML_PYTEXT_UNICODE "{unicodedata.unidata_version}"',
        "",
        "/* Code points >= 0x80 that str.isprintable() refuses (repr escapes them), as",
        " * inclusive ranges, sorted. */",
        "static const uint32_t ml_pytext_hidden[][2] = {",
    ]
    row: list[str] = []
    for a, b in hidden:
        row.append(f"{{0x{a:x}, 0x{b:x}}}")
        if len(row) == 4:
            lines.append("    " + ", ".join(row) + ",")
            row = []
    if row:
        lines.append("    " + ", ".join(row) + ",")
    lines += [
        "};",
        "",
        "/* Code points >= 0x80 that str.isspace() accepts (str.strip() removes them). */",
    ]
    lines.append("static const uint32_t ml_pytext_spaces[] = {")
    for i in range(0, len(spaces), 8):
        lines.append("    " + ", ".join(f"0x{c:x}" for c in spaces[i : i + 8]) + ",")
    lines += [
        "};",
        "",
        "/* The zeros of the decimal digits (category Nd: re's \\d), sorted; each is",
        " * followed by 1..9. */",
    ]
    lines.append("static const uint32_t ml_pytext_zeros[] = {")
    for i in range(0, len(zeros), 8):
        lines.append("    " + ", ".join(f"0x{c:x}" for c in zeros[i : i + 8]) + ",")
    lines += ["};", ""]
    return "\n".join(lines)


def main() -> int:
    text = render()
    if "--check" in sys.argv[1:]:
        if OUT.read_text() != text:
            print(
                f"{OUT} is not what Python {sys.version.split()[0]} (Unicode {unicodedata.unidata_version}) writes"
            )
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
