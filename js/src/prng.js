/**
 * SplitMix64, the same numbers as Python's modlights.play.prng, and seedFrom: a 64-bit
 * seed from an int (mod 2^64) or a string (SHA-256 of its UTF-8 bytes, the first 8
 * bytes big-endian). The draws and the string seeds are the C library's (ml_prng_next,
 * ml_prng_below, ml_prng_sample, ml_seed_from_bytes in the WebAssembly core): they need
 * `await init()` first (else a ModlightsError with code CORE_NOT_LOADED); integer
 * seeds and `new SplitMix64(seed)` do not.
 * @module prng
 */
import { badType, badValue, outOfRange } from "./errors.js";
import { prngBelow, prngNext, prngSample, seedFromBytes } from "./capi.js";
import { describe } from "./fmt.js";

const TWO64 = 1n << 64n;

/**
 * A 64-bit seed (BigInt): an int (number or BigInt, taken mod 2^64), a string (SHA-256
 * of its UTF-8 bytes, first 8 bytes big-endian) or a Uint8Array (SHA-256 of the
 * bytes); null/undefined draws fresh randomness (crypto.getRandomValues).
 * @param {number|bigint|string|Uint8Array|null} [value]
 * @returns {bigint}
 */
const SEED_WORDS = "seed must be an integer (a number or a BigInt), a string, a Uint8Array " +
  "or null, got ";

export function seedFrom(value) {
  if (value === null || value === undefined) {
    const b = new Uint32Array(2);
    globalThis.crypto.getRandomValues(b);
    return (BigInt(b[0]) << 32n) | BigInt(b[1]);
  }
  if (typeof value === "bigint") return ((value % TWO64) + TWO64) % TWO64;
  if (typeof value === "number") {
    // any integral Number is an int (exact as a double, above 2^53 too), as in Python
    if (!Number.isInteger(value)) {
      throw badType(SEED_WORDS + describe(value));
    }
    return ((BigInt(value) % TWO64) + TWO64) % TWO64;
  }
  let bytes = null;
  if (typeof value === "string") bytes = new TextEncoder().encode(value);
  else if (value instanceof Uint8Array) bytes = value;
  if (bytes === null) throw badType(SEED_WORDS + describe(value));
  return seedFromBytes(bytes);
}

/** SplitMix64: `new SplitMix64(seed)` with anything seedFrom takes. */
export class SplitMix64 {
  constructor(seed) {
    this._state = seedFrom(seed);
  }

  /** The next 64-bit output (BigInt). */
  nextU64() {
    const [z, state] = prngNext(this._state);
    this._state = state;
    return z;
  }

  /** A uniform integer in [0, n) by rejection sampling (n an integer >= 1). */
  randbelow(n) {
    if (!(Number.isInteger(n) && n >= 1)) {
      throw outOfRange(`randbelow needs an integer n >= 1, got ${describe(n)}`);
    }
    if (n === 1) return 0;
    const [v, state] = prngBelow(this._state, BigInt(n));
    this._state = state;
    return Number(v);
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
    const [picked, state] = prngSample(this._state, items.length, k);
    this._state = state;
    return picked.map((i) => items[i]);
  }

  /** One element of a non-empty array. */
  choice(seq) {
    if (!seq.length) throw badValue("cannot choose from an empty Array");
    return seq[this.randbelow(seq.length)];
  }
}
