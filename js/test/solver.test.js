// The Solver's own contract: memory does not grow over many create / dispose cycles,
// createSync after loadCore, the stale-build digest, hints, disposed solvers refused,
// and the size targets answered (1000 x 1000 GF(2), 200 x 200 Z/4 cross).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCore, memoryBytes, liveBytes } from "../src/core.js";
import { Solver } from "../src/solver.js";
import { InputError } from "../src/errors.js";
import { applyTaps } from "../test-helpers/wasm_helpers.js";

const cross = [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]];
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("js/dist/csrc.sha256 is the digest of the C sources now", () => {
  // as js/scripts/wasm_sources.py: every .c and .h under csrc/ but csrc/tests, and the
  // export list csrc/wasm/exports.list, sorted
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) { if (relative(join(ROOT, "csrc"), p) !== "tests") walk(p); }
      else if (/\.[ch]$|^exports\.list$/.test(name)) files.push(relative(ROOT, p).split("\\").join("/"));
    }
  };
  walk(join(ROOT, "csrc"));
  files.sort();
  const h = createHash("sha256");
  for (const f of files) {
    h.update(Buffer.concat([Buffer.from(f), Buffer.from([0]), readFileSync(join(ROOT, f)), Buffer.from([0])]));
  }
  const recorded = readFileSync(join(ROOT, "js/dist/csrc.sha256"), "utf8").trim();
  assert.equal(recorded, h.digest("hex"),
    "js/dist/modlights.wasm is stale: rebuild it with js/scripts/build-wasm.sh and commit js/dist/");
});

test("many solvers created and disposed: the memory does not grow", async () => {
  await loadCore();
  const specs = [
    { kind: "grid", rows: 9, cols: 9, states: 2, offsets: cross },
    { kind: "grid", rows: 7, cols: 6, states: 6, offsets: cross, wrap: true, locked: new Array(42).fill(0).map((_, i) => +(i === 5)) },
    { kind: "graph", states: 4, nCells: 5, effects: [[0, 1], [1, 2, 2], [3], [4, 0]] },
  ];
  const round = () => {
    for (let i = 0; i < 200; i++) {
      const spec = specs[i % specs.length];
      const s = Solver.createSync(spec);
      const size = spec.kind === "grid" ? spec.rows * spec.cols : spec.nCells;
      const flat = Array.from({ length: size }, (_, k) => (k * 3 + i) % spec.states);
      const state = spec.kind === "grid"
        ? Array.from({ length: spec.rows }, (_, r) => flat.slice(r * spec.cols, (r + 1) * spec.cols)) : flat;
      try { s.solve(state); } catch (e) { /* unsolvable starts are fine here */ }
      s.dispose();
    }
  };
  const live0 = liveBytes();
  round();
  assert.equal(liveBytes(), live0, "C heap blocks left after 200 create / solve / dispose cycles");
  const before = memoryBytes();
  for (let k = 0; k < 5; k++) round();
  assert.equal(liveBytes(), live0, "C heap blocks left after 1200 cycles");
  assert.equal(memoryBytes(), before, "the WebAssembly memory grew over 1000 create / dispose cycles");
});

test("createSync, hint and a disposed solver", async () => {
  await loadCore();
  const s = Solver.createSync({ kind: "grid", rows: 3, cols: 3, states: 2, offsets: cross });
  const zero = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  assert.equal(s.hint(zero), null);
  const state = [[1, 1, 0], [1, 0, 0], [0, 0, 0]];          // tapping (0, 0) solves it
  assert.deepEqual(s.hint(state), [0, 0]);
  const sol = s.solve(state);
  assert.deepEqual(sol.moves(), [[0, 0]]);
  assert.equal(sol.provenMinimal, true);
  s.dispose();
  assert.throws(() => s.nullity, (e) => e instanceof InputError && e.code === "SOLVER_DISPOSED");
});

test("1000 x 1000 GF(2) and 200 x 200 Z/4 cross from a random start", async () => {
  for (const [N, n] of [[1000, 2], [200, 4]]) {
    const spec = { kind: "grid", rows: N, cols: N, states: n, offsets: cross };
    const s = await Solver.create(spec);
    let seed = 12345;
    const state = new Uint8Array(N * N);
    for (let i = 0; i < N * N; i++) { seed = (seed * 1103515245 + 12345) % 2147483648; state[i] = (seed >> 8) % n; }
    const sol = s.solve(state);
    assert.equal(s.kernelSize, 1n);
    assert.equal(sol.provenMinimal, true);
    assert.ok(applyTaps(spec, state, sol.taps).every((v) => v === 0));
    s.dispose();
  }
});

test("kernels past the search's bytes: the first generators, no wrapped sizes", async () => {
  // 65536 taps on no cells (ker A = everything, 65536 x 65536 bytes) and 65537 taps on
  // one cell (a 65536-generator kernel): on wasm32 these sizes wrapped a 32-bit size_t
  // and the core wrote past its buffers. Now the search holds the first generators only.
  await loadCore();
  const none = Solver.createSync({ kind: "graph", states: 2, nCells: 0,
    effects: Array.from({ length: 65536 }, () => []) });
  assert.equal(none.nullity, 65536);
  const s0 = none.solve([], { minimal: true });
  assert.equal(s0.length, 0);
  assert.equal(s0.provenMinimal, true);           // no tap is the least of all
  none.dispose();
  const one = Solver.createSync({ kind: "graph", states: 2, nCells: 1,
    effects: Array.from({ length: 65537 }, () => [0]) });
  assert.equal(one.nullity, 65536);
  const s1 = one.solve([1], { minimal: true, budget: 1000 });
  // each single tap solves it and none is shorter than one tap
  assert.equal(s1.length, 1);
  assert.equal(s1.taps.reduce((a, t) => a + t, 0), 1);
  one.dispose();
});

test("a flat byte state is handed to the core as it is: bytes >= n reduce mod n", async () => {
  await loadCore();
  for (const [rows, cols, n, holes] of [[6, 7, 3, null], [5, 5, 2, null], [4, 6, 5, [[1, 2]]]]) {
    const spec = { kind: "grid", rows, cols, states: n, offsets: cross };
    if (holes) {
      spec.holes = new Uint8Array(rows * cols);
      for (const [r, c] of holes) spec.holes[r * cols + c] = 1;
    }
    const s = await Solver.create(spec);
    const raw = new Uint8Array(rows * cols);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 37 + 11) % 256;   // most >= n
    const nested = Array.from({ length: rows }, (_, r) =>
      Array.from(raw.subarray(r * cols, (r + 1) * cols), (v) => v % n));
    let want = null;
    try { want = s.solve(nested); } catch (e) { want = e.name; }
    let got = null;
    try { got = s.solve(raw); } catch (e) { got = e.name; }
    if (typeof want === "string") {
      assert.equal(got, want);
    } else {
      assert.deepEqual(got.taps, want.taps);
      assert.equal(got.length, want.length);
      assert.deepEqual(got.moves(), want.moves());
      // the same bytes as a target: from the zero state to the raw target, or to its
      // reduced copy
      const zero = new Uint8Array(rows * cols);
      const t1 = s.solvable(zero, { target: raw });
      assert.equal(t1, s.solvable(zero, { target: nested }));
      if (t1) assert.deepEqual(s.solve(zero, { target: raw }).taps,
        s.solve(zero, { target: nested }).taps);
    }
    s.dispose();
  }
});
