import { test } from "node:test";
import assert from "node:assert/strict";
import { Board } from "../src/board.js";
import { ReferenceSolver } from "../test-helpers/reference.js";
import { golden } from "../test-helpers/golden.js";
import { existsSync } from "node:fs";

const G = golden("solver.json");

// The reference solver, and the WebAssembly Solver where the tree has it, against
// Python's answers (the WebAssembly Solver's own tests are solver*.test.js).
const MAKERS = [["reference", (b) => new ReferenceSolver(b)]];
if (existsSync(new URL("../src/solver.js", import.meta.url)) &&
    existsSync(new URL("../dist/modlights.wasm", import.meta.url))) {
  const { Solver } = await import("../src/solver.js");
  const { loadCore } = await import("../src/core.js");
  await loadCore();
  MAKERS.push(["wasm", (b) => Solver.createSync(b)]);
}

for (const [name, make] of MAKERS) {
test(`${name}: rank, nullity, kernel sizes and minima equal Python's`, () => {
  for (const c of G.cases) {
    const b = Board.fromDict(c.dict);
    const s = make(b);
    assert.equal(s.nullity, c.nullity);
    assert.equal(s.rank, c.rank);
    assert.equal(s.kernelSize, BigInt(c.kernel_size));
    for (const st of c.starts) {
      assert.equal(s.solvable(st.state, { target: st.target }), st.solvable);
      if (!st.solvable) {
        assert.throws(() => s.solve(st.state, { target: st.target }), { name: "Unsolvable" });
        continue;
      }
      const sol = s.solve(st.state, { target: st.target, budget: 1e6 });
      assert.equal(sol.length, st.length);
      assert.equal(sol.provenMinimal, st.proven_minimal);
      const end = b.cellVector(b.apply(st.state, sol.taps));
      assert.ok(end.every((v) => v === st.target % b.states));
      const x = b.tapVector(sol.taps);
      assert.equal(x.reduce((a, v) => a + v, 0), sol.length);
    }
    s.dispose();
  }
});

test(`${name}: kernel sizes over Z/4, Z/6 and Z/8 equal Python's`, () => {
  assert.ok(G.kernels.length >= 40);
  for (const k of G.kernels) {
    const s = make(Board.grid(k.rows, k.cols, { states: k.states, wrap: k.wrap }));
    assert.equal(s.kernelSize.toString(), k.kernel_size, JSON.stringify(k));
    assert.equal(s.nullity, k.nullity, JSON.stringify(k));
    s.dispose();
  }
});
}
