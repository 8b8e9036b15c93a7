"""Replay fuzz cases: ``python fuzz/replay.py PATH...`` (files or directories).

A ``.json`` file is a case (see ``fuzz/cases.py``); any other file is a raw fuzzer
input, decoded with ``cases.decode``. For each case it prints one JSON line before
running it (``{"start": path}``) and one after (``{"case": path, "result": "ok" |
"refused" | "finding", "detail": ...}``), flushed, so a caller that sees the process
die knows which case killed it (tests/test_fuzz_corpus.py, .ci/sanitize).

Exit status: 0 when every case was ok or refused, 1 when some case was a finding,
2 on bad arguments; a crash ends the process with its signal (or the sanitizer's
abort) at the case that caused it.
"""
from __future__ import annotations

import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402


def load(path: str) -> dict:
    """The case a corpus file holds (JSON), or the case a raw fuzzer input decodes to."""
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        return {k: case[k] for k in ("board", "method", "seed")}
    with open(path, "rb") as f:
        return cases.decode(f.read())


def files(paths) -> list[str]:
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p)
                          if not f.startswith(".") and f != "README.md")
        else:
            out.append(p)
    return out


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    for path in files(argv):
        print(json.dumps({"start": path}), flush=True)
        try:
            result, detail = cases.check(load(path)), ""
        except cases.Finding as e:
            result, detail = "finding", "".join(
                traceback.format_exception(e.__cause__ or e)) if e.__cause__ else str(e)
            bad += 1
        print(json.dumps({"case": path, "result": result, "detail": detail}), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
