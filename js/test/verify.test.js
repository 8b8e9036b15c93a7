import { test } from "node:test";
import assert from "node:assert/strict";
import { verify, summary, FormatError } from "../src/verify.js";
import { InputError } from "../src/errors.js";
import { assertPackageError } from "../test-helpers/wording.js";
import { golden } from "../test-helpers/golden.js";

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
