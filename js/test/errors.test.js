import { test } from "node:test";
import assert from "node:assert/strict";
import { Board } from "../src/board.js";
import { Puzzle } from "../src/puzzle.js";
import { generate } from "../src/generate.js";
import { daily } from "../src/daily.js";
import {
  InputError, Interrupted, ModlightsError, Unsolvable, ValueError,
} from "../src/errors.js";
import * as pkg from "../src/index.js";
import { Solver } from "../src/solver.js";
import { loadCore } from "../src/core.js";
import { solvers } from "../test-helpers/solvers.js";
import { golden } from "../test-helpers/golden.js";
import { assertPackageError, pythonWord } from "../test-helpers/wording.js";

const SOLVERS = await solvers();
await loadCore();

/** The message of f's InputError ("(no error)", or the other exception's text). */
function messageOf(f) {
  try {
    f();
  } catch (e) {
    return e instanceof InputError ? e.message : `${e && e.name}: ${e && e.message}`;
  }
  return "(no error)";
}

function run(op, arg) {
  switch (op) {
    case "grid": return () => Board.grid(arg[0], arg[1], arg[2]);
    case "from_effects": return () => Board.fromEffects(arg[0], arg[1], arg[2]);
    case "from_dict": return () => Board.fromDict(arg);
    case "press": {
      const b = Board.fromDict(arg.board);
      return () => b.press(arg.state, arg.pos, "times" in arg ? arg.times : 1);
    }
    case "apply": {
      const b = Board.fromDict(arg.board);
      return () => b.apply(arg.state, arg.taps);
    }
    case "solve": {
      // solve, solvable and hint read states and targets with the one reader: the same
      // message from each
      const s = Solver.createSync(Board.fromDict(arg.board));
      const opts = "target" in arg ? { target: arg.target } : {};
      return () => {
        const others = [messageOf(() => s.solvable(arg.state, opts)),
          messageOf(() => s.hint(arg.state, opts))];
        try {
          s.solve(arg.state, opts);
        } catch (e) {
          assert.deepEqual(others, [e.message, e.message], "solvable and hint as solve");
          throw e;
        }
      };
    }
    case "solver_grid_spec":
      return () => Solver.createSync({ kind: "grid", wrap: false, ...arg });
    case "from_code": return () => Puzzle.fromCode(arg);
    case "generate": return () => generate(arg);
    case "daily": return () => daily(arg);
    case "puzzle_from_dict": return () => Puzzle.fromDict(arg);
    default: throw new Error(op);
  }
}

/** Where JavaScript names a thing differently from Python (its parameter's name), the
 * message Python's text becomes: Python's message -> JavaScript's. */
const RENAMED = {
  "n_cells must be from 0 to 134217728, got -1": "nCells must be from 0 to 134217728, got -1",
};

for (const { name, install } of SOLVERS) {
test(`every golden bad input is an InputError in JavaScript's words, with Python's facts (${name})`,
  () => {
    install();
    const cases = golden("errors.json").cases;
    assert.ok(cases.length >= 80);
    let same = 0;
    for (const { op, arg, message } of cases) {
      const what = `${op} ${JSON.stringify(arg)}`;
      assert.throws(run(op, arg), (e) => {
        assert.ok(e instanceof InputError && e instanceof ValueError, `${what}: ${e}`);
        assertPackageError(e, what);
        if (pythonWord(message) === null) {
          // Python's message has no Python word in it: JavaScript says the same
          assert.equal(e.message, RENAMED[message] ?? message, what);
          same++;
        } else {
          // the same subject: the message starts with the field or value Python names
          const subject = (t) => /^[A-Za-z_]*/.exec(t)[0];
          assert.equal(subject(e.message), subject(message), `${what}: ${e.message}`);
        }
        return true;
      });
    }
    assert.ok(same >= 30, `${same} messages equal to Python's`);
  });
}

