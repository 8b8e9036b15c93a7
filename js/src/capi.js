/**
 * The C library's API (modlights.h) as the WebAssembly core exports it (csrc/wasm: ml_*
 * with the default context 0, and the mlx_* wrappers). Texts and arrays go in and out of
 * WebAssembly memory here, every handle is freed in `finally`, and failures are thrown as
 * the package's errors with the C message table's text in JavaScript's words. Internal.
 * @module capi
 */
import { InputError, Interrupted, ModlightsError, Unsolvable } from "./errors.js";
import { getCore } from "./core.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const TYPES = { int: "a number", float: "a number", str: "a string", bool: "a boolean",
  list: "an Array", tuple: "an Array", dict: "an object", NoneType: "null" };
/** The C library's message (Python's text) in JavaScript's words: a position (r, c) as
 * [r, c], keyword settings (unique=True) as options (unique: true), Python's type names
 * and literals as JavaScript's (a list: an Array, or with `array` "array" an array; an
 * int: an integer; None: null). */
const jsWords = (message, array = "Array") => message
  .replace(/\((-?\d+), (-?\d+)\)/g, "[$1, $2]")
  .replace(/\((row, col|dr, dc)\)/g, "[$1]")
  .replace(/\b(\w+)=(True|False|k)\b/g, (_, k, v) => `${k}: ${v === "k" ? v : v.toLowerCase()}`)
  .replace(/\b(got|found) (?:an? )?(int|float|str|bool|list|tuple|dict|NoneType)\b/g,
    (_, w, t) => `${w} ${TYPES[t]}`)
  .replace(/\ba dict \(JSON object\)|\ba dict\b/g, "an object")
  .replace(/\ban int\b/g, "an integer").replace(/\bints\b/g, "integers")
  .replace(/\ba (list|sequence|iterable)\b/g, `an ${array}`).replace(/\blists\b/g, `${array}s`)
  .replace(/\blist\b/g, array).replace(/\bTrue\b/g, "true").replace(/\bFalse\b/g, "false")
  .replace(/\bNone\b/g, "null").replace(/\bint\b/g, "integer").replace(/\bbool\b/g, "boolean");
const addr = (p) => p >>> 0;   // a pointer or size_t an export returned (an i32)
const u8 = (core) => new Uint8Array(core.memory.buffer);
const dv = (core) => new DataView(core.memory.buffer);
const ptrAt = (core, at) => dv(core).getUint32(at, true);
const u64At = (core, at) => Number(dv(core).getBigUint64(at, true));
const u64s = (core, at, k) => Array.from({ length: k }, (_, i) => u64At(core, at + 8 * i));
/** int64 arguments: a number or BigInt, clamped to +-2^62 (past any limit of the library). */
const i64 = (v) => { const b = BigInt(v); return b > I64 ? I64 : b < -I64 ? -I64 : b; };
const I64 = 2n ** 62n;

/** The NUL-terminated text at p. */
export function cString(core, p) {
  const mem = u8(core);
  let end = addr(p);
  while (mem[end] !== 0) end++;
  return decoder.decode(mem.subarray(addr(p), end));
}

/** The C library's last failure as the package's error: Unsolvable, Interrupted,
 * InputError for bad input (its status name as code, the code `renamed` gives it, or
 * INVALID_TYPE for a message id `kinds` matches; NOT_COVERED, only past MAX_TILES, is
 * TOO_LARGE), else ModlightsError; the message in jsWords' words (`array`: a list's). */
export function failure(core, renamed = {}, array = undefined, kinds = null) {
  const x = core.exports;
  const status = x.ml_errcode(0);
  const name = cString(core, x.ml_status_name(status));
  const kind = kinds?.test(cString(core, x.ml_msg_name(x.ml_errmsg_id(0))));
  const message = jsWords(cString(core, x.ml_errmsg(0)), array);
  if (status === 7) return new Unsolvable(message);
  if (status === 10) return new Interrupted(message);
  if (status === 8) return new InputError(message, { code: "TOO_LARGE" });
  const code = kind ? "INVALID_TYPE" : renamed[name] ?? name;
  if (status >= 1 && status <= 6) return new InputError(message, { code });
  return new ModlightsError(message, { code: name });
}

/** The constructors' failures: the reader's messages on a value of the wrong kind are
 * INVALID_TYPE, as the package's own type checks. */
