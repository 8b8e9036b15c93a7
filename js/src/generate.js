/**
 * generate: a new puzzle of a requested difficulty, the same puzzle as Python's
 * modlights.generate for the same arguments (the same SplitMix64 draws in the same
 * order, the same integer arithmetic; held to Python by the golden files).
 *
 * Difficulty bounds the fewest taps by the board's size: with T tappable tiles and n
 * states, u = sqrt(T (n - 1)), the bands are easy TAP_FLOOR (3) .. ceil(u) - 1,
 * medium ceil(u) .. ceil(8u/5) - 1, hard ceil(8u/5) .. ceil(12u/5) - 1, expert
 * ceil(12u/5) .. floor(18u/5) (tapBands). Starts are sampled as -A x for random tap
 * vectors x whose length is drawn from the band (times a scale in percent, adapted
 * while samples miss), until the minimal solve lands in the band within 48 samples;
 * otherwise the closest puzzle found.
 * @module generate
 */
import { InputError, badType, badValue } from "./errors.js";
import { Board } from "./board.js";
import { SplitMix64, seedFrom } from "./prng.js";
import { solverFor } from "./engine.js";
import { describe, quote, show } from "./fmt.js";
import { asInt, posText } from "./validation.js";
import {
  DIFFICULTIES, GENERATE_BUDGET, MAX_CODE_SIDE, finishedPuzzle, minSolve, tapBands,
} from "./puzzle.js";

export const MAX_GENERATE_TILES = 1024;
const SAMPLE_TRIES = 48;

/** What generate cannot do with the options given: InputError, code IMPOSSIBLE. */
const impossible = (message) => new InputError(message, { code: "IMPOSSIBLE" });
const PLACEMENT_TRIES = 256;

export { GENERATE_BUDGET };

function isPrime(n) {
  if (n < 2) return false;
  for (let p = 2; p * p <= n; p++) if (n % p === 0) return false;
  return true;
}

function checkDifficulty(d) {
  if (typeof d !== "string" || !DIFFICULTIES.includes(d)) {
    throw (typeof d === "string" ? badValue : badType)("difficulty must be one of " +
      `${DIFFICULTIES.map(quote).join(", ")}, got ${typeof d === "string" ? show(d) : describe(d)}`);
  }
  return d;
}

function countOrMask(name, v, rows, cols) {
  const zeros = () => new Uint8Array(rows * cols);
  if (typeof v === "number" && Number.isInteger(v) || typeof v === "bigint") {
    return [asInt(v, name, 0, null), zeros()];
  }
  if (v === null || v === undefined) return [0, zeros()];
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") {
    throw badType(`${name} must be a count of tiles (an integer >= 0) or their positions ` +
      `(a boolean mask or an Array of [row, col] pairs), got ${describe(v)}`);
  }
  const b = Board.grid(rows, cols, { states: 2, pattern: "cross", [name]: v });
  const mask = name === "locked" ? b.locked : b.holes;
  return [0, Uint8Array.from(mask.flat(), (x) => (x ? 1 : 0))];
}

const dispose = (s) => { if (s && typeof s.dispose === "function") s.dispose(); };

const maskRows = (flat, rows, cols) => Array.from({ length: rows }, (_, r) =>
  Array.from(flat.subarray(r * cols, (r + 1) * cols), (v) => v === 1));

