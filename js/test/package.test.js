import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { golden } from "../test-helpers/golden.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

test("package.json: name, Python's version, ES module, exports with types", () => {
  assert.equal(pkg.name, "modlights");
  assert.equal(pkg.version, golden("version.json").version);
  assert.equal(pkg.type, "module");
  assert.equal(pkg.exports["."].types, "./src/index.d.ts");
  assert.equal(pkg.exports["."].default, "./src/index.js");
  assert.ok(pkg.files.includes("dist/modlights.wasm"));
  assert.equal(pkg.scripts.test, "node --test test/");
});

test("dist/csrc.sha256 is named for what it is: the digest of the C sources", () => {
  // (its value is checked against csrc/ by solver.test.js)
  assert.ok(pkg.files.includes("dist/csrc.sha256"));
  assert.ok(existsSync(new URL("../dist/csrc.sha256", import.meta.url)));
  assert.ok(!existsSync(new URL("../dist/modlights.wasm.sha256", import.meta.url)),
    "a file named as the .wasm's digest that is not");
  assert.ok(!JSON.stringify(pkg).includes("modlights.wasm.sha256"));
});

test("node --test test/ runs the test files only: no helper counts as a test", () => {
  // every test is skipped by a name pattern that matches none; a file of test/ that
  // defines no test (a helper) would show up as a passing test of its own
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;                  // a runner of its own, not this one's child
  const out = execFileSync(process.execPath, ["--test", "--test-reporter=tap",
    "--test-name-pattern=^\\b$", "test/"], { cwd: ROOT, encoding: "utf8", env });
  const files = [...out.matchAll(/^# Subtest: (\/.*)$/gm)].map((m) => m[1]);
  assert.deepEqual(files, [], "files of test/ that hold no test");
  assert.match(out, /^# pass 0$/m);
  assert.match(out, /^# skipped [1-9]\d+$/m);
});

test("npm pack makes a tarball holding src/, the declarations, the README and the .wasm, no tests",
  (t) => {
    const dir = mkdtempSync(join(tmpdir(), "modlights-pack-"));
    try {
      let out;
      try {
        out = execFileSync("npm", ["pack", "--json", "--pack-destination", dir],
          { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      } catch (e) {
        if (e.code !== "ENOENT") throw e;
        t.skip("npm is not installed");
        return;
      }
      const info = JSON.parse(out)[0];
      assert.equal(info.name, "modlights");
      assert.ok(existsSync(join(dir, info.filename)), "no tarball was written");
      const files = info.files.map((f) => f.path);
      for (const f of ["package.json", "README.md", "src/index.js", "src/index.d.ts",
        "src/board.js", "src/puzzle.js", "src/generate.js", "src/daily.js", "src/prng.js",
        "src/errors.js", "src/patterns.js"]) {
        assert.ok(files.includes(f), `${f} missing from the tarball`);
      }
      if (existsSync(new URL("../dist/modlights.wasm", import.meta.url))) {
        assert.ok(files.includes("dist/modlights.wasm"));
      }
      assert.ok(!files.some((f) => f.startsWith("test/") || f.startsWith("node_modules/")));
      if (!files.includes("dist/modlights.wasm")) return;
      // the unpacked tarball works on its own, installed in a project's node_modules:
      // init() loads its .wasm, and daily gives Python's puzzles, from an ES module and
      // from CommonJS (`npm init -y` makes a CommonJS project)
      const project = join(dir, "project");
      mkdirSync(join(project, "node_modules"), { recursive: true });
      execFileSync("tar", ["-xzf", join(dir, info.filename), "-C", join(project, "node_modules")]);
      renameSync(join(project, "node_modules", "package"), join(project, "node_modules", "modlights"));
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project",
        version: "1.0.0", main: "index.js" }));
      const day = Object.keys(golden("puzzles.json").daily)[0];
      const want = golden("puzzles.json").daily[day].map((e) => e.code).join(" ");
      const use = `await m.init(); console.log(m.daily(${JSON.stringify(day)})
        .map((p) => p.code).join(" "));`;
      writeFileSync(join(project, "esm.mjs"), `import * as m from "modlights"; ${use}`);
      writeFileSync(join(project, "cjs.js"), `const m = require("modlights");
        (async () => { ${use} })();`);
      for (const file of ["esm.mjs", "cjs.js"]) {
        const codes = execFileSync(process.execPath, [file], { cwd: project, encoding: "utf8" });
        assert.equal(codes.trim(), want, file);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

test("the public entry exports every name of the API", async () => {
  assert.ok(existsSync(new URL("../src/solver.js", import.meta.url)), "src/solver.js is missing");
  assert.ok(existsSync(new URL("../dist/modlights.wasm", import.meta.url)),
    "dist/modlights.wasm is missing");
  const m = await import("../src/index.js");
  for (const name of ["Board", "Solver", "Solution", "Puzzle", "daily", "generate", "PATTERNS",
    "ValueError", "Unsolvable", "loadCore", "tapBands", "SplitMix64", "seedFrom", "verify",
    "FormatError", "ModlightsError", "InputError", "Interrupted", "init", "isLoaded",
    "SolverWorker", "runInWorker", "serveSolverRequests", "summary"]) {
    assert.ok(name in m, `${name} is not exported`);
  }
});

test("the TypeScript declarations type-check a use of every public name", (t) => {
  const tsc = new URL("../node_modules/typescript/bin/tsc", import.meta.url);
  if (!existsSync(tsc)) {
    t.skip("typescript is not installed: run `npm install` in js/ (a devDependency)");
    return;
  }
  execFileSync(process.execPath, [fileURLToPath(tsc), "--noEmit", "-p", "test/types"],
    { cwd: ROOT, encoding: "utf8" });
});
