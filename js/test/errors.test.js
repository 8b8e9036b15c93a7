import { test } from "node:test";
import assert from "node:assert/strict";
import { Board } from "../src/board.js";
import { Puzzle } from "../src/puzzle.js";
import { generate } from "../src/generate.js";
import { daily } from "../src/daily.js";
import { ValueError, Unsolvable } from "../src/errors.js";
import { solvers } from "./solvers.js";
import { golden } from "./golden.js";

const SOLVERS = await solvers();

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
