import { test } from "node:test";
import assert from "node:assert/strict";
import { generate } from "../src/generate.js";
import { daily, DAILY_SCHEME } from "../src/daily.js";
import { Puzzle } from "../src/puzzle.js";
import { solvers } from "../test-helpers/solvers.js";
import { golden } from "../test-helpers/golden.js";

// generate, daily and the puzzles' measurements, with the pure-JavaScript reference
// solver and with the WebAssembly Solver (when the tree has it): both must give
// Python's puzzles.
const SOLVERS = await solvers();

const G = golden("puzzles.json");

function same(p, e) {
  assert.equal(p.code, e.code);
  assert.equal(p.minTaps, e.min_taps);
  assert.equal(p.proven, e.proven);
  assert.equal(p.difficulty, e.difficulty);
  assert.deepEqual(p.stars, { 3: e.stars["3"], 2: e.stars["2"], 1: e.stars["1"] });
  assert.deepEqual(JSON.parse(JSON.stringify(p.toDict())), e.dict);
}

for (const { name, install } of SOLVERS) {
test(`daily gives Python's three puzzles for every golden date (${name})`, () => {
  install();
  assert.equal(DAILY_SCHEME, G.daily_scheme);
  const dates = Object.keys(G.daily);
  assert.ok(dates.length >= 30);
  for (const d of dates) {
    const ps = daily(d);
    assert.equal(ps.length, 3);
    ps.forEach((p, i) => same(p, G.daily[d][i]));
    assert.ok(ps[0].minTaps >= 3);
  }
  const [d0] = dates;
  assert.deepEqual(daily(new Date(`${d0}T23:59:00Z`)).map((p) => p.code),
    G.daily[d0].map((e) => e.code));
});

test(`generate gives Python's puzzle for the same arguments, 50 seeds (${name})`, () => {
  install();
  assert.equal(G.generate.length, 50);
  for (const e of G.generate) {
    const p = generate(e.kwargs);
    same(p, e);
    const q = Puzzle.fromCode(p.code);
    assert.ok(q.equals(p));
    assert.equal(q.minTaps, e.min_taps);
    assert.ok(Puzzle.fromDict(e.dict).equals(p));
    assert.ok(Puzzle.fromDict({ code: e.code }).equals(p));
  }
});

test(`numbers and BigInts give the same puzzles (${name})`, () => {
  install();
  const a = generate({ rows: 4, cols: 4, seed: 5 });
  const b = generate({ rows: 4, cols: 4, seed: 5n });
  assert.equal(a.code, b.code);
  assert.notEqual(generate({ rows: 4, cols: 4, seed: 6 }).code, a.code);
});

if (name === "wasm") {
  // Past the budget Python's minimal search is the greedy descent (budget 0) from the
  // canonical particular solution over the canonical kernel generators
  // (csrc/search/canon.h), which the WebAssembly core computes by the same C: the
  // same puzzles. (The pure-JavaScript reference solver has no canonical forms.)
  test("generate on kernels past the budget (greedy descent) gives Python's puzzle (wasm)",
    () => {
      install();
      assert.ok(G.generate_large_kernel.length > 0);
      for (const e of G.generate_large_kernel) same(generate(e.kwargs), e);
    });
}
}

test("daily reads date strings as Python does (the C library's ml_date_parse)", async () => {
  const { init } = await import("../src/core.js");
  const { parseDate } = await import("../src/daily.js");
  await init();
  // Python's modlights.daily on these texts (its messages, character for character);
  // the JavaScript copy this replaced refused the first two and showed \u200b unescaped
  const cases = [
    ["\u001c2026-11-22\u0085", "2026-11-22"],
    ["\uff12\uff10\uff12\uff16-11-22", "OUT_OF_RANGE bad date '\uff12\uff10\uff12\uff16-11-22': "
      + "Invalid isoformat string: '\uff12\uff10\uff12\uff16-11-22'"],
    ["x\u200by", "INVALID_VALUE date must be an ISO date 'YYYY-MM-DD', got 'x\\u200by'"],
    ["2026-11-22\0", "INVALID_VALUE date must be an ISO date 'YYYY-MM-DD', got '2026-11-22\\x00'"],
    [" 2024-02-29 ", "2024-02-29"],
    ["2026-02-29", "OUT_OF_RANGE bad date '2026-02-29': day is out of range for month"],
    ["0000-01-01", "OUT_OF_RANGE bad date '0000-01-01': year 0 is out of range"],
  ];
  for (const [text, want] of cases) {
    let got;
    try {
      got = parseDate(text);
    } catch (e) {
      got = `${e.code} ${e.message}`;
    }
    assert.equal(got, want, JSON.stringify(text));
  }
});
