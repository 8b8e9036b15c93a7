/**
 * verify(cert): the certificate checker of docs/certificates.md in exact arithmetic,
 * as Python's modlights.verify (the same verdicts, and the same messages where a
 * certificate's JSON has the same value in both languages): true when every step
 * holds, else an InputError with code INVALID_CERTIFICATE naming the first step that
 * fails (a FormatError, code NOT_A_CERTIFICATE, when the object is not a modlights
 * certificate of a known version and kind). It uses the board model only, nothing of
 * the solver whose answers it checks.
 *
 * Exactness: tile values and coefficients are below 256, so products are below 2^16
 * and every sum of them here (at most a few million terms) stays far below 2^53,
 * where JavaScript numbers are exact integers; LP weights are BigInt rationals.
 * Coset minima are found by walking every element (no Walsh-Hadamard shortcut), so
 * a check costs O(r) per coset element.
 * @module verify
 */
import { InputError } from "./errors.js";
import { Board } from "./board.js";
import { describe, show } from "./fmt.js";

/** Not a modlights certificate (format, version or kind unknown): code NOT_A_CERTIFICATE. */
export class FormatError extends InputError {
  /** @param {string} message */
  constructor(message, { cause } = {}) {
    super(message, { code: "NOT_A_CERTIFICATE", cause });
    this.name = "FormatError";
  }
}

/** A step of the certificate fails: InputError, code INVALID_CERTIFICATE. */
const rejected = (message, cause) =>
  new InputError(message, { code: "INVALID_CERTIFICATE", cause });

const FORMAT = "modlights-certificate";
const VERSION = 1;
const RATIONAL = /^-?[0-9]{1,4000}(\/[0-9]{1,4000})?$/;

const isPlainInt = (v) => typeof v === "number" && Number.isInteger(v);
const isObj = (d) => d !== null && typeof d === "object" && !Array.isArray(d);
const cut = (s) => s.slice(0, 300);

function int_(v, what, lo = null, hi = null) {
  if (!isPlainInt(v)) throw rejected(`${what} must be an integer, got ${describe(v)}`);
  if ((lo !== null && v < lo) || (hi !== null && v > hi)) {
    const allowed = hi === null ? `>= ${lo}` : `in ${lo}..${hi}`;
    throw rejected(`${what} must be ${allowed}, got ${v}`);
  }
  return v;
}

function ints(v, what, length, lo, hi) {
  if (!Array.isArray(v)) {
    throw rejected(`${what} must be an array of integers, got ${describe(v)}`);
  }
  if (length !== null && v.length !== length) {
    throw rejected(`${what} has ${v.length} entries, expected ${length}`);
  }
  const bad = v.find((e) => !isPlainInt(e));
  if (bad !== undefined || v.some((e) => !isPlainInt(e))) {
    throw rejected(`${what} must hold integers only, found ${describe(bad)}`);
  }
  v.forEach((e, i) => {
    if (e < lo || e > hi) throw rejected(`${what}[${i}] = ${e} is outside ${lo}..${hi}`);
  });
  return v.slice();
}

function rational(v, what) {
  if (isPlainInt(v)) return [BigInt(v), 1n];
  if (typeof v !== "string" || !RATIONAL.test(v)) {
    throw rejected(`${what} must be a rational written "p/q" or "p", got ${show(v)}`
      .slice(0, 200));
  }
  const [num, den] = v.split("/");
  if (den !== undefined && BigInt(den) === 0n) throw rejected(`${what} has denominator 0`);
  return [BigInt(num), den === undefined ? 1n : BigInt(den)];
}

function field(d, key, what) {
  if (!isObj(d)) throw rejected(`${what} must be a JSON object, got ${describe(d)}`);
  if (!(key in d)) throw rejected(`${what} has no field ${show(key)}`);
  return d[key];
}

