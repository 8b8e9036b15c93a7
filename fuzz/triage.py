"""Turn the inputs the fuzzer saved (crash-*, timeout-*, oom-*, leak-* in
build/fuzz/artifacts/) into regression cases: ``python fuzz/triage.py [DIR]``.

Each input is decoded (``cases.decode``) and written as a readable JSON case,
tests/fuzz_corpus/found-<kind>-<sha1 prefix>.json, with a note naming the input; cases
already there are left alone. Prints one line a new case. The default test suite then
replays them (tests/test_fuzz_corpus.py).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402

CORPUS = os.path.join(os.path.dirname(HERE), "tests", "fuzz_corpus")


def main(argv: list[str]) -> int:
    src = argv[0] if argv else os.path.join(os.path.dirname(HERE), "build", "fuzz", "artifacts")
    new = 0
    for name in sorted(os.listdir(src)):
        kind = name.split("-", 1)[0]
        if kind not in ("crash", "timeout", "oom", "leak", "slow"):
            continue
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        case = cases.decode(data)
        key = hashlib.sha1(json.dumps(case, sort_keys=True).encode()).hexdigest()[:10]
        out = os.path.join(CORPUS, f"found-{kind}-{key}.json")
        if os.path.exists(out):
            continue
        case = {"note": f"found by fuzz/run ({kind}, input {name}, {data.hex()})", **case}
        with open(out, "w", encoding="utf-8") as f:
            json.dump(case, f, indent=1)
            f.write("\n")
        print(out)
        new += 1
    print(f"{new} new case(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
