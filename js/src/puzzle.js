/**
 * Puzzles: a grid board and a start state to bring to all zeros, with Python's
 * shareable puzzle codes (modlights.play.puzzles: the same text, byte for byte),
 * stars and difficulty.
 *
 * Puzzle codes (version 1): base64url text (no padding) of: version (1 byte), flags
 * (bit 0 wrap, bit 1 locks, bit 2 holes, bits 3-4 pattern kind: 0 named, 1 custom
 * offsets, 2 mixed), rows, cols, n (1 byte each), the pattern (named: its id; custom:
 * a count and signed-byte (dr, dc) pairs; mixed: a palette of such patterns), then one
 * bit stream, zero padded to a byte: mixed palette indices (ceil(log2 P) bits per
 * tile), lock mask, hole mask (1 bit per tile each), and the start values of the
 * tiles that are not holes (ceil(log2 n) bits each), row-major; then the CRC32 of all
 * that (4 bytes, big endian). Puzzle.fromCode checks length, alphabet, checksum and
 * every declared size against the payload before it builds anything, and that the
 * code is the canonical one.
 *
 * Stars: {3: m, 2: m + max(2, ceil(m / 4)), 1: m + max(5, m)} for a minimum of m
 * taps. Difficulty: the band of tapBands(nTaps, states) holding m (see generate.js).
 * @module puzzle
 */
import { InputError, badShape, badType, badValue, outOfRange } from "./errors.js";
import { Board } from "./board.js";
import { patternName, PATTERNS } from "./patterns.js";
import { describe, list, quote, show } from "./fmt.js";
import { solverFor } from "./engine.js";
import { checkMapping, fieldError, isInt, isMapping, posText } from "./validation.js";

/** A bad puzzle code: InputError with code INVALID_PUZZLE_CODE (the message says what
 * is wrong with it, in the same words as Python's). */
const badCode = (message) => new InputError(message, { code: "INVALID_PUZZLE_CODE" });

export const CODE_VERSION = 1;
/** Named patterns' ids in puzzle codes (fixed: append only). */
export const NAMED = Object.freeze(["cross", "diagonal", "square", "horizontal", "vertical",
  "knight"]);
export const MAX_CODE_CHARS = 120000;
export const MAX_CODE_SIDE = 255;
/** Coset elements a puzzle's minimal search may examine (a count, never seconds). */
export const GENERATE_BUDGET = 1 << 18;
export const DIFFICULTIES = Object.freeze(["easy", "medium", "hard", "expert"]);
/** The fewest taps an easy puzzle needs where the board allows it. */
export const TAP_FLOOR = 3;
const BAND_UNITS = [[1, 1], [8, 5], [12, 5], [18, 5]];

// ------------------------------------------------------------------ bands and stars
function isqrt(v) {
  let k = Math.floor(Math.sqrt(v));
  while (k * k > v) k--;
  while ((k + 1) * (k + 1) <= v) k++;
  return k;
}

function ceilSqrt(v) {
  const k = isqrt(v);
  return k * k === v ? k : k + 1;
}

/**
 * {difficulty: [lo, hi]}: the fewest taps (both inclusive) of each difficulty on a
 * board with `nTaps` tappable tiles and `states` states, in integers: with
 * u = sqrt(T (n - 1)), easy from TAP_FLOOR, medium from ceil(u), hard from
 * ceil(8u/5), expert from ceil(12u/5) to floor(18u/5), each lower bound at least one
 * more than the previous one.
 * @returns {Record<"easy" | "medium" | "hard" | "expert", [number, number]>}
 */
export function tapBands(nTaps, states) {
  const x = Math.max(0, nTaps) * (states - 1);
  const los = [TAP_FLOOR];
  for (const [p, q] of BAND_UNITS.slice(0, 3)) {
    los.push(Math.max(los[los.length - 1] + 1, ceilSqrt(Math.ceil((p * p * x) / (q * q)))));
  }
  const [p, q] = BAND_UNITS[3];
  const top = Math.max(los[3], isqrt(Math.floor((p * p * x) / (q * q))));
  const his = [los[1] - 1, los[2] - 1, los[3] - 1, top];
  const out = {};
  DIFFICULTIES.forEach((name, i) => { out[name] = [los[i], his[i]]; });
  return out;
}

/** The difficulty whose band holds `minTaps` (easy below the floor, expert above). */
export function difficultyOf(minTaps, nTaps, states) {
  const bands = tapBands(nTaps, states);
  let out = "easy";
  for (const name of DIFFICULTIES) if (minTaps >= bands[name][0]) out = name;
  return out;
}

