/* modlights game: events: the route of each #/hash, and what every click, key, pointer
 * and resize does. */
import { state } from "./state.js";
import { KEY_SETTINGS, save, settings } from "./storage.js";
import { $, clearToast, toast } from "./page.js";
import { updateTiles, fitBoard, stopTimer, showPreview, clearPreview, currentTool } from "./board-view.js";
import { onTile, undo, reset, hint, showSolution } from "./play.js";
import {
  newPlayground, boardChanged, editTile, randomStart, shareCode, copyCode, loadCode,
} from "./playground.js";
import { showScreen, showPlay } from "./screens.js";
import { showCampaign, showDaily, generateCustom, openCode } from "./levels.js";

/** Show the screen of location.hash (home for an unknown one). A search in the
 * solver thread stops, the toast goes, and the timer of the try left pauses. */
export function route() {
  const h = location.hash || "#/";
  if (state.cancelWork) state.cancelWork();
  clearToast();
  if (state.cur) stopTimer();       // paused while away; showPlay resumes a started try
  if (h === "#/campaign") showCampaign();
  else if (h === "#/daily") showDaily();
  else if (h === "#/custom") showScreen("custom");
  else if (h === "#/guide") showScreen("guide");
  else if (h === "#/playground") {
    if (!state.pgSession) newPlayground();
    state.cur = state.pgSession;
    showPlay();
  } else if (h === "#/play") {
    state.cur = state.gameSession;
    showPlay();
  } else if (h.startsWith("#/code/")) {
    openCode(decodeURIComponent(h.slice(7)));
  } else showScreen("home");
  if (state.pendingToast && h !== "#/play") { toast(state.pendingToast); state.pendingToast = null; }
}

function tileIndex(ev) {
  const t = ev.target.closest(".tile");
  return t ? Number(t.dataset.index) : null;
}

function wireBoard() {
  const el = $("board");
  let lpTimer = null, suppressClick = false;
  el.addEventListener("click", (ev) => {
    const i = tileIndex(ev);
    if (i === null) return;
    if (suppressClick) { suppressClick = false; return; }
    setFocus(i, false);
    // in the playground, the editing tools edit the tile; the "play" tool taps it
    if (state.cur.mode === "playground" && currentTool() !== "play") editTile(i);
    else onTile(i);
  });
  el.addEventListener("contextmenu", (ev) => ev.preventDefault());
  el.addEventListener("pointerover", (ev) => {
    if (ev.pointerType === "mouse") { const i = tileIndex(ev); if (i !== null) showPreview(i); }
  });
  el.addEventListener("pointerleave", clearPreview);
  el.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType === "mouse") return;
    const i = tileIndex(ev);
    if (i === null) return;
    suppressClick = false;
    clearTimeout(lpTimer);
    lpTimer = setTimeout(() => { showPreview(i); suppressClick = true; }, 380);
  });
  const end = () => { clearTimeout(lpTimer); if (suppressClick) setTimeout(clearPreview, 600); };
  el.addEventListener("pointerup", end);
  el.addEventListener("pointercancel", () => { clearTimeout(lpTimer); suppressClick = false; clearPreview(); });
  el.addEventListener("keydown", (ev) => {
    const cur = state.cur, m = cur.model;
    let r = Math.floor(cur.focus / m.cols), c = cur.focus % m.cols;
    if (ev.key === "ArrowUp") r = Math.max(0, r - 1);
    else if (ev.key === "ArrowDown") r = Math.min(m.rows - 1, r + 1);
    else if (ev.key === "ArrowLeft") c = Math.max(0, c - 1);
    else if (ev.key === "ArrowRight") c = Math.min(m.cols - 1, c + 1);
    else if (ev.key === "Home") c = 0;
    else if (ev.key === "End") c = m.cols - 1;
    else return;
    ev.preventDefault();
    setFocus(r * m.cols + c, true);
  });
  el.addEventListener("focusout", (ev) => { if (!el.contains(ev.relatedTarget)) clearPreview(); });
}

/** Tile i becomes the board's one tab stop; `move` also focuses it and previews it. */
function setFocus(i, move) {
  const cur = state.cur;
  const tiles = $("board").children;
  if (tiles[cur.focus]) tiles[cur.focus].tabIndex = -1;
  cur.focus = i;
  tiles[i].tabIndex = 0;
  if (move) { tiles[i].focus(); showPreview(i); }
}

/** Attach every handler of the page (once, at start). */
export function wire() {
  wireBoard();
  $("undo").addEventListener("click", undo);
  $("reset").addEventListener("click", reset);
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", showSolution);
  $("show-numbers").checked = settings.numbers;
  $("show-numbers").addEventListener("change", () => {
    settings.numbers = $("show-numbers").checked;
    save(KEY_SETTINGS, settings);
    if (state.cur) updateTiles();
  });
  $("custom-form").addEventListener("submit", generateCustom);
  $("pg-new").addEventListener("click", () => {
    $("pg-error").textContent = "";
    try { newPlayground(); } catch (e) { $("pg-error").textContent = e.message; return; }
    boardChanged();
    showPlay();
  });
  $("pg-random").addEventListener("click", randomStart);
  $("share-code").addEventListener("click", shareCode);
  $("copy-code").addEventListener("click", copyCode);
  $("load-code").addEventListener("click", loadCode);
  $("code-input").addEventListener("keydown", (ev) => { if (ev.key === "Enter") loadCode(); });
  $("complete-retry").addEventListener("click", () => { $("complete").hidden = true; reset(); });
  $("complete-close").addEventListener("click", () => { $("complete").hidden = true; });
  $("complete-next").addEventListener("click", () => {
    $("complete").hidden = true;
    if (state.cur && state.cur.next) state.cur.next();
  });
  document.addEventListener("keydown", (ev) => {
    if (document.body.dataset.screen !== "play" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.matches("input, select, textarea")) return;
    if (ev.key === "Escape") $("complete").hidden = true;
    else if (!$("complete").hidden) return;
    else if (ev.key === "u" || ev.key === "U") undo();
    else if (ev.key === "h" || ev.key === "H") hint();
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (document.body.dataset.screen === "play") fitBoard(); }, 100);
  });
  window.addEventListener("hashchange", route);
}
