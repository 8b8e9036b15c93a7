// Workers that are not the package's: importing the package in a worker changes nothing
// of the worker's message handling (a Web Worker's scope, emulated in a vm context, and
// a worker_threads Worker); serving SolverWorker's requests is the explicit call
// serveSolverRequests(), which SolverWorker's own script and a script of the user's
// (workerUrl) make.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { Board, Solver, SolverWorker, serveSolverRequests } from "../src/index.js";
import { ModlightsError } from "../src/errors.js";
import { applyTaps } from "../test-helpers/wasm_helpers.js";

const ENTRY = fileURLToPath(new URL("../src/index.js", import.meta.url));
const ENTRY_URL = pathToFileURL(ENTRY).href;

function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), "modlights-worker-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("a Web Worker that imports the package keeps its onmessage and gets no reply of the package's",
  () => {
    const scope = fileURLToPath(new URL("../test-helpers/web-worker-scope.mjs", import.meta.url));
    const out = execFileSync(process.execPath, ["--experimental-vm-modules", scope, ENTRY],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const { kept, listeners, answered, posted } = JSON.parse(out);
    assert.equal(kept, true, "the import replaced the worker's onmessage");
    assert.equal(listeners, 0, "the import added a message listener");
    assert.deepEqual(answered, [{ ask: 1 }, { ask: 2 }, { ask: 3 }]);
    assert.deepEqual(posted, [{ mine: { ask: 1 } }, { mine: { ask: 2 } }, { mine: { ask: 3 } }]);
  });

test("a worker_threads Worker that imports the package gets only its own replies", async (t) => {
  const dir = scratch(t);
  const script = join(dir, "user.mjs");
  writeFileSync(script, `
    import { parentPort } from "node:worker_threads";
    import { Board, Solver } from ${JSON.stringify(ENTRY_URL)};
    parentPort.on("message", async (m) => {
      const s = await Solver.create(Board.grid(3, 3));
      parentPort.postMessage({ mine: m.ask, nullity: s.nullity });
      s.dispose();
    });
    parentPort.postMessage({ ready: true });
  `);
  const w = new Worker(script);
  const got = [];
  try {
    await new Promise((resolve, reject) => {
      w.on("error", reject);
      w.on("message", (m) => {
        got.push(m);
        if (m.ready) for (const k of [1, 2, 3]) w.postMessage({ ask: k });
        if (got.length === 4) setTimeout(resolve, 200);   // any late reply arrives meanwhile
      });
    });
  } finally {
    await w.terminate();
  }
  const s = await Solver.create(Board.grid(3, 3));
  const nullity = s.nullity;
  s.dispose();
  assert.deepEqual(got, [{ ready: true }, ...[1, 2, 3].map((k) => ({ mine: k, nullity }))]);
});

test("serveSolverRequests() is for workers: on the main thread a ModlightsError", async () => {
  await assert.rejects(serveSolverRequests(), (e) => e instanceof ModlightsError
    && e.code === "NOT_IN_WORKER");
});

test("SolverWorker with a worker script of the user's that calls serveSolverRequests()",
  async (t) => {
    const dir = scratch(t);
    const own = join(dir, "own-worker.mjs");
    // a user's script (as a bundler would make one): the package's serving, explicitly
    writeFileSync(own, `
      import { serveSolverRequests } from ${JSON.stringify(ENTRY_URL)};
      await serveSolverRequests();
    `);
    const board = Board.grid(5, 5, { states: 3 });
    const zeros = Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]);
    const state = board.press(board.press(zeros, [1, 1]), [4, 2], 2);
    const w = new SolverWorker(board, { workerUrl: pathToFileURL(own) });
    try {
      const sol = await w.solve(state);
      const s = await Solver.create(board);
      assert.equal(sol.length, s.solve(state).length);
      s.dispose();
      assert.ok(applyTaps(board.spec(), state.flat(), sol.taps).every((v) => v === 0));
      const again = await w.solve(state);         // the second request too
      assert.equal(again.length, sol.length);
    } finally {
      w.terminate();
    }
    // a script that fails: the pending call rejects with WORKER_FAILED
    const broken = join(dir, "broken.mjs");
    writeFileSync(broken, "throw new Error('broken script');\n");
    const b = new SolverWorker(board, { workerUrl: pathToFileURL(broken) });
    try {
      await assert.rejects(b.solve(state), (e) => e instanceof ModlightsError
        && e.code === "WORKER_FAILED" && /broken script/.test(e.message));
    } finally {
      b.terminate();
    }
    assert.throws(() => new SolverWorker(board, { workerUrl: 5 }), (e) =>
      e.code === "INVALID_TYPE" && e.message === "workerUrl must be a string or a URL, got a number (5)");
  });

test("a serving worker ignores messages that are not SolverWorker's requests", async (t) => {
  const dir = scratch(t);
  const script = join(dir, "serving.mjs");
  writeFileSync(script, `
    import { serveSolverRequests } from ${JSON.stringify(ENTRY_URL)};
    await serveSolverRequests();
  `);
  const w = new Worker(script);
  const got = [];
  w.on("message", (m) => got.push(m));
  try {
    for (const m of [{ ask: 1 }, "hello", null, 7, { type: "other" }]) w.postMessage(m);
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    await w.terminate();
  }
  assert.deepEqual(got, []);
});
