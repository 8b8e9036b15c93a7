/**
 * Python-style text of JavaScript values, so that error messages equal Python's:
 * `repr` (strings quoted as Python quotes them, arrays as lists, true/false/null as
 * True/False/None, objects as dicts), `typeName` (Python's type name of the value a
 * JSON decoder would have made: int, float, str, bool, NoneType, list, dict) and
 * `short` (repr cut to 60 characters, as modlights.model.validation._short).
 * Internal: not part of the public API.
 * @module pyfmt
 */

/** Python's repr of a str. */
function strRepr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === q) out += "\\" + q;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + cp.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + q;
}

/** Python's repr of a float: the shortest round-trip digits (as JavaScript's), in
 * positional notation for exponents -4..15 and scientific ("1e-05", "1.5e+16")
 * otherwise; integral values keep ".0". */
function floatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, expText] = Math.abs(x).toExponential().split("e");
  const exp = Number(expText);
  const digits = mant.replace(".", "");
  const sign = x < 0 ? "-" : "";
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : `${Math.abs(exp)}`;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e}`;
  }
  let text;
  if (exp < 0) text = `0.${"0".repeat(-exp - 1)}${digits}`;
  else if (digits.length > exp + 1) text = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  else text = `${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  return sign + text;
}

/**
 * Python's repr of a JavaScript value.
 * @param {*} v
 * @returns {string}
 */
export function repr(v) {
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v).toString() : floatRepr(v);
  if (typeof v === "string") return strRepr(v);
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    return "[" + Array.from(v, repr).join(", ") + "]";
  }
  if (typeof v === "object") {
    return "{" + Object.entries(v).map(([k, x]) => strRepr(k) + ": " + repr(x)).join(", ") + "}";
  }
  return String(v);
}

/**
 * The Python type name of the value a JSON decoder makes from `v`.
 * @param {*} v
 * @returns {string}
 */
export function typeName(v) {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  if (ArrayBuffer.isView(v)) return "ndarray";
  if (typeof v === "function") return "function";
  return "dict";
}

/**
 * repr of `v` cut to 60 characters.
 * @param {*} v
 * @returns {string}
 */
export function short(v) {
  const text = repr(v).replace(/\n/g, " ");
  return text.length <= 60 ? text : text.slice(0, 57) + "...";
}

/** A Python tuple's text of a list of ints: "(1, 2)", "(3,)". */
export function tupleRepr(items) {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
}
