/**
 * Long work off the main thread (README.md's Workers): a Solver in a Web Worker (browsers)
 * or a worker_threads Worker (node). Progress: `onProgress({phase, elapsedMs, total})`,
 * phase "factor" (the board is being factored), "search" (`total`: |ker A| as a decimal
 * string), "working" (about every 100 ms while the C core works) and "done". Cancel: a
 * shared flag the C core polls (SharedArrayBuffer: node, and cross-origin-isolated pages;
 * the call stops within about 20 ms and the worker stays ready), else the worker is
 * terminated and started again on the next call; either way the pending promise rejects
 * with Interrupted. The worker runs src/solver-worker.js (the explicit call
 * `serveSolverRequests()`): importing the package changes no worker's message handling.
 * @module worker
 */
import { IS_NODE, getCore, isLoaded, loadCore, setInterruptHandler } from "./core.js";
import { Solver, Solution, boardOf } from "./solver.js";
import { InputError, Interrupted, ModlightsError, Unsolvable, badType } from "./errors.js";
import { asMapping, describe } from "./fmt.js";

const HEARTBEAT_MS = 100;

// ------------------------------------------------------------------ the worker side
/**
 * Serve solver requests in this worker (the worker side of SolverWorker), from the
 * worker's own script: the package's src/solver-worker.js, or a bundled app's own (its URL
 * given as `workerUrl`). Installs the handler of `port`'s messages (default: worker_threads'
 * parentPort in node, `self` in a Web Worker), replacing any `onmessage` handler; resolves
 * once it is installed.
 */
export async function serveSolverRequests(port) {
  if (port === undefined) {
    const wt = IS_NODE ? await import("node:worker_threads") : null;
    port = wt ? !wt.isMainThread && wt.parentPort : typeof WorkerGlobalScope !== "undefined" &&
      typeof self !== "undefined" && self instanceof WorkerGlobalScope && self;
    if (!port) {
      throw new ModlightsError("serveSolverRequests() runs in a worker, not on the main thread",
        { code: "NOT_IN_WORKER" });
    }
  }
  let flag = null;    // the caller's cancel flag (an Int32Array on a SharedArrayBuffer)
  let spec = null;    // the caller's board
  let solver = null;
  let busy = null;    // the id of the call at work
  let t0 = 0;
  let lastBeat = 0;
  const post = (type, id, more) => port.postMessage({ type, id, ...more });
  const progress = (id, phase, more) => post("progress", id,
    { phase, elapsedMs: Date.now() - t0, ...more });
  setInterruptHandler(() => {
    if (busy !== null && Date.now() - lastBeat >= HEARTBEAT_MS) {
      lastBeat = Date.now();
      progress(busy, "working");
    }
    return flag !== null && Atomics.load(flag, 0) !== 0;
  });
  const handle = async (m) => {
    if (m?.type === "init") {
      flag = m.flag ? new Int32Array(m.flag) : null;
      spec = m.spec;
      solver?.dispose();
      solver = null;
      // a failure here is reported by the first call, which loads the core again
      await loadCore(m.module || undefined).catch(() => {});
    }
    if (m?.type !== "call") return;   // not a SolverWorker request
    busy = m.id;
    t0 = lastBeat = Date.now();
    if (flag) Atomics.store(flag, 0, 0);
    try {
      await loadCore();
      if (!solver) {
        progress(m.id, "factor");
        solver = Solver.createSync(spec);
      }
      let result = { rank: solver.rank, nullity: solver.nullity, kernelSize: solver.kernelSize };
      if (m.op === "solve") {
        progress(m.id, "search", { total: solver.kernelSize.toString() });
        result = { ...solver.solve(m.state, m.options || {}) };   // a Solution's own fields
      }
      progress(m.id, "done");
      post("result", m.id, { result });
    } catch (e) {
      post("error", m.id, { name: e?.name, code: e?.code, message: e?.message });
    } finally {
      busy = null;
    }
  };
  let queue = Promise.resolve();
  const onMessage = (m) => { queue = queue.then(() => handle(m)); };
  if (typeof port.on === "function") port.on("message", onMessage);
  else port.onmessage = (ev) => onMessage(ev.data);
}

// ------------------------------------------------------------------ the caller's side
/** The options of a worker call ({} for undefined): an object whose onProgress (a
 * function) and signal (an AbortSignal) are checked before any worker is started. */
function workerOptions(options = {}, what) {
  const bad = (name, v, kind) => badType(`${name} must be ${kind}, got ${describe(v)}`);
  const { onProgress, signal } = asMapping(options, `${what} options`);
  if (onProgress !== undefined && typeof onProgress !== "function") {
    throw bad("onProgress", onProgress, "a function");
  }
  if (signal !== undefined && !(globalThis.AbortSignal && signal instanceof AbortSignal)) {
    throw bad("signal", signal, "an AbortSignal");
  }
  return options;
}

