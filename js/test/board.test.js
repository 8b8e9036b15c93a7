import { test } from "node:test";
import assert from "node:assert/strict";
import { Board } from "../src/board.js";
import { InputError } from "../src/errors.js";
import { PATTERNS } from "../src/patterns.js";
import { golden } from "../test-helpers/golden.js";

const G = golden("boards.json");

function check(b, e) {
  assert.deepEqual(b.toDict(), e.dict);
  assert.equal(JSON.stringify(b.toDict()), e.dict_json);
  assert.equal(b.states, e.states);
  assert.deepEqual(b.shape, e.shape);
  assert.equal(b.nCells, e.n_cells);
  assert.equal(b.nTaps, e.n_taps);
  assert.deepEqual(b.cells, e.cells);
  assert.deepEqual(b.taps, e.taps);
  assert.deepEqual(b.matrix(), e.matrix);
  for (const p of e.press) assert.deepEqual(b.press(p.state, p.pos, p.times), p.result);
  for (const a of e.apply) assert.deepEqual(b.apply(a.state, a.taps), a.result);
  const back = Board.fromDict(e.dict);
  assert.ok(back.equals(b));
  assert.equal(JSON.stringify(back.toDict()), e.dict_json);
}

test("grid boards equal Python's: dicts byte for byte, cells, taps, A, press, apply", () => {
  assert.ok(G.grids.length >= 10);
  for (const e of G.grids) {
    const [rows, cols, kw] = e.args;
    check(Board.grid(rows, cols, kw), e);
  }
});

test("graph boards equal Python's", () => {
  for (const e of G.graphs) {
    const [effects, states, nCells] = e.args;
    check(Board.fromEffects(effects, states, nCells), e);
  }
});

test("PATTERNS are Python's, in order", () => {
  const mixedCase = G.grids.find((e) => Array.isArray(e.dict.pattern) &&
    Array.isArray(e.dict.pattern[0]) && typeof e.dict.pattern[0][0] === "string");
  assert.ok(mixedCase);
  assert.deepEqual(Object.keys(PATTERNS), ["cross", "diagonal", "square", "horizontal",
    "vertical", "knight"]);
  assert.deepEqual(PATTERNS.cross, [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]);
  assert.equal(PATTERNS.knight.length, 9);
  assert.throws(() => { PATTERNS.cross = []; });
});

test("spec() describes the board for the solver core", () => {
  const b = Board.grid(3, 4, { states: 5, pattern: "diagonal", locked: [[0, 1]],
    holes: [[2, 3]], wrap: true });
  const s = b.spec();
  assert.equal(s.kind, "grid");
  assert.deepEqual([s.rows, s.cols, s.states, s.wrap], [3, 4, 5, true]);
  assert.deepEqual(s.offsets, PATTERNS.diagonal);
  assert.equal(s.mixed, null);
  assert.ok(s.locked instanceof Uint8Array && s.holes instanceof Uint8Array);
  assert.equal(s.locked[1], 1);
  assert.equal(s.holes[11], 1);
  assert.equal(s.locked.reduce((a, v) => a + v, 0) + s.holes.reduce((a, v) => a + v, 0), 2);
  const m = Board.grid(2, 2, { pattern: [["cross", "square"], [[[0, 0]], "knight"]] }).spec();
  assert.equal(m.offsets, null);
  assert.equal(m.mixed.length, 4);
  assert.deepEqual(m.mixed[2], [[0, 0]]);
  assert.deepEqual(m.mixed[1], PATTERNS.square);
  const g = Board.fromEffects([[0, 1], [1, 1]], 3).spec();
  assert.deepEqual(g, { kind: "graph", states: 3, nCells: 2, effects: [[0, 1], [1, 1]] });
});

test("inputs are not modified; typed arrays are accepted", () => {
  const b = Board.grid(2, 3, { states: 3 });
  const s = [[0, 1, 2], [2, 1, 0]];
  const copy = JSON.stringify(s);
  const out = b.press(s, [0, 1], 2);
  assert.equal(JSON.stringify(s), copy);
  assert.deepEqual(b.press(Uint8Array.from(s.flat()), [0, 1], 2), out);
  assert.deepEqual(b.apply(s, [[0, 2, 0], [0, 0, 0]]), out);
});

