/**
 * A small pure-JavaScript reference solver for tests, with the interface of the
 * package's Solver (js/src/solver.js): nullity, rank, kernelSize (BigInt),
 * solvable, solve (Solution {taps, length, provenMinimal}), hint, dispose.
 *
 * Exact over Z/n for every n in 2..255: n is split into prime powers q = p^k (CRT);
 * over each Z/q the tap matrix is brought to diagonal form U A V = D by row and
 * column operations with pivots of least p-valuation (a Smith form over the local
 * ring), which gives a particular solution, the kernel's generators and their orders.
 * Minimal solutions enumerate the whole coset x0 + ker A, so only boards whose kernel
 * has at most `budget` elements are minimised (a larger kernel throws: this solver
 * does not reproduce the native search's partial or greedy answers). Dense: for small
 * boards only (a few hundred taps).
 */
import { InputError, Unsolvable } from "../src/errors.js";

function factor(n) {
  const out = [];
  for (let p = 2; p * p <= n; p++) {
    if (n % p === 0) {
      let q = 1;
      let k = 0;
      while (n % p === 0) { n /= p; q *= p; k++; }
      out.push({ p, k, q });
    }
  }
  if (n > 1) out.push({ p: n, k: 1, q: n });
  return out;
}

function egcdInv(a, m) {
  let [r0, r1, s0, s1] = [((a % m) + m) % m, m, 1, 0];
  while (r1) {
    const t = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - t * r1];
    [s0, s1] = [s1, s0 - t * s1];
  }
  if (r0 !== 1) throw new Error(`${a} is not a unit mod ${m}`);
  return ((s0 % m) + m) % m;
}

function val(x, p) {
  let v = 0;
  while (x % p === 0) { x /= p; v++; }
  return v;
}

/** Diagonal form of A over Z/q: {U, V, diag: [p^v], R}. */
function localSmith(A, m, r, p, k, q) {
  const D = A.map((row) => row.map((v) => v % q));
  const U = Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => +(i === j)));
  const V = Array.from({ length: r }, (_, i) => Array.from({ length: r }, (_, j) => +(i === j)));
  const vals = [];
  let t = 0;
  for (; t < Math.min(m, r); t++) {
    let best = null;
    for (let i = t; i < m && (best === null || best[2] > 0); i++) {
      for (let j = t; j < r; j++) {
        if (D[i][j]) {
          const v = val(D[i][j], p);
          if (best === null || v < best[2]) best = [i, j, v];
          if (v === 0) break;
        }
      }
    }
    if (best === null) break;
    const [bi, bj, v] = best;
    [D[t], D[bi]] = [D[bi], D[t]];
    [U[t], U[bi]] = [U[bi], U[t]];
    for (const row of D) [row[t], row[bj]] = [row[bj], row[t]];
    for (const row of V) [row[t], row[bj]] = [row[bj], row[t]];
    const pv = p ** v;
    const uinv = egcdInv(D[t][t] / pv, q);
    for (let j = 0; j < r; j++) D[t][j] = (D[t][j] * uinv) % q;
    for (let j = 0; j < m; j++) U[t][j] = (U[t][j] * uinv) % q;
    for (let i = 0; i < m; i++) {
      if (i === t || !D[i][t]) continue;
      const f = D[i][t] / pv;
      for (let j = 0; j < r; j++) D[i][j] = (((D[i][j] - f * D[t][j]) % q) + q) % q;
      for (let j = 0; j < m; j++) U[i][j] = (((U[i][j] - f * U[t][j]) % q) + q) % q;
    }
    for (let j = t + 1; j < r; j++) {
      if (!D[t][j]) continue;
      const f = D[t][j] / pv;
      D[t][j] = 0;
      for (let i = 0; i < r; i++) V[i][j] = (((V[i][j] - f * V[i][t]) % q) + q) % q;
    }
    vals.push(v);
  }
  return { U, V, vals, R: t };
}

/** The reference solver of one board. */
export class ReferenceSolver {
  /** Same as the constructor (the package Solver's synchronous factory). */
  static createSync(board) { return new ReferenceSolver(board); }
  /** Same as the constructor, as a promise. */
  static async create(board) { return new ReferenceSolver(board); }

