import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

test("the README's example runs", async () => {
  assert.ok(existsSync(new URL("../dist/modlights.wasm", import.meta.url)),
    "dist/modlights.wasm is missing (the README's example needs the WebAssembly core)");
  const text = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const m = /```js\n([\s\S]*?)```/.exec(text);
  assert.ok(m, "README has a js example");
  const entry = pathToFileURL(new URL("../src/index.js", import.meta.url).pathname).href;
  const code = m[1].replace(/from "modlights"/g, `from ${JSON.stringify(entry)}`) +
    "\nexport const done = true;\n";
  const dir = mkdtempSync(join(tmpdir(), "modlights-readme-"));
  try {
    const file = join(dir, "example.mjs");
    writeFileSync(file, code);
    const mod = await import(pathToFileURL(file).href);
    assert.equal(mod.done, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
