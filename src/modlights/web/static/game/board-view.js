/* modlights game: drawing the session on screen (state.cur): the tiles, their colours
 * and the legend, the stats line and the timer, and the preview of what a tap
 * changes. */
import { state } from "./state.js";
import { settings, bestOf } from "./storage.js";
import { $, count, starText, clock } from "./page.js";

// Colours of states 1..7 (state 0 is white), ordered so that few states are far apart.
const PALETTE = ["#f5b301", "#3e8ef7", "#e5484d", "#30a46c", "#8e4ec6", "#12a5b0", "#f76bb5"];
const DARK_TEXT = new Set(["#f5b301", "#12a5b0", "#30a46c", "#f76bb5"]);

// ------------------------------------------------------------------ drawing tiles
/** [background, text colour] of state k of n. */
export function tileColour(k, n) {
  if (k === 0) return ["var(--s0)", "var(--s0-text)"];
  if (n <= 8) {
    const c = PALETTE[k - 1];
    return [c, DARK_TEXT.has(c) ? "#1b1e2b" : "#fff"];
  }
  // Many states: walk round the colour wheel, alternating light and dark shades.
  const hue = Math.round(45 + (k - 1) * 300 / (n - 1));
  const light = k % 2 ? 58 : 40;
  return ["hsl(" + hue + " 75% " + light + "%)", light > 50 ? "#1b1e2b" : "#fff"];
}
const GLYPH = { cross: "+", diagonal: "×", square: "■", horizontal: "–", vertical: "|", knight: "N" };

export function buildBoard() {
  const cur = state.cur, m = cur.model, el = $("board");
  el.innerHTML = "";
  el.style.setProperty("--cols", m.cols);
  el.style.setProperty("--rows", m.rows);
  el.setAttribute("aria-label", "Board, " + m.rows + " rows by " + m.cols + " columns, " +
    m.n + " states" + (m.wrap ? ", wrapping round the edges" : ""));
  el.dataset.rows = m.rows;
  el.dataset.cols = m.cols;
  el.dataset.states = m.n;
  const frag = document.createDocumentFragment();
  for (let i = 0; i < m.size; i++) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile";
    b.dataset.row = Math.floor(i / m.cols);
    b.dataset.col = i % m.cols;
    b.dataset.index = i;
    b.tabIndex = i === cur.focus ? 0 : -1;
    if (m.mixed) {
      const p = m.patternAt(i);
      b.dataset.glyph = p ? (GLYPH[p] || p[0]) : "•";
      b.title = p || "custom pattern";
    }
    frag.appendChild(b);
  }
  el.appendChild(frag);
  updateTiles();          // colours first: a layout read before them would animate them in
  fitBoard();
  el.parentElement.scrollLeft = 0;    // a wide board shows its first columns first
}

export function fitBoard() {
  if (!state.cur) return;
  const m = state.cur.model, el = $("board");
  const gap = Math.max(m.rows, m.cols) <= 8 ? 6 : Math.max(m.rows, m.cols) <= 14 ? 4 : 2;
  el.style.setProperty("--gap", gap + "px");
  // the tiles get the wrap's content width less the board's own padding and border
  const wrap = el.parentElement, ws = getComputedStyle(wrap), bs = getComputedStyle(el);
  const px = (v) => parseFloat(v) || 0;
  const frameW = px(bs.paddingLeft) + px(bs.paddingRight) + px(bs.borderLeftWidth) + px(bs.borderRightWidth);
  const frameH = px(bs.paddingTop) + px(bs.paddingBottom) + px(bs.borderTopWidth) + px(bs.borderBottomWidth);
  const inner = (wrap.clientWidth || window.innerWidth) - px(ws.paddingLeft) - px(ws.paddingRight);
  const avail = Math.min(inner, 900) - frameW;
  // the board fits the height left below it (the controls take about 110 px); a large
  // board below tall controls (the playground) may take 60% of the window and scroll
  const top = el.getBoundingClientRect().top + window.scrollY;
  const maxH = Math.max(240, window.innerHeight - top - 110,
    m.rows > 12 ? 0.6 * window.innerHeight : 0) - frameH;
  let size = Math.floor(Math.min(72, (avail - gap * (m.cols - 1)) / m.cols,
    (maxH - gap * (m.rows - 1)) / m.rows));
  size = Math.max(size, 14);
  el.style.setProperty("--tile", size + "px");
  el.classList.toggle("tiny", size < 26);
  // tiles stay at least 14 px (a finger's reach): a board wider than that scrolls
  // sideways in its frame, and a line below it says so
  $("board-scroll-note").hidden = wrap.scrollWidth <= wrap.clientWidth;
}

