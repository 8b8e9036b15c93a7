/**
 * The C library's public API (csrc/include/modlights.h) as the WebAssembly core exports
 * it: the functions of csrc/wasm/exports.list as they are (ml_*, the calling thread's
 * default context passed as 0) and the few wrappers of csrc/wasm/exports.c (mlx_*: by-value
 * structs). Strings and arrays go in and out of WebAssembly memory here, every handle is
 * freed in `finally`, and the C library's failures are thrown as the package's errors
 * (errors.js) with the message of the C message table in JavaScript's words (jsWords).
 * Every function here needs the core: before `await init()` it throws a ModlightsError
 * with code CORE_NOT_LOADED. Internal: not part of the public API.
 * @module capi
 */
import { InputError, Interrupted, ModlightsError, Unsolvable } from "./errors.js";
import { getCore } from "./core.js";
import { isMixed } from "./patterns.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const TYPES = { int: "a number", float: "a number", str: "a string", bool: "a boolean",
  list: "an Array", tuple: "an Array", dict: "an object", NoneType: "null" };
/** The C library's message (Python's text) in JavaScript's words: a position (r, c) as
 * [r, c], keyword settings (unique=True, locked=k) as options (unique: true, locked: k),
 * Python's type names and literals as JavaScript's (a list: an Array, an int: an integer,
 * a dict: an object, True: true, None: null, a sequence: an Array). */
export const jsWords = (message) => message
  .replace(/\((-?\d+), (-?\d+)\)/g, "[$1, $2]")
  .replace(/\((row, col|dr, dc)\)/g, "[$1]")
  .replace(/\b(\w+)=(True|False|k)\b/g, (_, k, v) => `${k}: ${v === "k" ? v : v.toLowerCase()}`)
  .replace(/\bgot (?:an? )?(int|float|str|bool|list|tuple|dict|NoneType)\b/g, (_, t) => `got ${TYPES[t]}`)
  .replace(/\ba dict \(JSON object\)|\ba dict\b/g, "an object")
  .replace(/\ban int\b/g, "an integer").replace(/\bints\b/g, "integers")
  .replace(/\ba (list|sequence|iterable)\b/g, "an Array").replace(/\blists of\b/g, "Arrays of")
  .replace(/\blist\b/g, "Array").replace(/\bTrue\b/g, "true").replace(/\bFalse\b/g, "false")
  .replace(/\bNone\b/g, "null").replace(/\bint\b/g, "integer").replace(/\bbool\b/g, "boolean");
/** A pointer or size_t an export returned (an i32) as an unsigned number. */
const addr = (p) => p >>> 0;
const u8 = (core) => new Uint8Array(core.memory.buffer);
const dv = (core) => new DataView(core.memory.buffer);

function cString(core, p, len = -1) {
  const ptr = addr(p);
  const mem = u8(core);
  let end = len >= 0 ? ptr + len : ptr;
  if (len < 0) while (mem[end] !== 0) end++;
  return decoder.decode(mem.subarray(ptr, end));
}

/** The C library's last failure as the package's error (InputError for bad input with
 * the status name as its code, or the code `renamed` gives for it, Unsolvable,
 * Interrupted, else ModlightsError). */
function failure(core, renamed = {}) {
  const x = core.exports;
  const status = x.ml_errcode(0);
  const name = cString(core, x.ml_status_name(status));
  const code = renamed[name] ?? name;
  const message = jsWords(cString(core, x.ml_errmsg(0)));
  if (status === 7) return new Unsolvable(message);
  if (status === 10) return new Interrupted(message);
  // NOT_COVERED: only a board past MAX_TILES that no structured engine takes reaches it
  if (status === 8) return new InputError(message, { code: "TOO_LARGE" });
  if (status >= 1 && status <= 6) return new InputError(message, { code });
  return new ModlightsError(message, { code });
}

/** Throws the failure when `rc` (a status) is not ML_OK. */
function check(core, rc, renamed) {
  if (rc) throw failure(core, renamed);
}

