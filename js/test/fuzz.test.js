import { test } from "node:test";
import assert from "node:assert/strict";
import { Board } from "../src/board.js";
import { Puzzle } from "../src/puzzle.js";
import { generate } from "../src/generate.js";
import { daily } from "../src/daily.js";
import { InputError } from "../src/errors.js";
import { assertPackageError } from "../test-helpers/wording.js";
import { SplitMix64 } from "../src/prng.js";
import { verify } from "../src/verify.js";
import { golden } from "../test-helpers/golden.js";
import { Solver, Solution, Interrupted } from "../src/solver.js";
import { SolverWorker, runInWorker } from "../src/worker.js";
import { loadCore } from "../src/core.js";
import { Unsolvable } from "../src/errors.js";

await loadCore();

/** A random JSON-like value (deterministic: SplitMix64). */
function junk(r, depth = 0) {
  const k = r.randbelow(depth > 2 ? 9 : 12);
  switch (k) {
    case 0: return null;
    case 1: return r.randbelow(2) === 1;
    case 2: return r.randbelow(7) - 2;
    case 3: return r.randbelow(300) - 20;
    case 4: return r.random() * 10 - 3;
    case 5: return ["cross", "knight", "", "x", "0", "2026-01-01", "AQA"][r.randbelow(7)];
    case 6: return [Infinity, NaN, -0, 2 ** 60, 1e300][r.randbelow(5)];
    case 7: return undefined;
    case 8: return 2n ** BigInt(r.randbelow(70));
    case 9: return Array.from({ length: r.randbelow(5) }, () => junk(r, depth + 1));
    case 10: return [[0, 0], [1, 1], [r.randbelow(5) - 1, r.randbelow(5) - 1]];
    default: {
      const keys = ["rows", "cols", "states", "pattern", "locked", "holes", "wrap", "effects",
        "n_cells", "board", "start", "code", "stars", "x"];
      const o = {};
      for (let i = r.randbelow(5); i > 0; i--) o[keys[r.randbelow(keys.length)]] = junk(r, depth + 1);
      return o;
    }
  }
}

/** Runs fn: an answer, or an InputError in JavaScript's words with a documented code. */
function onlyInputErrors(fn, what) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof InputError, `${what}: ${e && e.stack}`);
    assertPackageError(e, what);
  }
}

test("junk input gives an InputError in JavaScript's words or an answer, never another exception", () => {
  const r = new SplitMix64(24);
  const b = Board.grid(3, 3, { states: 3, locked: [[0, 0]], holes: [[2, 2]] });
  const g = Board.fromEffects([[0, 1], [1, 2]], 4);
  for (let i = 0; i < 3000; i++) {
    const a = junk(r);
    const c = junk(r);
    const d = junk(r);
    const show = () => JSON.stringify([a, c, d], (k, v) => (typeof v === "bigint" ? `${v}n` : v));
    onlyInputErrors(() => Board.grid(a, c, d), `grid ${show()}`);
    onlyInputErrors(() => Board.grid(3, 3, { states: a, pattern: c, locked: d }), `grid2 ${show()}`);
    onlyInputErrors(() => Board.grid(3, 4, { pattern: [[a, c, "cross", d], ["cross", "cross", "cross", "cross"], ["square", a, c, d]] }), `mixed ${show()}`);
    onlyInputErrors(() => Board.fromEffects(a, c, d), `effects ${show()}`);
    onlyInputErrors(() => Board.fromDict(a), `fromDict ${show()}`);
    onlyInputErrors(() => b.press(a, c, d), `press ${show()}`);
    onlyInputErrors(() => b.press([[1, 2, 3], [a, c, d], [0, 0, 0]], [1, 1]), `press2 ${show()}`);
    onlyInputErrors(() => b.apply(a, c), `apply ${show()}`);
    onlyInputErrors(() => g.press(a, c), `gpress ${show()}`);
    onlyInputErrors(() => g.apply([0, 1, 2], a), `gapply ${show()}`);
    onlyInputErrors(() => Puzzle.fromCode(a), `fromCode ${show()}`);
    onlyInputErrors(() => Puzzle.fromDict(a), `puzzleFromDict ${show()}`);
    onlyInputErrors(() => new Puzzle(b, a), `Puzzle ${show()}`);
    onlyInputErrors(() => daily(a), `daily ${show()}`);
    if (i % 10 === 0) {
      onlyInputErrors(() => generate({ rows: 3, cols: 3, states: a, locked: c, holes: d,
        seed: 1 }), `generate ${show()}`);
      onlyInputErrors(() => generate({ rows: 3, cols: 3, difficulty: a, pattern: c, seed: d }),
        `generate2 ${show()}`);
    }
  }
});