test("one state reader: press, apply, solve, solvable and hint take the same inputs", async () => {
  const { Solver } = await import("../src/solver.js");
  const { loadCore } = await import("../src/core.js");
  await loadCore();
  const b = Board.grid(3, 3, { states: 5 });
  const s = Solver.createSync(b);
  const ints = [[1, 0, 0], [0, 0, 0], [0, 0, 0]];
  const mixed = [[true, false, 0n], [0, 2 ** 60 * 5, -5], [10, 0, 1e20]];  // Python accepts these
  assert.deepEqual(b.press(mixed, [1, 1]), b.press(ints, [1, 1]));
  assert.deepEqual(s.solve(mixed).taps, s.solve(ints).taps);
  assert.equal(s.solvable(mixed), true);
  assert.deepEqual(s.hint(mixed), s.hint(ints));
  assert.deepEqual(s.solve(ints, { target: mixed }).length, 0);
  s.dispose();
});

test("a Solver's spec is checked as Board.grid checks it (offsets do not wrap mod 2^32)", async () => {
  const { Solver } = await import("../src/solver.js");
  const { loadCore } = await import("../src/core.js");
  await loadCore();
  for (const offsets of [[[2 ** 32, 0]], [[0, 2 ** 32 + 1]], [[-(2 ** 31), 0]], [[2 ** 20 + 1, 0]]]) {
    const want = (() => {
      try { Board.grid(2, 2, { pattern: offsets }); } catch (e) { return e.message; }
      return "(no error)";
    })();
    assert.throws(() => Solver.createSync({ kind: "grid", rows: 2, cols: 2, states: 2, offsets }),
      (e) => e instanceof InputError && e.message === want, JSON.stringify(offsets));
  }
  const mixed = Array(4).fill([[0, 0]]);
  mixed[3] = [[0, 4096]];
  assert.throws(() => Solver.createSync({ kind: "grid", rows: 2, cols: 2, states: 2, mixed }),
    /pattern offset \[0, 4096\] reaches further than 1024 tiles/);
  assert.throws(() => Solver.createSync({ kind: "graph", states: 2, nCells: 2, effects: [[2 ** 32]] }),
    /cell index 4294967296 out of range/);
  // a good spec still gives the Board's answers
  const s = Solver.createSync(Board.grid(2, 2, { pattern: [[0, 0], [1, 0]] }).spec());
  assert.equal(s.nullity, Solver.createSync(Board.grid(2, 2, { pattern: [[0, 0], [1, 0]] })).nullity);
});

test("grids past MAX_TILES: kept by shape and pattern as in Python (the Solver answers " +
  "nullity, rank and kernelSize); graph boards of many cells are cheap", async () => {
  const { Solver } = await import("../src/solver.js");
  const big = Board.grid(12000, 12000);
  assert.deepEqual(big.toDict(), { rows: 12000, cols: 12000, states: 2, pattern: "cross",
    locked: [], holes: [], wrap: false });
  assert.equal(big.nTaps, 144000000);
  const s = await Solver.create(big);               // the algebraic engine: |ker A| = 1
  assert.deepEqual([s.nullity, s.rank, s.kernelSize, s.plan.engine],
    [0, 144000000, 1n, "algebraic-cross"]);
  const perTile = (e) => e instanceof InputError && e.code === "TOO_LARGE" &&
    /of this 12000x12000 board would need .* GiB/.test(e.message);
  assert.throws(() => big.cells, perTile);
  assert.throws(() => s.solve([[0]]), perTile);
  assert.throws(() => big.spec(), perTile);
  // Python refuses a giant board that is not uniform, and one no structured engine takes
  assert.throws(() => Board.grid(12000, 12000, { holes: [[0, 0]] }), (e) =>
    e.code === "TOO_LARGE" && /allowed only for uniform boards/.test(e.message));
  await assert.rejects(Solver.create(Board.grid(2 ** 20, 2 ** 20, { pattern: "knight" })),
    (e) => e instanceof InputError && e.code === "TOO_LARGE" &&
      /is solved only by the algebraic engine/.test(e.message));
  const t = performance.now();
  const g = Board.fromEffects([], 2, 2 ** 27);
  assert.ok(performance.now() - t < 500, `${performance.now() - t} ms`);
  assert.equal(g.nCells, 2 ** 27);
  assert.deepEqual(g.taps, []);
  assert.deepEqual(g.toDict(), { effects: [], states: 2, n_cells: 2 ** 27 });
  const h = Board.fromEffects([[0, 2], [1]], 3, 4);
  assert.deepEqual(h.cells, [0, 1, 2, 3]);
  assert.deepEqual(h.taps, [0, 1]);
  assert.deepEqual(h.press([0, 0, 0, 0], 0), [1, 0, 1, 0]);
  assert.deepEqual(h.apply([0, 0, 0, 0], [1, 2]), [1, 2, 1, 0]);
});