/** {3: a, 2: b, 1: c}: the most taps that earn 3, 2 and 1 stars for a minimum of m. */
export function starsLimits(m) {
  return { 3: m, 2: m + Math.max(2, Math.ceil(m / 4)), 1: m + Math.max(5, m) };
}

/** Stars earned by solving in `taps` taps under `limits` ({3, 2, 1}). */
export function starsForTaps(limits, taps) {
  for (const s of [3, 2, 1]) if (taps <= limits[s]) return s;
  return 0;
}

/**
 * The minimal solve of a puzzle: within GENERATE_BUDGET coset elements when the
 * kernel is that small, else the solver's deterministic greedy descent (budget 0).
 */
export function minSolve(solver, start) {
  const budget = solver.kernelSize <= BigInt(GENERATE_BUDGET) ? GENERATE_BUDGET : 0;
  return solver.solve(start, { minimal: true, budget });
}

// ------------------------------------------------------------------ Puzzle
/** A grid board and a start state to bring to all zeros. */
export class Puzzle {
  /**
   * @param {Board} board a grid board
   * @param {Array} start board-shaped integers, reduced mod n (0 at holes)
   */
  constructor(board, start) {
    if (!(board instanceof Board)) {
      throw badType(`board must be a modlights Board, got ${describe(board)}`);
    }
    if (!board.isGrid) {
      throw badValue("puzzles are grid boards (Board.grid); graph boards have no " +
        "puzzle code");
    }
    this._board = board;
    this._start = Object.freeze(board.coerceState(start, "start").map((r) => Object.freeze(r)));
    this._solver = null;
    this._stats = null;
    this._code = null;
  }

  /** The board. */
  get board() { return this._board; }
  /** The start state (frozen nested arrays). */
  get start() { return this._start; }

  /** The board's solver (made on first use with the installed Solver, then kept). */
  get solver() {
    if (this._solver === null) this._solver = solverFor(this._board);
    return this._solver;
  }

  /** Free the board's solver (its WebAssembly memory). The measured figures (minTaps,
   * proven, stars, difficulty) stay; a later question that needs the solver makes a
   * new one. */
  dispose() {
    if (this._solver !== null && typeof this._solver.dispose === "function") {
      this._solver.dispose();
    }
    this._solver = null;
  }

  _measure() {
    if (this._stats === null) {
      const sol = minSolve(this.solver, this._start);
      this._stats = measure(sol, this._start);
    }
    return this._stats;
  }

  /** The fewest taps that solve the puzzle (proved when `proven`). */
  get minTaps() { return this._measure().minTaps; }
  /** Whether minTaps is proved minimal. */
  get proven() { return this._measure().proven; }
  /** The minimal Solution found. */
  get solution() { return this._measure().solution; }
  /** Tiles not at 0 at the start. */
  get touched() { return this._measure().touched; }
  /** {difficulty: [lo, hi]}: the fewest taps of each difficulty on this board. */
  get bands() { return tapBands(this._board.nTaps, this._board.states); }
  /** "easy", "medium", "hard" or "expert": the band holding minTaps. */
  get difficulty() { return difficultyOf(this.minTaps, this._board.nTaps, this._board.states); }
  /** minTaps over the top of the expert band, at most 1. */
  get score() { return Math.min(1, this.minTaps / this.bands.expert[1]); }
  /** {3: a, 2: b, 1: c}: the most taps that earn 3, 2 and 1 stars. */
  get stars() { return starsLimits(this.minTaps); }
  /** Stars for solving in `taps` taps (0 beyond the 1-star limit). */
  starsFor(taps) { return starsForTaps(this.stars, taps); }

  /** The puzzle code (Python's, byte for byte). */
  get code() {
    if (this._code === null) this._code = encode(this._board, this._start);
    return this._code;
  }

  /**
   * The puzzle of a code; InputError (code INVALID_PUZZLE_CODE, the same message as
   * Python's) for anything that is not a valid, canonical code.
   * @param {string} code
   * @returns {Puzzle}
   */
  static fromCode(code) {
    const [board, start] = decode(code);
    const p = new Puzzle(board, start);
    p._code = pyStrip(code);
    return p;
  }

