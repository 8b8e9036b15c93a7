/* modlights game: the screens: showing one (and marking its link in the nav), the play
 * screen for the session on screen, starting a puzzle of the game, and the home
 * screen's picture. */
import { state } from "./state.js";
import { $, toast, clearToast, say } from "./page.js";
import { describe, newSession, dispose } from "./model.js";
import { tileColour, buildBoard, startTimer, clearPreview } from "./board-view.js";

/** Show the screen whose data-screen is `name` (and hide the others). */
export function showScreen(name) {
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.dataset.screen !== name;
  for (const a of document.querySelectorAll(".nav a")) {
    a.classList.toggle("active", a.getAttribute("href") === "#/" + name ||
      (name === "play" && state.cur && state.cur.mode === "playground" && a.id === "nav-playground"));
  }
  $("complete").hidden = true;
  clearPreview();
  document.body.dataset.screen = name;
}

/** The play screen for the session on screen (home when there is none); its timer
 * runs on if the try had started. */
export function showPlay() {
  const cur = state.cur;
  if (!cur) { location.hash = "#/"; return; }
  showScreen("play");
  const pg = cur.mode === "playground";
  $("editor").hidden = !pg;
  $("solve").hidden = !pg;
  $("play-title").textContent = cur.title;
  $("play-info").textContent = describe(cur.model) +
    (cur.puzzle ? " · " + cur.puzzle.difficulty : "");
  say("");                        // a message of the board left (or replaced) is stale
  buildBoard();
  if (state.pendingToast) { toast(state.pendingToast); state.pendingToast = null; }
  if (cur.t0 !== null || cur.elapsed) startTimer();
  else { clearInterval(state.timerId); state.timerId = null; }
}

/** Play the game's puzzle `p` (engine.js record): a new game session, shown at #/play.
 * `key` names its best in storage, `next` is what the solved dialog's Next does. */
export function playPuzzle(p, mode, key, title, next) {
  clearToast();
  dispose(state.gameSession);
  state.gameSession = newSession(mode, p.board, p.start, { puzzle: p, key: key, title: title, next: next });
  state.cur = state.gameSession;
  if (location.hash !== "#/play") location.hash = "#/play";
  else showPlay();
}

/** The home screen's picture: a 5x5 board of 4 states mid-way through a cross tap. */
export function drawHeroArt() {
  const art = $("hero-art");
  const states = [0, 1, 2, 0, 3, 1, 0, 3, 2, 0, 2, 3, 1, 0, 1, 0, 2, 0, 3, 2, 1, 0, 1, 2, 0];
  for (const k of states) {
    const i = document.createElement("i");
    i.style.backgroundColor = tileColour(k, 4)[0];
    art.appendChild(i);
  }
}