// ------------------------------------------------------------------ numbers
function primePowers(n) {
  const out = [];
  for (let p = 2; p * p <= n; p++) {
    if (n % p === 0) {
      let e = 0;
      while (n % p === 0) { n /= p; e++; }
      out.push([p, e]);
    }
  }
  if (n > 1) out.push([n, 1]);
  return out;
}

const mod = (a, m) => ((a % m) + m) % m;

function inv(a, m) {
  let [r0, r1, s0, s1] = [mod(a, m), m, 1, 0];
  while (r1) {
    const t = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - t * r1];
    [s0, s1] = [s1, s0 - t * s1];
  }
  return mod(s0, m);
}

function crt(residues) {
  let x = 0;
  let m = 1;
  for (const [r, mm] of residues) {
    const t = mod((r - x) * inv(m, mm), mm);
    x += m * t;
    m *= mm;
  }
  return x;
}

function gcdBig(a, b) {
  while (b) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

// ------------------------------------------------------------------ the matrix A
class Matrix {
  constructor(board) {
    this.n = board.states;
    this.m = board.nCells;
    this.r = board.nTaps;
    const ci = [];
    const tj = [];
    for (let j = 0; j < this.r; j++) for (const i of board.column(j)) { ci.push(i); tj.push(j); }
    this.ci = ci;
    this.tj = tj;
  }

  apply(x) {
    const acc = new Array(this.m).fill(0);
    for (let k = 0; k < this.ci.length; k++) acc[this.ci[k]] += x[this.tj[k]];
    return acc.map((v) => v % this.n);
  }

  /** Sorted [key i * r + j, entry mod n] of the nonzero entries, rows and columns
   * renamed by `cells` / `taps` when given. */
  entries(cells = null, taps = null) {
    const counts = new Map();
    for (let k = 0; k < this.ci.length; k++) {
      const i = cells ? cells[this.ci[k]] : this.ci[k];
      const j = taps ? taps[this.tj[k]] : this.tj[k];
      const key = i * this.r + j;
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    return [...counts].map(([k, c]) => [k, c % this.n]).filter(([, c]) => c)
      .sort((a, b) => a[0] - b[0]);
  }

  dense(q) {
    const D = Array.from({ length: this.m }, () => new Array(this.r).fill(0));
    for (const [key, c] of this.entries()) {
      D[Math.floor(key / this.r)][key % this.r] = c % q;
    }
    return D;
  }
}

// ------------------------------------------------------------------ elimination mod p^e
function eliminate(M0, p, e, Z0 = null) {
  const q = p ** e;
  const M = M0.map((row) => row.map((v) => mod(v, q)));
  const Z = Z0 === null ? null : Z0.map((row) => row.map((v) => mod(v, q)));
  const rows = M.length;
  const cols = rows ? M[0].length : 0;
  const left = new Array(rows).fill(true);
  const done = new Array(cols).fill(false);
  const pivots = [];
  for (let v = 0; v < e; v++) {
    const pv = p ** v;
    for (let j = 0; j < cols; j++) {
      if (done[j]) continue;
      let i = -1;
      for (let a = 0; a < rows; a++) {
        if (left[a] && Math.floor(M[a][j] / pv) % p !== 0) { i = a; break; }
      }
      if (i < 0) continue;
      const iv = inv(Math.floor(M[i][j] / pv), q);
      for (let a = 0; a < rows; a++) {
        if (a === i || !left[a] || M[a][j] === 0) continue;
        const f = (Math.floor(M[a][j] / pv) * iv) % q;
        for (let c = 0; c < cols; c++) M[a][c] = mod(M[a][c] - f * M[i][c], q);
        if (Z) for (let c = 0; c < Z[a].length; c++) Z[a][c] = mod(Z[a][c] - f * Z[i][c], q);
      }
      left[i] = false;
      done[j] = true;
      pivots.push([i, j, v]);
    }
  }
  return [pivots, M, Z];
}

function logKernel(A, p, e) {
  const [pivots] = eliminate(A.dense(p ** e), p, e);
  return e * (A.r - pivots.length) + pivots.reduce((s, [, , v]) => s + v, 0);
}

function logSpan(H, p, e) {
  if (H.length === 0) return 0;
  const [pivots] = eliminate(H, p, e);
  return pivots.reduce((s, [, , v]) => s + (e - v), 0);
}

function solve(M, Z, p, e) {
  const q = p ** e;
  const [pivots, Me, Ze] = eliminate(M, p, e, Z);
  const isPivot = new Array(Me.length).fill(false);
  for (const [i] of pivots) isPivot[i] = true;
  for (let a = 0; a < Me.length; a++) if (!isPivot[a] && Ze[a].some((v) => v)) return null;
  const b = Me.length ? Me[0].length : 0;
  const t = Ze.length ? Ze[0].length : 0;
  const X = Array.from({ length: b }, () => new Array(t).fill(0));
  for (let k = pivots.length - 1; k >= 0; k--) {
    const [i, j, v] = pivots[k];
    const pv = p ** v;
    const iv = inv(Math.floor(Me[i][j] / pv), q);
    for (let s = 0; s < t; s++) {
      let acc = 0;
      for (let c = 0; c < b; c++) acc += Me[i][c] * X[c][s];
      const R = mod(Ze[i][s] - acc, q);
      if (R % pv) return null;
      X[j][s] = ((R / pv) * iv) % q;
    }
  }
  return X;
}

// ------------------------------------------------------------------ the kernel
class Kernel {
  constructor(H, orders, n) {
    this.H = H;
    this.orders = orders;
    this.n = n;
    this.k = orders.length;
  }

  /** Coefficients c (t rows of k) with sum c_i h_i = z for the columns z of Z (r x t). */
  coords(Z) {
    const t = Z.length ? Z[0].length : 0;
    const C = Array.from({ length: t }, () => Array.from({ length: this.k }, () => []));
    const r = Z.length;
    for (const [p, e] of primePowers(this.n)) {
      const q = p ** e;
      let X;
      if (this.k) {
        const HT = Array.from({ length: r }, (_, j) => this.H.map((h) => h[j]));
        X = solve(HT, Z, p, e);
      } else {
        X = [];
      }
      if (X === null || (this.k === 0 && Z.some((row) => row.some((v) => v % q)))) {
        throw rejected("a vector is not in the span of the kernel generators");
      }
      this.orders.forEach((o, i) => {
        let pp = 1;
        while (o % (pp * p) === 0) pp *= p;
        for (let s = 0; s < t; s++) C[s][i].push([mod(X[i][s], pp), pp]);
      });
    }
    const out = C.map((row) => row.map((res) => crt(res)));
    for (let s = 0; s < t; s++) {
      for (let j = 0; j < r; j++) {
        let acc = 0;
        for (let i = 0; i < this.k; i++) acc += out[s][i] * this.H[i][j];
        if (mod(acc - Z[j][s], this.n)) {
          throw rejected("a vector is not in the span of the kernel generators");
        }
      }
    }
    return out;
  }
}

function checkKernel(kd, A, what) {
  const { n, r } = A;
  const gens = field(kd, "generators", what);
  let orders = field(kd, "orders", what);
  if (!Array.isArray(gens) || !Array.isArray(orders)) {
    throw rejected(`${what}: generators and orders must be arrays`);
  }
  if (gens.length !== orders.length) {
    throw rejected(`${what}: ${gens.length} generators but ${orders.length} orders`);
  }
  const H = gens.map((g, i) => ints(g, `${what} generator ${i}`, r, 0, n - 1));
  orders = orders.map((o, i) => int_(o, `${what} order ${i}`, 1, n));
  H.forEach((h, i) => {
    const ah = A.apply(h);
    const at = ah.findIndex((v) => v);
    if (at >= 0) {
      throw rejected(`${what} generator ${i} is not in ker A (A h != 0 at cell ${at})`);
    }
    const o = orders[i];
    if (n % o || h.some((v) => (o * v) % n) ||
        primePowers(o).some(([p]) => !h.some((v) => ((o / p) * v) % n))) {
      throw rejected(`${what} order ${i} is wrong: ${o} is not the additive order ` +
        `of generator ${i}`);
    }
  });
  for (const [p, e] of primePowers(n)) {
    const ker = logKernel(A, p, e);
    const span = logSpan(H, p, e);
    let claimed = 0;
    for (let o of orders) {
      while (o % p === 0) { o /= p; claimed++; }
    }
    if (span !== claimed) {
      throw rejected(`${what}: the generators generate ${p}^${span} elements mod ` +
        `${p ** e}, the product of their orders has ${p}^${claimed} ` +
        "(they are not independent)");
    }
    if (ker !== span) {
      throw rejected(`${what} is incomplete: ker A has ${p}^${ker} elements mod ` +
        `${p ** e}, the generators generate ${p}^${span}`);
    }
  }
  return new Kernel(H, orders, n);
}

// ------------------------------------------------------------------ coset minima
/** min over c (0 <= c_i < o_i) of sum((y + sum c_i h_i) mod n), walking every element. */
function cosetMin(y, H, orders, n) {
  const z = y.slice();
  let len = z.reduce((a, v) => a + v, 0);
  let best = len;
  const counts = new Array(orders.length).fill(0);
  for (;;) {
    let i = 0;
    while (i < orders.length) {
      const h = H[i];
      for (let j = 0; j < z.length; j++) {
        if (!h[j]) continue;
        const old = z[j];
        const nw = (old + h[j]) % n;
        z[j] = nw;
        len += nw - old;
      }
      counts[i]++;
      if (counts[i] < orders[i]) break;
      counts[i] = 0;
      i++;
    }
    if (i === orders.length) return best;
    if (len < best) best = len;
  }
}

// ------------------------------------------------------------------ "minimal" claims
function checkMinimal(d, what, A, kernel) {
  const { n, m, r } = A;
  const b = ints(field(d, "rhs", what), `${what}rhs`, m, 0, n - 1);
  const x = ints(field(d, "taps", what), `${what}taps`, r, 0, n - 1);
  const L = int_(field(d, "length", what), `${what}length`, 0);
  const sx = x.reduce((a, v) => a + v, 0);
  if (sx !== L) throw rejected(`${what}length ${L} is not the sum of the taps (${sx})`);
  const ax = A.apply(x);
  const bad = ax.findIndex((v, i) => mod(v - b[i], n));
  if (bad >= 0) {
    throw rejected(`${what}taps do not solve the board: A x != rhs at cell ${bad}`);
  }
  const proof = field(d, "proof", what);
  const method = field(proof, "method", `${what}proof`);
  if (isObj(proof) && "generators" in proof) {
    kernel = checkKernel(proof, A, `${what}proof kernel`);
  }
  if (method === "enumeration") {
    const total = kernel.orders.reduce((a, o) => a * BigInt(o), 1n);
    if (L > 0) {
      const low = cosetMin(x, kernel.H, kernel.orders, n);
      if (low < L) {
        throw rejected(`${what}enumeration: the coset has an element of length ` +
          `${low} < ${L}`);
      }
    }
    return `enumeration of ${total} solutions`;
  }
  if (method === "tree") return checkTree(proof, `${what}proof`, x, b, L, A, kernel);
  throw rejected(cut(`${what}proof method ${show(method)} is unknown: use 'enumeration' ` +
    "or 'tree'"));
}

function groups(Hfree, r) {
  if (Hfree.length === 0) return [new Array(r).fill(0), 1, 0];
  const ids = new Map();
  const keys = [];
  for (let j = 0; j < r; j++) {
    const key = Hfree.map((h) => h[j]).join(",");
    if (!ids.has(key)) { ids.set(key, ids.size); keys.push(Hfree.map((h) => h[j])); }
  }
  const gid = [];
  for (let j = 0; j < r; j++) gid.push(ids.get(Hfree.map((h) => h[j]).join(",")));
  const zero = keys.findIndex((k) => k.every((v) => v === 0));
  return [gid, keys.length, zero];
}

function prefixBound(y, gid, G, zero, n) {
  const cnt = Array.from({ length: G }, () => new Array(n).fill(0));
  y.forEach((v, j) => { cnt[gid[j]][v]++; });
  let total = 0;
  for (let g = 0; g < G; g++) {
    let mn = Infinity;
    for (let s = 0; s < n; s++) {
      let t = 0;
      for (let v = 0; v < n; v++) t += cnt[g][v] * ((v + s) % n);
      if (g === zero) { mn = t; break; }
      if (t < mn) mn = t;
    }
    total += mn;
  }
  return total;
}

function checkTree(proof, what, x, b, L, A, kernel) {
  const { n } = A;
  const { k, H, orders } = kernel;
  const m = int_(field(proof, "leaf_dim", what), `${what} leaf_dim`, 0, k);
  const depth = k - m;
  const pruned = "pruned" in proof ? proof.pruned : [];
  if (!Array.isArray(pruned)) throw rejected(`${what} pruned must be an array of prefixes`);
  const groupCache = new Map();
  const pset = new Set();
  pruned.forEach((P, idx) => {
    if (!Array.isArray(P) || P.length > depth) {
      throw rejected(`${what} pruned prefix ${idx} must be an array of at most ` +
        `${depth} coefficients`);
    }
    let y = x.slice();
    P.forEach((c0, t) => {
      const i = k - 1 - t;
      const c = int_(c0, `${what} pruned prefix ${idx} entry ${t}`, 0, orders[i] - 1);
      y = y.map((v, j) => (v + c * H[i][j]) % n);
    });
    const free = k - P.length;
    if (!groupCache.has(free)) groupCache.set(free, groups(H.slice(0, free), A.r));
    const [gid, G, zero] = groupCache.get(free);
    const bound = prefixBound(y, gid, G, zero, n);
    if (bound < L) {
      throw rejected(`${what}: pruned prefix ${show(P)} has bound ${bound} < length ${L}`);
    }
    pset.add(P.join(","));
  });
  const syms = symmetries("symmetries" in proof ? proof.symmetries : [], what, x, b, A,
    kernel, m);
  let checked = 0;
  let skipped = 0;
  if (L === 0) return `tree of ${pset.size} pruned prefixes (length 0)`;
  const Hm = H.slice(0, m);
  const om = orders.slice(0, m);
  const stack = [[[], x]];
  while (stack.length) {
    const [P, y] = stack.pop();
    if (pset.has(P.join(","))) continue;
    if (P.length === depth) {
      if (syms.length && lowerImage(syms, P, orders, m)) {
        skipped++;
        continue;
      }
      const low = cosetMin(y, Hm, om, n);
      if (low < L) {
        throw rejected(`${what}: leaf ${show(P)} has an element of length ${low} < ${L}`);
      }
      checked++;
      continue;
    }
    const i = k - 1 - P.length;
    for (let c = orders[i] - 1; c >= 0; c--) {
      stack.push([[...P, c], c ? y.map((v, j) => (v + c * H[i][j]) % n) : y]);
    }
  }
  return `tree: ${pset.size} pruned prefixes, ${checked} leaves checked, ${skipped} ` +
    "mapped by symmetries";
}

function symmetries(spec, what, x, b, A, kernel, m) {
  if (!Array.isArray(spec)) throw rejected(`${what} symmetries must be an array`);
  const { n, k } = kernel;
  const base = JSON.stringify(A.entries());
  return spec.map((sym, s) => {
    const w = `${what} symmetry ${s}`;
    const cells = ints(field(sym, "cells", w), `${w} cells`, A.m, 0, A.m - 1);
    const taps = ints(field(sym, "taps", w), `${w} taps`, A.r, 0, A.r - 1);
    if (new Set(cells).size !== A.m || new Set(taps).size !== A.r) {
      throw rejected(`${w} is not a pair of permutations`);
    }
    if (JSON.stringify(A.entries(cells, taps)) !== base) {
      throw rejected(`${w} is not an automorphism of A`);
    }
    if (cells.some((c, i) => b[c] !== b[i])) throw rejected(`${w} does not preserve the rhs`);
    const move = (v) => {
      const out = new Array(v.length);
      taps.forEach((t, j) => { out[t] = v[j]; });
      return out;
    };
    const cols = [move(x).map((v, j) => mod(v - x[j], n)), ...kernel.H.map(move)];
    const Z = Array.from({ length: A.r }, (_, j) => cols.map((c) => c[j]));
    let C;
    try {
      C = kernel.coords(Z);
    } catch (e) {
      if (e instanceof InputError) throw rejected(`${w} does not map the coset onto itself`);
      throw e;
    }
    if (k && C.slice(1, m + 1).some((row) => row.slice(m).some((v) => v))) {
      throw rejected(`${w} does not map span(h_0..h_${m - 1}) into itself`);
    }
    return { d: C[0].slice(m), T: C.slice(m + 1).map((row) => row.slice(m)) };
  });
}

/** Whether a symmetry maps leaf P = (c_{k-1}, ..., c_m) to a lexicographically smaller
 * leaf (compared as (c_{k-1}, ..., c_m)). */
function lowerImage(syms, P, orders, m) {
  const c = P.slice().reverse();                     // c_m .. c_{k-1}
  const mods = orders.slice(m);
  for (const { d, T } of syms) {
    const img = d.map((v, i) => {
      let acc = v;
      for (let a = 0; a < c.length; a++) acc += c[a] * T[a][i];
      return mod(acc, mods[i]);
    });
    const rev = img.slice().reverse();
    for (let i = 0; i < rev.length; i++) {
      if (rev[i] !== P[i]) {
        if (rev[i] < P[i]) return true;
        break;
      }
    }
  }
  return false;
}

// ------------------------------------------------------------------ "hardest" claims
function weights(spec, what, count) {
  let items;
  if (Array.isArray(spec)) {
    if (spec.length !== count) {
      throw rejected(`${what} has ${spec.length} weights for ${count} elements`);
    }
    items = spec.map((v, i) => [i, v]);
  } else if (isObj(spec)) {
    items = [];
    for (const [key, v] of Object.entries(spec)) {
      if (!/^[0-9]+$/.test(key) || Number(key) >= count) {
        throw rejected(cut(`${what}: ${show(key)} is not an element index ` +
          `(0..${count - 1})`));
      }
      items.push([Number(key), v]);
    }
  } else {
    throw rejected(`${what} must be an array or an object of weights`);
  }
  const pairs = new Map();
  for (const [i, v] of items) {
    const [num, den] = rational(v, `${what} weight ${i}`);
    if (num < 0n) throw rejected(cut(`${what}: weight ${i} is negative (${v})`));
    pairs.set(i, [num, den]);
  }
  let D = 1n;
  for (const [, den] of pairs.values()) D = (D / gcdBig(D, den)) * den;
  const W = new Map();
  let sum = 0n;
  for (const [i, [num, den]] of pairs) {
    if (num) {
      W.set(i, num * (D / den));
      sum += num * (D / den);
    }
  }
  if (sum !== D) {
    const g = gcdBig(sum, D);
    const frac = D / g === 1n ? `${sum / g}` : `${sum / g}/${D / g}`;
    throw rejected(cut(`${what}: the weights sum to ${frac}, not 1`));
  }
  return [D, W];
}

function dualBound(values, [D, W], n, fixed, r) {
  const S = Array.from({ length: r }, () => new Array(n).fill(0n));
  for (const [c, w] of W) {
    const row = values[c];
    for (let j = 0; j < r; j++) S[j][row[j]] += w;
  }
  let total = 0n;
  for (let j = 0; j < r; j++) {
    const sums = [];
    for (let v = 0; v < n; v++) {
      let s = 0n;
      for (let t = 0; t < n; t++) s += S[j][t] * BigInt((v + t) % n);
      sums.push(s);
    }
    total += fixed.has(j) ? sums[fixed.get(j)] : sums.reduce((a, v) => (v > a ? v : a));
  }
  return [total, D];
}

function fracText(num, den) {
  const g = gcdBig(num, den) || 1n;
  return den / g === 1n ? `${num / g}` : `${num / g}/${den / g}`;
}

function elements(spec, what, kernel, r) {
  const { k } = kernel;
  if (!Array.isArray(spec) || !spec.length) {
    throw rejected(`${what} elements must be a non-empty array of coefficient arrays`);
  }
  spec.forEach((row, e) => {
    if (!Array.isArray(row) || row.length !== k || !row.every(isPlainInt)) {
      throw rejected(`${what} element ${e} must be an array of ${k} integers`);
    }
  });
  spec.forEach((row, e) => {
    row.forEach((a, i) => {
      if (a < 0 || a > kernel.orders[i] - 1) {
        throw rejected(`${what} element ${e}: coefficient ${i} is not in ` +
          `0..${kernel.orders[i] - 1} (below its order)`);
      }
    });
  });
  return spec.map((row) => {
    const v = new Array(r).fill(0);
    row.forEach((a, i) => { if (a) for (let j = 0; j < r; j++) v[j] += a * kernel.H[i][j]; });
    return v.map((x) => x % kernel.n);
  });
}

function checkUpper(ub, U, A, kernel) {
  const what = "upper_bound";
  const { n, r } = A;
  const method = field(ub, "method", what);
  const V = elements(field(ub, "elements", what), what, kernel, r);
  if (method === "lp-dual") {
    const w = weights(field(ub, "weights", what), "lp-dual", V.length);
    const [num, den] = dualBound(V, w, n, new Map(), r);
    const fl = num / den;
    if (fl > BigInt(U)) throw rejected(`lp-dual: floor(bound) ${fl} > upper ${U}`);
    return `LP dual over ${V.length} kernel elements, bound ${fracText(num, den)} (floor ${fl})`;
  }
  if (method !== "lp-tree") {
    throw rejected(cut(`${what} method ${show(method)} is unknown: use 'lp-dual' or ` +
      "'lp-tree'"));
  }
  const pinned = ints(field(ub, "pinned", what), `${what} pinned`, null, 0, r - 1);
  if (new Set(pinned).size !== pinned.length) throw rejected(`${what}: pinned lists a tap twice`);
  for (const [p] of primePowers(n)) {
    const rank = pinned.length
      ? eliminate(kernel.H.map((h) => pinned.map((j) => h[j] % p)), p, 1)[0].length : 0;
    if (rank !== pinned.length) {
      throw rejected(`${what}: ker A does not map onto the pinned taps (rank ` +
        `${rank} < ${pinned.length} mod ${p})`);
    }
  }
  const nodes = field(ub, "nodes", what);
  if (!Array.isArray(nodes)) throw rejected(`${what} nodes must be an array`);
  const fixed = new Map(pinned.map((j) => [j, 0]));
  const stack = [];
  let pos = 0;
  let leaves = 0;
  let worst = null;
  for (;;) {
    if (pos >= nodes.length) throw rejected(`${what}: the tree ends early (after ${pos} nodes)`);
    const node = nodes[pos++];
    if (isObj(node) && "branch" in node) {
      const j = int_(node.branch, `${what} node ${pos - 1} branch`, 0, r - 1);
      if (fixed.has(j)) {
        throw rejected(`${what} node ${pos - 1} branches on tap ${j}, already fixed`);
      }
      stack.push([j, 0]);
      fixed.set(j, 0);
      continue;
    }
    const w = weights(field(node, "weights", `${what} node ${pos - 1}`),
      `${what} node ${pos - 1}`, V.length);
    const [num, den] = dualBound(V, w, n, fixed, r);
    const fl = num / den;
    if (fl > BigInt(U)) throw rejected(`lp-tree: node ${pos - 1} has floor(bound) ${fl} > upper ${U}`);
    worst = worst === null || fl > worst ? fl : worst;
    leaves++;
    while (stack.length && stack[stack.length - 1][1] === n - 1) fixed.delete(stack.pop()[0]);
    if (!stack.length) break;
    stack[stack.length - 1][1]++;
    fixed.set(stack[stack.length - 1][0], stack[stack.length - 1][1]);
  }
  if (pos !== nodes.length) {
    throw rejected(`${what}: ${nodes.length - pos} nodes after the end of the tree`);
  }
  return `LP tree of ${leaves} closed leaves, largest bound ${worst}`;
}

// ------------------------------------------------------------------ the entry points
function check(cert) {
  if (!isObj(cert)) throw new FormatError(`a certificate is a JSON object, got ${describe(cert)}`);
  if (cert.format !== FORMAT) {
    throw new FormatError(`not a modlights certificate (format must be ${show(FORMAT)})`);
  }
  if (cert.version !== VERSION) {
    throw new FormatError(cut(`unknown certificate version ${show(cert.version)}: this ` +
      `checker reads version ${VERSION}`));
  }
  const kind = cert.kind;
  if (kind !== "minimal" && kind !== "hardest") {
    throw new FormatError(cut(`unknown certificate kind ${show(kind)}: use 'minimal' or ` +
      "'hardest'"));
  }
  const board = Board.fromDict(field(cert, "board", "certificate"));
  const A = new Matrix(board);
  const kernel = checkKernel(field(cert, "kernel", "certificate"), A, "kernel");
  if (kind === "minimal") {
    const how = checkMinimal(cert, "", A, kernel);
    return `no solution has fewer than ${cert.length} taps (${how})`;
  }
  const lower = int_(field(cert, "lower", "certificate"), "lower", 0);
  const upper = int_(field(cert, "upper", "certificate"), "upper", 0);
  if (lower > upper) throw rejected(`lower ${lower} > upper ${upper}`);
  const witness = field(cert, "witness", "certificate");
  const how = checkMinimal(witness, "witness ", A, kernel);
  if (witness.length !== lower) {
    throw rejected(`the witness needs ${witness.length} taps, not lower = ${lower}`);
  }
  const up = checkUpper(field(cert, "upper_bound", "certificate"), upper, A, kernel);
  const value = lower === upper ? `exactly ${lower}` : `between ${lower} and ${upper}`;
  return `the hardest board needs ${value} taps (witness: ${how}; upper: ${up})`;
}

/** Checks `cert` as verify does and says in one line what it proves. */
export function summary(cert) {
  try {
    return check(cert);
  } catch (e) {
    if (e instanceof FormatError || (e instanceof InputError && e.code === "INVALID_CERTIFICATE")) {
      throw e;
    }
    // a bad value the board model refused (a board dict, a state): the certificate's
    // fault, with the model's message
    if (e instanceof InputError) throw rejected(e.message, e);
    throw rejected(cut(`malformed certificate: ${e && e.name}: ${e && e.message}`), e);
  }
}

/**
 * Checks a certificate (as Python's sol.certificate() / h.certificate() make it, see
 * docs/certificates.md) in exact arithmetic: true when every step holds, else an
 * InputError (code INVALID_CERTIFICATE) naming the step that fails (FormatError, code
 * NOT_A_CERTIFICATE, when it is not a modlights certificate of a known version and
 * kind). Never another exception type.
 * @param {object} cert
 * @returns {true}
 */
export function verify(cert) {
  summary(cert);
  return true;
}
