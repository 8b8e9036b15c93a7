/* modlights game: progress and settings in localStorage.
 *   modlights.bests     {key: {taps, stars, time}}  key "daily:DATE:i", "campaign:r-c-l",
 *                                                   "code:CODE"
 *   modlights.settings  {numbers: bool}
 * Unreadable or missing values read as the default; a refused write (private mode)
 * is ignored. */

export const KEY_BESTS = "modlights.bests";
export const KEY_SETTINGS = "modlights.settings";

/** The object stored under `key`, or `dflt` when there is none or it is not an object. */
export function load(key, dflt) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v && typeof v === "object" ? v : dflt;
  } catch (e) {
    return dflt;
  }
}

export function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
}

/** The player's settings (changed in place by the page, then saved). */
export const settings = Object.assign({ numbers: false }, load(KEY_SETTINGS, {}));

export function bestOf(key) { return key ? load(KEY_BESTS, {})[key] || null : null; }

/** Keep the better of the stored and the new result (more stars, then fewer taps). */
export function recordBest(key, taps, stars, time) {
  if (!key) return false;
  const all = load(KEY_BESTS, {});
  const old = all[key];
  if (old && (old.stars > stars || (old.stars === stars && old.taps <= taps))) return false;
  all[key] = { taps: taps, stars: stars, time: time };
  save(KEY_BESTS, all);
  return true;
}