test("the issue's inputs: JavaScript's words and codes", async () => {
  await loadCore();
  const b = Board.grid(3, 3, { states: 3 });
  const zeros = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  const s = Solver.createSync(b);
  const want = [
    // [call, class, code, message]
    [() => b.press([[0, 0, 0], [0, 0], [0, 0, 0]], [1, 1]), InputError, "INVALID_SHAPE",
      "state[1] has 2 entries, the board has 3 columns"],
    [() => s.solve([[0, 0, 0], [0, 0, 0, 1], [0, 0, 0]]), InputError, "INVALID_SHAPE",
      "state[1] has 4 entries, the board has 3 columns"],
    [() => b.press([[0, 0, 0], [0, "1", 0], [0, 0, 0]], [1, 1]), InputError, "INVALID_TYPE",
      "state[1][1] must be an integer, got a string ('1')"],
    [() => b.press([[0, 0, 0], [0, 0, 0], [null, 0, 0]], [1, 1]), InputError, "INVALID_TYPE",
      "state[2][0] must be an integer, got null"],
    [() => s.solvable([[0, 0, 0], [0, 0, 0], [0, {}, 0]]), InputError, "INVALID_TYPE",
      "state[2][1] must be an integer, got an object ({})"],
    [() => s.hint([[0, 0, 0], [0, 1.5, 0], [0, 0, 0]]), InputError, "INVALID_TYPE",
      "state[1][1] must be an integer, got a number (1.5)"],
    [() => s.solve(null), InputError, "INVALID_TYPE",
      "state must be an Array of 3 rows of 3 integers, got null"],
    [() => s.solve(zeros.slice(1)), InputError, "INVALID_SHAPE", "state has 2 rows, the board has 3"],
    [() => s.solve(zeros, { target: [[0, 0, 0], [0, 0, 0], [0, 0, undefined]] }), InputError,
      "INVALID_TYPE", "target[2][2] must be an integer, got undefined"],
    [() => s.solve(zeros, { target: true }), InputError, "INVALID_TYPE",
      "target must be an integer or a board-shaped Array, got a boolean (true)"],
    [() => Solver.createSync(null), InputError, "INVALID_TYPE",
      "Solver needs a Board or a board spec ({ kind: 'grid' | 'graph', ... }), got null"],
    [() => Board.grid("3", 3), InputError, "INVALID_TYPE",
      "rows must be an integer from 1 to 1048576, got a string ('3')"],
    [() => Board.grid(3, 3, { states: 1 }), InputError, "OUT_OF_RANGE",
      "states must be from 2 to 255, got 1"],
    [() => Board.grid(3, 3, { states: true }), InputError, "INVALID_TYPE",
      "states must be an integer from 2 to 255, got a boolean (true)"],
    [() => Board.fromDict([1, 2]), InputError, "INVALID_TYPE",
      "board must be an object, got an Array ([1, 2])"],
    [() => b.press(zeros, [3, 1]), InputError, "OUT_OF_RANGE",
      "tap position [3, 1] is off the board: rows 0..2, cols 0..2"],
    [() => Puzzle.fromCode(5), InputError, "INVALID_TYPE",
      "a puzzle code is a string, got a number (5)"],
    [() => Puzzle.fromCode("AAAA"), InputError, "INVALID_PUZZLE_CODE",
      "puzzle code too short (3 bytes): truncated or not a code"],
    [() => daily(["2026-11-22"]), InputError, "INVALID_TYPE",
      "date must be a Date or an ISO date string 'YYYY-MM-DD', got an Array (['2026-11-22'])"],
    [() => generate({ rows: 4, cols: 4, locked: 0, holes: 0, seed: 1 }), InputError, "IMPOSSIBLE",
      null],
  ];
  for (const [f, cls, code, message] of want) {
    assert.throws(f, (e) => {
      assert.ok(e instanceof cls, `${e}`);
      assert.equal(e.code, code, e.message);
      if (message !== null) assert.equal(e.message, message);
      assertPackageError(e);
      return true;
    });
  }
  // an unsolvable state: Unsolvable (an InputError) with code UNSOLVABLE
  const t = Solver.createSync(Board.grid(4, 4, { states: 2 }));
  const eye = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
  const bad = [eye, [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]]
    .find((st) => !t.solvable(st));
  assert.ok(bad, "a 4x4 state with no solution");
  assert.throws(() => t.solve(bad), (e) => e instanceof Unsolvable && e instanceof InputError
    && e.code === "UNSOLVABLE" && e.name === "Unsolvable");
  t.dispose();
  s.dispose();
  assert.throws(() => s.solve(zeros), (e) => e instanceof InputError
    && e.code === "SOLVER_DISPOSED");
});

