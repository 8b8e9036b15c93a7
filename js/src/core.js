/**
 * Loading the WebAssembly core (js/dist/modlights.wasm: the C library of csrc/ with its
 * export layer csrc/wasm/exports.c), once per process or page.
 *
 * Two builds of the same C library sit in js/dist: modlights.wasm with WebAssembly SIMD
 * (128-bit vectors, about 1.6x faster on large boards) and modlights-baseline.wasm
 * without, loaded where SIMD does not validate (coreVariant()). In node the file is read
 * next to this module (`new URL("../dist/modlights.wasm", import.meta.url)`); in
 * browsers it is fetched from that URL (streaming compile when the server sends
 * `application/wasm`); in node, `MODLIGHTS_WASM=/path/to.wasm` loads another build
 * instead. The module is a WASI reactor; the few WASI
 * imports it has are stubbed here (no files, no environment, a monotonic clock), plus
 * `env.ml_js_poll`, called by the C core's interrupt poll about every 20 ms during
 * long work: it returns 1 to stop the work (see {@link setInterruptHandler}).
 *
 * Nothing is loaded when the package is imported: `await init()` (or the first
 * `await Solver.create(board)`) loads the core. In node the first synchronous call that
 * needs it (getCore: a Board, Solver.createSync, generate, daily, puzzle codes, a Puzzle's
 * measured properties, SplitMix64's draws) loads it synchronously (the file read,
 * `new WebAssembly.Module`, `new WebAssembly.Instance`); in browsers, which compile
 * asynchronously only, those calls throw a ModlightsError with code CORE_NOT_LOADED
 * before `await init()`.
 * @module core
 */
import { ModlightsError, badType } from "./errors.js";
import { describe } from "./fmt.js";

/** @type {Promise<Core> | null} */
let loading = null;
/** @type {Core | null} */
let core = null;
/** @type {(() => boolean) | null} */
let interruptHandler = null;

/**
 * Install the function the C core calls during long work (about every 20 ms): it
 * returns true to stop the work (the call then throws "interrupted"); it may also
 * report progress. null: none.
 * @param {(() => boolean) | null} fn
 */
export function setInterruptHandler(fn) {
  interruptHandler = fn;
}

const now = typeof performance !== "undefined" && performance.now
  ? () => performance.now() : () => Date.now();

function wasiStubs(getMemory) {
  const view = () => new DataView(getMemory().buffer);
  const ENOSYS = 52;
  return {
    environ_get: () => 0,
    environ_sizes_get: (countPtr, sizePtr) => {
      const v = view();
      v.setUint32(countPtr, 0, true);
      v.setUint32(sizePtr, 0, true);
      return 0;
    },
    clock_time_get: (id, precision, outPtr) => {
      const ns = BigInt(Math.round(now() * 1e6));
      view().setBigUint64(outPtr, ns, true);
      return 0;
    },
    fd_close: () => ENOSYS,
    fd_seek: () => ENOSYS,
    fd_write: () => ENOSYS,
    // ml_seed_random (generate without a seed): the platform's CSPRNG
    random_get: (ptr, len) => {
      globalThis.crypto.getRandomValues(new Uint8Array(getMemory().buffer, ptr, len));
      return 0;
    },
    poll_oneoff: (inPtr, outPtr, n, neventsPtr) => {
      view().setUint32(neventsPtr, 0, true);
      return 0;
    },
    proc_exit: (code) => {
      throw new Error(`the WebAssembly core exited (${code})`);
    },
  };
}

function isNode() {
  return typeof process !== "undefined" && process.versions != null
    && process.versions.node != null;
}

/** The URL of the .wasm next to this module: the build with WebAssembly SIMD (128-bit
 * vectors: Node 16.4+, Chrome 91+, Firefox 89+, Safari 16.4+). */
