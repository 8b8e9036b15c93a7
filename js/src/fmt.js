/**
 * JavaScript's words for values in error messages: `show` (a value as JavaScript source
 * text, as node's console prints it: strings in single quotes, arrays [1, 2], objects
 * { a: 1 }, null, undefined, true, 5n, NaN) and `describe` (what kind of value it is,
 * with the value: "null", "a string ('3')", "a number (2.5)", "an Array ([0, 1])",
 * "a Uint8Array", "an object ({ a: 1 })"). Texts are cut to 60 characters.
 * Internal: not part of the public API.
 * @module fmt
 */

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
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (typeof v === "string") return quote(v);
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "boolean" || typeof v === "symbol") return String(v);
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

/**
 * `v` as JavaScript source text (cut to 60 characters).
 * @param {*} v
 * @returns {string}
 */
export function show(v) {
  return cut(text(v, 0));
}

const article = (word) => (/^[aeiouAEIOU]/.test(word) ? "an" : "a");

/**
 * What `v` is, in JavaScript's words, with the value where it helps: "null",
 * "undefined", "a boolean (true)", "a number (2.5)", "a BigInt (5n)", "a string ('x')",
 * "an Array ([1, 2])", "a Uint8Array", "an object ({ a: 1 })", "a function", "a Date",
 * "a Map".
 * @param {*} v
 * @returns {string}
 */
export function describe(v) {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  switch (typeof v) {
    case "boolean": return `a boolean (${v})`;
    case "number": return `a number (${show(v)})`;
    case "bigint": return `a BigInt (${show(v)})`;
    case "string": return `a string (${show(v)})`;
    case "symbol": return "a symbol";
    case "function": return "a function";
    default: break;
  }
  if (Array.isArray(v)) return `an Array (${show(v)})`;
  if (ArrayBuffer.isView(v)) return `${article(v.constructor.name)} ${v.constructor.name}`;
  if (isPlain(v)) return `an object (${show(v)})`;
  const name = (v.constructor && v.constructor.name) || "Object";
  return `${article(name)} ${name}`;
}

/** "1 row", "2 rows": a count and its noun (`plural` default noun + "s"). */
export const count = (k, noun, plural = noun + "s") => `${k} ${k === 1 ? noun : plural}`;
