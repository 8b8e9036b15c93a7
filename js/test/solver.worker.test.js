// The worker front (js/src/worker.js): the same answers as the Solver on the main
// thread, progress events in order, cancel of a long search (the promise rejects with
// Interrupted within a second, the worker stays usable), errors with their classes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Solver, Interrupted } from "../src/solver.js";
import { SolverWorker, runInWorker } from "../src/worker.js";
import { InputError, Unsolvable } from "../src/errors.js";
import { applyTaps } from "../test-helpers/wasm_helpers.js";

const cross = [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]];

test("runInWorker answers as the Solver does, with progress", async () => {
  const spec = { kind: "grid", rows: 6, cols: 7, states: 3, offsets: cross, wrap: true };
  const state = Array.from({ length: 6 }, (_, r) => Array.from({ length: 7 }, (_, c) => (r * 5 + c * 2) % 3));
  const phases = [];
  const sol = await runInWorker(spec, state, { onProgress: (p) => phases.push(p.phase) });
  const s = await Solver.create(spec);
  const here = s.solve(state);
  s.dispose();
  assert.equal(sol.length, here.length);
  assert.equal(sol.provenMinimal, here.provenMinimal);
  assert.equal(sol.kernelSize, here.kernelSize);
  assert.ok(applyTaps(spec, state, sol.taps).every((v) => v === 0));
  assert.deepEqual(sol.moves(), here.moves().length === sol.length ? sol.moves() : null);
  assert.deepEqual(phases.filter((p) => p !== "working"), ["factor", "search", "done"]);
});

test("cancel stops a long search; the worker answers afterwards", async () => {
  // 80 taps on 30 cells: |ker A| = 2^50, far past any budget given here
  const effects = Array.from({ length: 80 }, (_, j) => [j % 30, (j * 7) % 30, (j * 13 + 5) % 30]);
  const spec = { kind: "graph", states: 2, nCells: 30, effects };
  const state = new Array(30).fill(0);
  for (const c of effects[3]) state[c] ^= 1;
  const w = new SolverWorker(spec);
  try {
    let searching;
    const started = new Promise((resolve) => { searching = resolve; });
    const p = w.solve(state, { budget: 2 ** 52, onProgress: (e) => { if (e.phase === "search") searching(e); } });
    const ev = await started;
    assert.equal(ev.total, (2n ** 50n).toString());
    const t0 = Date.now();
    w.cancel();
    await assert.rejects(p, Interrupted);
    assert.ok(Date.now() - t0 < 1000, "cancel took a second or more");
    const again = await w.solve(state, { budget: 1000 });
    assert.ok(applyTaps(spec, state, again.taps).every((v) => v === 0));
    assert.equal(again.provenMinimal, false);
  } finally {
    w.terminate();
  }
});

test("errors keep their classes and messages", async () => {
  assert.throws(() => new SolverWorker({ kind: "grid", rows: 3, cols: 3, states: 1, offsets: cross }),
    (e) => e instanceof InputError && e.code === "OUT_OF_RANGE"
      && e.message === "states must be from 2 to 255, got 1");
  const w = new SolverWorker({ kind: "grid", rows: 4, cols: 4, states: 2, offsets: cross });
  try {
    const eye = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
    const s = await Solver.create({ kind: "grid", rows: 4, cols: 4, states: 2, offsets: cross });
    const expectUnsolvable = !s.solvable(eye);
    s.dispose();
    if (expectUnsolvable) {
      await assert.rejects(w.solve(eye), (e) => e instanceof Unsolvable && e.code === "UNSOLVABLE");
    }
    await assert.rejects(w.solve([[1, 2]]), (e) => e instanceof InputError
      && e.code === "INVALID_SHAPE" && e.message === "state has 1 row, the board has 4");
    await assert.rejects(w.solve([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, "x", 0]]),
      (e) => e instanceof InputError && e.code === "INVALID_TYPE"
        && e.message === "state[3][2] must be an integer, got a string ('x')");
  } finally {
    w.terminate();
  }
});

test("junk worker options are InputErrors, before any worker starts", async () => {
  const spec = { kind: "graph", states: 2, nCells: 1, effects: [[0]] };
  const w = new SolverWorker(spec);
  try {
    for (const bad of [null, 7, "x", [1]]) {
      await assert.rejects(w.solve([1], bad), (e) => e instanceof InputError
        && /solve options must be an object/.test(e.message));
      await assert.rejects(runInWorker(spec, [1], bad), (e) => e instanceof InputError);
    }
    await assert.rejects(w.info(null), InputError);
    await assert.rejects(w.solve([1], { onProgress: 3 }), /onProgress must be a function/);
    await assert.rejects(runInWorker(spec, [1], { signal: {} }),
      /signal must be an AbortSignal/);
    const sol = await w.solve([1], { onProgress: () => {} });   // still usable
    assert.equal(sol.length, 1);
  } finally {
    w.terminate();
  }
});