function place(rows, cols, states, pattern, locked, holes, wrap, unique, rng, fixedLock,
  fixedHole) {
  const tiles = rows * cols;
  const tries = locked + holes === 0 ? 1 : PLACEMENT_TRIES;
  const free = [];
  for (let i = 0; i < tiles; i++) if (!(fixedLock[i] || fixedHole[i])) free.push(i);
  const anyFixedHole = fixedHole.some((v) => v);
  const anyFixedLock = fixedLock.some((v) => v);
  if (unique && holes === 0 && !anyFixedHole && locked > 0) {
    const full = solverFor(Board.grid(rows, cols, { states, pattern, wrap }));
    const total = locked + fixedLock.reduce((a, v) => a + v, 0);
    const nullity = full.nullity;
    const ks = full.kernelSize;
    dispose(full);
    if (isPrime(states) && nullity > total) {
      throw impossible(`unique: true is impossible: the ${rows}x${cols} board with ${states} ` +
        `states has |ker A| = ${ks} (nullity ${nullity}) and each locked tile lowers the ` +
        `nullity by at most 1, so it needs at least ${nullity} locked tiles, not ${total}; ` +
        "or pass unique: false");
    }
  }
  let best = null;
  for (let t = 0; t < tries; t++) {
    const chosen = rng.sample(free, locked + holes);
    const lock = Uint8Array.from(fixedLock);
    const hole = Uint8Array.from(fixedHole);
    chosen.slice(0, locked).forEach((i) => { lock[i] = 1; });
    chosen.slice(locked).forEach((i) => { hole[i] = 1; });
    const board = Board.grid(rows, cols, { states, pattern, wrap,
      locked: maskRows(lock, rows, cols), holes: maskRows(hole, rows, cols) });
    if (board.nTaps === 0) continue;
    const solver = solverFor(board);
    if (!unique || solver.kernelSize === 1n) {
      if (best) dispose(best[1]);
      return [board, solver];
    }
    if (best === null || solver.kernelSize < best[2]) {
      if (best) dispose(best[1]);
      best = [board, solver, solver.kernelSize];
    } else {
      dispose(solver);
    }
  }
  const desc = `${rows}x${cols} board with ${states} states`;
  if (best === null) throw impossible(`no tappable tile is left on the ${desc}`);
  dispose(best[1]);
  const ks = best[2];
  if (locked + holes === 0) {
    const extra = anyFixedLock || anyFixedHole ? "no further locked tiles or holes were allowed"
      : "no locked tiles or holes were allowed";
    throw impossible(`unique: true is impossible: the ${desc} has |ker A| = ${ks} (several ` +
      `tap combinations change nothing, so solutions are never unique) and ${extra} to ` +
      "break that; allow some with locked: k or holes: k, or pass unique: false");
  }
  throw impossible(`unique: true: none of ${tries} placements of ${locked} locked tiles ` +
    `and ${holes} holes on the ${desc} gives a trivial kernel (the best left |ker A| = ${ks}); ` +
    "allow more locked tiles, or pass unique: false");
}

function changesNothing(board) {
  const n = board.states;
  for (let j = 0; j < board.nTaps; j++) {
    const counts = new Map();
    for (const i of board.column(j)) counts.set(i, (counts.get(i) || 0) + 1);
    for (const c of counts.values()) if (c % n) return false;
  }
  return true;
}

function sampleStart(board, solver, difficulty, rng) {
  const T = board.nTaps;
  const n = board.states;
  if (changesNothing(board)) {
    const [rows, cols] = board.shape;
    throw impossible(`no tap changes any tile on this ${rows}x${cols} board with ${n} ` +
      "states (its pattern is empty, or its offsets add up to multiples " +
      `of ${n}), so no start can need a tap; use a pattern that changes ` +
      "some tile");
  }
  const [lo, hi] = tapBands(T, n)[difficulty];
  const cap = Math.min(T * (n - 1), Math.max(hi, Math.floor((T * (n - 1) + 1) / 2)));
  let best = null;
  let scale = 100;
  for (let attempt = 0; attempt < SAMPLE_TRIES; attempt++) {
    const want = lo + rng.randbelow(hi - lo + 1);
    const length = Math.max(1, Math.min(cap, Math.floor((want * scale + 50) / 100)));
    const x = new Array(T).fill(0);
    let placed = 0;
    while (placed < length) {
      const j = rng.randbelow(T);
      if (x[j] < n - 1) {
        x[j] += 1;
        placed += 1;
      }
    }
    const ax = board.applyVector(x);
    const startVec = ax.map((v) => (n - v) % n);
    if (!startVec.some((v) => v)) continue;
    const start = board.fromCellVector(startVec);
    const sol = minSolve(solver, start);
    const m = Number(sol.length);
    if (lo <= m && m <= hi) return finishedPuzzle(board, solver, start, sol);
    scale = m < lo ? Math.min(400, Math.floor((scale * 5) / 4))
      : Math.max(1, Math.floor((scale * 4) / 5));
    const dist = m < lo ? lo - m : m - hi;
    if (best === null || dist < best[0]) best = [dist, start, sol];
  }
  if (best === null) {
    throw impossible("could not make a start state that needs any tap on this board " +
      "(every tap changes nothing)");
  }
  return finishedPuzzle(board, solver, best[1], best[2]);
}