const kindFailure = (core) => failure(core, {}, undefined,
  /^ML_M_JSON_(NOT_OBJECT|\w+_TYPE|\w+_ENTRY|OFFSETS|MIXED_ROW)$/);

/** Throws fail(core) when `rc` (a status) is not ML_OK. */
const check = (core, rc, fail = failure) => { if (rc) throw fail(core); };

/** A malloc'd block of `bytes` bytes (a size_t is 32 bits: more is refused here). */
function alloc(core, bytes) {
  const ptr = bytes < 2 ** 32 ? addr(core.exports.mlx_malloc(Math.max(1, bytes))) : 0;
  if (!ptr) throw new ModlightsError("out of WebAssembly memory", { code: "OUT_OF_MEMORY" });
  return ptr;
}

/** fn(core, ...pointers) with one block per entry of `blocks` (a byte count, a Uint8Array
 * copied in, or a string copied in with a NUL after), all freed after; `what` names the
 * call for CORE_NOT_LOADED. */
export function withMem(what, blocks, fn, core = getCore(what)) {
  const ptrs = [];
  try {
    for (const b of blocks) {
      const bytes = typeof b === "string" ? encoder.encode(`${b}\0`) : b;
      const p = alloc(core, typeof b === "number" ? b : bytes.length);
      ptrs.push(p);
      if (typeof b !== "number") u8(core).set(bytes, p);
    }
    return fn(core, ...ptrs);
  } finally {
    for (const p of ptrs) core.exports.mlx_free(p);
  }
}

/** The text a writer with the snprintf convention writes: call(buf, cap, lenPtr), once
 * into 4 kB, again into a block of the length it said when that was short. */
export function written(core, call, fail) {
  for (let cap = 4096; ;) {
    const text = withMem(null, [cap + 4], (c, buf) => {
      check(c, call(buf, cap, buf + cap), fail);
      const len = dv(c).getUint32(buf + cap, true);
      if (len < cap) return decoder.decode(u8(c).subarray(buf, buf + len));
      cap = len + 1;
      return null;
    }, core);
    if (text !== null) return text;
  }
}

/** fn(handle) with the handle make(out) writes at out (its status checked), freed by
 * free(handle) after. */
function owned(core, make, free, fn, fail = failure) {
  return withMem(null, [4], (c, out) => {
    check(c, make(out), fail);
    const h = ptrAt(c, out);
    try {
      return fn(h);
    } finally {
      free(h);
    }
  }, core);
}

/** fn(core, handle) with the C board of a Board, read from its JSON (the library's own
 * text: any size it holds is allowed, 2^40 tiles) and freed after: a Board holds no
 * WebAssembly memory. */
export function withBoard(what, board, fn) {
  const json = encoder.encode(board._json);
  return withMem(what, [json], (core, text) => owned(core, (out) => core.exports
    .ml_board_from_json(0, text, json.length, 1n << 40n, out), core.exports.ml_board_free,
  (b) => fn(core, b)));
}

/** The JSON and counts of the new board make(exports, out) writes (freed after). */
const newBoard = (core, make, fail = failure) => owned(core, (out) => make(core.exports, out),
  core.exports.ml_board_free, (b) => {
    const x = core.exports;
    return { json: written(core, (buf, cap, len) => x.ml_board_to_json(0, b, buf, cap, len)),
      grid: x.ml_board_kind(b) === 1, states: x.ml_board_states(b),
      rows: Number(x.ml_board_rows(b)), cols: Number(x.ml_board_cols(b)),
      nCells: Number(x.ml_board_n_cells(b)), nTaps: Number(x.ml_board_n_taps(b)),
      giant: x.ml_board_is_giant(b) !== 0, wrap: x.ml_board_wrap(b) !== 0,
      anyLocked: x.ml_board_any_locked(b) !== 0, anyHoles: x.ml_board_any_holes(b) !== 0 };
  }, fail);

/** A board of a JSON text (ml_board_from_json: Python's Board.from_dict; maxTiles 0:
 * ML_MAX_TILES), or with `words` read in the constructors' words (mlx_board_from_json:
 * Board.grid's and Board.fromEffects' messages, giant uniform grids kept): its facts. */
