import { before, test } from "node:test";
import assert from "node:assert/strict";
import { init } from "../src/core.js";
import { Board } from "../src/board.js";
import {
  Puzzle, tapBands, difficultyOf, starsLimits, starsForTaps, TAP_FLOOR,
} from "../src/puzzle.js";
import { InputError } from "../src/errors.js";
import { golden } from "../test-helpers/golden.js";
import { pythonWord } from "../test-helpers/wording.js";

before(async () => { await init(); });

test("puzzle codes are Python's, byte for byte, and decode back", () => {
  const codes = golden("codes.json").codes;
  assert.ok(codes.length >= 10);
  for (const e of codes) {
    const b = Board.fromDict(e.board);
    const p = new Puzzle(b, e.start);
    assert.equal(p.code, e.code);
    const q = Puzzle.fromCode(e.code);
    assert.equal(q.code, e.code);
    assert.ok(q.equals(p));
    assert.deepEqual(q.board.toDict(), e.board);
    assert.deepEqual(q.start, e.start);
    assert.ok(Puzzle.fromCode(`  ${e.code}\n`).equals(p));
  }
});

test("every single-character change of a code is refused or decodes to itself", () => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (const { code } of golden("codes.json").codes.slice(0, 4)) {
    for (let i = 0; i < code.length; i++) {
      for (const ch of "A_z9") {
        const c = code.slice(0, i) + ch + code.slice(i + 1);
        if (c === code) continue;
        try {
          assert.equal(Puzzle.fromCode(c).code, c);
        } catch (e) {
          assert.ok(e instanceof InputError && e.code === "INVALID_PUZZLE_CODE", String(e));
        }
      }
    }
    assert.ok(alphabet.includes(code[0]));
  }
});

test("tap bands equal Python's", () => {
  const bands = golden("puzzles.json").bands;
  assert.ok(bands.length >= 50);
  for (const e of bands) {
    const b = tapBands(e.n_taps, e.states);
    assert.deepEqual(b, e.bands, `${e.n_taps} ${e.states}`);
    assert.equal(b.easy[0], TAP_FLOOR);
    for (let m = 0; m < b.expert[1] + 2; m++) {
      const d = difficultyOf(m, e.n_taps, e.states);
      const [lo, hi] = b[d];
      assert.ok((lo <= m && m <= hi) || (d === "easy" && m < lo) || (d === "expert" && m > hi));
    }
  }
});

test("stars", () => {
  assert.deepEqual(starsLimits(0), { 3: 0, 2: 2, 1: 5 });
  assert.deepEqual(starsLimits(13), { 3: 13, 2: 17, 1: 26 });
});

test("mutated codes and random bodies: Python's answer or Python's message, every one", () => {
  const fuzz = golden("codes.json").fuzz;
  assert.ok(fuzz.length >= 800);
  for (const e of fuzz) {
    if ("message" in e) {
      assert.throws(() => Puzzle.fromCode(e.code), (err) => {
        assert.ok(err instanceof InputError, `${err}`);
        assert.equal(err.code, "INVALID_PUZZLE_CODE", err.message);
        if (pythonWord(e.message) === null) {
          assert.equal(err.message, e.message, e.code);
        } else {
          // Python's text shows a position as a tuple: JavaScript as an Array
          assert.equal(pythonWord(err.message), null, err.message);
          assert.equal(err.message, e.message.replace(/\((\d+), (\d+)\)/g, "[$1, $2]"));
        }
        return true;
      });
    } else {
      const p = Puzzle.fromCode(e.code);
      assert.equal(p.code, e.decodes_to);
      assert.deepEqual(p.board.toDict(), e.board);
      assert.deepEqual(p.start, e.start);
    }
  }
});

test("Puzzle.dispose frees its solver's WebAssembly memory and keeps its figures", async () => {
  const { liveBytes, loadCore } = await import("../src/core.js");
  await loadCore();
  const { code } = golden("puzzles.json").generate[0];
  const before = liveBytes();
  const p = Puzzle.fromCode(code);
  const m = p.minTaps, stars = { ...p.stars }, diff = p.difficulty;
  assert.equal(liveBytes(), before, "the measured figures hold no WebAssembly memory");
  assert.ok(p.solver.nullity >= 0);
  assert.ok(liveBytes() > before, "the solver holds WebAssembly memory");
  p.dispose();
  assert.equal(liveBytes(), before);
  assert.equal(p.minTaps, m);
  assert.deepEqual({ ...p.stars }, stars);
  assert.equal(p.difficulty, diff);
  p.dispose();                                   // twice is harmless
});

