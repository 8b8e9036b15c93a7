/**
 * The C library's public API as the WebAssembly core exports it (csrc/wasm/exports.c):
 * strings in and out of WebAssembly memory, handles freed in `finally`, and the C
 * library's failures thrown as the package's errors (errors.js) with the message of
 * the C message table (Python's text; a position is shown as JavaScript's [r, c]).
 * Every function here needs the core: before `await init()` it throws a ModlightsError
 * with code CORE_NOT_LOADED. Internal: not part of the public API.
 * @module capi
 */
import { InputError, Interrupted, ModlightsError, Unsolvable } from "./errors.js";
import { getCore } from "./core.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Python's tuple (r, c) in a message as JavaScript's [r, c]. */
const jsWords = (message) => message.replace(/\((-?\d+), (-?\d+)\)/g, "[$1, $2]");
/** A pointer an export returned (an i32) as an unsigned address. */
const addr = (p) => p >>> 0;

function cString(core, p) {
  const ptr = addr(p);
  const mem = new Uint8Array(core.memory.buffer);
  let end = ptr;
  while (mem[end] !== 0) end++;
  return decoder.decode(mem.subarray(ptr, end));
}

/** The C library's last failure as the package's error (InputError for bad input with
 * the status name as its code, or the code `renamed` gives for it where the package's
 * code was another before the C library, Unsolvable, Interrupted, else ModlightsError). */
function failure(core, renamed = {}) {
  const x = core.exports;
  const status = x.mlx_errcode();
  const name = cString(core, x.mlx_status_name(status));
  const code = renamed[name] ?? name;
  const message = jsWords(cString(core, x.mlx_errmsg()));
  if (status === 7) return new Unsolvable(message);
  if (status === 10) return new Interrupted(message);
  if (status >= 1 && status <= 6) return new InputError(message, { code });
  return new ModlightsError(message, { code });
}

/** A malloc'd block of `bytes` bytes (freed by the caller with ml_w_free). */
function alloc(core, bytes) {
  const ptr = addr(core.exports.ml_w_malloc(bytes));
  if (!ptr) throw new ModlightsError("out of WebAssembly memory", { code: "OUT_OF_MEMORY" });
  return ptr;
}

/** Bytes copied into a fresh malloc'd block (freed by the caller with ml_w_free). */
function copyIn(core, bytes) {
  const ptr = alloc(core, bytes.length);
  new Uint8Array(core.memory.buffer).set(bytes, ptr);
  return ptr;
}

/** Run fn(core, ptr, length) with `bytes` in WebAssembly memory. */
function withBytes(what, bytes, fn) {
  const core = getCore(what);
  const ptr = copyIn(core, bytes);
  try {
    return fn(core, ptr, bytes.length);
  } finally {
    core.exports.ml_w_free(ptr);
  }
}

/** A malloc'd C string's text (freed here); the failure when ptr is 0. */
function takeString(core, ptr, renamed = {}) {
  if (!ptr) throw failure(core, renamed);
  try {
    return cString(core, ptr);
  } finally {
    core.exports.ml_w_free(ptr);
  }
}

/** fn(core, handle) with a C board made from Board.to_dict JSON text, freed after. */
function withBoard(what, json, fn) {
  return withBytes(what, encoder.encode(json), (core, ptr, len) => {
    const b = core.exports.mlx_board_from_json(ptr, len, 0n);
    if (!b) throw failure(core);
    try {
      return fn(core, b);
    } finally {
      core.exports.mlx_board_free(b);
    }
  });
}

/**
 * The puzzle code of a board (its to_dict JSON text) and a start (one byte a tile,
 * row-major): ml_code_encode.
 * @param {string} json
 * @param {Uint8Array} start
 * @returns {string}
 */
export function codeEncode(json, start) {
  return withBoard("puzzle codes (Puzzle#code, Puzzle.fromCode)", json, (core, b) => {
    const s = copyIn(core, start.length ? start : new Uint8Array(1));
    try {
      // a code's size limits (sides, offsets, palette) were OUT_OF_RANGE in this package
      return takeString(core, core.exports.mlx_code_encode(b, s), { TOO_LARGE: "OUT_OF_RANGE" });
    } finally {
      core.exports.ml_w_free(s);
    }
  });
}

/**
 * A puzzle code decoded by ml_puzzle_from_code: the board's to_dict JSON text, the start
 * (one byte a tile, row-major) and the canonical code.
 * @param {string} code
 * @returns {{board: string, start: Uint8Array, code: string}}
 */
