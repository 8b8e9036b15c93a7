import { before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { SplitMix64, seedFrom } from "../src/prng.js";
import { init } from "../src/core.js";
import { golden } from "../test-helpers/golden.js";

before(async () => { await init(); });

test("SplitMix64 and seedFrom give Python's numbers", () => {
  const seeds = golden("prng.json").seeds;
  assert.ok(seeds.length >= 10);
  for (const e of seeds) {
    const seed = e.kind === "str" ? e.seed : BigInt(e.seed);
    assert.equal(seedFrom(seed).toString(), e.seed_from, e.seed);
    const r = new SplitMix64(seed);
    assert.deepEqual([0, 1, 2, 3].map(() => r.nextU64().toString()), e.u64);
    assert.deepEqual([1, 2, 3, 7, 10, 255, 1000, 2 ** 40 + 3].map((k) => r.randbelow(k)),
      e.randbelow);
    assert.deepEqual([0, 1, 2].map(() => r.random()), e.random);
    assert.deepEqual(r.sample(Array.from({ length: 20 }, (_, i) => i), 7), e.sample);
  }
});

test("numbers and BigInts seed alike; string and byte seeds are SHA-256's first 8 bytes", () => {
  assert.equal(seedFrom(1234567), seedFrom(1234567n));
  assert.equal(seedFrom(-1), (1n << 64n) - 1n);
  const first8 = (bytes) => createHash("sha256").update(bytes).digest().readBigUInt64BE(0);
  for (const text of ["", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "modlights-daily-v2:2026-11-22", "\u00e9t\u00e9 \u{1F600}", "x".repeat(1000)]) {
    const bytes = new TextEncoder().encode(text);
    assert.equal(seedFrom(text), first8(bytes), text);
    assert.equal(seedFrom(bytes), first8(bytes), text);
  }
});

test("SplitMix64's draws name init() when the core is not loaded (a platform without " +
  "synchronous loading: browsers; node loads it on first need)", async () => {
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `
    delete process.getBuiltinModule;                  // as in a browser: no synchronous load
    const { SplitMix64, seedFrom } = await import(${JSON.stringify(new URL("../src/index.js",
    import.meta.url).href)});
    const r = new SplitMix64(5n);                     // an integer seed needs no core
    for (const f of [() => r.nextU64(), () => seedFrom("day")]) {
      try { f(); console.log("no error"); } catch (e) { console.log(e.code, e.message); }
    }`], { encoding: "utf8" });
  const lines = out.trim().split("\n");
  assert.equal(lines.length, 2, out);
  for (const line of lines) {
    assert.match(line,
      /^CORE_NOT_LOADED .*: the WebAssembly core is not loaded yet: `await init\(\)`/);
  }
});