export function updateTiles() {
  const cur = state.cur, m = cur.model, s = cur.state;
  const numbers = settings.numbers || m.n > 8;
  const marks = new Set(cur.hintMarks);
  const tiles = $("board").children;
  for (let i = 0; i < m.size; i++) {
    const t = tiles[i];
    const r = Math.floor(i / m.cols) + 1, c = (i % m.cols) + 1;
    t.classList.toggle("hinted", marks.has(i));
    t.classList.toggle("locked", !!m.locked[i]);
    t.classList.toggle("hole", !!m.holes[i]);
    t.dataset.solution = cur.solution && cur.solution[i] ? cur.solution[i] : "";
    if (m.holes[i]) {
      t.dataset.state = "";
      t.textContent = "";
      t.style.backgroundColor = "";
      t.setAttribute("aria-label", "row " + r + ", column " + c + ", hole");
      t.setAttribute("aria-disabled", "true");
      continue;
    }
    const k = s[i];
    const [bg, fg] = tileColour(k, m.n);
    t.dataset.state = k;
    t.style.backgroundColor = bg;
    t.style.color = fg;
    t.textContent = numbers ? String(k) : "";
    t.setAttribute("aria-label", "row " + r + ", column " + c + ", state " + k + " of " + m.n +
      (m.locked[i] ? ", locked" : "") + (marks.has(i) ? ", changed by the hint" : ""));
    if (m.locked[i]) t.setAttribute("aria-disabled", "true");
    else t.removeAttribute("aria-disabled");
  }
  $("board").classList.toggle("numbers", numbers);
  drawLegend(m.n);
  updateStats();
}

function drawLegend(n) {
  const el = $("legend");
  if (el.dataset.n === String(n)) return;
  el.dataset.n = n;
  el.innerHTML = "";
  for (let k = 0; k < n; k++) {
    const [bg, fg] = tileColour(k, n);
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.backgroundColor = bg;
    sw.style.color = fg;
    sw.textContent = k;
    el.appendChild(sw);
  }
}

export function updateStats() {
  const cur = state.cur;
  const taps = cur.history.length;
  $("tap-count").textContent = taps;
  const p = cur.puzzle;
  const box = $("stars-box");
  box.hidden = !p;
  if (p) {
    const k = cur.hinted ? 0 : p.puzzle.starsFor(taps);
    $("stars").textContent = starText(k);
    $("stars").dataset.stars = k;
    $("stars-limits").textContent = "Fewest taps: " + p.min_taps + (p.proven ? " (proved)" : " (best found)") +
      " · ★★★ ≤ " + p.stars["3"] + " · ★★ ≤ " + p.stars["2"] + " · ★ ≤ " + count(p.stars["1"], "tap");
  } else {
    $("stars-limits").textContent = "";
  }
  const best = bestOf(cur.key);
  $("best").parentElement.hidden = !cur.key;
  $("best").textContent = best ? best.taps + " " + starText(best.stars) : "–";
  $("hinted-badge").hidden = !cur.hinted || cur.mode === "playground";
  $("undo").disabled = taps === 0;
  updateTimer();
}

// ------------------------------------------------------------------ the timer
function elapsed() {
  const cur = state.cur;
  return cur.elapsed + (cur.t0 === null ? 0 : (Date.now() - cur.t0) / 1000);
}
function updateTimer() {
  $("timer").textContent = clock(elapsed());
}
export function startTimer() {
  if (state.cur.t0 === null && !state.cur.done) state.cur.t0 = Date.now();
  if (!state.timerId) state.timerId = setInterval(updateTimer, 500);
}
export function stopTimer() {
  const cur = state.cur;
  if (cur && cur.t0 !== null) { cur.elapsed = elapsed(); cur.t0 = null; }
  clearInterval(state.timerId);
  state.timerId = null;
}

// ------------------------------------------------------------------ preview
/** What a click on a tile does: "play" (tap), or in the playground's editor "state",
 * "lock" or "hole". */
export function currentTool() {
  const el = document.querySelector("input[name=tool]:checked");
  return el ? el.value : "play";
}

/** Outline tile i and the tiles a tap on it would change (nothing for a tile that
 * cannot be tapped, or in the playground with an editing tool). */
export function showPreview(i) {
  clearPreview();
  const cur = state.cur;
  if (!cur || !cur.model.tappable(i)) return;
  if (cur.mode === "playground" && currentTool() !== "play") return;
  state.previewed = i;
  const tiles = $("board").children;
  tiles[i].classList.add("preview-source");
  for (const [j] of cur.model.effect(i)) tiles[j].classList.add("preview");
}
export function clearPreview() {
  if (state.previewed === null) return;
  for (const t of $("board").querySelectorAll(".preview, .preview-source")) {
    t.classList.remove("preview", "preview-source");
  }
  state.previewed = null;
}