export function codeDecode(code) {
  const bytes = encoder.encode(code);
  return withBytes("puzzle codes (Puzzle#code, Puzzle.fromCode)", bytes, (core, ptr, len) => {
    const x = core.exports;
    const p = x.mlx_puzzle_from_code(ptr, len);
    if (!p) throw failure(core);
    try {
      const b = x.mlx_puzzle_board(p);
      const board = takeString(core, x.mlx_board_to_json(b));
      const size = x.mlx_board_size(b);
      const at = addr(x.mlx_puzzle_start(p));
      const start = new Uint8Array(core.memory.buffer).slice(at, at + size);
      const c = x.mlx_puzzle_code(p);
      if (!c) throw failure(core);
      return { board, start, code: cString(core, c) };
    } finally {
      x.mlx_puzzle_free(p);
    }
  });
}

// ------------------------------------------------------------------ SplitMix64
// One 8-byte ml_prng per core (the state is copied in and out around each call).
const prngCell = new WeakMap();

function prngAt(core) {
  let ptr = prngCell.get(core);
  if (ptr === undefined) {
    ptr = alloc(core, 8);
    prngCell.set(core, ptr);
  }
  return ptr;
}

/**
 * fn(core, g) with the ml_prng at g holding `state`; returns [fn's value, the new state].
 * @param {bigint} state
 * @returns {[any, bigint]}
 */
export function withPrng(state, fn) {
  const core = getCore("SplitMix64 draws");
  const g = prngAt(core);
  new DataView(core.memory.buffer).setBigUint64(g, state, true);
  const out = fn(core, g);
  return [out, new DataView(core.memory.buffer).getBigUint64(g, true)];
}

/** ml_prng_next: [the output, the new state]. */
export function prngNext(state) {
  return withPrng(state, (core, g) => BigInt.asUintN(64, core.exports.mlx_prng_next(g)));
}

/** ml_prng_below(n): [a uniform BigInt in [0, n), the new state]. */
export function prngBelow(state, n) {
  return withPrng(state, (core, g) => BigInt.asUintN(64, core.exports.mlx_prng_below(g, n)));
}

/** ml_prng_sample: [k distinct indices of 0..n-1 in random order, the new state]. */
export function prngSample(state, n, k) {
  return withPrng(state, (core, g) => {
    const x = core.exports;
    const out = alloc(core, 8 * Math.max(1, k));
    try {
      if (x.mlx_prng_sample(g, BigInt(n), BigInt(k), out)) throw failure(core);
      const v = new DataView(core.memory.buffer);
      return Array.from({ length: k }, (_, i) => Number(v.getBigUint64(out + 8 * i, true)));
    } finally {
      x.ml_w_free(out);
    }
  });
}

/** ml_seed_from_bytes: the first 8 bytes of SHA-256(bytes), big-endian (BigInt). */
export function seedFromBytes(bytes) {
  return withBytes("string seeds", bytes, (core, ptr, len) =>
    BigInt.asUintN(64, core.exports.mlx_seed_from_bytes(ptr, len)));
}

// ------------------------------------------------------------------ bands and stars
/** fn(core, ptr, view) with `words` scratch u64 words in WebAssembly memory. */
function withWords(what, words, fn) {
  const core = getCore(what);
  const ptr = alloc(core, 8 * words);
  try {
    return fn(core, ptr, () => new DataView(core.memory.buffer));
  } finally {
    core.exports.ml_w_free(ptr);
  }
}
const u64s = (view, ptr, k) => Array.from({ length: k },
  (_, i) => Number(view().getBigUint64(ptr + 8 * i, true)));

/** ml_tap_bands: [lo[4], hi[4]] (numbers). */
export function tapBandsOf(nTaps, states) {
  return withWords("tapBands", 8, (core, ptr, view) => {
    core.exports.mlx_tap_bands(BigInt(nTaps), states, ptr, ptr + 32);
    return [u64s(view, ptr, 4), u64s(view, ptr + 32, 4)];
  });
}

/** ml_difficulty_of: the difficulty's index (0 easy .. 3 expert). */
export function difficultyIndex(minTaps, nTaps, states) {
  return getCore("difficultyOf").exports.mlx_difficulty_of(BigInt(minTaps), BigInt(nTaps), states);
}

/** ml_stars_limits: the most taps for 3, 2 and 1 stars. */
export function starsLimitsOf(m) {
  return withWords("starsLimits", 3, (core, ptr, view) => {
    core.exports.mlx_stars_limits(BigInt(m), ptr);
    return u64s(view, ptr, 3);
  });
}

/** ml_stars_for_taps under limits [3-star, 2-star, 1-star]. */
export function starsFor(limits, taps) {
  return withWords("starsForTaps", 3, (core, ptr, view) => {
    limits.forEach((v, i) => view().setBigUint64(ptr + 8 * i, BigInt(v), true));
    return core.exports.mlx_stars_for_taps(ptr, BigInt(taps));
  });
}

// ------------------------------------------------------------------ daily puzzles
/** ml_daily: the codes of the day's three puzzles (easy, medium, hard). */
export function dailyCodes(year, month, day) {
  const core = getCore("daily");
  return takeString(core, core.exports.mlx_daily_codes(year, month, day)).split(" ");
}