/** A malloc'd block of `bytes` bytes (freed by the caller with mlx_free). */
function alloc(core, bytes) {
  // a size_t is 32 bits: a larger request would wrap, so it is refused here
  const ptr = bytes < 2 ** 32 ? addr(core.exports.mlx_malloc(Math.max(1, bytes))) : 0;
  if (!ptr) throw new ModlightsError("out of WebAssembly memory", { code: "OUT_OF_MEMORY" });
  return ptr;
}

/**
 * fn(core, ...pointers) with one malloc'd block per entry of `blocks` (a byte count, or a
 * Uint8Array copied in), all freed after.
 */
function withMem(what, blocks, fn, core = getCore(what)) {
  const ptrs = [];
  try {
    for (const b of blocks) {
      const p = alloc(core, typeof b === "number" ? b : b.length);
      ptrs.push(p);
      if (typeof b !== "number") u8(core).set(b, p);
    }
    return fn(core, ...ptrs);
  } finally {
    for (const p of ptrs) core.exports.mlx_free(p);
  }
}

/** The out-pointer a call wrote at `at` (a handle). */
const ptrAt = (core, at) => dv(core).getUint32(at, true);
const u64At = (core, at) => Number(dv(core).getBigUint64(at, true));

/** The text a writer with the snprintf convention writes: call(buf, cap, lenPtr). */
function written(core, call, renamed) {
  return withMem(null, [4], (c, lenAt) => {
    check(c, call(0, 0, lenAt), renamed);
    const len = dv(c).getUint32(lenAt, true);
    return withMem(null, [len + 1], (c2, buf) => {
      check(c2, call(buf, len + 1, lenAt), renamed);
      return cString(c2, buf, len);
    }, c);
  }, core);
}

/**
 * fn(core, handle) with the C board of a Board, made from its JSON (the C library's own
 * to_json text, kept by the Board) and freed after: one C board per call, so a Board holds
 * no WebAssembly memory (handles that need the board keep their own reference).
 * @param {import("./board.js").Board} board
 */
export function withBoard(what, board, fn) {
  const json = encoder.encode(board._json);
  return withMem(what, [json, 4], (core, text, out) => {
    // the JSON is the Board's own: any size it holds is allowed (2^40: sides up to 2^20)
    check(core, core.exports.ml_board_from_json(0, text, json.length, 1n << 40n, out));
    const b = ptrAt(core, out);
    try {
      return fn(core, b);
    } finally {
      core.exports.ml_board_free(b);
    }
  });
}

/** A new C board's facts (freed after): its JSON (ml_board_to_json) and its counts. */
function facts(core, out) {
  const x = core.exports;
  const b = ptrAt(core, out);
  try {
    return { json: written(core, (buf, cap, len) => x.ml_board_to_json(0, b, buf, cap, len)),
      grid: x.ml_board_kind(b) === 1, states: x.ml_board_states(b),
      rows: Number(x.ml_board_rows(b)), cols: Number(x.ml_board_cols(b)),
      nCells: Number(x.ml_board_n_cells(b)), nTaps: Number(x.ml_board_n_taps(b)),
      giant: x.ml_board_is_giant(b) !== 0, wrap: x.ml_board_wrap(b) !== 0,
      anyLocked: x.ml_board_any_locked(b) !== 0, anyHoles: x.ml_board_any_holes(b) !== 0 };
  } finally {
    x.ml_board_free(b);
  }
}

/** A board of a JSON text (ml_board_from_json: Python's Board.from_dict rules and
 * messages; maxTiles 0: ML_MAX_TILES): its facts. */
export function boardFromJson(what, text, maxTiles) {
  const bytes = encoder.encode(text);
  return withMem(what, [bytes, 4], (core, p, out) => {
    check(core, core.exports.ml_board_from_json(0, p, bytes.length, BigInt(maxTiles), out));
    return facts(core, out);
  });
}

/** int64 arguments: a number or BigInt, clamped to the int64 range (off any limit). */
const i64 = (v) => { const b = BigInt(v); return b > I64 ? I64 : b < -I64 ? -I64 : b; };
const I64 = 2n ** 62n;

/** A graph board (ml_board_from_effects; nCells < 0: one more than the largest cell):
 * its facts. `effects`: Arrays of integers. */