/**
 * A new puzzle: a start state for the board described, of the given difficulty; the
 * same puzzle as Python's `modlights.generate` for the same arguments.
 *
 * locked / holes: how many tiles to lock and to cut out (placed at random), or their
 * positions ([r, c] pairs or a boolean mask). unique (default true): the tap matrix
 * has a trivial kernel (placements retried); left unset (null), locked and holes
 * mean none, except that with unique on a board whose kernel is not trivial the
 * generator locks as few tiles as make the solution unique. seed: an int, BigInt or
 * string gives the same puzzle on every machine; null a random one.
 *
 * Needs the solver core loaded (`await loadCore()` from the package entry).
 * @param {object} [opts]
 * @returns {import("./puzzle.js").Puzzle}
 * @throws {InputError} for bad options (codes INVALID_TYPE, OUT_OF_RANGE,
 *   INVALID_VALUE, ...) and IMPOSSIBLE when no puzzle fits them (e.g. unique: true on a
 *   board whose kernel no allowed locked tile can make trivial)
 */
export function generate({
  rows = 5, cols = 5, states = 2, pattern = "cross", difficulty = "medium",
  locked = null, holes = null, wrap = false, unique = true, seed = null,
} = {}) {
  const auto = Boolean(unique) && (locked === null || locked === undefined) &&
    (holes === null || holes === undefined);
  difficulty = checkDifficulty(difficulty);
  rows = asInt(rows, "rows", 1, null);
  cols = asInt(cols, "cols", 1, null);
  if (rows > MAX_CODE_SIDE || cols > MAX_CODE_SIDE || rows * cols > MAX_GENERATE_TILES) {
    throw new InputError(`generate makes boards of up to ${MAX_GENERATE_TILES} tiles with ` +
      `sides up to ${MAX_CODE_SIDE}, got ${rows}x${cols}`, { code: "TOO_LARGE" });
  }
  let fixedLock;
  let fixedHole;
  [locked, fixedLock] = countOrMask("locked", locked, rows, cols);
  [holes, fixedHole] = countOrMask("holes", holes, rows, cols);
  for (let i = 0; i < rows * cols; i++) {
    if (fixedLock[i] && fixedHole[i]) {
      throw badValue(`tile ${posText(Math.floor(i / cols), i % cols)} is both locked and a ` +
        "hole; a tile may be one or the other");
    }
  }
  const tiles = rows * cols;
  const free = tiles - fixedLock.reduce((a, v) => a + v, 0) - fixedHole.reduce((a, v) => a + v, 0);
  if (locked + holes >= free) {
    throw impossible(`${locked} locked tiles and ${holes} holes leave no tile to tap on ` +
      `a ${rows}x${cols} board`);
  }
  const rng = new SplitMix64(seedFrom(seed));
  wrap = Boolean(wrap);
  unique = Boolean(unique);
  let board;
  let solver;
  try {
    [board, solver] = place(rows, cols, states, pattern, locked, holes, wrap, unique, rng,
      fixedLock, fixedHole);
  } catch (first) {
    if (!(first instanceof InputError) || !auto || !first.message.includes("unique")) throw first;
    const full = solverFor(Board.grid(rows, cols, { states, pattern, wrap }));
    const lo = Math.max(1, full.nullity);
    dispose(full);
    let done = false;
    for (let k = lo; k <= Math.min(tiles - 1, lo + 3); k++) {
      try {
        [board, solver] = place(rows, cols, states, pattern, k, 0, wrap, true, rng, fixedLock,
          fixedHole);
        done = true;
        break;
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
      }
    }
    if (!done) {
      throw impossible(`${first.message}; locking ${lo} to ${lo + 3} tiles did not help ` +
        "either");
    }
  }
  return sampleStart(board, solver, difficulty, rng);
}