// ------------------------------------------------------------------ dates
/**
 * ml_date_parse of an ISO date text (Python's daily() rules: stripped of Python's
 * whitespace, \d{4}-\d{2}-\d{2} with any decimal digits, then datetime's checks and
 * messages): [year, month, day].
 * @param {string} text (no NUL character: the C text ends at one)
 * @returns {[number, number, number]}
 */
export function dateParse(text) {
  const bytes = encoder.encode(text);
  const z = new Uint8Array(bytes.length + 1);
  z.set(bytes);
  return withBytes("daily", z, (core, ptr) => {
    const out = alloc(core, 12);
    try {
      if (core.exports.mlx_date_parse(ptr, out)) throw failure(core);
      const v = new DataView(core.memory.buffer);
      return [0, 1, 2].map((i) => v.getInt32(out + 4 * i, true));
    } finally {
      core.exports.ml_w_free(out);
    }
  });
}

// ------------------------------------------------------------------ solvers
const NOT_IMPLEMENTED = 14;

/**
 * A C solver (ml_solver_new: the registry's plan and engine) of one board, with state
 * and target buffers of the board's tiles kept in WebAssembly memory until dispose().
 * Internal: js/src/solver.js's Solver wraps it.
 */
export class CoreSolver {
  /**
   * The solver of the board whose to_dict JSON text is `json`, or null when this
   * build of the library has no C engine for the board's plan yet (ML_ENOTIMPL).
   * The library's failures (a board past a limit) are thrown.
   * @param {string} json
   * @param {number} tiles the bytes of a state (the board's tiles; a graph board's cells)
   * @param {number} tapsSize the bytes of a solution (tiles; a graph board's taps)
   * @returns {CoreSolver | null}
   */
  static open(json, tiles, tapsSize) {
    return withBoard("Solver", json, (core, b) => {
      const s = addr(core.exports.mlx_solver_new(b, 0));
      if (!s) {
        if (core.exports.mlx_errcode() === NOT_IMPLEMENTED) return null;
        throw failure(core);
      }
      try {
        return new CoreSolver(core, s, b, tiles, tapsSize);
      } catch (e) {
        core.exports.mlx_solver_free(s);
        throw e;
      }
    });
  }

  /** @private */
  constructor(core, s, b, tiles, tapsSize) {
    const x = core.exports;
    this._core = core;
    this._s = s;
    this.defaultSteps = x.mlx_board_default_steps(b);
    this.nullity = x.mlx_solver_nullity(s);
    if (this.nullity < 0) throw failure(core);
    this.kernelSize = BigInt(takeString(core, x.mlx_solver_kernel_size(s)));
    this._tapsSize = tapsSize;
    this._state = alloc(core, Math.max(1, tiles));
    this._target = alloc(core, Math.max(1, tiles));
    this._info = alloc(core, 32);
  }

  /** The state's (and an array target's) bytes into WebAssembly memory: [state, target]. */
  _put(state, target) {
    const mem = new Uint8Array(this._core.memory.buffer);
    mem.set(state, this._state);
    if (target === null) return 0;
    mem.set(target, this._target);
    return this._target;
  }

  /** ml_solver_solvable: target an Uint8Array of tiles, or null with `fill`. */
  solvable(state, target, fill) {
    const v = this._core.exports.mlx_solver_solvable(this._s, this._state,
      this._put(state, target), fill);
    if (v < 0) throw failure(this._core);
    return v === 1;
  }

  /**
   * ml_solver_solve (steps: a count budget, or -1 for the default): {x, length, proven,
   * examined, pruned}, x a copy of the taps (a byte a tile). Unsolvable when none.
   */
  solve(state, target, fill, minimal, steps) {
    const core = this._core;
    const x = core.exports;
    const r = addr(x.mlx_solver_solve(this._s, this._state, this._put(state, target), fill,
      minimal ? 1 : 0, steps));
    if (!r) throw failure(core);
    try {
      const at = addr(x.mlx_result_taps(r));
      const taps = new Uint8Array(core.memory.buffer).slice(at, at + this._tapsSize);
      x.mlx_result_info(r, this._info);
      const [length, proven, examined, pruned] = new Float64Array(core.memory.buffer,
        this._info, 4);
      return { x: taps, length, proven: proven === 1, examined, pruned };
    } finally {
      x.mlx_result_free(r);
    }
  }

  /** The plan as ml_plan_to_json's object. */
  plan() {
    return JSON.parse(takeString(this._core, this._core.exports.mlx_solver_plan_json(this._s)));
  }

  dispose() {
    const x = this._core.exports;
    if (this._s) x.mlx_solver_free(this._s);
    for (const p of [this._state, this._target, this._info]) if (p) x.ml_w_free(p);
    this._s = this._state = this._target = this._info = 0;
  }
}