  /**
   * JSON-safe data as Python's Puzzle.to_dict: {board, start, code, stars
   * {"3", "2", "1"}, min_taps, proven, difficulty}.
   */
  toDict() {
    const st = this.stars;
    return { board: this._board.toDict(), start: this._start.map((r) => [...r]),
      code: this.code, stars: { 3: st[3], 2: st[2], 1: st[1] }, min_taps: this.minTaps,
      proven: this.proven, difficulty: this.difficulty };
  }

  /**
   * The puzzle of a dict: "board" and "start", or "code", or all three (then they
   * must agree); the derived fields are checked for type. InputError naming the field.
   */
  static fromDict(d, { maxTiles = null } = {}) {
    return puzzleFromDict(d, maxTiles);
  }

  /** Equal boards and starts. */
  equals(other) {
    return other instanceof Puzzle && this._board.equals(other._board) &&
      JSON.stringify(this._start) === JSON.stringify(other._start);
  }

  toString() {
    const [r, c] = this._board.shape;
    return `Puzzle(${r}x${c}, states=${this._board.states}, code=${quote(this.code)})`;
  }
}

function measure(sol, start) {
  let touched = 0;
  for (const row of start) for (const v of row) if (v) touched++;
  return { minTaps: Number(sol.length), proven: Boolean(sol.provenMinimal), touched,
    solution: sol };
}

/** A Puzzle with its solver and measurements filled in (generate). */
export function finishedPuzzle(board, solver, start, sol) {
  const p = new Puzzle(board, start);
  p._solver = solver;
  p._stats = measure(sol, p._start);
  return p;
}

// ------------------------------------------------------------------ codes
function bitsFor(k) {
  return k > 1 ? (k - 1).toString(2).length : 0;
}

function patternBytes(offs) {
  const name = patternName(offs);
  const i = name === null ? -1 : NAMED.indexOf(name);
  if (i >= 0) return [0, i];
  if (offs.length > 255) {
    throw outOfRange(`a puzzle code holds patterns of up to 255 offsets, got ${offs.length}`);
  }
  const out = [1, offs.length];
  for (const [dr, dc] of offs) {
    if (!(dr >= -128 && dr <= 127 && dc >= -128 && dc <= 127)) {
      throw outOfRange(`a puzzle code holds offsets in -128..127, got ${list([dr, dc])}`);
    }
    out.push(dr & 0xff, dc & 0xff);
  }
  return out;
}

class BitWriter {
  constructor() { this.bits = []; }
  put(value, width) {
    for (let k = width - 1; k >= 0; k--) this.bits.push((value >> k) & 1);
  }
  bytes() {
    const out = new Uint8Array((this.bits.length + 7) >> 3);
    this.bits.forEach((b, i) => { if (b) out[i >> 3] |= 0x80 >> (i & 7); });
    return out;
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** zlib's CRC32 of bytes. */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function b64urlEncode(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = [B64[(n >> 18) & 63], B64[(n >> 12) & 63], B64[(n >> 6) & 63], B64[n & 63]];
    out += chars.slice(0, Math.min(4, bytes.length - i + 1)).join("");
  }
  return out;
}

function b64urlDecode(text) {
  const out = [];
  let acc = 0;
  let nb = 0;
  for (const ch of text) {
    acc = (acc << 6) | B64.indexOf(ch);
    nb += 6;
    if (nb >= 8) {
      nb -= 8;
      out.push((acc >> nb) & 0xff);
      acc &= (1 << nb) - 1;
    }
  }
  return Uint8Array.from(out);
}

/** Python's str.strip() (Unicode whitespace). */
function pyStrip(s) {
  return s.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g, "");
}

/**
 * The puzzle code of a grid board and a start state (see the module docs);
 * InputError for a graph board, a side over 255, a board that is all holes, or a
 * pattern a code cannot hold.
 * @returns {string}
 */
