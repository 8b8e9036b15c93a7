import { test } from "node:test";
import assert from "node:assert/strict";
import { SplitMix64, seedFrom, sha256 } from "../src/prng.js";
import { golden } from "../test-helpers/golden.js";

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

test("numbers and BigInts seed alike; SHA-256 test vectors", () => {
  assert.equal(seedFrom(1234567), seedFrom(1234567n));
  assert.equal(seedFrom(-1), (1n << 64n) - 1n);
  const hex = (b) => Buffer.from(b).toString("hex");
  assert.equal(hex(sha256(new Uint8Array())),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(hex(sha256(new TextEncoder().encode(
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
});