test("codes, bands, stars and boards name init() when the core is not loaded (a platform " +
  "without synchronous loading: browsers); in node a Board loads it on first need", async () => {
  const { execFileSync } = await import("node:child_process");
  const { code } = golden("codes.json").codes[0];
  const url = JSON.stringify(new URL("../src/index.js", import.meta.url).href);
  const node = execFileSync(process.execPath, ["--input-type=module", "-e", `
    const m = await import(${url});
    const loaded = m.isLoaded();
    const p = new m.Puzzle(m.Board.grid(3, 3), [[1, 0, 0], [0, 0, 0], [0, 0, 0]]);
    console.log(loaded, m.Board.fromDict(p.board.toDict()).equals(p.board), m.isLoaded(),
      p.code === m.Puzzle.fromCode(p.code).code);`], { encoding: "utf8" });
  assert.equal(node.trim(), "false true true true");
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `
    delete process.getBuiltinModule;                  // as in a browser: no synchronous load
    const m = await import(${url});
    for (const f of [() => m.Board.grid(3, 3), () => m.Board.fromDict({ rows: 2, cols: 2 }),
      () => m.Board.fromEffects([[0]], 2), () => m.Puzzle.fromCode(${JSON.stringify(code)}),
      () => m.Puzzle.fromDict({ code: ${JSON.stringify(code)} }), () => m.tapBands(9, 2),
      () => m.difficultyOf(3, 9, 2), () => m.starsLimits(4)]) {
      try { f(); console.log("no error"); } catch (e) { console.log(e.code, e.message); }
    }
    await m.init();
    console.log(m.Board.grid(3, 3).nTaps, new m.Puzzle(m.Board.grid(2, 2), [[1, 0], [0, 0]]).bands !== undefined);`],
  { encoding: "utf8" });
  const lines = out.trim().split("\n");
  assert.equal(lines.length, 9, out);
  for (const line of lines.slice(0, 8)) {
    assert.match(line,
      /^CORE_NOT_LOADED \S.*: the WebAssembly core is not loaded yet: `await init\(\)`/);
  }
  assert.match(lines[0], /^CORE_NOT_LOADED Board\.grid: /);
  assert.equal(lines[8], "9 true");
});

test("bands and stars: integer arguments, else an InputError in JavaScript's words", () => {
  const cases = [
    [() => tapBands(1.5, 2), "INVALID_TYPE", "nTaps must be an integer, got a number (1.5)"],
    [() => tapBands(9, 300), "OUT_OF_RANGE", "states must be from 2 to 255, got 300"],
    [() => difficultyOf(-1, 9, 2), "OUT_OF_RANGE", "minTaps must be >= 0, got -1"],
    [() => starsLimits("3"), "INVALID_TYPE", "m must be an integer >= 0, got a string ('3')"],
    [() => starsForTaps(null, 3), "INVALID_TYPE",
      "limits must be an object { 3, 2, 1 }, got null"],
  ];
  for (const [f, code, message] of cases) {
    assert.throws(f, (e) => e instanceof InputError && e.code === code && e.message === message);
  }
  assert.equal(starsForTaps(starsLimits(13), 17), 2);
  assert.equal(starsForTaps({ 3: 13, 2: 17, 1: 26 }, 27), 0);
  assert.deepEqual(tapBands(-5, 2), tapBands(0, 2));
});

test("a board a code cannot hold: the package's codes and Python's messages", () => {
  const zeros = (b) => Array.from({ length: b.shape[0] }, () => new Array(b.shape[1]).fill(0));
  const offsets = Array.from({ length: 300 }, (_, i) => [(i % 20) - 10, Math.floor(i / 20) - 7]);
  const palette = Array.from({ length: 16 }, (_, r) =>
    Array.from({ length: 17 }, (_, c) => [[0, 0], [r, c + 1]]));
  const cases = [
    [Board.grid(1, 256), "OUT_OF_RANGE", "a puzzle code holds boards up to 255x255, got 1x256"],
    [Board.grid(2, 2, { holes: [[0, 0], [0, 1], [1, 0], [1, 1]] }), "INVALID_VALUE",
      "a board whose every tile is a hole has no puzzle code (a code needs at least one tile)"],
    [Board.grid(3, 3, { pattern: [[0, 0], [-200, 3]] }), "OUT_OF_RANGE",
      "a puzzle code holds offsets in -128..127, got [-200, 3]"],
    [Board.grid(3, 3, { pattern: offsets }), "OUT_OF_RANGE",
      "a puzzle code holds patterns of up to 255 offsets, got 300"],
    [Board.grid(16, 17, { pattern: palette }), "OUT_OF_RANGE",
      "a puzzle code holds mixed boards of up to 255 distinct patterns, got 272"],
  ];
  for (const [board, code, message] of cases) {
    assert.throws(() => new Puzzle(board, zeros(board)).code,
      (e) => e instanceof InputError && e.code === code && e.message === message, message);
  }
});