test("certificates with a value replaced by junk: an InputError or true, never another exception", () => {
  const r = new SplitMix64(7);
  const certs = golden("verify.json").cases.filter((c) => c.ok).map((c) => c.cert);
  for (let i = 0; i < 600; i++) {
    const cert = structuredClone(certs[r.randbelow(certs.length)]);
    // walk to a random nested container and replace one of its entries
    let node = cert;
    for (let depth = 0; depth < 6; depth++) {
      const keys = Object.keys(node);
      if (!keys.length) break;
      const key = keys[r.randbelow(keys.length)];
      const child = node[key];
      if (child !== null && typeof child === "object" && r.randbelow(3)) {
        node = child;
        continue;
      }
      node[key] = junk(r);
      break;
    }
    onlyInputErrors(() => verify(cert), `verify ${i}`);
  }
  for (let i = 0; i < 300; i++) onlyInputErrors(() => verify(junk(r)), `verify junk ${i}`);
});

/** One of `items`, or junk one time in `k`. */
function pick(r, items, k = 12) {
  return r.randbelow(k) === 0 ? junk(r) : items[r.randbelow(items.length)];
}

/** Sizes past 4096 (and within the limits) made 4096: this fuzz is about input
 * checks, not the time and memory of large boards (a Z/6 graph board of 2^26 cells
 * takes 14 s to refuse with RangeError: out of memory). */
function notHuge(v) {
  return (typeof v === "number" || typeof v === "bigint") && v > 4096 && v <= 2 ** 27 ? 4096 : v;
}

/** A spec object (Board#spec's form) with junk here and there: mostly small boards. */
function junkSpec(r) {
  const spec = junkSpec0(r);
  if (isMapping(spec)) for (const k of ["rows", "cols", "nCells"]) if (k in spec) spec[k] = notHuge(spec[k]);
  return spec;
}

function isMapping(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

function junkSpec0(r) {
  if (r.randbelow(8) === 0) return junk(r);
  const states = pick(r, [2, 3, 4, 5, 6, 255]);
  if (r.randbelow(3) === 0) {
    const nCells = pick(r, [0, 1, 3, 5, undefined, 2 ** 32, -1]);
    const effects = pick(r, [
      [], [[0]], [[0, 1], [1, 2], [2]], [[], []], [[0, 0, 0], [4]], [[2 ** 32]], [[-1]],
      Array.from({ length: 16 }, (_, j) => [j % 3]),
    ]);
    return { kind: pick(r, ["graph"], 10), states, nCells, effects };
  }
  const rows = pick(r, [1, 2, 3, 4, 7]);
  const cols = pick(r, [1, 2, 3, 5]);
  const offsets = pick(r, [
    [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]], [], [[0, 1]], [[0, 0], [0, 0]],
    [[2 ** 32, 0]], [[0, 2 ** 31]], [[-(2 ** 31), 5]], [[1025, 0]], [[0, 1024]], [[0, 0, 0]],
    [["0", 0]], [[true, 0]], [[0.5, 0]], [[2n ** 40n, 0n]], "cross", "knight", 5,
  ]);
  const size = Number.isSafeInteger(rows) && Number.isSafeInteger(cols) && rows > 0 && cols > 0 &&
    rows * cols < 100 ? rows * cols : 4;
  const mask = () => pick(r, [undefined, null, new Uint8Array(size),
    Uint8Array.from({ length: size }, (_, i) => (i % 3 === 1 ? 1 : 0)),
    Array.from({ length: size }, (_, i) => i % 2 === 0), new Uint8Array(size + 1), [[0, 0]]]);
  const spec = { kind: pick(r, ["grid"], 10), rows, cols, states, offsets, locked: mask(),
    holes: mask(), wrap: pick(r, [true, false, undefined]) };
  if (r.randbelow(4) === 0) {
    spec.mixed = Array.from({ length: r.randbelow(6) === 0 ? size - 1 : size }, () =>
      pick(r, [[[0, 0]], [], [[0, 1], [1, 0]], [[0, 4096]], [[2 ** 32, 1]], "cross"], 8));
  }
  return spec;
}

