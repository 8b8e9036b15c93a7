"""JavaScript's generate (the C library's ml_generate through js/src/capi.js: the options
read by js/src/generate.js, the board's settings by Board.grid and handed over as an
ml_grid) against Python's modlights.generate, on the settings the golden files do not
hold: mixed patterns (names and custom offsets in one palette), fixed holes and locked
tiles as positions and as masks with counts on top, wrap, n from 2 to 7. Each case: the
same code, min_taps, proven, difficulty and to_dict. In the default run: one node
process, eight puzzles, about 0.5 s."""
from __future__ import annotations

import json
import os
import re
import subprocess

import modlights as ml

MIXED = [["cross", "square", "knight", "cross", "cross"],
         ["cross", "cross", "cross", "cross", "vertical"],
         [[(0, 0), (1, 1)], "diagonal", "diagonal", "horizontal", "diagonal"],
         ["cross", "cross", "cross", "cross", [(0, 0), (-1, 0), (0, 2)]]]
MASK = [[r == 1 and c == 2 for c in range(5)] for r in range(4)]

CASES = [
    dict(rows=4, cols=5, states=3, pattern=MIXED, difficulty="hard", seed=3),
    dict(rows=4, cols=5, states=2, pattern=MIXED, holes=[(0, 0)], seed=4),
    dict(rows=4, cols=5, states=5, pattern=MIXED, locked=MASK, holes=2, unique=False,
         seed="mixed"),
    dict(rows=4, cols=5, states=4, holes=MASK, locked=1, difficulty="easy", seed=5),
    dict(rows=5, cols=5, states=2, holes=[(2, 2), (0, 4)], locked=3, difficulty="expert",
         seed=6),
    dict(rows=3, cols=6, states=6, pattern=[(0, 0), (0, 1), (1, 0), (-1, -1)], wrap=True,
         unique=False, seed=7),
    dict(rows=4, cols=4, states=7, pattern="knight", locked=[(0, 0)], holes=[(3, 3)],
         unique=False, seed=8),
    dict(rows=6, cols=4, states=2, pattern=[["square", "cross", "cross", "square"]] * 6,
         wrap=True, seed=9),
]

# settings no puzzle meets: the same refusal (IMPOSSIBLE), Python's message in
# JavaScript's words (unique: true for unique=True); positions given, even none, turn off
# the rule that locks as few tiles as make the kernel trivial
ERRORS = [
    dict(rows=4, cols=4, seed=1, locked=[]),
    dict(rows=4, cols=4, seed=1, holes=[[False] * 4] * 4),
    dict(rows=5, cols=5, holes=1, locked=0, seed=2,
         pattern=[["cross", "square", "cross", "cross", "knight"]] * 5),
]

SCRIPT = """
import { init, generate } from %s;
const cases = JSON.parse(process.argv[1]);
await init();
const out = cases.map((kw) => {
  let p;
  try { p = generate(kw); } catch (e) { return { error: `${e.code} ${e.message}` }; }
  return { code: p.code, min_taps: p.minTaps, proven: p.proven, difficulty: p.difficulty,
    dict: p.toDict() };
});
console.log(JSON.stringify(out));
"""


def _js_words(message: str) -> str:
    return re.sub(r"\b(\w+)=(True|False|k)\b",
                  lambda m: f"{m[1]}: {m[2] if m[2] == 'k' else m[2].lower()}", message)


def _python(kw: dict) -> dict:
    try:
        p = ml.generate(**kw)
    except ValueError as e:
        return {"error": f"IMPOSSIBLE {_js_words(str(e))}"}
    return {"code": p.code, "min_taps": p.min_taps, "proven": p.proven,
            "difficulty": p.difficulty, "dict": json.loads(json.dumps(p.to_dict()))}


def test_generate_matches_python_on_mixed_boards_and_masks(node, js_dir):
    cases = CASES + ERRORS
    want = [_python(kw) for kw in cases]
    assert sum("error" in w for w in want) == len(ERRORS)
    entry = json.dumps("file://" + os.path.join(js_dir, "src", "index.js"))
    proc = subprocess.run([node, "--input-type=module", "-e", SCRIPT % entry,
                           json.dumps(cases)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout)
    for kw, g, w in zip(cases, got, want):
        assert g == w, kw