export function encode(board, start) {
  if (!board.isGrid) throw badValue("only grid boards have puzzle codes");
  const [rows, cols] = board.shape;
  if (rows > MAX_CODE_SIDE || cols > MAX_CODE_SIDE) {
    throw outOfRange(`a puzzle code holds boards up to ${MAX_CODE_SIDE}x${MAX_CODE_SIDE}, ` +
      `got ${rows}x${cols}`);
  }
  const n = board.states;
  const locked = board.locked.flat();
  const holes = board.holes.flat();
  if (holes.every((h) => h)) {
    throw badValue("a board whose every tile is a hole has no puzzle code " +
      "(a code needs at least one tile)");
  }
  const anyLock = locked.some((v) => v);
  const anyHole = holes.some((v) => v);
  let flags = (board.wrap ? 1 : 0) | (anyLock ? 2 : 0) | (anyHole ? 4 : 0);
  const head = [];
  const w = new BitWriter();
  const mixed = board.mixed;
  let kind;
  if (mixed === null) {
    const pb = patternBytes(board.pattern);
    kind = pb[0];
    head.push(...pb.slice(1));
  } else {
    kind = 2;
    const palette = [];
    const index = new Map();
    const idx = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const o = mixed[r][c];
        const key = JSON.stringify(o);
        if (!index.has(key)) {
          index.set(key, palette.length);
          palette.push(o);
        }
        idx.push(index.get(key));
      }
    }
    if (palette.length > 255) {
      throw outOfRange("a puzzle code holds mixed boards of up to 255 distinct " +
        `patterns, got ${palette.length}`);
    }
    head.push(palette.length);
    for (const o of palette) head.push(...patternBytes(o));
    const width = bitsFor(palette.length);
    for (const i of idx) w.put(i, width);
  }
  flags |= kind << 3;
  if (anyLock) for (const v of locked) w.put(v ? 1 : 0, 1);
  if (anyHole) for (const v of holes) w.put(v ? 1 : 0, 1);
  const vb = bitsFor(n);
  const flatStart = Array.isArray(start) ? start.flat() : Array.from(start);
  flatStart.forEach((v, i) => { if (!holes[i]) w.put(v, vb); });
  const body = [CODE_VERSION, flags, rows, cols, n, ...head, ...w.bytes()];
  const crc = crc32(body);
  body.push((crc >>> 24) & 0xff, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff);
  return b64urlEncode(Uint8Array.from(body));
}

class Reader {
  constructor(data) { this.data = data; this.pos = 0; }
  left() { return this.data.length - this.pos; }
  byte(what) {
    if (this.pos >= this.data.length) {
      throw badCode(`puzzle code is truncated (ends before the ${what})`);
    }
    return this.data[this.pos++];
  }
  signed(what) {
    const b = this.byte(what);
    return b > 127 ? b - 256 : b;
  }
}

function readPattern(rd, kind, what) {
  if (kind === 0) {
    const i = rd.byte(`${what} id`);
    if (i >= NAMED.length) {
      throw badCode(`puzzle code names pattern id ${i}; known ids are 0..${NAMED.length - 1}`);
    }
    return NAMED[i];
  }
  const k = rd.byte(`${what} offset count`);
  if (rd.left() < 2 * k) {
    throw badCode(`puzzle code is truncated (declares ${k} offsets in the ${what})`);
  }
  const out = [];
  for (let i = 0; i < k; i++) out.push([rd.signed(what), rd.signed(what)]);
  return out;
}

/**
 * [board, start] of a puzzle code; InputError (code INVALID_PUZZLE_CODE, Python's
 * messages) for anything invalid or not canonical.
 * @param {string} code
 * @returns {[Board, number[][]]}
 */
