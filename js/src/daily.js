/**
 * daily(date): the day's three puzzles (easy, medium, hard), the same as Python's
 * modlights.daily(date) everywhere: the C library's ml_daily (SplitMix64 seeded from
 * "modlights-daily-v2:YYYY-MM-DD" hands each puzzle its generate seed), measured.
 * @module daily
 */
import { badType, badValue } from "./errors.js";
import { dailyPuzzles, dateParse } from "./capi.js";
import { puzzleOf } from "./puzzle.js";
import { describe, quote } from "./fmt.js";

export const DAILY_SCHEME = "modlights-daily-v2";

/** [year, month, day] of a Date (its UTC day) or an ISO date string (ml_date_parse:
 * Python's daily() rules and messages); InputError otherwise. */
function ymd(date) {
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw badValue("date is an invalid Date");
    return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
  }
  if (typeof date !== "string") {
    throw badType(`date must be a Date or an ISO date string 'YYYY-MM-DD', got ${describe(date)}`);
  }
  if (date.includes("\0")) throw badValue(`date must be an ISO date 'YYYY-MM-DD', got ${quote(date)}`);
  return dateParse(date);
}

/** "YYYY-MM-DD" of a Date (its UTC day) or an ISO date string (see ymd). */
export function parseDate(date) {
  const [y, m, d] = ymd(date);
  return [[y, 4], [m, 2], [d, 2]].map(([v, w]) => String(v).padStart(w, "0")).join("-");
}

/** The day's three puzzles [easy, medium, hard]; `date` a Date (its UTC day), an ISO
 * string "YYYY-MM-DD", or null for today (UTC). */
export function daily(date = null) {
  return dailyPuzzles(...ymd(date ?? new Date())).map(puzzleOf);
}
