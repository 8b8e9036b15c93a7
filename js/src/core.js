/**
 * Loading the WebAssembly core once per process or page: js/dist/modlights.wasm (SIMD) or
 * modlights-baseline.wasm where SIMD does not validate, read in node (MODLIGHTS_WASM: another
 * build), fetched in browsers. Its WASI imports are stubbed here, plus `env.ml_js_poll`, which
 * the C core's interrupt poll calls about every 20 ms (1 stops the work). `await init()`
 * loads it; in node getCore loads it synchronously, in browsers it throws CORE_NOT_LOADED.
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

/** Install the function the C core calls during long work (about every 20 ms): true stops
 * the work (the call then throws Interrupted). null: none. */
export const setInterruptHandler = (fn) => { interruptHandler = fn; };

export const IS_NODE = typeof process !== "undefined" && process.versions?.node != null;
const now = globalThis.performance?.now ? () => performance.now() : () => Date.now();

/** The imports of the core: the stop hook and the WASI stubs (memory set by ready). */
function importsOf() {
  const imports = { env: { ml_js_poll: () => (interruptHandler && interruptHandler() ? 1 : 0) } };
  const view = () => new DataView(imports.memory.buffer);
  const zeros = (...at) => { for (const p of at) view().setUint32(p, 0, true); return 0; };
  const none = () => 52;   // ENOSYS
  imports.wasi_snapshot_preview1 = {
    environ_get: () => 0,
    environ_sizes_get: zeros,
    clock_time_get: (id, precision, out) => {
      view().setBigUint64(out, BigInt(Math.round(now() * 1e6)), true);
      return 0;
    },
    fd_close: none, fd_seek: none, fd_write: none,
    random_get: (p, n) => {   // ml_seed_random (generate without a seed): the platform's CSPRNG
      globalThis.crypto.getRandomValues(new Uint8Array(imports.memory.buffer, p, n));
      return 0;
    },
    poll_oneoff: (inPtr, outPtr, n, events) => zeros(events),
    proc_exit: (code) => { throw new Error(`the WebAssembly core exited (${code})`); },
  };
  return imports;
}

/** The URL of the .wasm next to this module: the build with WebAssembly SIMD. */
export const WASM_URL = new URL("../dist/modlights.wasm", import.meta.url);
/** The URL of the baseline build (no SIMD). */
export const WASM_BASELINE_URL = new URL("../dist/modlights-baseline.wasm", import.meta.url);

// the smallest module with a v128 instruction: valid only where WebAssembly SIMD is
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3,
  2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** The build this engine runs: "simd128" where WebAssembly SIMD validates, else
 * "baseline" (the same C library without vector instructions: the same answers). */
export const coreVariant = () => (WebAssembly.validate(SIMD_PROBE) ? "simd128" : "baseline");

/** Where the core is loaded from by default: MODLIGHTS_WASM (node), else the build of
 * coreVariant(). */
const defaultSource = () => (IS_NODE && process.env.MODLIGHTS_WASM) ||
  (coreVariant() === "simd128" ? WASM_URL : WASM_BASELINE_URL);

async function compile(source) {
  source ??= defaultSource();
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (!(typeof source === "string" || source instanceof URL)) {
    throw badType("the core's source must be a URL, a path, bytes or a WebAssembly.Module, "
      + `got ${describe(source)}`);
  }
  if (IS_NODE && (typeof source === "string" ? !/^[a-z]+:/i.test(source) || source.startsWith("file:")
    : source.protocol === "file:")) {
    const { readFile } = await import("node:fs/promises");
    const { fileURLToPath } = await import("node:url");
    return WebAssembly.compile(await readFile(/^file:/.test(String(source))
      ? fileURLToPath(source) : source));
  }
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(fetch(source));
    } catch (e) { /* a server without application/wasm: the bytes below */ }
  }
  const r = await fetch(source);
  if (!r.ok) throw new Error(`could not load ${source}: HTTP ${r.status}`);
  return WebAssembly.compile(await r.arrayBuffer());
}

/** Load and instantiate the core once (later calls return the same one): index.d.ts's
 * Core. Rejects with a ModlightsError, code CORE_LOAD_FAILED (the reason as its `cause`),
 * when the core cannot be fetched, compiled or instantiated (a later call tries again), or
 * an InputError for a `source` of another type. */
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

/** The core of an instance (a module that is not the core fails here: a failed load). */
function ready(instance, module, imports) {
  const memory = instance.exports.memory;
  if (!(memory instanceof WebAssembly.Memory)) {
    throw new TypeError("the module exports no memory: it is not the modlights core");
  }
  imports.memory = memory;
  instance.exports._initialize();
  instance.exports.mlx_init();
  instance.exports.ml_engine_count();   // the registry made at load: a steady heap after
  core = { exports: instance.exports, module, memory };
  return core;
}

/** A failed load as a ModlightsError (code CORE_LOAD_FAILED, the reason as its cause). */
function loadFailed(e, source) {
  if (e instanceof ModlightsError) return e;
  const from = source ?? defaultSource();
  const where = typeof from === "string" || from instanceof URL ? String(from) : describe(from);
  return new ModlightsError(`could not load the WebAssembly core from ${where}: ${e && e.message}`,
    { code: "CORE_LOAD_FAILED", cause: e });
}

/** Load the WebAssembly core, as loadCore, resolving to nothing. */
export const init = async (source) => { await loadCore(source); };

/** Whether the core is loaded. */
export const isLoaded = () => core !== null;

/** The core; in node loaded synchronously when nothing is loaded or loading yet (node
 * 20.16+: process.getBuiltinModule); else a ModlightsError (CORE_NOT_LOADED) naming `what`
 * needed it. */
export function getCore(what = null) {
  if (core) return core;
  if (!loading && IS_NODE && typeof process.getBuiltinModule === "function") {
    try {
      const module = new WebAssembly.Module(process.getBuiltinModule("node:fs")
        .readFileSync(defaultSource()));
      const imports = importsOf();
      return ready(new WebAssembly.Instance(module, imports), module, imports);
    } catch (e) {
      throw loadFailed(e, undefined);
    }
  }
  throw new ModlightsError(`${what === null ? "" : `${what}: `}the WebAssembly core is `
    + "not loaded yet: `await init()` (or `await Solver.create(board)`) first",
  { code: "CORE_NOT_LOADED" });
}

/** Bytes of WebAssembly memory (it only grows). */
export const memoryBytes = () => (core ? core.memory.buffer.byteLength : 0);

/** Bytes of the C heap in use now (a leak shows as growth over repeated work). */
export const liveBytes = () => (core ? core.exports.mlx_live_bytes() : 0);