export function boardFromJson(what, text, maxTiles, words = false) {
  const bytes = encoder.encode(text);
  return withMem(what, [bytes], (core, p) => newBoard(core, (x, out) => (words
    ? x.mlx_board_from_json(p, bytes.length, out)
    : x.ml_board_from_json(0, p, bytes.length, BigInt(maxTiles), out)), words ? kindFailure : failure));
}

/** `bytes` bytes at fn's pointer, copied out after fn(core, board, pointer, ...blocks). */
const bytesOf = (what, board, bytes, blocks, fn) => withBoard(what, board, (core, b) =>
  withMem(null, [bytes, ...blocks], (c, p, ...more) => {
    check(c, fn(c.exports, b, p, ...more));
    return u8(c).slice(p, p + bytes);
  }, core));

// ml_board_press (a graph board's tap: (tap, 0)), ml_board_apply, ml_board_matrix (row-major)
export const boardPress = (board, state, r, c, times) => bytesOf("Board#press", board,
  state.length, [state], (x, b, out, s) =>
    x.ml_board_press(0, b, s, i64(r), i64(c), BigInt(times), out));

export const boardApply = (board, state, taps) => bytesOf("Board#apply", board, state.length,
  [state, taps], (x, b, out, s, t) => x.ml_board_apply(0, b, s, t, out));

export const boardMatrix = (board, m, r) => bytesOf("Board#matrix", board, m * r, [],
  (x, b, a) => x.ml_board_matrix(0, b, a, r));

/** Every column of A as cell indices with repeats (ml_board_effect). */
export const boardColumns = (board, r) => withBoard("Board#column", board, (core, b) =>
  withMem(null, [8, 8 * 4096], (c, count, cells) => Array.from({ length: r }, (_, j) => {
    check(c, c.exports.ml_board_effect(0, b, BigInt(j), count, cells, 4096));
    return u64s(c, cells, dv(c).getUint32(count, true));
  }), core));

/** ml_board_tap_index / ml_board_cell_index of (r, c) (a graph board: (index, 0)). */
export const boardIndex = (board, tap, r, c) => withBoard(tap ? "Board#tapIndex" : "Board#cellIndex",
  board, (core, b) => withMem(null, [8], (c2, out) => {
    const x = c2.exports;
    check(c2, (tap ? x.ml_board_tap_index : x.ml_board_cell_index)(0, b, i64(r), i64(c), out));
    return u64At(c2, out);
  }, core));

/** ml_board_equal: kind, n and A. */
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
const codeFailure = (core) => failure(core, { TOO_LARGE: "OUT_OF_RANGE" });

/** The puzzle code of a board and a start (one byte a tile, row-major): ml_code_encode. */
export const codeEncode = (board, start) => withBoard(CODES, board, (core, b) =>
  withMem(null, [start], (c, s) => written(c, (buf, cap, len) =>
    c.exports.ml_code_encode(0, b, s, buf, cap, len), codeFailure), core));

/** An ml_puzzle's parts: {board (its JSON text), start (bytes), code, stats and result
 * (the measured figures and solution; null unless measured)}. */
function readPuzzle(core, p, measured) {
  const x = core.exports;
  const b = x.ml_puzzle_board(p);
  const at = addr(x.ml_puzzle_start(p));
  const out = { board: written(core, (buf, cap, len) => x.ml_board_to_json(0, b, buf, cap, len)),
    start: u8(core).slice(at, at + Number(x.ml_board_size(b))), stats: null, result: null };
  withMem(null, [56], (c, st) => {
    check(c, x.ml_puzzle_code(0, p, st));
    out.code = cString(c, ptrAt(c, st));
    if (!measured) return;
    check(c, x.ml_puzzle_stats_get(0, p, st));
    const v = dv(c);
    out.stats = { minTaps: u64At(c, st), proven: v.getInt32(st + 8, true) !== 0,
      difficulty: v.getInt32(st + 12, true), stars: u64s(c, st + 16, 3),
      touched: u64At(c, st + 40), score: v.getFloat64(st + 48, true) };
    check(c, x.ml_puzzle_solution(0, p, st));
    out.result = readResult(c, ptrAt(c, st), Number(x.ml_board_taps_size(b)));
  }, core);
  return out;
}

/** The parts (readPuzzle) of the `count` puzzles make(core, out, ...pointers) writes to
 * the out-pointers at out, each freed after; `blocks` as withMem's. */
