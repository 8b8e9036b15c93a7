import { test } from "node:test";
import assert from "node:assert/strict";
import { Board } from "../src/board.js";
import { Puzzle } from "../src/puzzle.js";
import { generate } from "../src/generate.js";
import { daily } from "../src/daily.js";
import { ValueError } from "../src/errors.js";
import { SplitMix64 } from "../src/prng.js";
import { useSolver } from "../src/engine.js";
import { verify } from "../src/verify.js";
import { golden } from "./golden.js";
import { ReferenceSolver } from "./reference.js";

useSolver((b) => new ReferenceSolver(b));

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

function onlyValueErrors(fn, what) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ValueError, `${what}: ${e && e.stack}`);
  }
}

test("junk input gives a ValueError or an answer, never another exception", () => {
  const r = new SplitMix64(24);
  const b = Board.grid(3, 3, { states: 3, locked: [[0, 0]], holes: [[2, 2]] });
  const g = Board.fromEffects([[0, 1], [1, 2]], 4);
  for (let i = 0; i < 3000; i++) {
    const a = junk(r);
    const c = junk(r);
    const d = junk(r);
    const show = () => JSON.stringify([a, c, d], (k, v) => (typeof v === "bigint" ? `${v}n` : v));
    onlyValueErrors(() => Board.grid(a, c, d), `grid ${show()}`);
    onlyValueErrors(() => Board.grid(3, 3, { states: a, pattern: c, locked: d }), `grid2 ${show()}`);
    onlyValueErrors(() => Board.grid(3, 4, { pattern: [[a, c, "cross", d], ["cross", "cross", "cross", "cross"], ["square", a, c, d]] }), `mixed ${show()}`);
    onlyValueErrors(() => Board.fromEffects(a, c, d), `effects ${show()}`);
    onlyValueErrors(() => Board.fromDict(a), `fromDict ${show()}`);
    onlyValueErrors(() => b.press(a, c, d), `press ${show()}`);
    onlyValueErrors(() => b.press([[1, 2, 3], [a, c, d], [0, 0, 0]], [1, 1]), `press2 ${show()}`);
    onlyValueErrors(() => b.apply(a, c), `apply ${show()}`);
    onlyValueErrors(() => g.press(a, c), `gpress ${show()}`);
    onlyValueErrors(() => g.apply([0, 1, 2], a), `gapply ${show()}`);
    onlyValueErrors(() => Puzzle.fromCode(a), `fromCode ${show()}`);
    onlyValueErrors(() => Puzzle.fromDict(a), `puzzleFromDict ${show()}`);
    onlyValueErrors(() => new Puzzle(b, a), `Puzzle ${show()}`);
    onlyValueErrors(() => daily(a), `daily ${show()}`);
    if (i % 10 === 0) {
      onlyValueErrors(() => generate({ rows: 3, cols: 3, states: a, locked: c, holes: d,
        seed: 1 }), `generate ${show()}`);
      onlyValueErrors(() => generate({ rows: 3, cols: 3, difficulty: a, pattern: c, seed: d }),
        `generate2 ${show()}`);
    }
  }
});

test("certificates with a value replaced by junk: a ValueError or true, never another exception", () => {
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
    onlyValueErrors(() => verify(cert), `verify ${i}`);
  }
  for (let i = 0; i < 300; i++) onlyValueErrors(() => verify(junk(r)), `verify junk ${i}`);
});
