"""Seed inputs for the fuzzer: ``python fuzz/seeds.py DIR [PER_CLASS]``.

Raw inputs (what ``cases.decode`` reads) chosen because they decode into a class of
board worth starting from: custom patterns without the centre on the chase at n >= 5
(the class of issue 21), one-sided patterns, mixed per-tile patterns, tori, single rows
and columns, locks and holes together, graph boards, each method. They are drawn from a
fixed random stream and kept when they decode into the class, so the set is the same on
every run. Writes PER_CLASS (default 20) files a class, named <class>-<k>.
"""
from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402


def _offsets(b):
    p = b.get("pattern")
    if isinstance(p, list) and p and isinstance(p[0], list) and isinstance(p[0][0], int):
        return p
    return None


CLASSES = {
    "chase-no-centre": lambda c, b: c["method"] == "chase" and _offsets(b) is not None
    and [0, 0] not in _offsets(b) and b["states"] >= 5,
    "no-centre-pair": lambda c, b: _offsets(b) is not None and [0, 0] not in _offsets(b)
    and len({tuple(o) for o in _offsets(b)}) == 2,
    "one-sided": lambda c, b: _offsets(b) is not None and all(o[0] >= 0 for o in _offsets(b))
    and any(o[0] > 0 for o in _offsets(b)),
    "mixed": lambda c, b: b["kind"] == "grid" and isinstance(b["pattern"], list)
    and _offsets(b) is None,
    "torus": lambda c, b: b.get("wrap", False),
    "line": lambda c, b: b["kind"] == "grid" and min(b["rows"], b["cols"]) == 1,
    "locks-and-holes": lambda c, b: bool(b.get("locked")) and bool(b.get("holes")),
    "graph": lambda c, b: b["kind"] == "effects",
    **{f"method-{m}": (lambda m: lambda c, b: c["method"] == m)(m) for m in cases.METHODS},
}


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[0]
    per = int(argv[1]) if len(argv) > 1 else 20
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(21)
    for name, test in CLASSES.items():
        k = 0
        while k < per:
            data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(8, 64)))
            case = cases.decode(data)
            if test(case, case["board"]):
                with open(os.path.join(out, f"{name}-{k}"), "wb") as f:
                    f.write(data)
                k += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