export function decode(code) {
  if (typeof code !== "string") {
    throw badType(`a puzzle code is a string, got ${describe(code)}`);
  }
  const text = pyStrip(code);
  if (!text) throw badCode("empty puzzle code");
  const chars = Array.from(text);
  if (chars.length > MAX_CODE_CHARS) {
    throw badCode(`puzzle code too long: ${chars.length} characters, at most ` +
      `${MAX_CODE_CHARS}`);
  }
  const bad = chars.find((ch) => !/^[A-Za-z0-9_-]$/.test(ch));
  if (bad !== undefined) {
    throw badCode(`puzzle code has a character ${quote(bad)} that is not base64url ` +
      "(A-Z a-z 0-9 - _)");
  }
  if (text.length % 4 === 1) {
    throw badCode("puzzle code has an impossible length (truncated or garbled)");
  }
  const data = b64urlDecode(text);
  if (data.length < 5 + 1 + 4) {
    throw badCode(`puzzle code too short (${data.length} bytes): truncated or not a code`);
  }
  const body = data.subarray(0, data.length - 4);
  const crc = ((data[data.length - 4] << 24) | (data[data.length - 3] << 16) |
    (data[data.length - 2] << 8) | data[data.length - 1]) >>> 0;
  if (crc32(body) !== crc) {
    throw badCode("puzzle code checksum mismatch: the code is mistyped, truncated " +
      "or corrupted");
  }
  const rd = new Reader(body);
  const version = rd.byte("version");
  if (version !== CODE_VERSION) {
    throw badCode(`unsupported puzzle code version ${version} (this modlights reads ` +
      `version ${CODE_VERSION})`);
  }
  const flags = rd.byte("flags");
  if (flags & ~0x1f) {
    throw badCode(`puzzle code has unknown flags 0x${flags.toString(16).padStart(2, "0")}`);
  }
  const wrap = Boolean(flags & 1);
  const hasLock = Boolean(flags & 2);
  const hasHole = Boolean(flags & 4);
  const kind = (flags >> 3) & 3;
  if (kind === 3) throw badCode("puzzle code has an unknown pattern kind 3");
  const rows = rd.byte("rows");
  const cols = rd.byte("cols");
  const n = rd.byte("states");
  if (rows < 1 || cols < 1) {
    throw badCode(`puzzle code declares a ${rows}x${cols} board (sides are 1..255)`);
  }
  if (n < 2) throw badCode(`puzzle code declares ${n} states (2..255 allowed)`);
  const tiles = rows * cols;
  let palette = null;
  let pattern = null;
  if (kind === 2) {
    const P = rd.byte("palette size");
    if (P < 1) throw badCode("puzzle code declares a mixed board with an empty palette");
    palette = [];
    for (let i = 0; i < P; i++) {
      const tag = rd.byte("palette entry");
      if (tag > 1) throw badCode(`puzzle code palette entry ${i} has unknown kind ${tag}`);
      palette.push(readPattern(rd, tag, `palette entry ${i}`));
    }
  } else {
    pattern = readPattern(rd, kind, "pattern");
  }
  const ib = palette !== null ? bitsFor(palette.length) : 0;
  const vb = bitsFor(n);
  const fixed = tiles * ib + tiles * ((hasLock ? 1 : 0) + (hasHole ? 1 : 0));
  const leftBits = rd.left() * 8;
  if (fixed > leftBits) {
    throw badCode(`puzzle code is truncated: a ${rows}x${cols} board needs more ` +
      `data than the ${rd.left()} bytes left`);
  }
  if (!hasHole && Math.floor((fixed + tiles * vb + 7) / 8) !== rd.left()) {
    throw badCode(`puzzle code length does not match its ${rows}x${cols} board with ` +
      `${n} states (truncated or padded)`);
  }
  const tail = body.subarray(rd.pos);
  const nbits = tail.length * 8;
  const bit = (i) => (tail[i >> 3] >> (7 - (i & 7))) & 1;
  let at = 0;
  const take = (count, width) => {
    const need = count * width;
    if (at + need > nbits) {
      throw badCode("puzzle code is truncated (the tile data ends early)");
    }
    const out = new Array(count);
    for (let i = 0; i < count; i++) {
      let v = 0;
      for (let k = 0; k < width; k++) v = (v << 1) | bit(at++);
      out[i] = v;
    }
    return out;
  };
  let mixed = null;
  if (palette !== null) {
    const idx = take(tiles, ib);
    const top = idx.length ? Math.max(...idx) : 0;
    if (idx.length && top >= palette.length) {
      throw badCode(`puzzle code uses palette entry ${top}, the palette ` +
        `has ${palette.length}`);
    }
    mixed = Array.from({ length: rows }, (_, r) =>
      Array.from({ length: cols }, (_, c) => palette[idx[r * cols + c]]));
  }
  const lock = hasLock ? take(tiles, 1) : new Array(tiles).fill(0);
  const hole = hasHole ? take(tiles, 1) : new Array(tiles).fill(0);
  if (hasLock && !lock.some((v) => v)) {
    throw badCode("puzzle code declares locked tiles but marks none");
  }
  if (hasHole && !hole.some((v) => v)) {
    throw badCode("puzzle code declares holes but marks none");
  }
  if (hasHole && hole.every((v) => v)) throw badCode("puzzle code makes every tile a hole");
  for (let i = 0; i < tiles; i++) {
    if (lock[i] && hole[i]) {
      throw badCode(`puzzle code marks tile ${posText(Math.floor(i / cols), i % cols)} ` +
        "both locked and a hole");
    }
  }
  const active = hole.filter((v) => !v).length;
  if (Math.floor((fixed + active * vb + 7) / 8) * 8 !== nbits) {
    throw badCode("puzzle code length does not match its board (truncated or padded)");
  }
  const vals = take(active, vb);
  for (let i = at; i < nbits; i++) {
    if (bit(i)) throw badCode("puzzle code has non-zero padding bits (garbled)");
  }
  const vmax = vals.length ? Math.max(...vals) : 0;
  if (vals.length && vmax >= n) {
    throw badCode(`puzzle code has a tile value ${vmax}, out of range for ${n} states`);
  }
  const flat = new Array(tiles).fill(0);
  let k = 0;
  for (let i = 0; i < tiles; i++) if (!hole[i]) flat[i] = vals[k++];
  const toMask = (m) => Array.from({ length: rows }, (_, r) =>
    m.slice(r * cols, (r + 1) * cols).map((v) => v === 1));
  const board = Board.grid(rows, cols, { states: n, pattern: mixed !== null ? mixed : pattern,
    locked: toMask(lock), holes: toMask(hole), wrap });
  const start = Array.from({ length: rows }, (_, r) => flat.slice(r * cols, (r + 1) * cols));
  if (encode(board, start) !== text) {
    throw badCode("puzzle code is not canonical (a mistyped character, or not " +
      "written by modlights): a valid code re-encodes to itself");
  }
  return [board, start];
}

