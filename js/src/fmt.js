/**
 * JavaScript's values in error messages (`show`: as node's console prints them; `describe`:
 * "null", "a string ('3')", "an Array ([0, 1])", "a Uint8Array", ...; cut to 60 characters)
 * and their checks the C library cannot see: integers (Number.isInteger, so 2.0 is 2, or a
 * BigInt; booleans are not), pairs and objects. Internal.
 * @module fmt
 */
import { badType, outOfRange } from "./errors.js";

const MAX = 60;

function cut(text) {
  const t = text.replace(/\n/g, " ");
  return t.length <= MAX ? t : t.slice(0, MAX - 3) + "...";
}

const ESCAPES = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
/** A string as a single-quoted literal (double quotes when it holds a ' and no "). */
export function quote(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  return q + s.replace(/[\\\n\r\t\x00-\x1f\x7f'"]/g, (ch) => ESCAPES[ch] ?? (ch === q ? `\\${q}`
    : ch === "'" || ch === '"' ? ch : `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`)) + q;
}

const isPlain = (v) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

function text(v, depth) {
  if (typeof v === "string") return quote(v);
  if (typeof v === "bigint") return `${v}n`;
  if (Object.is(v, -0)) return "-0";
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return String(v);
  if (typeof v === "function") return `[Function${v.name ? ": " + v.name : ""}]`;
  if (depth > 3) return Array.isArray(v) ? "[Array]" : "[Object]";
  if (Array.isArray(v)) return "[" + v.map((x) => text(x, depth + 1)).join(", ") + "]";
  if (ArrayBuffer.isView(v)) {
    const items = v.length === undefined ? [] : Array.from(v, (x) => text(x, depth + 1));
    return `${v.constructor.name}(${items.length}) [${items.join(", ")}]`;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "Invalid Date" : v.toISOString();
  const entries = Object.entries(v).map(([k, x]) =>
    `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k)}: ${text(x, depth + 1)}`);
  const body = entries.length ? `{ ${entries.join(", ")} }` : "{}";
  return isPlain(v) ? body : `${v.constructor?.name ?? "Object"} ${body}`;
}

/** `v` as JavaScript source text (cut to 60 characters). */
export const show = (v) => cut(text(v, 0));

const article = (word) => (/^[aeiouAEIOU]/.test(word) ? "an" : "a");

/** What `v` is, in JavaScript's words, with the value where it helps (the module's doc;
 * "a function", "a Date", "a Map"). */
export function describe(v) {
  if (v === null || v === undefined) return String(v);
  const kind = { boolean: "a boolean", number: "a number", bigint: "a BigInt",
    string: "a string" }[typeof v];
  if (kind) return `${kind} (${show(v)})`;
  if (typeof v === "symbol" || typeof v === "function") return `a ${typeof v}`;
  if (Array.isArray(v)) return `an Array (${show(v)})`;
  if (ArrayBuffer.isView(v)) return `${article(v.constructor.name)} ${v.constructor.name}`;
  if (isPlain(v)) return `an object (${show(v)})`;
  const name = (v.constructor && v.constructor.name) || "Object";
  return `${article(name)} ${name}`;
}

/** "1 row", "2 rows": a count and its noun (`plural` default noun + "s"). */
export const count = (k, noun, plural = noun + "s") => `${k} ${k === 1 ? noun : plural}`;

/** Largest number of tiles (or graph cells) of a board. */
export const MAX_TILES = 2 ** 27;
/** Largest side of a grid board. */
export const MAX_SIDE = 2 ** 20;

/** Whether `v` is an integer (a number with Number.isInteger, or a BigInt). */
export const isInt = (v) => (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";

/** Whether `d` is a plain object (a JSON object). */
export const isMapping = (d) => d !== null && typeof d === "object" && !Array.isArray(d) &&
  !ArrayBuffer.isView(d);

/** `d` when it is an object, else InputError (INVALID_TYPE) "`what` must be an object[,
 * `hint`], got ...". */
export function asMapping(d, what, hint = "") {
  if (!isMapping(d)) throw badType(`${what} must be an object${hint}, got ${describe(d)}`);
  return d;
}

/**
 * `v` as an integer in lo..hi (either may be null), a BigInt returned as a number; else
 * InputError: INVALID_TYPE "`what` must be an integer from lo to hi, got a string ('3')",
 * OUT_OF_RANGE "`what` must be from lo to hi, got 0". With `here` false the range is the
 * C library's check, made here only for a value no int32 holds (it returns `v` as is).
 */
export function asInt(v, what, lo = null, hi = null, here = true) {
  const range = lo === null ? (hi === null ? "" : `<= ${hi}`)
    : hi === null ? `>= ${lo}` : `from ${lo} to ${hi}`;
  if (!isInt(v)) throw badType(`${what} must be an integer${range && ` ${range}`}, got ${describe(v)}`);
  if (here ? (lo !== null && v < lo) || (hi !== null && v > hi)
    : lo !== null && hi !== null && !(v > -(2 ** 31) && v < 2 ** 31)) {
    throw outOfRange(`${what} must be ${range}, got ${here ? show(v) : v}`);
  }
  return here && typeof v === "bigint" ? Number(v) : v;
}

/** A pair of integers from a two-item array, else InputError (INVALID_TYPE)
 * "`what` must be `expected`, got ...". */
export function asIntPair(pair, what, expected = "a [row, col] pair of integers") {
  if (!isSeq(pair) || pair.length !== 2 || !Array.prototype.every.call(pair, isInt)) {
    throw badType(`${what} must be ${expected}, got ${show(pair)}`);
  }
  return [Number(pair[0]), Number(pair[1])];
}

/** Whether `x` is an Array or a typed array. */
export const isSeq = (x) => Array.isArray(x) || ArrayBuffer.isView(x);