export function graphBoard(what, states, nCells, effects) {
  const total = effects.reduce((k, e) => k + e.length, 0);
  return withMem(what, [8 * (effects.length + 1), 8 * total, 4], (core, indptr, cells, out) => {
    const v = dv(core);
    let k = 0;
    effects.forEach((e, j) => {
      v.setBigInt64(indptr + 8 * j, BigInt(k), true);
      for (const c of e) v.setBigInt64(cells + 8 * k++, i64(c), true);
    });
    v.setBigInt64(indptr + 8 * effects.length, BigInt(k), true);
    check(core, core.exports.ml_board_from_effects(0, states, i64(nCells), effects.length,
      indptr, cells, out));
    return facts(core, out);
  });
}

/** A C text (NUL-terminated) in a block for fn(core, pointer). */
const withText = (core, text, fn) => withMem(null, [encoder.encode(`${text}\0`)], fn, core);

/**
 * fn(core, grid) with an ml_grid (freed after) of rows x cols tiles, n = states, and
 * `how`: {pattern: a name, [dr, dc] offsets, or rows x cols such entries (mixed: true), wrap,
 * locked / holes: null, a Uint8Array mask of rows * cols, or [r, c] positions}. The
 * checks and messages are the C library's (Python's Board.grid).
 */
function withGrid(core, rows, cols, states, how, fn) {
  const x = core.exports;
  const { pattern, wrap, locked, holes } = how;   // how.mixed: pattern is per tile
  return withMem(null, [4, 4, 16 * 4096], (c, out, idx, offs) => {
    check(c, x.ml_grid_new(0, i64(rows), i64(cols), states, out));
    const g = ptrAt(c, out);
    try {
      const put = (o) => {
        o.forEach(([dr, dc], i) => {
          dv(c).setBigInt64(offs + 8 * i, i64(dr), true);
          dv(c).setBigInt64(offs + 8 * 4096 + 8 * i, i64(dc), true);
        });
        return [Math.min(o.length, 4097), offs, offs + 8 * 4096];
      };
      const entry = (o) => {
        if (typeof o !== "string") return check(c, x.ml_grid_palette_add_offsets(0, g, ...put(o), idx));
        withText(c, o, (c2, name) => check(c2, x.ml_pattern_lookup(0, name, idx)));
        return check(c, x.ml_grid_palette_add(0, g, dv(c).getInt32(idx, true), idx));
      };
      if (typeof pattern === "string") {
        withText(c, pattern, (c2, name) => check(c2, x.ml_grid_set_pattern_name(0, g, name)));
      } else if (how.mixed) {
        const seen = new Map();
        const index = new Uint32Array(rows * cols);
        pattern.flat().forEach((o, t) => {
          const key = JSON.stringify(o, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
          if (!seen.has(key)) {
            entry(o);
            seen.set(key, dv(c).getUint32(idx, true));
          }
          index[t] = seen.get(key);
        });
        withMem(null, [new Uint8Array(index.buffer)], (c2, p) =>
          check(c2, x.ml_grid_set_mixed(0, g, p)), c);
      } else {
        check(c, x.ml_grid_set_offsets(0, g, ...put(pattern)));
      }
      check(c, x.ml_grid_set_wrap(0, g, wrap ? 1 : 0));
      for (const [marks, set, one] of [[locked, x.ml_grid_set_locked, x.ml_grid_lock],
        [holes, x.ml_grid_set_holes, x.ml_grid_hole]]) {
        if (marks instanceof Uint8Array) {
          withMem(null, [marks], (c2, m) => check(c2, set(0, g, m)), c);
        } else if (marks) {
          for (const [r, cc] of marks) check(c, one(0, g, i64(r), i64(cc)));
        }
      }
      return fn(c, g);
    } finally {
      x.ml_grid_free(g);
    }
  }, core);
}

/** A grid board (ml_grid_build of withGrid's description): its facts. */
export function gridBoard(what, rows, cols, states, how) {
  return withGrid(getCore(what), rows, cols, states, how, (core, g) =>
    withMem(null, [4], (c, out) => {
      check(c, c.exports.ml_grid_build(0, g, out));
      return facts(c, out);
    }, core));
}

/** The state after tapping (r, c) (a graph board: (tap, 0)) `times` times
 * (ml_board_press): a byte a tile. */
export const boardPress = (board, state, r, c, times) => withBoard("Board#press", board,
  (core, b) => withMem(null, [state], (c2, s) => {
    check(c2, c2.exports.ml_board_press(0, b, s, i64(r), i64(c), BigInt(times), s));
    return u8(c2).slice(s, s + state.length);
  }, core));

/** state + A taps (ml_board_apply): a byte a tile. */
export const boardApply = (board, state, taps) => withBoard("Board#apply", board, (core, b) =>
  withMem(null, [state, taps], (c2, s, t) => {
    check(c2, c2.exports.ml_board_apply(0, b, s, t, s));
    return u8(c2).slice(s, s + state.length);
  }, core));

/** A dense (ml_board_matrix): nCells * nTaps bytes, row-major. */
export const boardMatrix = (board, m, r) => withBoard("Board#matrix", board, (core, b) =>
  withMem(null, [m * r], (c2, a) => {
    check(c2, c2.exports.ml_board_matrix(0, b, a, r));
    return u8(c2).slice(a, a + m * r);
  }, core));

/** Every column of A as cell indices with repeats (ml_board_effect), as Int32Arrays. */
export const boardColumns = (board, r) => withBoard("Board#column", board, (core, b) =>
  withMem(null, [8, 8 * 4096], (c2, count, cells) => Array.from({ length: r }, (_, j) => {
    check(c2, c2.exports.ml_board_effect(0, b, BigInt(j), count, cells, 4096));
    const k = dv(c2).getUint32(count, true);
    return Int32Array.from({ length: k }, (_, i) => u64At(c2, cells + 8 * i));
  }), core));

/** The column (tap) or row (cell) of A of the tile (r, c) (a graph board: (index, 0)):
 * ml_board_tap_index / ml_board_cell_index with their refusals. */
export const boardIndex = (board, tap, r, c) => withBoard(tap ? "Board#tapIndex" : "Board#cellIndex",
  board, (core, b) => withMem(null, [8], (c2, out) => {
    const x = c2.exports;
    check(c2, (tap ? x.ml_board_tap_index : x.ml_board_cell_index)(0, b, i64(r), i64(c), out));
    return u64At(c2, out);
  }, core));

/** Whether two boards are equal (ml_board_equal: kind, n and A). */
export const boardsEqual = (a, b) => withBoard("Board#equals", a, (core, p) =>
  withBoard(null, b, (c2, q) => c2.exports.ml_board_equal(p, q) !== 0));

/** |ker A| of the ml_factored at `at` as a BigInt. */
function factored(core, at) {
  const v = dv(core);
  let out = 1n;
  for (let i = 0; i < v.getInt32(at, true); i++) {
    out *= BigInt(v.getUint32(at + 4 + 4 * i, true)) ** v.getBigUint64(at + 24 + 8 * i, true);
  }
  return out;
}

/** An ml_result's parts: {x (a copy of the taps), length, proven, examined, pruned,
 * kernelSize}. */
function readResult(core, r, tapsSize) {
  const x = core.exports;
  const at = addr(x.ml_result_taps(r));
  return withMem(null, [56], (c, f) => {
    x.ml_result_kernel_size(r, f);
    return { x: u8(c).slice(at, at + tapsSize), length: Number(x.ml_result_length(r)),
      proven: x.ml_result_proven_minimal(r) !== 0, examined: Number(x.ml_result_examined(r)),
      pruned: Number(x.ml_result_pruned(r)), kernelSize: factored(c, f) };
  }, core);
}

// ------------------------------------------------------------------ puzzles
const CODES = "puzzle codes (Puzzle#code, Puzzle.fromCode)";
// a code's size limits (sides, offsets, palette) were OUT_OF_RANGE in this package
const CODE_LIMITS = { TOO_LARGE: "OUT_OF_RANGE" };

/** The puzzle code of a board and a start (one byte a tile, row-major): ml_code_encode. */
export function codeEncode(board, start) {
  return withBoard(CODES, board, (core, b) => withMem(null, [start], (c, s) =>
    written(c, (buf, cap, len) => c.exports.ml_code_encode(0, b, s, buf, cap, len),
      CODE_LIMITS), core));
}

/** An ml_puzzle's parts: {board (to_dict JSON text), start (bytes), code, stats (null
 * unless measured), result (the measured solution's parts, or null)}. */
function readPuzzle(core, p, measured) {
  const x = core.exports;
  const b = x.ml_puzzle_board(p);
  const size = Number(x.ml_board_size(b));
  const at = addr(x.ml_puzzle_start(p));
  const out = { board: written(core, (buf, cap, len) => x.ml_board_to_json(0, b, buf, cap, len)),
    start: u8(core).slice(at, at + size), stats: null, result: null };
  withMem(null, [56], (c, st) => {
    check(c, x.ml_puzzle_code(0, p, st));
    out.code = cString(c, ptrAt(c, st));
    if (!measured) return;
    check(c, x.ml_puzzle_stats_get(0, p, st));
    const v = dv(c);
    out.stats = { minTaps: u64At(c, st), proven: v.getInt32(st + 8, true) !== 0,
      difficulty: v.getInt32(st + 12, true), stars: [16, 24, 32].map((o) => u64At(c, st + o)),
      touched: u64At(c, st + 40), score: v.getFloat64(st + 48, true) };
    check(c, x.ml_puzzle_solution(0, p, st));
    out.result = readResult(c, ptrAt(c, st), Number(x.ml_board_taps_size(b)));
  }, core);
  return out;
}

/** fn(core, out) where fn makes puzzles into `count` out-pointers at out; their parts
 * (readPuzzle), each freed after. */
function puzzles(what, count, measured, make) {
  return withMem(what, [4 * count], (core, out) => {
    u8(core).fill(0, out, out + 4 * count);
    try {
      make(core, out);
      return Array.from({ length: count }, (_, i) => readPuzzle(core, ptrAt(core, out + 4 * i),
        measured));
    } finally {
      for (let i = 0; i < count; i++) core.exports.ml_puzzle_free(ptrAt(core, out + 4 * i));
    }
  });
}

/** A puzzle code decoded by ml_puzzle_from_code (every check of Python's from_code). */
export function codeDecode(code) {
  const bytes = encoder.encode(code);
  return puzzles(CODES, 1, false, (core, out) => withMem(null, [bytes], (c, text) =>
    check(c, c.exports.ml_puzzle_from_code(0, text, bytes.length, out)), core))[0];
}

/** The puzzle of a JSON text (ml_puzzle_from_json: Python's Puzzle.from_dict, its checks
 * and messages; maxTiles 0: ML_MAX_TILES): its parts, not measured. */
export function puzzleFromJson(text, maxTiles) {
  const bytes = encoder.encode(text);
  return puzzles("Puzzle.fromDict", 1, false, (core, out) => withMem(null, [bytes], (c, p) =>
    check(c, c.exports.ml_puzzle_from_json(0, p, bytes.length, BigInt(maxTiles), out)), core))[0];
}

/** A puzzle's measured parts (ml_puzzle_new, ml_puzzle_stats_get: Python's _min_solve). */
export function puzzleMeasure(board, start) {
  return withBoard("a Puzzle's minTaps, proven, stars and difficulty", board, (core, b) =>
    puzzles(null, 1, true, (c, out) => withMem(null, [start], (c2, s) =>
      check(c2, c2.exports.ml_puzzle_new(0, b, s, out)), c))[0]);
}

/** The day's three puzzles (ml_daily), measured. */
export function dailyPuzzles(year, month, day) {
  return puzzles("daily", 3, true, (core, out) =>
    check(core, core.exports.ml_daily(0, year, month, day, out)));
}

/**
 * ml_generate with the settings of `board` (a Board whose pattern, wrap, locked tiles and
 * holes are fixed; null: a rows x cols board, cross, n = 2), `locked` / `holes` tiles placed at random (-1: not given),
 * difficulty (0 easy .. 3 expert), unique, seed (a BigInt): the puzzle's parts, measured.
 */
export function generatePuzzle(board, { rows, cols, locked, holes, difficulty, unique, seed }) {
  const d = board && board.toDict();
  const grid = (core, fn) => (board ? withGrid(core, d.rows, d.cols, d.states,
    { ...d, mixed: isMixed(d.pattern, d.rows, d.cols) }, fn) : fn(core, 0));
  return puzzles("generate", 1, true, (core, out) => grid(core, (c, g) =>
    withMem(null, [80], (c2, o) => {
      c2.exports.ml_generate_opts_init(o);
      const v = dv(c2);
      if (v.getUint32(o, true) !== 80) throw new ModlightsError("ml_generate_opts changed");
      v.setBigInt64(o + 8, BigInt(rows), true);
      v.setBigInt64(o + 16, BigInt(cols), true);
      v.setUint32(o + 32, g, true);
      v.setInt32(o + 36, difficulty, true);
      v.setBigInt64(o + 40, BigInt(locked), true);
      v.setBigInt64(o + 48, BigInt(holes), true);
      v.setInt32(o + 60, unique ? 1 : 0, true);
      v.setBigUint64(o + 64, seed, true);
      v.setInt32(o + 72, 1, true);
      check(c2, c2.exports.ml_generate(0, o, out));
    }, c)))[0];
}

// ------------------------------------------------------------------ SplitMix64
/**
 * fn(core, g) with an ml_prng (8 bytes: the state) holding `state`; returns [fn's value,
 * the new state].
 * @param {bigint} state
 * @returns {[any, bigint]}
 */
export function withPrng(state, fn) {
  return withMem("SplitMix64 draws", [8], (core, g) => {
    dv(core).setBigUint64(g, state, true);
    const out = fn(core, g);
    return [out, dv(core).getBigUint64(g, true)];
  });
}

/** ml_prng_next: [the output, the new state]. */
export const prngNext = (state) => withPrng(state, (core, g) =>
  BigInt.asUintN(64, core.exports.ml_prng_next(g)));

/** ml_prng_below(n): [a uniform BigInt in [0, n), the new state]. */
export const prngBelow = (state, n) => withPrng(state, (core, g) =>
  BigInt.asUintN(64, core.exports.ml_prng_below(g, n)));

/** ml_prng_sample: [k distinct indices of 0..n-1 in random order, the new state]. */
export function prngSample(state, n, k) {
  return withPrng(state, (core, g) => withMem(null, [8 * k], (c, out) => {
    check(c, c.exports.ml_prng_sample(0, g, BigInt(n), BigInt(k), out));
    return Array.from({ length: k }, (_, i) => u64At(c, out + 8 * i));
  }, core));
}

/** ml_seed_from_bytes: the first 8 bytes of SHA-256(bytes), big-endian (BigInt). */
export const seedFromBytes = (bytes) => withMem("string seeds", [bytes], (core, p) =>
  BigInt.asUintN(64, core.exports.ml_seed_from_bytes(p, bytes.length)));

// ------------------------------------------------------------------ bands and stars
const u64s = (core, ptr, k) => Array.from({ length: k }, (_, i) => u64At(core, ptr + 8 * i));

/** ml_tap_bands: [lo[4], hi[4]] (numbers). */
export const tapBandsOf = (nTaps, states) => withMem("tapBands", [64], (core, p) => {
  core.exports.ml_tap_bands(BigInt(nTaps), states, p, p + 32);
  return [u64s(core, p, 4), u64s(core, p + 32, 4)];
});

/** ml_difficulty_of: the difficulty's index (0 easy .. 3 expert). */
export const difficultyIndex = (minTaps, nTaps, states) =>
  getCore("difficultyOf").exports.ml_difficulty_of(BigInt(minTaps), BigInt(nTaps), states);

/** ml_stars_limits: the most taps for 3, 2 and 1 stars. */
export const starsLimitsOf = (m) => withMem("starsLimits", [24], (core, p) => {
  core.exports.ml_stars_limits(BigInt(m), p);
  return u64s(core, p, 3);
});

/** ml_stars_for_taps under limits [3-star, 2-star, 1-star]. */
export const starsFor = (limits, taps) => withMem("starsForTaps", [24], (core, p) => {
  limits.forEach((v, i) => dv(core).setBigUint64(p + 8 * i, BigInt(v), true));
  return core.exports.ml_stars_for_taps(p, BigInt(taps));
});

// ------------------------------------------------------------------ dates
/**
 * ml_date_parse of an ISO date text (Python's daily() rules and messages): [year, month,
 * day].
 * @param {string} text (no NUL character: the C text ends at one)
 * @returns {[number, number, number]}
 */
export function dateParse(text) {
  const bytes = encoder.encode(`${text}\0`);
  return withMem("daily", [bytes, 12], (core, p, out) => {
    check(core, core.exports.ml_date_parse(0, p, out, out + 4, out + 8));
    return [0, 1, 2].map((i) => dv(core).getInt32(out + 4 * i, true));
  });
}

// ------------------------------------------------------------------ solvers
/**
 * A C solver (ml_solver_new: the registry's plan and engine) of one board, with state
 * and target buffers of the board's tiles kept in WebAssembly memory until dispose().
 * Internal: js/src/solver.js's Solver wraps it.
 */
export class CoreSolver {
  /**
   * The solver of `board`; the library's failures (a board past a limit) are thrown.
   * @param {import("./board.js").Board} board
   * @param {number} tiles the bytes of a state (the board's tiles; a graph board's cells)
   * @param {number} tapsSize the bytes of a solution (tiles; a graph board's taps)
   * @returns {CoreSolver}
   */
  static open(board, tiles, tapsSize) {
    return withBoard("Solver", board, (core, b) => withMem(null, [56], (c, out) => {
      check(c, c.exports.ml_solver_new(0, b, 0, out));
      const s = ptrAt(c, out);
      try {
        return new CoreSolver(c, s, b, out, tiles, tapsSize);
      } catch (e) {
        c.exports.ml_solver_free(s);
        throw e;
      }
    }, core));
  }

  /** @private */
  constructor(core, s, b, out, tiles, tapsSize) {
    const x = core.exports;
    this._core = core;
    this._s = s;
    this.defaultSteps = Number(x.ml_board_default_steps(b));
    check(core, x.ml_solver_nullity(0, s, out));
    this.nullity = u64At(core, out);
    check(core, x.ml_solver_kernel_size(0, s, out));
    this.kernelSize = factored(core, out);
    this._tapsSize = tapsSize;
    this._tiles = tiles;
    this._state = this._target = 0;
  }

  /** The state's (and an array target's) bytes into WebAssembly memory (buffers made on
   * first use): the target's pointer (0 for none). */
  _put(state, target) {
    if (!this._state) {
      this._state = alloc(this._core, this._tiles);
      this._target = alloc(this._core, this._tiles);
    }
    const mem = u8(this._core);
    mem.set(state, this._state);
    if (target === null) return 0;
    mem.set(target, this._target);
    return this._target;
  }

  /** ml_solver_solvable: target an Uint8Array of tiles, or null with `fill`. */
  solvable(state, target, fill) {
    const t = this._put(state, target);
    const v = this._core.exports.mlx_solver_solvable(this._s, this._state, t, fill);
    if (v < 0) throw failure(this._core);
    return v === 1;
  }

  /**
   * ml_solver_solve (steps: a count budget, or -1 for the default): {x, length, proven,
   * examined, pruned, kernelSize}, x a copy of the taps (a byte a tile). Unsolvable when
   * none.
   */
  solve(state, target, fill, minimal, steps) {
    const core = this._core;
    const x = core.exports;
    const t = this._put(state, target);
    const r = addr(x.mlx_solver_solve(this._s, this._state, t, fill, minimal ? 1 : 0, steps));
    if (!r) throw failure(core);
    try {
      return readResult(core, r, this._tapsSize);
    } finally {
      x.ml_result_free(r);
    }
  }

  /** The plan as ml_plan_to_json's object. */
  plan() {
    const x = this._core.exports;
    const p = x.ml_solver_plan(this._s);
    return JSON.parse(written(this._core, (buf, cap, len) => x.ml_plan_to_json(0, p, buf, cap,
      len)));
  }

  dispose() {
    const x = this._core.exports;
    if (this._s) x.ml_solver_free(this._s);
    for (const p of [this._state, this._target]) if (p) x.mlx_free(p);
    this._s = this._state = this._target = 0;
  }
}