/** The error a worker reported ({name, code, message}), with its class and code again. */
function errorFrom({ name, code, message }) {
  const Class = { Interrupted, Unsolvable, InputError, ModlightsError, RangeError }[name];
  if (!Class) {
    return new ModlightsError(`the solver's worker failed: ${name}: ${message}`, { code: "WORKER_FAILED" });
  }
  return Object.assign(new Class(message), code ? { code } : {});
}

/** The worker script SolverWorker runs by default (it calls serveSolverRequests()). */
export const SOLVER_WORKER_URL = new URL("./solver-worker.js", import.meta.url);

/** A Solver in a worker: every call resolves a Promise; see the module's doc. */
export class SolverWorker {
  /** `board` a Board or its spec() (checked here); `workerUrl` the worker's script (a
   * script of your own must call `serveSolverRequests()`). */
  constructor(board, options = {}) {
    const { workerUrl = SOLVER_WORKER_URL } = asMapping(options, "SolverWorker options");
    if (!(typeof workerUrl === "string" || workerUrl instanceof URL)) {
      throw badType(`workerUrl must be a string or a URL, got ${describe(workerUrl)}`);
    }
    this._spec = boardOf(board).spec();   // bad input throws here, with its message
    this._url = workerUrl;
    this._next = 1;
    this._pending = new Map();
    this._worker = this._starting = null;
    this._flag = globalThis.SharedArrayBuffer && (IS_NODE || globalThis.crossOriginIsolated)
      ? new SharedArrayBuffer(4) : null;
  }

  /** The worker, started (with the loaded core's module, when there is one) on first use. */
  async _start() {
    if (this._worker) return this._worker;
    this._starting ??= (async () => {
      const failed = (e) => this._failAll(new ModlightsError(`the solver's worker failed: ${
        (e && e.message) || "an error in its script"}`, { code: "WORKER_FAILED", cause: e }));
      const onMessage = (m) => this._onMessage(m);
      let w;
      if (IS_NODE) {
        const { Worker } = await import("node:worker_threads");
        w = new Worker(this._url, { execArgv: process.execArgv });
        w.on("message", onMessage).on("error", failed);
      } else {
        w = Object.assign(new Worker(this._url, { type: "module" }),
          { onmessage: (ev) => onMessage(ev.data), onerror: failed });
      }
      w.postMessage({ type: "init", flag: this._flag, spec: this._spec,
        module: isLoaded() ? getCore().module : null });
      return (this._worker = w);
    })().finally(() => { this._starting = null; });
    return this._starting;
  }

  _onMessage(m) {
    const p = this._pending.get(m.id);
    if (p && m.type === "progress") {
      if (p.onProgress) p.onProgress({ phase: m.phase, elapsedMs: m.elapsedMs, total: m.total });
    } else if (p) {
      this._pending.delete(m.id);
      if (m.type === "result") p.resolve(m.result);
      else p.reject(errorFrom(m));
    }
  }

  _failAll(err) {
    for (const p of this._pending.values()) p.reject(err);
    this._pending.clear();
  }

  async _call(op, payload, onProgress) {
    const w = await this._start();
    const id = this._next++;
    const promise = new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject, onProgress });
    });
    w.postMessage({ type: "call", id, op, ...payload });
    return promise;
  }

  /** Solve in the worker (options as Solver.solve's, plus `onProgress`): rejects with
   * Unsolvable, InputError or Interrupted. */
  async solve(state, opts) {
    const { onProgress, ...options } = workerOptions(opts, "solve");
    return Object.setPrototypeOf(await this._call("solve", { state, options }, onProgress),
      Solution.prototype);
  }

  /** {rank, nullity, kernelSize (BigInt)} computed in the worker. */
  async info(opts) {
    return this._call("info", {}, workerOptions(opts, "info").onProgress);
  }

  /** Stop the pending work: its promise rejects with Interrupted. */
  cancel() {
    if (this._flag) Atomics.store(new Int32Array(this._flag), 0, 1);
    else this.terminate();
  }

  /** End the worker (pending calls reject with Interrupted); a later call starts a new one. */
  terminate() {
    if (this._worker) this._worker.terminate();
    this._worker = null;
    this._failAll(new Interrupted());
  }
}

/** One solve in a fresh worker, ended afterwards; `signal` aborting cancels the work. */
export async function runInWorker(board, state, opts) {
  const { signal, ...options } = workerOptions(opts, "runInWorker");
  const w = new SolverWorker(board);
  const onAbort = () => w.cancel();
  if (signal) {
    if (signal.aborted) throw new Interrupted();
    signal.addEventListener("abort", onAbort, { once: true });
  }
  try {
    return await w.solve(state, options);
  } finally {
    if (signal) signal.removeEventListener("abort", onAbort);
    w.terminate();
  }
}
