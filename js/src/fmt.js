/**
 * JavaScript's words for values in error messages: `show` (a value as JavaScript source
 * text, as node's console prints it: 'x', [1, 2], { a: 1 }, null, true, 5n, NaN) and
 * `describe` (what kind of value it is, with the value: "null", "a string ('3')", "a number
 * (2.5)", "an Array ([0, 1])", "a Uint8Array", "an object ({ a: 1 })"), cut to 60
 * characters. Internal: not part of the public API.
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
  const kind = { boolean: "a boolean", number: "a number", bigint: "a BigInt", string: "a string" }[typeof v];
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