test("a Board is the C board: it holds no WebAssembly memory, and the C library's " +
  "refusals come in JavaScript's words", async () => {
  const { liveBytes, loadCore } = await import("../src/core.js");
  await loadCore();
  const before = liveBytes();
  const boards = [Board.grid(6, 5, { states: 3, locked: [[0, 0]], holes: [[5, 4]], wrap: true }),
    Board.grid(2, 2, { pattern: [["cross", "knight"], [[[0, 0], [0, 1]], "square"]] }),
    Board.fromEffects([[0, 1], [1, 1, 2]], 4), Board.fromDict({ rows: 3, cols: 4, states: 5 })];
  for (const b of boards) {
    const zeros = b.isGrid ? Array.from({ length: b.shape[0] }, () => new Array(b.shape[1]).fill(0))
      : new Array(b.nCells).fill(0);
    b.press(zeros, b.taps[b.nTaps - 1], 2);
    b.apply(zeros, b.fromTapVector(new Array(b.nTaps).fill(1)));
    b.matrix();
    b.column(0);
    assert.ok(b.equals(Board.fromDict(b.toDict())));
  }
  assert.equal(liveBytes(), before, "Boards made and played hold no C heap blocks");
  const cases = [
    [() => Board.grid(3, 3, { pattern: "nope" }), "INVALID_VALUE", "unknown pattern 'nope': use " +
      "one of 'cross', 'diagonal', 'square', 'horizontal', 'vertical', 'knight', or an Array " +
      "of [dr, dc] offsets"],
    [() => Board.grid(3, 3, { locked: [[3, 0]] }), "OUT_OF_RANGE",
      "locked [3, 0] is off the board: rows 0..2, cols 0..2"],
    [() => Board.grid(2, 2, { pattern: [[0, 1025]] }), "OUT_OF_RANGE",
      "pattern offset [0, 1025] reaches further than 1024 tiles"],
    [() => Board.fromDict({ rows: 3, cols: 3, pattern: 7 }), "INVALID_VALUE",
      "pattern must be a name, an Array of [dr, dc] pairs or a 3x3 nested Array of those, got a number"],
    [() => Board.fromDict({ rows: 3, cols: 3, states: 2n ** 70n }), "OUT_OF_RANGE",
      "states must be from 2 to 255, got 1180591620717411303424"],
    [() => boards[0].press([[0, 0, 0, 0, 0]].concat(new Array(5).fill([0, 0, 0, 0, 0])), [5, 4]),
      "INVALID_VALUE", "cannot tap [5, 4]: it is a hole"],
    [() => boards[0].cellIndex([6, 0]), "OUT_OF_RANGE",
      "cell position [6, 0] is off the board: rows 0..5, cols 0..4"],
  ];
  for (const [f, code, message] of cases) {
    assert.throws(f, (e) => e instanceof InputError && e.code === code && e.message === message,
      message);
  }
  assert.equal(liveBytes(), before, "refusals leave no C heap blocks");
});
