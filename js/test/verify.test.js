import { test } from "node:test";
import assert from "node:assert/strict";
import { verify, summary, FormatError } from "../src/verify.js";
import { InputError } from "../src/errors.js";
import { loadCore } from "../src/core.js";
import { assertPackageError } from "../test-helpers/wording.js";
import { golden } from "../test-helpers/golden.js";

await loadCore();

test("verify names init() when the core is not loaded (a platform without synchronous " +
  "loading: browsers; node loads it on first need)", async () => {
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `
    delete process.getBuiltinModule;                  // as in a browser: no synchronous load
    const { verify, summary } = await import(${JSON.stringify(new URL("../src/index.js",
    import.meta.url).href)});
    for (const f of [() => verify({}), () => summary({})]) {
      try { f(); console.log("no error"); } catch (e) { console.log(e.code, e.message); }
    }`], { encoding: "utf8" });
  const lines = out.trim().split("\n");
  assert.equal(lines.length, 2, out);
  for (const line of lines) {
    assert.match(line,
      /^CORE_NOT_LOADED verify: the WebAssembly core is not loaded yet: `await init\(\)`/);
  }
});

test("verify gives Python's verdict, summary and message for every golden certificate", () => {
  const cases = golden("verify.json").cases;
  assert.ok(cases.length >= 200);
  assert.ok(cases.filter((c) => c.ok).length >= 15);
  assert.ok(cases.some((c) => c.ok && c.summary.includes("mapped by symmetries")));
  assert.ok(cases.some((c) => c.ok && c.summary.includes("LP tree")));
  for (const c of cases) {
    if (c.ok) {
      assert.equal(verify(c.cert), true, c.name);
      assert.equal(summary(c.cert), c.summary, c.name);
    } else {
      assert.throws(() => verify(c.cert), (e) => {
        assert.ok(e instanceof InputError, `${c.name}: ${e && e.stack}`);
        assertPackageError(e, c.name);
        assert.ok(["INVALID_CERTIFICATE", "NOT_A_CERTIFICATE"].includes(e.code), e.code);
        assert.equal(e.message, c.message, c.name);
        return true;
      });
    }
  }
});

test("not a certificate: FormatError", () => {
  for (const bad of [null, 5, "x", [], { format: "modlights-certificate" }]) {
    assert.throws(() => verify(bad), FormatError);
  }
});

test("values JSON cannot hold: a malformed certificate (INVALID_CERTIFICATE)", () => {
  const cert = structuredClone(golden("verify.json").cases.find((c) => c.ok).cert);
  cert.length = 10n;
  assert.throws(() => verify(cert), (e) => e instanceof InputError &&
    e.code === "INVALID_CERTIFICATE" && e.message.startsWith("malformed certificate: TypeError"));
  assert.throws(() => verify(undefined), FormatError);
  assert.throws(() => verify(() => 1), FormatError);
});

test("a summary longer than the first buffer: a bound of two 2,100-digit halves", () => {
  const cert = structuredClone(golden("verify.json").cases.find((c) => c.name === "hardest 5x5 {}").cert);
  const D = 10n ** 2100n + 7n;                   // weights 1/4 +- 1/D: still sum to 1
  cert.upper_bound.weights = [`${D + 4n}/${4n * D}`, `${D - 4n}/${4n * D}`, "1/4", "1/4"];
  const text = summary(cert);
  assert.ok(text.length > 4096, String(text.length));
  assert.match(text, /^the hardest board needs exactly 15 taps .*\(floor 15\)\)$/);
});
