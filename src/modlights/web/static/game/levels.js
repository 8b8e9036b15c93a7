/* modlights game: where the game's puzzles come from: the campaign's map and levels
 * (campaign.json, written from Python's Campaign by `modlights site`), the daily
 * puzzles, custom levels and shared codes (made in the page by the package). */
import { Puzzle, daily, generate } from "../js/src/index.js";
import { state } from "./state.js";
import { KEY_BESTS, load, bestOf } from "./storage.js";
import { $, toast, why, count, starText, intField, optionalIntField } from "./page.js";
import { busy, record } from "./engine.js";
import { Model, randomMixed, describe } from "./model.js";
import { showScreen, playPuzzle } from "./screens.js";

let campaignInfo = null;           // campaign.json
const dailyCache = {};

// ------------------------------------------------------------------ campaign
function groupStars(r, c) {
  const all = load(KEY_BESTS, {});
  let total = 0;
  for (let l = 0; l < campaignInfo.levels_per_group; l++) {
    const b = all["campaign:" + r + "-" + c + "-" + l];
    if (b) total += b.stars;
  }
  return total;
}
function groupOpen(r, c) {
  if (r === 0 && c === 0) return true;
  const need = campaignInfo.stars_to_open, size = campaignInfo.map_size;
  for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
    const rr = r + dr, cc = c + dc;
    if (rr >= 0 && rr < size && cc >= 0 && cc < size && groupStars(rr, cc) >= need) return true;
  }
  return false;
}

let selectedGroup = [0, 0];
export async function showCampaign() {
  showScreen("campaign");
  if (!campaignInfo) {
    try {
      const res = await fetch("campaign.json");
      if (!res.ok) throw new Error("campaign.json: HTTP " + res.status);
      campaignInfo = await res.json();
    } catch (e) { toast("The campaign did not load: " + why(e)); return; }
  }
  const size = campaignInfo.map_size, map = $("campaign-map");
  $("campaign-need").textContent = campaignInfo.stars_to_open;
  map.style.setProperty("--map", size);
  map.innerHTML = "";
  let total = 0;
  const full = campaignInfo.levels_per_group * 3;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const open = groupOpen(r, c), stars = groupStars(r, c);
      total += stars;
      const b = document.createElement("button");
      b.type = "button";
      b.id = "group-" + r + "-" + c;
      b.className = "group" + (open ? " open" : " closed") +
        (stars >= campaignInfo.stars_to_open ? " cleared" : "");
      b.dataset.row = r;
      b.dataset.col = c;
      b.dataset.open = open;
      b.dataset.stars = stars;
      b.disabled = !open;
      b.innerHTML = '<span class="g-name">' + (r + 1) + "-" + (c + 1) + '</span><span class="g-stars">' +
        (open ? stars + "/" + full + " ★" : "locked") + '</span><span class="bar"><i style="width:' +
        Math.round(100 * stars / full) + '%"></i></span>';
      b.setAttribute("aria-label", "Group " + (r + 1) + "-" + (c + 1) + ", " +
        (open ? stars + " of " + count(full, "star") : "locked"));
      b.addEventListener("click", () => { selectedGroup = [r, c]; showLevels(); });
      map.appendChild(b);
    }
  }
  $("campaign-total").textContent = total;
  if (!groupOpen(selectedGroup[0], selectedGroup[1])) selectedGroup = [0, 0];
  showLevels();
}

function showLevels() {
  const [r, c] = selectedGroup, box = $("campaign-levels");
  for (const g of document.querySelectorAll(".group")) {
    g.classList.toggle("selected", +g.dataset.row === r && +g.dataset.col === c);
  }
  box.innerHTML = '<h3>Group ' + (r + 1) + "-" + (c + 1) + "</h3>";
  const list = document.createElement("div");
  list.className = "level-list";
  for (let l = 0; l < campaignInfo.levels_per_group; l++) {
    const best = bestOf("campaign:" + r + "-" + c + "-" + l);
    const b = document.createElement("button");
    b.type = "button";
    b.id = "level-" + l;
    b.className = "level";
    b.dataset.stars = best ? best.stars : 0;
    b.innerHTML = "<b>Level " + (l + 1) + "</b><span>" + starText(best ? best.stars : 0) + "</span>" +
      (best ? "<small>best " + count(best.taps, "tap") + "</small>" : "<small>not solved yet</small>");
    b.addEventListener("click", () => playLevel(r, c, l));
    list.appendChild(b);
  }
  box.appendChild(list);
}

