/**
 * The golden files that Python's test suite writes (tests/js/js_golden.py), read
 * once. Refresh them with `PYTHONPATH=src python tests/js/js_golden.py --write`.
 */
import { readFileSync } from "node:fs";

/** The parsed golden file `name` (e.g. "boards.json"). */
export function golden(name) {
  return JSON.parse(readFileSync(new URL(`../test/golden/${name}`, import.meta.url), "utf8"));
}
