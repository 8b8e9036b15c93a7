/**
 * SplitMix64 with BigInt, the same numbers as Python's modlights.play.prng, and
 * seedFrom: a 64-bit seed from an int (mod 2^64) or a string (SHA-256 of its UTF-8
 * bytes, the first 8 bytes big-endian), computed synchronously in plain JavaScript.
 * @module prng
 */
import { badType, badValue, outOfRange } from "./errors.js";
import { describe } from "./fmt.js";

const MASK = (1n << 64n) - 1n;
const GAMMA = 0x9E3779B97F4A7C15n;
const TWO64 = 1n << 64n;

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 of bytes (FIPS 180-4), synchronous.
 * @param {Uint8Array} data
 * @returns {Uint8Array} 32 bytes
 */
export function sha256(data) {
  const bitLen = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32));
  view.setUint32(padded.length - 4, bitLen >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const rotr = (x, k) => (x >>> k) | (x << (32 - k));
  for (let off = 0; off < padded.length; off += 64) {
    for (let t = 0; t < 16; t++) W[t] = view.getUint32(off + 4 * t);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(W[t - 15], 7) ^ rotr(W[t - 15], 18) ^ (W[t - 15] >>> 3);
      const s1 = rotr(W[t - 2], 17) ^ rotr(W[t - 2], 19) ^ (W[t - 2] >>> 10);
      W[t] = (W[t - 16] + s0 + W[t - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let t = 0; t < 64; t++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[t] + W[t]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0;
      d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  H.forEach((v, i) => ov.setUint32(4 * i, v));
  return out;
}

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
  const d = sha256(bytes);
  let s = 0n;
  for (let i = 0; i < 8; i++) s = (s << 8n) | BigInt(d[i]);
  return s;
}

/** SplitMix64: `new SplitMix64(seed)` with anything seedFrom takes. */
export class SplitMix64 {
  constructor(seed) {
    this._state = seedFrom(seed);
  }

  /** The next 64-bit output (BigInt). */
  nextU64() {
    this._state = (this._state + GAMMA) & MASK;
    let z = this._state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  }

  /** A uniform integer in [0, n) by rejection sampling (n an integer >= 1). */
  randbelow(n) {
    if (!(Number.isInteger(n) && n >= 1)) {
      throw outOfRange(`randbelow needs an integer n >= 1, got ${describe(n)}`);
    }
    if (n === 1) return 0;
    const N = BigInt(n);
    const limit = TWO64 - (TWO64 % N);
    for (;;) {
      const v = this.nextU64();
      if (v < limit) return Number(v % N);
    }
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
    for (let i = 0; i < k; i++) {
      const j = i + this.randbelow(items.length - i);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items.slice(0, k);
  }

  /** One element of a non-empty array. */
  choice(seq) {
    if (!seq.length) throw badValue("cannot choose from an empty Array");
    return seq[this.randbelow(seq.length)];
  }
}
