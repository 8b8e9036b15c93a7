// Loading the package: `require` from a CommonJS project and `import` from an ES module
// both work (no top-level await anywhere); importing loads nothing, `init()` loads the
// WebAssembly core, and the synchronous calls that need it say so before. Each case
// runs in a fresh node process (the core is loaded once per process).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { golden } from "../test-helpers/golden.js";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const DAY = Object.keys(golden("puzzles.json").daily)[0];
const CODES = golden("puzzles.json").daily[DAY].map((e) => e.code).join(" ");

/** A project as `npm init -y` makes it (CommonJS), with the package installed in its
 * node_modules (a link to this checkout); runs each {file: source} there and returns
 * the stdout of each. */
function inProject(t, files) {
  const dir = mkdtempSync(join(tmpdir(), "modlights-load-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(PACKAGE, join(dir, "node_modules", "modlights"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "project", version: "1.0.0",
    main: "index.js", scripts: { test: "echo no test" }, license: "ISC" }));
  const out = {};
  for (const [name, source] of Object.entries(files)) {
    writeFileSync(join(dir, name), source);
    out[name] = execFileSync(process.execPath, [name], { cwd: dir, encoding: "utf8" }).trim();
  }
  return out;
}

test("require() from a CommonJS project works, and import from an ES module", (t) => {
  const use = `
    console.log(typeof m.Board.grid, m.isLoaded());
    m.init().then(() => console.log(m.isLoaded(), m.daily(${JSON.stringify(DAY)})
      .map((p) => p.code).join(" ")));`;
  const out = inProject(t, {
    "index.js": `const m = require("modlights");${use}`,
    "esm.mjs": `import * as m from "modlights";${use}`,
  });
  for (const name of ["index.js", "esm.mjs"]) {
    assert.equal(out[name], `function false\ntrue ${CODES}`, name);
  }
});

test("importing loads nothing; in node the first call that needs the core loads it " +
  "synchronously; without synchronous loading (browsers) those calls say so before init()", (t) => {
  const use = (preamble) => `
      ${preamble}
      const m = require("modlights");
      const codeOf = (f) => { try { f(); return "no error"; } catch (e) {
        return [e.name, e.code, e instanceof m.ModlightsError].join(" "); } };
      console.log(m.isLoaded());
      console.log(codeOf(() => m.Board.grid(3, 3)), m.isLoaded());
      console.log(codeOf(() => m.Solver.createSync(m.Board.grid(3, 3))));
      console.log(codeOf(() => m.generate({ seed: 1 })));
      console.log(codeOf(() => m.daily(${JSON.stringify(DAY)})));
      console.log(codeOf(() => m.Puzzle.fromCode(${JSON.stringify(CODES.split(" ")[0])}).minTaps));
      (async () => {
        const s = await m.Solver.create({ kind: "grid", rows: 3, cols: 3, states: 2,
          offsets: [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]] });  // loads it
        console.log(m.isLoaded(), s.nullity, m.Board.grid(3, 3).nTaps);
        console.log(m.generate({ seed: 1 }).code === m.generate({ seed: 1 }).code);
      })();`;
  const out = inProject(t, {
    "index.js": use(""),
    "browser.js": use("delete process.getBuiltinModule;   // no synchronous load, as in a browser"),
  });
  const notLoaded = "ModlightsError CORE_NOT_LOADED true";
  assert.deepEqual(out["index.js"].split("\n"),
    ["false", "no error true", "no error", "no error", "no error", "no error", "true 0 9", "true"]);
  assert.deepEqual(out["browser.js"].split("\n"), ["false", `${notLoaded} false`, notLoaded,
    notLoaded, notLoaded, notLoaded, "true 0 9", "true"]);
});

test("init() from a source that fails or is not the core: CORE_LOAD_FAILED with its cause; " +
  "a later init() loads",
  (t) => {
    const out = inProject(t, {
      "index.js": `
        const m = require("modlights");
        (async () => {
          // a path that is not there, bytes that are not WebAssembly, and an empty
          // module (it compiles and instantiates, but is not the core)
          const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
          for (const source of ["/nonexistent/modlights.wasm", new Uint8Array([1, 2, 3]),
            empty]) {
            try { await m.init(source); } catch (e) {
              console.log(e.name, e.code, e.cause instanceof Error, m.isLoaded());
            }
          }
          try { await m.init(42); } catch (e) { console.log(e.name, e.code, e.message); }
          await m.init();
          console.log(m.isLoaded());
        })();`,
    });
    assert.deepEqual(out["index.js"].split("\n"), [
      "ModlightsError CORE_LOAD_FAILED true false",
      "ModlightsError CORE_LOAD_FAILED true false",
      "ModlightsError CORE_LOAD_FAILED true false",
      "InputError INVALID_TYPE the core's source must be a URL, a path, bytes or a " +
        "WebAssembly.Module, got a number (42)",
      "true",
    ]);
  });

test("the core is the SIMD build where WebAssembly SIMD validates, else the baseline " +
  "build, with the same answers", () => {
  const wasmSize = (name) => execFileSync("wc", ["-c", fileURLToPath(new URL(`../dist/${name}`,
    import.meta.url))], { encoding: "utf8" }).trim().split(/\s+/)[0];
  const run = (noSimd) => execFileSync(process.execPath, ["--input-type=module", "-e", `
    let bytes = 0;                                    // the size of the module compiled
    const { Module, compile, validate } = WebAssembly;
    WebAssembly.Module = function (b) { bytes = b.byteLength; return new Module(b); };
    WebAssembly.compile = (b) => { bytes = b.byteLength; return compile(b); };
    if (${noSimd}) WebAssembly.validate = () => false;   // an engine without SIMD
    const m = await import(${JSON.stringify(new URL("../src/index.js", import.meta.url).href)});
    await m.init();
    const b = m.Board.grid(7, 9, { states: 3 });
    const s = m.Solver.createSync(b);
    const x = Array.from({ length: 7 }, (_, r) => Array.from({ length: 9 }, (_, c) => (r * c + r) % 3));
    const st = b.apply(Array.from({ length: 7 }, () => new Array(9).fill(0)), x);
    const sol = s.solve(st);
    console.log(m.coreVariant(), bytes, sol.length, sol.provenMinimal, JSON.stringify(sol.taps));`],
  { encoding: "utf8", env: { ...process.env, MODLIGHTS_WASM: "" } }).trim().split(" ");
  const simd = run(false);
  const base = run(true);
  assert.equal(simd[0], "simd128");
  assert.equal(simd[1], wasmSize("modlights.wasm"));
  assert.equal(base[0], "baseline");
  assert.equal(base[1], wasmSize("modlights-baseline.wasm"));
  assert.notEqual(simd[1], base[1]);
  assert.deepEqual(base.slice(2), simd.slice(2));
});
