/**
 * SplitMix64, the same numbers as Python's modlights.play.prng, and seedFrom. The draws
 * and the string seeds are the C library's (ml_prng_*, ml_seed_from_bytes): they need the
 * core; integer seeds and `new SplitMix64(seed)` do not.
 * @module prng
 */
import { badType, badValue, outOfRange } from "./errors.js";
import { prngSample, seedFromBytes, withPrng } from "./capi.js";
import { describe } from "./fmt.js";

/**
 * A 64-bit seed (BigInt): an integer (a number or BigInt, taken mod 2^64, any integral
 * Number as in Python), a string (SHA-256 of its UTF-8 bytes, first 8 bytes big-endian) or
 * a Uint8Array (SHA-256 of the bytes); null / undefined: fresh randomness.
 * @param {number|bigint|string|Uint8Array|null} [value]
 * @returns {bigint}
 */
export function seedFrom(value) {
  if (value === null || value === undefined) {
    return globalThis.crypto.getRandomValues(new BigUint64Array(1))[0];
  }
  if (typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))) {
    return BigInt.asUintN(64, BigInt(value));
  }
  if (typeof value === "string") return seedFromBytes(new TextEncoder().encode(value));
  if (value instanceof Uint8Array) return seedFromBytes(value);
  throw badType("seed must be an integer (a number or a BigInt), a string, a Uint8Array or " +
    `null, got ${describe(value)}`);
}

/** SplitMix64: `new SplitMix64(seed)` with anything seedFrom takes. */
export class SplitMix64 {
  constructor(seed) {
    this._state = seedFrom(seed);
  }

  /** The next 64-bit output (BigInt). */
  nextU64() { return this._draw((x, g) => BigInt.asUintN(64, x.ml_prng_next(g))); }

  /** fn(exports, g)'s value, the generator's state moved on (ml_prng_*). */
  _draw(fn) {
    const [v, state] = withPrng(this._state, fn);
    this._state = state;
    return v;
  }

  /** A uniform integer in [0, n) by rejection sampling (n an integer >= 1). */
  randbelow(n) {
    if (!(Number.isInteger(n) && n >= 1)) {
      throw outOfRange(`randbelow needs an integer n >= 1, got ${describe(n)}`);
    }
    return n === 1 ? 0 : Number(this._draw((x, g) => BigInt.asUintN(64, x.ml_prng_below(g, BigInt(n)))));
  }

  /** A uniform integer in [lo, hi], both inclusive. */
  randint(lo, hi) {
    if (hi < lo) throw outOfRange(`randint needs lo <= hi, got ${lo}, ${hi}`);
    return lo + this.randbelow(hi - lo + 1);
  }

  /** A uniform float in [0, 1) with 53 random bits. */
  random() {
    return Number(this.nextU64() >> 11n) / 2 ** 53;
  }

  /** Shuffles an array in place (Fisher-Yates). */
  shuffle(seq) {
    for (let i = seq.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      [seq[i], seq[j]] = [seq[j], seq[i]];
    }
  }

  /** k distinct elements of `seq` in random order. */
  sample(seq, k) {
    const items = Array.from(seq);
    if (!(k >= 0 && k <= items.length)) {
      throw outOfRange(`cannot sample ${k} of ${items.length} items`);
    }
    return this._draw((x, g, core) => prngSample(core, g, items.length, k)).map((i) => items[i]);
  }

  /** One element of a non-empty array. */
  choice(seq) {
    if (!seq.length) throw badValue("cannot choose from an empty Array");
    return seq[this.randbelow(seq.length)];
  }
}