  constructor(board) {
    this.board = board;
    const n = board.states;
    this.n = n;
    const A = board.matrix();
    const m = board.nCells;
    const r = board.nTaps;
    this.parts = factor(n).map(({ p, k, q }) => ({ p, k, q, ...localSmith(A, m, r, p, k, q) }));
    const gens = [];
    let nullity = 0;
    let size = 1n;
    for (const part of this.parts) {
      const { p, k, q, V, vals, R } = part;
      const M = n / q;
      const lift = (M * egcdInv(M % q, q)) % n;
      let count = 0;
      for (let t = 0; t < r; t++) {
        const v = t < R ? Math.min(vals[t], k) : k;
        if (v === 0) continue;
        count++;
        const scale = p ** (k - v);
        const g = V.map((row) => (((row[t] * scale) % q) * lift) % n);
        gens.push({ g, order: p ** v });
        size *= BigInt(p ** v);
      }
      nullity = Math.max(nullity, count);
    }
    this.gens = gens;
    this.nullity = nullity;
    this.rank = r - nullity;
    this.kernelSize = size;
  }

  _rhs(state, target) {
    const b = this.board;
    const s = b.cellVector(state);
    let t;
    if (typeof target === "number") t = new Array(s.length).fill(((target % this.n) + this.n) % this.n);
    else t = b.cellVector(target, "target");
    return s.map((v, i) => (((t[i] - v) % this.n) + this.n) % this.n);
  }

  /** A particular solution over the taps, or null. */
  _particular(rhs) {
    const n = this.n;
    const r = this.board.nTaps;
    const x = new Array(r).fill(0);
    for (const { p, k, q, U, V, vals, R } of this.parts) {
      const c = U.map((row) => row.reduce((acc, u, j) => (acc + u * rhs[j]) % q, 0));
      const y = new Array(r).fill(0);
      for (let t = 0; t < c.length; t++) {
        if (t < R) {
          const pv = p ** Math.min(vals[t], k);
          if (c[t] % pv) return null;
          y[t] = c[t] / pv;
        } else if (c[t]) {
          return null;
        }
      }
      const M = n / q;
      const lift = (M * egcdInv(M % q, q)) % n;
      for (let i = 0; i < r; i++) {
        const xi = V[i].reduce((acc, v, j) => (acc + v * y[j]) % q, 0);
        x[i] = (x[i] + xi * lift) % n;
      }
    }
    return x;
  }

  solvable(state, { target = 0 } = {}) {
    return this._particular(this._rhs(state, target)) !== null;
  }

  solve(state, { minimal = true, budget = 1e6, target = 0 } = {}) {
    const x0 = this._particular(this._rhs(state, target));
    if (x0 === null) throw new Unsolvable("no solution: the state is not in the image of A");
    const n = this.n;
    let best = x0;
    let bestLen = x0.reduce((a, v) => a + v, 0);
    let proven = this.kernelSize === 1n;
    if (minimal && !proven) {
      if (this.kernelSize > BigInt(budget)) {
        throw new InputError("reference solver: the kernel is larger than the budget",
          { code: "TOO_LARGE" });
      }
      const cur = [...x0];
      const counts = new Array(this.gens.length).fill(0);
      for (;;) {
        let i = 0;
        while (i < this.gens.length) {
          const { g, order } = this.gens[i];
          for (let j = 0; j < cur.length; j++) cur[j] = (cur[j] + g[j]) % n;
          counts[i]++;
          if (counts[i] < order) break;
          counts[i] = 0;
          i++;
        }
        if (i === this.gens.length) break;
        const len = cur.reduce((a, v) => a + v, 0);
        if (len < bestLen) {
          bestLen = len;
          best = [...cur];
        }
      }
      proven = true;
    }
    return { taps: this.board.fromTapVector(best), length: bestLen, provenMinimal: proven };
  }

  hint(state) {
    const sol = this.solve(state, { minimal: true });
    if (sol.length === 0) return null;
    const taps = this.board.taps;
    const x = this.board.tapVector(sol.taps);
    const j = x.findIndex((v) => v);
    return taps[j];
  }

  dispose() {}
}
