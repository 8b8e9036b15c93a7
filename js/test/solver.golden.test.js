// The WebAssembly Solver against Python's answers (tests/js/test_wasm_solver.py writes
// them): rank, nullity, |ker A|, solvability, minimal lengths and proofs for the default
// budget, budget 0 and budgets below and above |ker A|; every solution checked by
// applying its taps; bad input refused as Python refuses it (Python's message where it
// has no Python word in it, else one in JavaScript's words).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Solver } from "../src/solver.js";
import { InputError, Unsolvable } from "../src/errors.js";
import { assertPackageError, pythonWord } from "../test-helpers/wording.js";
import { loadFixture, applyTaps } from "../test-helpers/wasm_helpers.js";

const fixture = loadFixture();

test("the fixture covers the issue's boards", () => {
  const names = fixture.boards.map((b) => b.name);
  const states = new Set(fixture.boards.map((b) => b.spec.states));
  for (const n of [2, 3, 4, 5, 6, 7, 8, 9, 16, 255]) assert.ok(states.has(n), `n = ${n}`);
  assert.ok(names.some((x) => x.includes("wrap")));
  assert.ok(names.some((x) => x.startsWith("graph")));
  assert.ok(fixture.boards.some((b) => b.spec.mixed));
  assert.ok(fixture.boards.some((b) => b.spec.holes && b.spec.holes.some((h) => h)));
  assert.ok(fixture.boards.some((b) => b.spec.locked && b.spec.locked.some((h) => h)));
});

test("the C library's solver answers the boards whose engine it has, with Python's plan", async () => {
  let onC = 0;
  for (const board of fixture.boards) {
    const s = await Solver.create(board.spec);
    try {
      const plan = s.plan;
      if (plan === null) continue;
      onC += 1;
      const { engine, family, variant, reason } = plan;
      assert.deepEqual({ engine, family, variant, reason }, board.plan, board.name);
    } finally {
      s.dispose();
    }
  }
  assert.ok(onC >= fixture.boards.length / 2, `${onC} of ${fixture.boards.length} boards`);
});

for (const board of fixture.boards) {
  test(`${board.name}: equal to Python`, async () => {
    const s = await Solver.create(board.spec);
    try {
      assert.equal(s.rank, board.rank, "rank");
      assert.equal(s.nullity, board.nullity, "nullity");
      assert.equal(s.kernelSize, BigInt(board.kernel_size), "kernel size");
      for (const c of board.cases) {
        const what = `state ${JSON.stringify(c.state)} budget ${c.budget}`;
        assert.equal(s.solvable(c.state), c.solvable, `solvable: ${what}`);
        const opts = c.budget === null ? {} : { budget: c.budget };
        if (!c.solvable) {
          assert.throws(() => s.solve(c.state, opts), Unsolvable, what);
          continue;
        }
        const sol = s.solve(c.state, opts);
        const after = applyTaps(board.spec, c.state, sol.taps);
        assert.ok(after.every((v) => v === 0), `the taps do not solve it: ${what}`);
        assert.equal(sol.provenMinimal, c.proven, `provenMinimal: ${what}`);
        if (c.proven) assert.equal(sol.length, c.length, `length: ${what}`);
        else assert.ok(sol.length >= 0);
        // an explicit budget: Python's taps exactly, proved or not (canonical forms)
        if (c.taps !== undefined) {
          assert.deepEqual(Array.from(sol.taps, (r) => (typeof r === "number" ? r : Array.from(r))),
            c.taps, `taps: ${what}`);
          assert.equal(sol.length, c.length, `length: ${what}`);
        }
        const plain = s.solve(c.state, { minimal: false });
        const after2 = applyTaps(board.spec, c.state, plain.taps);
        assert.ok(after2.every((v) => v === 0), `minimal: false does not solve it: ${what}`);
      }
    } finally {
      s.dispose();
    }
  });
}

/** `e` is the package's error for Python's `message`: the same text when it has no
 * Python word in it, else a message in JavaScript's words. */
function samefacts(e, message) {
  assertPackageError(e, message);
  if (pythonWord(message) === null) assert.equal(e.message, message);
  return true;
}

test("bad input: refused as Python refuses it", async () => {
  for (const c of fixture.bad) {
    if (c.op === "create") {
      await assert.rejects(Solver.create(c.spec), (e) => {
        assert.ok(e instanceof InputError, `${e}`);
        return samefacts(e, c.message);
      });
    } else {
      const s = await Solver.create(c.spec);
      assert.throws(() => s.solve(c.state, c.options), (e) => {
        assert.ok(e instanceof (c.unsolvable ? Unsolvable : InputError), `${e}`);
        return samefacts(e, c.message);
      });
      s.dispose();
    }
  }
});
