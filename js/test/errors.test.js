import { test } from "node:test";
import assert from "node:assert/strict";
import { Board } from "../src/board.js";
import { Puzzle } from "../src/puzzle.js";
import { generate } from "../src/generate.js";
import { daily } from "../src/daily.js";
import { ValueError, Unsolvable } from "../src/errors.js";
import { Solver } from "../src/solver.js";
import { loadCore } from "../src/core.js";
import { solvers } from "../test-helpers/solvers.js";
import { golden } from "../test-helpers/golden.js";

const SOLVERS = await solvers();
await loadCore();

/** The message of f's ValueError ("(no error)", or the other exception's text). */
function messageOf(f) {
  try {
    f();
  } catch (e) {
    return e instanceof ValueError ? e.message : `${e && e.name}: ${e && e.message}`;
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

for (const { name, install } of SOLVERS) {
test(`bad input throws ValueError with Python's message, every golden case (${name})`, () => {
  install();
  const cases = golden("errors.json").cases;
  assert.ok(cases.length >= 80);
  for (const { op, arg, message } of cases) {
    const fn = run(op, arg);
    assert.throws(fn, (e) => {
      assert.ok(e instanceof ValueError, `${op} ${JSON.stringify(arg)}: ${e}`);
      assert.equal(e.message, message, `${op} ${JSON.stringify(arg)}`);
      return true;
    });
  }
});
}

test("error classes", () => {
  const e = new Unsolvable("x");
  assert.ok(e instanceof ValueError && e instanceof Error);
  assert.equal(e.name, "Unsolvable");
  assert.equal(new ValueError("y").name, "ValueError");
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
    assert.throws(() => seedFrom(bad), ValueError, String(bad));
  }
});