async function playLevel(r, c, l) {
  let p;
  try { p = await record(Puzzle.fromDict(campaignInfo.levels[r][c][l])); } catch (e) { toast(why(e)); return; }
  const last = l + 1 >= campaignInfo.levels_per_group;
  playPuzzle(p, "campaign", "campaign:" + r + "-" + c + "-" + l,
    "Campaign " + (r + 1) + "-" + (c + 1) + " · level " + (l + 1),
    last ? () => { location.hash = "#/campaign"; } : () => playLevel(r, c, l + 1));
}

// ------------------------------------------------------------------ daily
function todayUTC() { return new Date().toISOString().slice(0, 10); }

async function dailyPuzzles(date) {
  if (!dailyCache[date]) {
    dailyCache[date] = await busy(async () => Promise.all((await daily(date)).map(record)));
  }
  return dailyCache[date];
}

export async function showDaily() {
  showScreen("daily");
  const date = todayUTC();
  $("daily-date").textContent = date;
  const list = $("daily-list");
  let ps;
  try { ps = await dailyPuzzles(date); } catch (e) { toast(why(e)); return; }
  list.innerHTML = "";
  ps.forEach((p, i) => {
    const best = bestOf("daily:" + date + ":" + i);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card";
    b.id = "daily-" + i;
    b.dataset.stars = best ? best.stars : 0;
    b.innerHTML = "<b>Puzzle " + (i + 1) + " · " + p.difficulty + "</b><span>" +
      describe(new Model(p.board)) + "</span><span class='stars-line'>" + starText(best ? best.stars : 0) +
      "</span><small>" + (best ? "Best: " + count(best.taps, "tap") : "Fewest possible: " + count(p.min_taps, "tap")) + "</small>";
    b.addEventListener("click", () => playDaily(date, i));
    list.appendChild(b);
  });
}

async function playDaily(date, i) {
  let ps;
  try { ps = await dailyPuzzles(date); } catch (e) { toast(why(e)); return; }
  playPuzzle(ps[i], "daily", "daily:" + date + ":" + i, "Daily " + date + " · puzzle " + (i + 1),
    i + 1 < ps.length ? () => playDaily(date, i + 1) : () => { location.hash = "#/daily"; });
}

// ------------------------------------------------------------------ custom levels and codes
/** The custom level form's submit: a puzzle generated in the page (without a unique
 * solution when none fits the settings, with a note saying so), then played. */
export async function generateCustom(ev) {
  if (ev) ev.preventDefault();
  $("custom-error").textContent = "";
  let body;
  try {
    const rows = intField("custom-rows", 1, 30), cols = intField("custom-cols", 1, 30);
    body = {
      rows: rows, cols: cols, states: intField("custom-states", 2, 255),
      difficulty: $("custom-difficulty").value,
      locked: optionalIntField("custom-locked", 0, 900), holes: intField("custom-holes", 0, 900) || null,   // none: 0 and null alike, but
      // null leaves the generator free to lock as few tiles as a unique solution needs
      wrap: $("custom-wrap").checked, unique: $("custom-unique").checked,
    };
    const name = $("custom-pattern").value;
    body.pattern = name === "mixed" ? randomMixed(rows, cols) : name;
    const seed = $("custom-seed").value.trim();
    if (seed) body.seed = !/^\d+$/.test(seed) ? seed : Number.isSafeInteger(Number(seed)) ? Number(seed) : BigInt(seed);
  } catch (e) {
    $("custom-error").textContent = e.message;
    return;
  }
  let p, note = "";
  try {
    p = await busy(async () => record(await generate(body)));
  } catch (e) {
    if (!body.unique) { $("custom-error").textContent = why(e); return; }
    // Unique solutions are preferred, not required: try again without.
    try {
      p = await busy(async () => record(await generate(Object.assign({}, body, { unique: false }))));
      note = "No board with a unique solution fits these settings; this one has several.";
    } catch (e2) {
      $("custom-error").textContent = why(e2);
      return;
    }
  }
  state.pendingToast = note || null;
  playPuzzle(p, "custom", "code:" + p.code, "Custom level", generateCustom);
}

/** Play the puzzle of a shared code (#/code/CODE); home with a message for a bad one. */
export async function openCode(code) {
  let p;
  try { p = await busy(() => record(Puzzle.fromCode(code))); } catch (e) {
    state.pendingToast = "Cannot load that code: " + why(e);
    location.hash = "#/";
    return;
  }
  playPuzzle(p, "code", "code:" + p.code, "Shared puzzle", null);
}
