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

test("the README and the declarations say that entries are reduced mod n, as the code does",
  async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const dts = readFileSync(new URL("../src/index.d.ts", import.meta.url), "utf8");
    assert.match(readme, /every integer is reduced mod `states` silently, as in Python/);
    assert.match(dts, /every\s+\* integer is reduced mod `states` silently, as in Python/);
    // what they say: with 3 states a 4 is 1 and a -1 is 2, in states, taps and targets
    const { Board, Solver } = await import("../src/index.js");
    const b = Board.grid(2, 2, { states: 3 });
    assert.deepEqual(b.press([[4, -1], [3, 5]], [0, 0], 0), [[1, 2], [0, 2]]);
    assert.deepEqual(b.apply([[0, 0], [0, 0]], [[4, 0], [0, 0]]),
      b.apply([[0, 0], [0, 0]], [[1, 0], [0, 0]]));
    const s = await Solver.create(b);
    const start = b.press([[0, 0], [0, 0]], [0, 0]);       // [[1, 1], [1, 0]]
    assert.deepEqual(s.solve([[4, -2], [7, 3]]).taps, s.solve(start).taps);
    assert.equal(s.solve([[1, 1], [1, 1]], { target: 4 }).length, 0);
    s.dispose();
  });