function puzzles(what, count, measured, blocks, make) {
  return withMem(what, [4 * count, ...blocks], (core, out, ...more) => {
    u8(core).fill(0, out, out + 4 * count);
    try {
      make(core, out, ...more);
      return Array.from({ length: count }, (_, i) => readPuzzle(core, ptrAt(core, out + 4 * i),
        measured));
    } finally {
      for (let i = 0; i < count; i++) core.exports.ml_puzzle_free(ptrAt(core, out + 4 * i));
    }
  });
}

/** A puzzle code decoded by ml_puzzle_from_code (Python's from_code checks): its parts. */
export const codeDecode = (code, bytes = encoder.encode(code)) => puzzles(CODES, 1, false,
  [bytes], (core, out, p) => check(core, core.exports.ml_puzzle_from_code(0, p, bytes.length, out)))[0];

/** The puzzle of a JSON text (ml_puzzle_from_json: Python's Puzzle.from_dict; maxTiles 0:
 * ML_MAX_TILES): its parts, not measured. */
export const puzzleFromJson = (text, maxTiles, bytes = encoder.encode(text)) => puzzles(
  "Puzzle.fromDict", 1, false, [bytes], (core, out, p) => check(core,
    core.exports.ml_puzzle_from_json(0, p, bytes.length, BigInt(maxTiles), out)))[0];

/** A puzzle's measured parts (ml_puzzle_new, ml_puzzle_stats_get: Python's _min_solve). */
export const puzzleMeasure = (board, start) => withBoard(
  "a Puzzle's minTaps, proven, stars and difficulty", board, (core, b) =>
    puzzles(null, 1, true, [start], (c, out, s) =>
      check(c, c.exports.ml_puzzle_new(0, b, s, out)))[0]);

/** The day's three puzzles (ml_daily), measured. */
export const dailyPuzzles = (year, month, day) => puzzles("daily", 3, true, [], (core, out) =>
  check(core, core.exports.ml_daily(0, year, month, day, out)));

/** ml_generate: a measured puzzle's parts. `grid`: a grid document (its settings fixed;
 * null: rows x cols, cross, n = 2); `locked` / `holes` placed at random (-1: not given). */
export function generatePuzzle(grid, { rows, cols, locked, holes, difficulty, unique, seed }) {
  const bytes = encoder.encode(grid ?? "");
  return puzzles("generate", 1, true, [bytes, 80], (core, out, doc, o) => {
    const x = core.exports;
    const run = (g) => {
      x.ml_generate_opts_init(o);
      const v = dv(core);
      if (v.getUint32(o, true) !== 80) throw new ModlightsError("ml_generate_opts changed");
      const i64s = [[8, rows], [16, cols], [40, locked], [48, holes]];
      for (const [at, n] of i64s) v.setBigInt64(o + at, BigInt(n), true);
      for (const [at, n] of [[32, g], [36, difficulty], [60, unique ? 1 : 0], [72, 1]]) {
        v.setInt32(o + at, n, true);
      }
      v.setBigUint64(o + 64, seed, true);   // seeded (72): 1
      check(core, x.ml_generate(0, o, out));
    };
    // the grid document read with Board.grid's words (mlx_grid_from_json), freed after
    return grid ? owned(core, (g) => x.mlx_grid_from_json(doc, bytes.length, g), x.ml_grid_free, run,
      kindFailure) : run(0);
  })[0];
}

// ------------------------------------------------------------------ SplitMix64
/** [fn(exports, g, core), the new state] with an ml_prng g holding `state`. */
export const withPrng = (state, fn) => withMem("SplitMix64 draws", [8], (core, g) => {
  dv(core).setBigUint64(g, state, true);
  const out = fn(core.exports, g, core);
  return [out, dv(core).getBigUint64(g, true)];
});

/** ml_prng_sample with the ml_prng at g: k distinct indices of 0..n-1 in random order. */
export const prngSample = (core, g, n, k) => withMem(null, [8 * k], (c, out) => {
  check(c, c.exports.ml_prng_sample(0, g, BigInt(n), BigInt(k), out));
  return u64s(c, out, k);
}, core);

/** ml_seed_from_bytes: the first 8 bytes of SHA-256(bytes), big-endian (BigInt). */
export const seedFromBytes = (bytes) => withMem("string seeds", [bytes], (core, p) =>
  BigInt.asUintN(64, core.exports.ml_seed_from_bytes(p, bytes.length)));