test("error classes: one family with stable codes; ValueError an alias of InputError", () => {
  assert.equal(pkg.ValueError, pkg.InputError, "ValueError stays exported, as InputError");
  for (const name of ["ModlightsError", "InputError", "Unsolvable", "Interrupted", "FormatError"]) {
    assert.equal(typeof pkg[name], "function", name);
  }
  const u = new Unsolvable("x");
  assert.ok(u instanceof InputError && u instanceof ModlightsError && u instanceof Error);
  assert.deepEqual([u.name, u.code], ["Unsolvable", "UNSOLVABLE"]);
  const v = new ValueError("y");                 // old code that makes one still works
  assert.ok(v instanceof InputError);
  assert.deepEqual([v.name, v.code, v.message], ["InputError", "INVALID_VALUE", "y"]);
  const i = new Interrupted();
  assert.ok(i instanceof ModlightsError && !(i instanceof InputError));
  assert.deepEqual([i.name, i.code, i.message], ["Interrupted", "INTERRUPTED", "interrupted"]);
  const f = new pkg.FormatError("z");
  assert.ok(f instanceof InputError);
  assert.deepEqual([f.name, f.code], ["FormatError", "NOT_A_CERTIFICATE"]);
  const cause = new Error("inner");
  const m = new ModlightsError("outer", { code: "CORE_LOAD_FAILED", cause });
  assert.equal(m.cause, cause);
  assert.equal(m.code, "CORE_LOAD_FAILED");
});

test("seeds: every integral Number (above 2^53 too) and every BigInt is an int, mod 2^64", async () => {
  const { seedFrom } = await import("../src/prng.js");
  const golden64 = golden("prng.json").seeds.filter((e) => e.kind === "int");
  for (const e of golden64) assert.equal(seedFrom(BigInt(e.seed)).toString(), e.seed_from, e.seed);
  assert.equal(seedFrom(2 ** 53), 2n ** 53n);
  assert.equal(seedFrom(2 ** 53 + 2), 2n ** 53n + 2n);
  assert.equal(seedFrom(2 ** 64 + 2 ** 12), 2n ** 12n);      // exact as a double
  assert.equal(seedFrom(2 ** 70), 0n);
  assert.equal(seedFrom(-(2 ** 60)), 2n ** 64n - 2n ** 60n);
  assert.equal(seedFrom(1e300), BigInt(1e300) % 2n ** 64n);
  assert.equal(seedFrom(2n ** 70n + 3n), 3n);
  assert.equal(seedFrom(-1n), 2n ** 64n - 1n);
  assert.equal(generate({ rows: 4, cols: 4, seed: 2 ** 53 }).code,
    generate({ rows: 4, cols: 4, seed: 2n ** 53n }).code);
  for (const bad of [1.5, NaN, Infinity, -Infinity, true]) {
    assert.throws(() => seedFrom(bad), (e) => {
      assertPackageError(e, String(bad));
      return e.code === "INVALID_TYPE";
    });
  }
});

test("a value of the wrong kind in Board.grid / fromEffects is INVALID_TYPE, whichever side checks it", () => {
  const kinds = [
    () => Board.grid(3, 3, { pattern: 5 }), () => Board.grid(3, 3, { pattern: {} }),
    () => Board.grid(3, 3, { pattern: [[1]] }), () => Board.grid(3, 3, { pattern: [["a", "b"]] }),
    () => Board.grid(3, 3, { locked: "abc" }), () => Board.grid(3, 3, { locked: [5] }),
    () => Board.grid(3, 3, { locked: [[0, "a"]] }), () => Board.grid(3, 3, { holes: {} }),
    () => Board.grid(2, 2, { pattern: [["cross", "cross"], 5] }),
    () => Board.fromEffects([["a"]], 2), () => Board.fromEffects([5], 2),
    () => Board.fromEffects(5, 2), () => Board.grid("a", 3),
  ];
  for (const f of kinds) {
    assert.throws(f, (e) => e instanceof InputError && e.code === "INVALID_TYPE", String(f));
  }
  // a value of the right kind that is not allowed stays INVALID_VALUE / INVALID_SHAPE
  assert.throws(() => Board.grid(3, 3, { pattern: "nope" }), (e) => e.code === "INVALID_VALUE");
  assert.throws(() => Board.grid(3, 3, { locked: [[true, false]] }),
    (e) => e.code === "INVALID_SHAPE");
});