// ------------------------------------------------------------------ dicts
const PUZZLE_FIELDS = ["board", "start", "code", "stars", "min_taps", "proven", "difficulty"];

function startInput(start, board) {
  const [rows, cols] = board.shape;
  const n = board.states;
  if (!Array.isArray(start) || start.length !== rows ||
      start.some((row) => !Array.isArray(row) || row.length !== cols)) {
    throw badShape(`start must be ${rows} Arrays of ${cols} integers (the board's shape)`);
  }
  for (const row of start) {
    for (const v of row) {
      if (typeof v === "boolean" || !isInt(v) || !(v >= 0 && v < n)) {
        throw (isInt(v) ? outOfRange : badType)(`start values must be integers from 0 to ` +
          `${n - 1}, got ${isInt(v) ? show(v) : describe(v)}`);
      }
    }
  }
  return start;
}

function checkDerived(d) {
  if ("stars" in d) {
    const s = d.stars;
    const keys = isMapping(s) ? Object.keys(s).sort() : null;
    if (!(keys && keys.join() === "1,2,3" &&
        Object.values(s).every((v) => typeof v !== "boolean" && isInt(v)))) {
      throw badType('stars must be an object { "3": integer, "2": integer, "1": integer }, got ' +
        describe(s));
    }
  }
  if ("min_taps" in d && !(typeof d.min_taps !== "boolean" && isInt(d.min_taps) &&
      d.min_taps >= 0)) {
    throw badType(`min_taps must be an integer >= 0, got ${describe(d.min_taps)}`);
  }
  if ("proven" in d && typeof d.proven !== "boolean") {
    throw badType(`proven must be true or false, got ${describe(d.proven)}`);
  }
  if ("difficulty" in d && !DIFFICULTIES.includes(d.difficulty)) {
    throw badValue(`difficulty must be one of ${DIFFICULTIES.join(", ")}, ` +
      `got ${show(d.difficulty)}`);
  }
}

function puzzleFromDict(d, maxTiles) {
  checkMapping(d, "puzzle", PUZZLE_FIELDS, []);
  if (!("board" in d) && !("code" in d)) {
    throw badValue("puzzle needs 'board' and 'start', or 'code'");
  }
  checkDerived(d);
  let fromCode = null;
  if ("code" in d) {
    if (typeof d.code !== "string") {
      throw badType(`code must be a string, got ${describe(d.code)}`);
    }
    try {
      fromCode = Puzzle.fromCode(d.code);
    } catch (e) {
      throw fieldError("code", e);
    }
  }
  if (!("board" in d)) {
    if ("start" in d) {
      throw badValue("puzzle has 'start' but no 'board'; give both, or 'code' alone");
    }
    return fromCode;
  }
  if (!("start" in d)) {
    throw badValue("puzzle has 'board' but no 'start'; give both, or 'code' alone");
  }
  let board;
  try {
    board = Board.fromDict(d.board, { maxTiles });
  } catch (e) {
    throw fieldError("board", e);
  }
  if (!board.isGrid) {
    throw badValue("board: puzzles are grid boards; a graph board has no puzzle");
  }
  const p = new Puzzle(board, startInput(d.start, board));
  if (fromCode !== null && !fromCode.equals(p)) {
    throw badValue("code and board/start describe different puzzles; give one or " +
      "make them agree");
  }
  return p;
}

export { PATTERNS };