// ------------------------------------------------------------------ bands, stars, dates
/** The `k` uint64s fn(exports, p) writes at p (`what` needs the core). */
const u64Out = (what, k, fn) => withMem(what, [8 * k], (core, p) => {
  fn(core.exports, p);
  return u64s(core, p, k);
});

/** ml_tap_bands: [lo[4], hi[4]]. */
export const tapBandsOf = (nTaps, states) => {
  const v = u64Out("tapBands", 8, (x, p) => x.ml_tap_bands(BigInt(nTaps), states, p, p + 32));
  return [v.slice(0, 4), v.slice(4)];
};

/** ml_difficulty_of: the difficulty's index (0 easy .. 3 expert). */
export const difficultyIndex = (minTaps, nTaps, states) =>
  getCore("difficultyOf").exports.ml_difficulty_of(BigInt(minTaps), BigInt(nTaps), states);

/** ml_stars_limits: the most taps for 3, 2 and 1 stars. */
export const starsLimitsOf = (m) => u64Out("starsLimits", 3, (x, p) => x.ml_stars_limits(BigInt(m), p));

/** ml_stars_for_taps under limits [3-star, 2-star, 1-star]. */
export const starsFor = (limits, taps) => withMem("starsForTaps", [24], (core, p) => {
  limits.forEach((v, i) => dv(core).setBigUint64(p + 8 * i, BigInt(v), true));
  return core.exports.ml_stars_for_taps(p, BigInt(taps));
});

/** ml_date_parse of an ISO date text without NUL (Python's daily() rules): [y, m, d]. */
export const dateParse = (text) => withMem("daily", [text, 12], (core, p, out) => {
  check(core, core.exports.ml_date_parse(0, p, out, out + 4, out + 8));
  return [0, 1, 2].map((i) => dv(core).getInt32(out + 4 * i, true));
});

// ------------------------------------------------------------------ solvers
/** A C solver (ml_solver_new: the registry's plan and engine) of one board, held until
 * dispose(); states and targets are copied in for each call. solver.js's Solver wraps it. */
export class CoreSolver {
  /** The solver of `board` (a board past a limit: the library's failure); solutions of
   * `tapsSize` bytes. */
  constructor(board, tapsSize) {
    withBoard("Solver", board, (core, b) => withMem(null, [56], (c, out) => {
      const x = c.exports;
      check(c, x.ml_solver_new(0, b, 0, out));
      Object.assign(this, { _core: c, _s: ptrAt(c, out), _tapsSize: tapsSize,
        defaultSteps: Number(x.ml_board_default_steps(b)) });
      try {
        check(c, x.ml_solver_nullity(0, this._s, out));
        this.nullity = u64At(c, out);
        check(c, x.ml_solver_kernel_size(0, this._s, out));
        this.kernelSize = factored(c, out);
      } catch (e) {
        this.dispose();
        throw e;
      }
    }, core));
  }

  /** fn(exports, state, target) with the bytes in WebAssembly memory (target null: 0). */
  _with(state, target, fn) {
    return withMem(null, [state, target ?? 1], (c, s, t) => fn(c.exports, s, target ? t : 0),
      this._core);
  }

  /** ml_solver_solvable: target a Uint8Array of tiles, or null with `fill`. */
  solvable(state, target, fill) {
    const v = this._with(state, target, (x, s, t) => x.mlx_solver_solvable(this._s, s, t, fill));
    if (v < 0) throw failure(this._core);
    return v === 1;
  }

  /** ml_solver_solve (steps: a count budget): readResult's parts; Unsolvable when none. */
  solve(state, target, fill, minimal, steps) {
    const x = this._core.exports;
    const r = addr(this._with(state, target, (_, s, t) =>
      x.mlx_solver_solve(this._s, s, t, fill, minimal ? 1 : 0, steps)));
    if (!r) throw failure(this._core);
    try {
      return readResult(this._core, r, this._tapsSize);
    } finally {
      x.ml_result_free(r);
    }
  }

  /** The plan as ml_plan_to_json's object. */
  plan() {
    const x = this._core.exports;
    const p = x.ml_solver_plan(this._s);
    return JSON.parse(written(this._core, (buf, cap, len) => x.ml_plan_to_json(0, p, buf, cap, len)));
  }

  dispose() {
    if (this._s) this._core.exports.ml_solver_free(this._s);
    this._s = 0;
  }
}
