/**
 * The words of the package's errors: the codes src/errors.js documents, and Python's
 * vocabulary, which no JavaScript message may use (Python's type names and literals,
 * tuples, NumPy's dtypes and its ragged-array text, keyword arguments).
 */
import assert from "node:assert/strict";

/** Every code an error of the package may carry (src/errors.js, index.d.ts). */
export const CODES = Object.freeze({
  ModlightsError: ["CORE_NOT_LOADED", "CORE_LOAD_FAILED", "NOT_IN_WORKER", "WORKER_FAILED"],
  InputError: ["INVALID_TYPE", "OUT_OF_RANGE", "INVALID_SHAPE", "INVALID_VALUE", "TOO_LARGE",
    "INVALID_PUZZLE_CODE", "IMPOSSIBLE", "SOLVER_DISPOSED", "INVALID_CERTIFICATE"],
  Unsolvable: ["UNSOLVABLE"],
  FormatError: ["NOT_A_CERTIFICATE"],
  Interrupted: ["INTERRUPTED"],
});

/** Python's words: a message holding one is not in JavaScript's words. */
export const PYTHON_WORDS = new RegExp([
  String.raw`\b(NoneType|None|True|False|dict|str|int|ints|bool|float|floats|list|lists of|tuple)\b`,
  String.raw`\b(dtype|ndarray|datetime|iterable|sequence)\b`, "inhomogeneous", "<U\\d",
  String.raw`\(\)`, String.raw`\(-?\d+,\)`, String.raw`\(-?\d+, -?\d+(, -?\d+)*\)`,
  String.raw`\((row, col|dr, dc)\)`, String.raw`\b\w+=(True|False|k)\b`,
].join("|"));

/** The Python word `message` uses, or null. */
export function pythonWord(message) {
  const m = PYTHON_WORDS.exec(message);
  return m ? m[0] : null;
}

/** Asserts that `e` is an error of the package's family with a documented code and a
 * message in JavaScript's words. */
export function assertPackageError(e, what = "") {
  assert.ok(e instanceof Error, `${what}: not an Error: ${e}`);
  const codes = CODES[e.name];
  assert.ok(codes, `${what}: ${e.name} is not one of the package's classes: ${e.stack}`);
  assert.ok(codes.includes(e.code), `${what}: ${e.name} with code ${e.code}: ${e.message}`);
  const word = pythonWord(e.message);
  assert.equal(word, null, `${what}: Python's word ${JSON.stringify(word)} in "${e.message}"`);
}