/** A state for a board of `shape` with junk here and there. */
function junkState(r, shape) {
  const v = () => pick(r, [0, 1, 2, -1, 7, 2 ** 53, true, 2n ** 70n], 8);
  switch (r.randbelow(6)) {
    case 0: return junk(r);
    case 1: return shape.length === 2
      ? Array.from({ length: shape[0] }, () => Array.from({ length: shape[1] }, v))
      : Array.from({ length: shape[0] }, v);
    case 2: return shape.length === 2
      ? Array.from({ length: shape[0] }, () => Array.from({ length: shape[1] + r.randbelow(2) }, v))
      : Array.from({ length: shape[0] + r.randbelow(2) }, v);
    case 3: return new Uint8Array(shape.reduce((p, q) => p * q, 1));
    case 4: return shape.length === 2
      ? Array.from({ length: shape[0] }, () => new Uint8Array(shape[1]).fill(1))
      : Array.from({ length: shape[0] }, () => 0);
    default: return shape.length === 2 ? Array.from({ length: shape[0] }, () =>
      Array.from({ length: shape[1] }, () => junk(r))) : Array.from({ length: shape[0] }, () => junk(r));
  }
}

/** Solve options with junk values (the keys Solver.solve reads, and an unknown one). */
function junkOptions(r) {
  if (r.randbelow(6) === 0) return junk(r);
  const o = {};
  for (const k of ["minimal", "budget", "target", "x"]) if (r.randbelow(2)) o[k] = junk(r);
  if (r.randbelow(3) === 0) o.budget = pick(r, [0, 1, 100, 2 ** 70, 2n ** 80n, -1, 1.5], 10);
  if (r.randbelow(3) === 0) o.target = pick(r, [0, 1, -1, 2n ** 70n], 5);
  return o;
}

/** opts with a budget past 10^4 made 10^4 when the kernel has more than 2^12 elements
 * (a budget of 2^70 on a kernel of 2^15 is a search of seconds, not a check of input). */
function boundedBudget(opts, kernelSize) {
  if (isMapping(opts) && kernelSize > 4096n && (typeof opts.budget === "number" ||
      typeof opts.budget === "bigint") && opts.budget > 10000) {
    return { ...opts, budget: 10000 };
  }
  return opts;
}

/** Every public read of a Solution, checked for consistency with its taps. */
function readSolution(sol) {
  assert.ok(sol instanceof Solution);
  const moves = sol.moves();
  assert.equal(moves.length, sol.length);
  const first = sol.firstMove();
  assert.deepEqual(first, moves.length ? moves[0] : null);
  const d = sol.toDict();
  JSON.stringify(d);
  assert.equal(d.length, sol.length);
  assert.equal(typeof sol.kernelSize, "bigint");
}

function answerOrInputError(fn, what) {
  try {
    return fn();
  } catch (e) {
    assert.ok(e instanceof InputError, `${what}: ${e && e.stack}`);
    assertPackageError(e, what);
    return undefined;
  }
}

const show = (...xs) => JSON.stringify(xs, (k, v) => (typeof v === "bigint" ? `${v}n`
  : ArrayBuffer.isView(v) ? `${v.constructor.name}(${Array.from(v)})` : v === undefined ? "undefined" : v));

