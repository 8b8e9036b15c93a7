// Timings of the WebAssembly Solver in node (medians of several rounds), printed as one
// JSON object: the targets (5 x 5 GF(2) minimal solve in a batch of 10,000;
// 1000 x 1000 GF(2) cross and 200 x 200 Z/4 cross from a random start, Solver.create +
// solve) and the gzipped size of the .wasm. js/bench/bench.py runs it beside the same
// work in Python and writes bench/results/.
//   node js/bench/bench.mjs [--states FILE] [--rounds R]
// FILE (JSON, from bench.py): {"batch": [5 x 5 states], "big": {"1000x1000-2": flat
// start, ...}}; without it the starts are made here from a fixed seed.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadCore, WASM_URL } from "../src/core.js";
import { Solver } from "../src/solver.js";

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def; };
const rounds = Number(opt("--rounds", "5"));
const cross = [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]];

function lcg(seed) {
  let s = BigInt(seed);
  return () => { s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n); return Number(s >> 33n); };
}

function solvableStart(N, n, seed) {
  // a random start that is solvable: taps applied to the zero board
  const r = lcg(seed);
  const x = new Uint8Array(N * N);
  for (let i = 0; i < N * N; i++) x[i] = r() % n;
  const s = new Uint8Array(N * N);
  for (let q = 0; q < N * N; q++) {
    if (!x[q]) continue;
    const qr = Math.floor(q / N); const qc = q % N;
    for (const [dr, dc] of cross) {
      const rr = qr + dr; const cc = qc + dc;
      if (rr >= 0 && rr < N && cc >= 0 && cc < N) s[rr * N + cc] = (s[rr * N + cc] + x[q]) % n;
    }
  }
  return s;
}

const median = (a) => { const b = [...a].sort((p, q) => p - q); return b[Math.floor(b.length / 2)]; };

const file = opt("--states", null);
const given = file ? JSON.parse(readFileSync(file, "utf8")) : null;
await loadCore();
const out = { rounds, node: process.version };

// 5 x 5 GF(2) minimal, a batch of 10,000
const batch = given ? given.batch : Array.from({ length: 10000 }, (_, i) => {
  const s = solvableStart(5, 2, 1000 + i);
  return Array.from({ length: 5 }, (_, r) => Array.from(s.slice(r * 5, r * 5 + 5)));
});
const s5 = await Solver.create({ kind: "grid", rows: 5, cols: 5, states: 2, offsets: cross });
const per = [];
let check = 0;
for (let k = 0; k < rounds; k++) {
  const t0 = performance.now();
  let total = 0;
  for (const st of batch) total += s5.solve(st).length;
  per.push((performance.now() - t0) / batch.length);
  check = total;
}
s5.dispose();
out["5x5-gf2-minimal-ms-per-solve"] = median(per);
out["5x5-gf2-minimal-total-length"] = check;

for (const [N, n] of [[1000, 2], [200, 4]]) {
  const key = `${N}x${N}-${n}`;
  const start = given ? Uint8Array.from(given.big[key]) : solvableStart(N, n, 7);
  const times = [];
  let length = 0;
  let proven = false;
  for (let k = 0; k < rounds; k++) {
    const t0 = performance.now();
    const s = await Solver.create({ kind: "grid", rows: N, cols: N, states: n, offsets: cross });
    const sol = s.solve(start);
    times.push((performance.now() - t0) / 1000);
    length = sol.length;
    proven = sol.provenMinimal;
    s.dispose();
  }
  out[`${key}-cross-seconds`] = median(times);
  out[`${key}-cross-length`] = length;
  out[`${key}-cross-proven`] = proven;
}
const wasm = readFileSync(WASM_URL);
out["wasm-bytes"] = wasm.length;
out["wasm-gzip-bytes"] = gzipSync(wasm, { level: 9 }).length;
console.log(JSON.stringify(out));