export const WASM_URL = new URL("../dist/modlights.wasm", import.meta.url);
/** The URL of the baseline build (no SIMD), for engines without WebAssembly SIMD. */
export const WASM_BASELINE_URL = new URL("../dist/modlights-baseline.wasm", import.meta.url);

// the smallest module with a v128 instruction (i8x16.splat, i8x16.popcnt): valid only
// where the engine has WebAssembly SIMD
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3,
  2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** The build this engine runs: "simd128" where WebAssembly SIMD validates, else
 * "baseline" (the same C library without vector instructions: the same answers). */
export function coreVariant() {
  try {
    return WebAssembly.validate(SIMD_PROBE) ? "simd128" : "baseline";
  } catch (e) {
    return "baseline";
  }
}

/** The default .wasm for this engine (see {@link coreVariant}). */
function defaultUrl() {
  return coreVariant() === "simd128" ? WASM_URL : WASM_BASELINE_URL;
}

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (!(source == null || typeof source === "string" || source instanceof URL
    || source instanceof ArrayBuffer || ArrayBuffer.isView(source))) {
    throw badType("the core's source must be a URL, a path, bytes or a WebAssembly.Module, "
      + `got ${describe(source)}`);
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.compile(source);
  }
  // node: MODLIGHTS_WASM=/path/to/modlights.wasm loads another build (tests of a fresh build)
  const env = isNode() && source == null ? process.env.MODLIGHTS_WASM : undefined;
  const url = source ?? (env ? env : defaultUrl());
  if (isNode() && (typeof url === "string" ? url.startsWith("file:") || !/^[a-z]+:/i.test(url)
    : url.protocol === "file:")) {
    const { readFile } = await import("node:fs/promises");
    const { fileURLToPath } = await import("node:url");
    const path = typeof url === "string" && !url.startsWith("file:") ? url : fileURLToPath(url);
    return WebAssembly.compile(await readFile(path));
  }
  const response = fetch(url);
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (e) {                    // a server without application/wasm: bytes
      const r = await fetch(url);
      if (!r.ok) throw new Error(`could not load ${url}: HTTP ${r.status}`);
      return WebAssembly.compile(await r.arrayBuffer());
    }
  }
  const r = await response;
  if (!r.ok) throw new Error(`could not load ${url}: HTTP ${r.status}`);
  return WebAssembly.compile(await r.arrayBuffer());
}

/**
 * The instantiated core. `exports` are the C API's functions (csrc/wasm/exports.list)
 * and the export layer's (csrc/wasm/exports.c);
 * `module` the compiled WebAssembly.Module (to hand to a Worker).
 * @typedef {{exports: any, module: WebAssembly.Module, memory: WebAssembly.Memory}} Core
 */

/**
 * Load and instantiate the core once (later calls return the same one).
 * @param {string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module} [source]
 *   where to load it from (default: ../dist/modlights.wasm next to this module, or
 *   modlights-baseline.wasm where the engine lacks WebAssembly SIMD: coreVariant())
 * @returns {Promise<Core>} rejects with a ModlightsError, code CORE_LOAD_FAILED (the
 *   reason as its `cause`), when the core cannot be fetched, compiled or instantiated
 *   (a module that is not the core) (a later call tries again), or an InputError for a
 *   `source` of another type
 */