test("junk into Solver and Solution: an answer, InputError or Unsolvable, never another exception", () => {
  const r = new SplitMix64(2024);
  const fixed = [Board.grid(3, 3, { states: 3, locked: [[0, 0]], holes: [[2, 2]] }),
    Board.fromEffects([[0, 1], [1, 2]], 4), Board.grid(2, 5, { states: 6, wrap: true, pattern: "knight" }),
    Board.fromEffects(Array(12).fill([0]), 2, 1)].map((b) => Solver.createSync(b));
  let made = 0;
  let solved = 0;
  for (let i = 0; i < 1500; i++) {
    const spec = junkSpec(r);
    const s = answerOrInputError(() => Solver.createSync(spec), `createSync ${show(spec)}`);
    const solvers = [fixed[i % fixed.length]];
    if (s) {
      made++;
      assert.ok(s.rank >= 0 && s.nullity >= 0 && s.kernelSize >= 1n, show(spec));
      solvers.push(s);
    }
    for (const sv of solvers) {
      const state = junkState(r, sv.shape);
      const opts = boundedBudget(junkOptions(r), sv.kernelSize);
      const what = `${show(sv.shape, sv.states)} ${show(state, opts)}`;
      const sol = answerOrInputError(() => sv.solve(state, opts), `solve ${what}`);
      if (sol) { solved++; readSolution(sol); }
      answerOrInputError(() => sv.solvable(state, opts), `solvable ${what}`);
      answerOrInputError(() => sv.hint(state, opts), `hint ${what}`);
    }
    if (s) {
      s.dispose();
      assert.throws(() => s.solve(junkState(r, s.shape)), InputError);
      s.dispose();                                  // twice: harmless
    }
  }
  for (const s of fixed) s.dispose();
  assert.ok(made > 150 && solved > 150, `${made} solvers, ${solved} solutions`);
});

test("junk into SolverWorker and runInWorker: resolves, or rejects with InputError / Unsolvable", async () => {
  const r = new SplitMix64(77);
  const settle = async (p, what) => {
    try {
      return await p;
    } catch (e) {
      assert.ok(e instanceof InputError && !(e instanceof Interrupted), `${what}: ${e && e.stack}`);
      assertPackageError(e, what);
      return undefined;
    }
  };
  let answered = 0;
  for (let i = 0; i < 12; i++) {
    const spec = junkSpec(r);
    const w = answerOrInputError(() => new SolverWorker(spec), `SolverWorker ${show(spec)}`);
    if (!w) continue;
    try {
      const probe = Solver.createSync(spec);      // the worker checked the spec: no throw
      const { shape, kernelSize } = probe;
      probe.dispose();
      for (let k = 0; k < 4; k++) {
        const state = junkState(r, shape);
        const opts = boundedBudget(junkOptions(r), kernelSize);
        if (!isPlainOptions(opts)) continue;        // see the note at isPlainOptions
        const sol = await settle(w.solve(state, opts), `worker solve ${show(spec, state, opts)}`);
        if (sol) { answered++; readSolution(sol); }
      }
      const info = await w.info();
      assert.ok(info.kernelSize >= 1n);
    } finally {
      w.terminate();
    }
  }
  for (let i = 0; i < 10; i++) {
    const spec = junkSpec(r);
    const state = junkState(r, [3, 3]);
    const opts = junkOptions(r);
    if (!isPlainOptions(opts)) continue;
    if (opts.budget !== undefined) opts.budget = 1000;  // the kernel is not known here
    try {
      const sol = await runInWorker(spec, state, opts);
      answered++;
      readSolution(sol);
    } catch (e) {
      assert.ok(e instanceof InputError, `runInWorker ${show(spec, state, opts)}: ${e && e.stack}`);
      assertPackageError(e, "runInWorker");
    }
  }
  assert.ok(answered > 0);
});

/** The worker's options object: a plain object (null, non-objects, a junk onProgress or
 * signal give TypeErrors in worker.js: reported, not fuzzed here). */
function isPlainOptions(o) {
  return o !== null && typeof o === "object" && !Array.isArray(o) && !ArrayBuffer.isView(o);
}
