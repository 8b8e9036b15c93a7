/**
 * daily(date): the day's three puzzles (easy, medium, hard), the same as Python's
 * modlights.daily(date) on every machine: SplitMix64 seeded from
 * "modlights-daily-v2:YYYY-MM-DD" hands each puzzle its generate seed.
 * @module daily
 */
import { badType, badValue, outOfRange } from "./errors.js";
import { SplitMix64 } from "./prng.js";
import { generate } from "./generate.js";
import { describe, quote } from "./fmt.js";

export const DAILY_SCHEME = "modlights-daily-v2";

const DAILY = [
  ["easy", 5, 5, 2, "cross", 2, 0],
  ["medium", 5, 5, 3, "cross", 3, 0],
  ["hard", 6, 6, 3, "cross", 2, 2],
];

const pad = (v, w) => String(v).padStart(w, "0");

function isLeap(y) {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/**
 * "YYYY-MM-DD" of a Date (its UTC day) or an ISO date string; InputError otherwise.
 * @param {Date|string} date
 * @returns {string}
 */
export function parseDate(date) {
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw badValue("date is an invalid Date");
    return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-` +
      pad(date.getUTCDate(), 2);
  }
  if (typeof date === "string") {
    const s = date.trim();
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (m) {
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
      let err = null;
      if (y < 1) err = `year ${y} is out of range`;
      else if (mo < 1 || mo > 12) err = "month must be in 1..12";
      else {
        const days = [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
        if (d < 1 || d > days) err = "day is out of range for month";
      }
      if (err) throw outOfRange(`bad date ${quote(date)}: ${err}`);
      return s;
    }
    throw badValue(`date must be an ISO date 'YYYY-MM-DD', got ${quote(date)}`);
  }
  throw badType("date must be a Date or an ISO date string 'YYYY-MM-DD', got " +
    describe(date));
}

/**
 * The day's three puzzles [easy, medium, hard]; `date` a Date (its UTC day), an ISO
 * string "YYYY-MM-DD", or null for today (UTC). Needs the solver core loaded.
 * @param {Date|string|null} [date]
 * @returns {import("./puzzle.js").Puzzle[]}
 */
export function daily(date = null) {
  const day = parseDate(date === null || date === undefined ? new Date() : date);
  const rng = new SplitMix64(`${DAILY_SCHEME}:${day}`);
  return DAILY.map(([difficulty, rows, cols, states, pattern, locked, holes]) =>
    generate({ rows, cols, states, pattern, difficulty, locked, holes, seed: rng.nextU64() }));
}
