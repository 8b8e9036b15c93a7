/* modlights game: what the page says: element lookup, the toast, the live region for
 * screen readers, the wording of counts, stars, times and errors, and the reading of
 * number fields (with the message for a bad one). */
import { state } from "./state.js";

export const $ = (id) => document.getElementById(id);

/* A message in the page's flow: in the visible screen's .toast-slot (below the play
 * controls), else at the top of main. It covers nothing, goes after 6 s, and is
 * cleared on every navigation (route), so it never stays over the next page. */
export function toast(msg) {
  const t = $("toast");
  const screen = document.querySelector(".screen:not([hidden])");
  const slot = screen && screen.querySelector(".toast-slot");
  if (slot) slot.appendChild(t);
  else $("main").prepend(t);
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(state.toastTimer);
  state.toastTimer = setTimeout(clearToast, 6000);
}

export function clearToast() {
  clearTimeout(state.toastTimer);
  $("toast").hidden = true;
  $("toast").textContent = "";
}

/** The hidden live region's message for screen readers ("" clears it: a board
 * shown, a tap, an undo or a reset makes the last one stale). */
export function say(msg) { $("status").textContent = msg; }

/** An error's message for the player (the package's ValueErrors carry Python's). */
export function why(e) { return e && e.message ? e.message : String(e); }

/** "1 tap", "2 taps": a count and its noun, singular for exactly one. */
export function count(k, noun) { return k + " " + noun + (Number(k) === 1 ? "" : "s"); }

export function starText(k) { return "★".repeat(k) + "☆".repeat(3 - k); }

/** Whole seconds as m:ss (the timer and the solved dialog show the same text). */
export function clock(seconds) {
  const t = Math.floor(seconds);
  return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0");
}

/** The whole number in field `id`, lo..hi; an Error naming the field's label and the
 * range otherwise. */
export function intField(id, lo, hi) {
  const el = $(id), v = Number(el.value);
  if (!Number.isInteger(v) || v < lo || v > hi) {
    throw new Error(el.closest("label").firstChild.textContent.trim() + " must be a whole number " + lo + ".." + hi);
  }
  return v;
}

/** An optional count: null when the field is empty (the generator decides: with a
 * unique solution asked for, as few locked tiles as make it unique). */
export function optionalIntField(id, lo, hi) {
  return $(id).value.trim() === "" ? null : intField(id, lo, hi);
}