export function loadCore(source) {
  if (core) return Promise.resolve(core);
  if (!loading) {
    loading = (async () => {
      try {
        const module = await compile(source);
        const imports = importsOf();
        return ready(await WebAssembly.instantiate(module, imports), module, imports);
      } catch (e) {
        throw loadFailed(e, source);
      }
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** The imports of the core: the stop hook and the WASI stubs (their memory set by ready). */
function importsOf() {
  const imports = {
    env: { ml_js_poll: () => (interruptHandler && interruptHandler() ? 1 : 0) },
  };
  imports.wasi_snapshot_preview1 = wasiStubs(() => imports.memory);
  return imports;
}

/** The core of an instance of a compiled module (a module that compiles but is not the
 * core, whose imports, exports or start fail, is a failed load too). */
function ready(instance, module, imports) {
  const memory = instance.exports.memory;
  imports.memory = memory;
  if (!(memory instanceof WebAssembly.Memory)) {
    throw new TypeError("the module exports no memory: it is not the modlights core");
  }
  instance.exports._initialize();
  instance.exports.mlx_init();
  instance.exports.ml_engine_count();   // the registry made at load: a steady heap after
  core = { exports: instance.exports, module, memory };
  return core;
}

/** A failed load as a ModlightsError (code CORE_LOAD_FAILED, the reason as its cause). */
function loadFailed(e, source) {
  if (e instanceof ModlightsError) return e;
  const env = isNode() && source == null ? process.env.MODLIGHTS_WASM : undefined;
  const from = source == null ? env || defaultUrl() : source;
  const where = typeof from === "string" || from instanceof URL ? String(from) : describe(from);
  return new ModlightsError(`could not load the WebAssembly core from ${where}: ${
    e && e.message}`, { code: "CORE_LOAD_FAILED", cause: e });
}

/**
 * In node, the core loaded synchronously (its file read, compiled and instantiated at
 * once: node allows it) when nothing is loaded or loading yet: the Board's calls work
 * before `await init()` there. null elsewhere (browsers compile asynchronously only) or
 * when node lacks process.getBuiltinModule (before 20.16).
 * @returns {Core | null}
 */
function loadCoreSync() {
  if (loading || !isNode() || typeof process.getBuiltinModule !== "function") return null;
  try {
    const { readFileSync } = process.getBuiltinModule("node:fs");
    const env = process.env.MODLIGHTS_WASM;
    const module = new WebAssembly.Module(readFileSync(env || defaultUrl()));
    const imports = importsOf();
    return ready(new WebAssembly.Instance(module, imports), module, imports);
  } catch (e) {
    throw loadFailed(e, undefined);
  }
}

/**
 * Load the WebAssembly core (once; later calls wait for the same load). Call it before
 * the synchronous calls that need the core: Solver.createSync, generate, daily, puzzle
 * codes (Puzzle#code, Puzzle.fromCode), a Puzzle's minTaps / proven / stars / bands /
 * difficulty / toDict, tapBands, difficultyOf, starsLimits, starsForTaps, SplitMix64's
 * draws and seedFrom of a string or bytes. `Solver.create` and the SolverWorker load it
 * themselves.
 * @param {string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module} [source]
 *   where to load it from (default: ../dist/modlights.wasm next to this module, or
 *   modlights-baseline.wasm where the engine lacks WebAssembly SIMD: coreVariant())
 * @returns {Promise<void>} rejects as {@link loadCore} does
 */
export async function init(source) {
  await loadCore(source);
}

/** Whether the core is loaded (init() has resolved). */
export function isLoaded() {
  return core !== null;
}

/**
 * The core loaded by {@link loadCore}; ModlightsError (code CORE_NOT_LOADED) when it
 * has not finished loading, naming `what` needed it ("puzzle codes", ...) when given.
 * @param {string | null} [what]
 * @returns {Core}
 */
export function getCore(what = null) {
  if (!core && !loadCoreSync()) {
    throw new ModlightsError(`${what === null ? "" : `${what}: `}the WebAssembly core is `
      + "not loaded yet: `await init()` (or `await Solver.create(board)`) first",
    { code: "CORE_NOT_LOADED" });
  }
  return core;
}

/** Bytes of WebAssembly memory (it only grows). */
export function memoryBytes() {
  return core ? core.memory.buffer.byteLength : 0;
}

/** Bytes of the C heap in use now (every malloc'd block not yet freed): a leak shows
 * as growth over repeated work. */
export function liveBytes() {
  return core ? core.exports.mlx_live_bytes() : 0;
}
