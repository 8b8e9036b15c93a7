/**
 * Helpers of the solver tests: the tap matrix of a board spec applied to tap counts
 * (the obvious way, independent of the core), and the fixture Python writes.
 */
import { readFileSync } from "node:fs";

/** The fixture: $MODLIGHTS_WASM_FIXTURE (written by tests/js/test_wasm_solver.py) or
 * the committed copy js/test/fixtures/wasm-solver.json. */
export function loadFixture() {
  const path = process.env.MODLIGHTS_WASM_FIXTURE
    || new URL("../test/fixtures/wasm-solver.json", import.meta.url);
  return JSON.parse(readFileSync(path, "utf8"));
}

/** state + A x (mod n) for a spec and tap counts shaped as the board (flat result). */
export function applyTaps(spec, state, taps) {
  const n = spec.states;
  if (spec.kind === "graph") {
    const out = Array.from(state, Number);
    taps.forEach((x, j) => { for (const c of spec.effects[j]) out[c] = (out[c] + x) % n; });
    return out;
  }
  const { rows, cols } = spec;
  const flat = (a) => (Array.isArray(a[0]) ? a.flat() : Array.from(a));
  const out = flat(state).map(Number);
  const x = flat(taps);
  const holes = spec.holes || [];
  const locked = spec.locked || [];
  for (let q = 0; q < rows * cols; q++) {
    if (!x[q]) continue;
    if (holes[q] || locked[q]) throw new Error(`a tap at a hole or locked tile ${q}`);
    const offs = spec.mixed ? spec.mixed[q] : spec.offsets;
    const qr = Math.floor(q / cols);
    const qc = q % cols;
    for (const [dr, dc] of offs) {
      let r = qr + dr;
      let c = qc + dc;
      if (spec.wrap) {
        r = ((r % rows) + rows) % rows;
        c = ((c % cols) + cols) % cols;
      } else if (r < 0 || r >= rows || c < 0 || c >= cols) continue;
      const t = r * cols + c;
      if (holes[t]) continue;
      out[t] = (out[t] + x[q]) % n;
    }
  }
  return out;
}
