/**
 * daily(date): the day's three puzzles (easy, medium, hard), the same as Python's
 * modlights.daily(date) on every machine: the C library's ml_daily (SplitMix64 seeded
 * from "modlights-daily-v2:YYYY-MM-DD" hands each puzzle its generate seed), measured.
 * @module daily
 */
import { badType, badValue } from "./errors.js";
import { dailyPuzzles, dateParse } from "./capi.js";
import { puzzleOf } from "./puzzle.js";
import { describe, quote } from "./fmt.js";

export const DAILY_SCHEME = "modlights-daily-v2";

const pad = (v, w) => String(v).padStart(w, "0");

/**
 * "YYYY-MM-DD" of a Date (its UTC day) or an ISO date string (read by the C library's
 * ml_date_parse: Python's daily() rules and messages; `await init()` first); InputError
 * otherwise.
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
    if (date.includes("\0")) {
      throw badValue(`date must be an ISO date 'YYYY-MM-DD', got ${quote(date)}`);
    }
    const [y, mo, d] = dateParse(date);
    return `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`;
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
  const [y, m, d] = day.split("-").map(Number);
  return dailyPuzzles(y, m, d).map(puzzleOf);
}
