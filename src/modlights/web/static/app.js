/* modlights: the browser game. An ES module with no build step and no server behind
 * it: every tap, the star rule, hints, solutions, puzzle codes, the daily puzzles and
 * custom levels come from the modlights JavaScript package (./js/src/index.js: the
 * library's C core compiled to WebAssembly), the campaign's levels from campaign.json
 * (written from Python's Campaign by `modlights site`). Served as static files by
 * `modlights site DIR` and by `modlights serve`.
 *
 * Progress lives in localStorage:
 *   modlights.bests     {key: {taps, stars, time}}  key "daily:DATE:i", "campaign:r-c-l",
 *                                                   "code:CODE"
 *   modlights.settings  {numbers: bool}
 */
import { Board, Solver, Puzzle, daily, generate, PATTERNS } from "./js/src/index.js";

/** Loads the WebAssembly core (Solver.create loads it once per page), after which the
 * package's synchronous work (daily, generate, a Puzzle's fewest taps) can run. */
async function engineReady() {
  const s = await Solver.create(Board.grid(1, 1));
  s.dispose();
}

(function () {
  const $ = (id) => document.getElementById(id);
  const KEY_BESTS = "modlights.bests";
  const KEY_SETTINGS = "modlights.settings";
  // Colours of states 1..7 (state 0 is white), ordered so that few states are far apart.
  const PALETTE = ["#f5b301", "#3e8ef7", "#e5484d", "#30a46c", "#8e4ec6", "#12a5b0", "#f76bb5"];
  const DARK_TEXT = new Set(["#f5b301", "#12a5b0", "#30a46c", "#f76bb5"]);

  let campaignInfo = null;           // campaign.json
  const dailyCache = {};

  // ------------------------------------------------------------------ storage
  function load(key, dflt) {
    try {
      const v = JSON.parse(localStorage.getItem(key));
      return v && typeof v === "object" ? v : dflt;
    } catch (e) {
      return dflt;
    }
  }
  function save(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  const settings = Object.assign({ numbers: false }, load(KEY_SETTINGS, {}));

  function bestOf(key) { return key ? load(KEY_BESTS, {})[key] || null : null; }
  /** Keep the better of the stored and the new result (more stars, then fewer taps). */
  function recordBest(key, taps, stars, time) {
    if (!key) return false;
    const all = load(KEY_BESTS, {});
    const old = all[key];
    if (old && (old.stars > stars || (old.stars === stars && old.taps <= taps))) return false;
    all[key] = { taps: taps, stars: stars, time: time };
    save(KEY_BESTS, all);
    return true;
  }

  /* A message in the page's flow: in the visible screen's .toast-slot (below the play
   * controls), else at the top of main. It covers nothing, goes after 6 s, and is
   * cleared on every navigation (route), so it never stays over the next page. */
  let toastTimer = null;
  function toast(msg) {
    const t = $("toast");
    const screen = document.querySelector(".screen:not([hidden])");
    const slot = screen && screen.querySelector(".toast-slot");
    if (slot) slot.appendChild(t);
    else $("main").prepend(t);
    t.textContent = msg;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(clearToast, 6000);
  }
  function clearToast() {
    clearTimeout(toastTimer);
    $("toast").hidden = true;
    $("toast").textContent = "";
  }
  /* A message for the screen a navigation is about to show (route clears the old one). */
  let pendingToast = null;

  // ------------------------------------------------------------------ the engine
  /** Run `work` (engine calls): the page gets a turn of its event loop first (a click
   * is drawn before synchronous work holds the thread), and the spinner shows when the
   * work waits past 150 ms (the core still loading, a fetch). Returns work's result. */
  async function busy(work) {
    let shown = false;
    const spin = setTimeout(() => { shown = true; $("loading").hidden = false; }, 150);
    try {
      await new Promise((r) => setTimeout(r, 0));
      return await work();
    } finally {
      clearTimeout(spin);
      if (shown) $("loading").hidden = true;
    }
  }
  /** An error's message for the player (the package's ValueErrors carry Python's). */
  function why(e) { return e && e.message ? e.message : String(e); }

  /** The page's view of a package Puzzle: {puzzle, board, start, code, stars, min_taps,
   * proven, difficulty}; the values are awaited (a lazy one may be a promise). */
  async function record(p) {
    const rec = {
      puzzle: p, board: p.board, start: await p.start, code: await p.code,
      stars: await p.stars, min_taps: await p.minTaps, proven: await p.proven,
      difficulty: p.difficulty || null,
    };
    p.dispose();          // the figures are measured: free the puzzle's solver now
    return rec;
  }

  /** One Solver per board, made on first use (the package loads the WebAssembly core
   * once per page) and kept for the session's later hints and solutions. */
  async function solverOf(session) {
    if (!session.solver) session.solver = await Solver.create(session.model.b);
    return session.solver;
  }

  // ------------------------------------------------------------------ the board model
  const nameOf = (offsets) => {
    const key = JSON.stringify(offsets);
    for (const [name, o] of Object.entries(PATTERNS)) if (JSON.stringify(o) === key) return name;
    return null;
  };

  /** A grid board as the page draws it: geometry and masks read from the package's
   * Board `b`, every tap applied by `b.press` (the engine's tap rule, not a copy). */
  class Model {
    constructor(b) {
      this.b = b;
      this.board = b.toDict();
      [this.rows, this.cols] = b.shape;
      this.n = b.states;
      this.wrap = !!b.wrap;
      this.mixed = b.mixed !== null;
      this.locked = Uint8Array.from(b.locked.flat(), Number);
      this.holes = Uint8Array.from(b.holes.flat(), Number);
      this.effects = new Array(this.size);
    }
    get size() { return this.rows * this.cols; }
    /** The tile's pattern: a name, or null for custom offsets. */
    patternAt(i) {
      const p = this.board.pattern;
      const e = this.mixed ? p[Math.floor(i / this.cols)][i % this.cols] : p;
      return typeof e === "string" ? e : nameOf(e);
    }
    tappable(i) { return !this.locked[i] && !this.holes[i]; }
    /** [[cell, advance], ...]: the cells a tap at i changes (Board.press on zeros). */
    effect(i) {
      if (!this.effects[i]) {
        const after = this.b.press(this.nested(new Uint8Array(this.size)),
          [Math.floor(i / this.cols), i % this.cols]).flat();
        this.effects[i] = [];
        after.forEach((k, j) => { if (k) this.effects[i].push([j, k]); });
      }
      return this.effects[i];
    }
    /** state (flat, modified) after `times` taps at i, by the package's Board.press. */
    press(state, i, times) {
      const after = this.b.press(this.nested(state), [Math.floor(i / this.cols), i % this.cols], times);
      state.set(after.flat());
    }
    solved(state) {
      for (let i = 0; i < state.length; i++) if (state[i] && !this.holes[i]) return false;
      return true;
    }
    nested(state) {
      const out = [];
      for (let r = 0; r < this.rows; r++) out.push(Array.from(state.slice(r * this.cols, (r + 1) * this.cols)));
      return out;
    }
  }
  /** A board-shaped state as the flat Uint8Array the page keeps (reduced by the package). */
  function flatten(nested, model) {
    return Uint8Array.from(model.b.coerceState(nested).flat());
  }

  // ------------------------------------------------------------------ sessions
  /* A session is one board being played: the game's (campaign, daily, custom, code)
   * or the playground's (kept while the player visits other screens). */
  function newSession(mode, board, start, extra) {
    const model = new Model(board);
    const s = Object.assign({
      mode: mode, model: model, puzzle: null, key: null, title: "Puzzle", next: null,
      start: flatten(start, model), history: [], hinted: false, hintMarks: [], solution: null,
      t0: null, elapsed: 0, done: false, focus: 0, solver: null,
    }, extra || {});
    s.state = Uint8Array.from(s.start);
    return s;
  }
  /** Free a finished session's Solver (its factorisation lives in WebAssembly memory). */
  function dispose(session) {
    if (session && session.solver) { session.solver.dispose(); session.solver = null; }
  }
  let cur = null;        // the session on screen
  let gameSession = null;
  let pgSession = null;
  let timerId = null;

  function playPuzzle(p, mode, key, title, next) {
    clearToast();
    dispose(gameSession);
    gameSession = newSession(mode, p.board, p.start, { puzzle: p, key: key, title: title, next: next });
    cur = gameSession;
    if (location.hash !== "#/play") location.hash = "#/play";
    else showPlay();
  }

  // ------------------------------------------------------------------ drawing tiles
  function tileColour(k, n) {
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

  function buildBoard() {
    const m = cur.model, el = $("board");
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

  function fitBoard() {
    if (!cur) return;
    const m = cur.model, el = $("board");
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

  function updateTiles() {
    const m = cur.model, s = cur.state;
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

  /** "1 tap", "2 taps": a count and its noun, singular for exactly one. */
  function count(k, noun) { return k + " " + noun + (Number(k) === 1 ? "" : "s"); }

  function starText(k) { return "★".repeat(k) + "☆".repeat(3 - k); }

  function updateStats() {
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

  function elapsed() {
    return cur.elapsed + (cur.t0 === null ? 0 : (Date.now() - cur.t0) / 1000);
  }
  /** Whole seconds as m:ss (the timer and the solved dialog show the same text). */
  function clock(seconds) {
    const t = Math.floor(seconds);
    return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0");
  }
  function updateTimer() {
    $("timer").textContent = clock(elapsed());
  }
  function startTimer() {
    if (cur.t0 === null && !cur.done) cur.t0 = Date.now();
    if (!timerId) timerId = setInterval(updateTimer, 500);
  }
  function stopTimer() {
    if (cur && cur.t0 !== null) { cur.elapsed = elapsed(); cur.t0 = null; }
    clearInterval(timerId);
    timerId = null;
  }

  // ------------------------------------------------------------------ preview
  let previewed = null;
  function showPreview(i) {
    clearPreview();
    if (!cur || !cur.model.tappable(i)) return;
    if (cur.mode === "playground" && currentTool() !== "play") return;
    previewed = i;
    const tiles = $("board").children;
    tiles[i].classList.add("preview-source");
    for (const [j] of cur.model.effect(i)) tiles[j].classList.add("preview");
  }
  function clearPreview() {
    if (previewed === null) return;
    for (const t of $("board").querySelectorAll(".preview, .preview-source")) {
      t.classList.remove("preview", "preview-source");
    }
    previewed = null;
  }

  // ------------------------------------------------------------------ playing
  function tapAt(i) {
    say("");                        // the last message (solved, locked, hint) is stale
    cur.model.press(cur.state, i, 1);
    cur.history.push(i);
    cur.hintMarks = [];
    // a shown solution counts down as it is followed; any other tap makes it stale
    if (cur.solution && cur.solution[i]) cur.solution[i]--;
    else cur.solution = null;
    startTimer();
  }

  function onTile(i) {
    if (cur.mode === "playground" && currentTool() !== "play") { editTile(i); return; }
    if (cur.done) return;
    if (!cur.model.tappable(i)) {
      const t = $("board").children[i];
      t.classList.remove("shake");
      void t.offsetWidth;
      t.classList.add("shake");
      say(cur.model.holes[i] ? "That is a hole." : "Locked tiles cannot be tapped.");
      return;
    }
    tapAt(i);
    afterMove();
  }

  function afterMove() {
    updateTiles();
    if (previewed !== null) showPreview(previewed);
    if (cur.model.solved(cur.state) && cur.history.length > 0) finish();
  }

  /** The hidden live region's message for screen readers ("" clears it: a board
   * shown, a tap, an undo or a reset makes the last one stale). */
  function say(msg) { $("status").textContent = msg; }

  function undo() {
    if (!cur || cur.done || !cur.history.length) return;
    const i = cur.history.pop();
    cur.model.press(cur.state, i, cur.model.n - 1);
    cur.hintMarks = [];
    cur.solution = null;
    say("");
    updateTiles();
  }

  function reset() {
    if (!cur) return;
    cur.state = Uint8Array.from(cur.start);
    cur.history = [];
    cur.hintMarks = [];
    cur.solution = null;
    cur.hinted = false;             // a new try: the badge and the stars start afresh
    cur.done = false;
    cur.elapsed = 0;
    cur.t0 = null;
    say("");
    updateTiles();
  }

  /* Kernels up to this many elements are searched on the page's thread (milliseconds);
   * a hint on a larger one runs its minimal search in the solver thread, as "Show
   * solution" does, so the page never freezes and Cancel stops it. */
  const QUICK_KERNEL = 1n << 16n;

  /** The first tap of a board-shaped tap array in row-major order (the package's
   * Solution.firstMove), or null when there is none. */
  function firstTap(taps) {
    for (let r = 0; r < taps.length; r++)
      for (let c = 0; c < taps[r].length; c++) if (Number(taps[r][c]) !== 0) return [r, c];
    return null;
  }

  async function hint() {
    if (!cur || cur.done || cur.model.solved(cur.state)) return;
    const s = cur, before = s.state.join();
    let tap;
    try {
      const solver = await solverOf(s);
      if (solver.kernelSize > QUICK_KERNEL) {
        tap = firstTap((await solveOffThread(s.model.b, s.model.nested(s.state))).taps);
      } else {
        tap = await busy(() => solver.hint(s.model.nested(s.state)));
      }
    } catch (e) {
      if (s === cur) toast(why(e) === "cancelled" ? "Cancelled." : "No hint: " + why(e));
      return;
    }
    // a hint for a state the player has changed meanwhile is dropped
    if (s !== cur || s.done || !tap || s.state.join() !== before) return;
    const i = tap[0] * s.model.cols + tap[1];
    tapAt(i);
    s.hinted = true;
    s.hintMarks = s.model.effect(i).map((e) => e[0]);
    say("Hint: tapped row " + (tap[0] + 1) + ", column " + (tap[1] + 1) + ".");
    afterMove();
  }

  /* The playground's minimal solutions run in solve-worker.js (kept for the next one);
   * while one runs, the message line says so, counts the seconds and offers Cancel,
   * which terminates the worker. */
  let solveWorker = null;
  let cancelWork = null;            // while a search runs: stops it (route calls it too)
  function solveOffThread(board, state) {
    return new Promise((resolve, reject) => {
      if (!solveWorker) solveWorker = new Worker(new URL("solve-worker.js", import.meta.url), { type: "module" });
      const w = solveWorker, t0 = Date.now();
      const t = $("toast");
      const show = () => {
        toast("Searching for the fewest taps… " + Math.floor((Date.now() - t0) / 1000) + " s ");
        clearTimeout(toastTimer);
        const b = document.createElement("button");
        b.type = "button";
        b.id = "cancel-work";
        b.textContent = "Cancel";
        b.addEventListener("click", () => cancelWork());
        t.appendChild(b);
      };
      const tick = setInterval(show, 1000);
      const stop = () => {
        clearInterval(tick);
        w.onmessage = w.onerror = null;
        cancelWork = null;
        $("solve").disabled = false;
        clearToast();
      };
      cancelWork = () => { stop(); w.terminate(); solveWorker = null; reject(new Error("cancelled")); };
      $("solve").disabled = true;
      show();
      w.onmessage = (ev) => { stop(); if (ev.data.error) reject(new Error(ev.data.error)); else resolve(ev.data); };
      w.onerror = (ev) => { stop(); w.terminate(); solveWorker = null; reject(new Error(ev.message || "the solver thread failed")); };
      w.postMessage({ board: board.toDict(), state: state });
    });
  }

  async function showSolution() {
    const s = cur, model = s.model, before = s.state.join();
    // an answer for a board edited (or left) meanwhile is dropped
    const stale = () => s !== cur || s.model !== model || s.state.join() !== before ||
      document.body.dataset.screen !== "play";
    try {
      const sol = await solveOffThread(model.b, model.nested(s.state));
      if (stale()) return;
      s.solution = Uint8Array.from(Array.from(sol.taps).flat(), Number);
      updateTiles();
      toast(count(Number(sol.length), "tap") + (sol.provenMinimal ? " (proved fewest)" : "") +
        ": the numbers in the corners say how often to tap each tile.");
    } catch (e) {
      if (stale()) return;
      toast(why(e) === "cancelled" ? "Cancelled." : "No solution: " + why(e));
    }
  }

  function finish() {
    if (cur.mode === "playground") {
      say("Solved in " + count(cur.history.length, "tap") + ".");
      $("board").classList.add("flash");
      setTimeout(() => $("board").classList.remove("flash"), 700);
      return;
    }
    cur.done = true;
    stopTimer();
    const taps = cur.history.length;
    const stars = cur.hinted ? 0 : cur.puzzle.puzzle.starsFor(taps);
    const time = Math.floor(cur.elapsed);
    const improved = !cur.hinted && recordBest(cur.key, taps, stars, time);
    updateStats();
    $("complete-stars").textContent = starText(stars);
    $("complete-stars").dataset.stars = stars;
    $("complete").dataset.hinted = cur.hinted ? "true" : "false";
    let text = "Solved in " + count(taps, "tap") + " and " + clock(time) + ". The fewest possible is " + cur.puzzle.min_taps + ".";
    if (cur.hinted) text += " You used a hint, so this try earns no stars.";
    else if (improved) text += " New personal best!";
    $("complete-text").textContent = text;
    $("complete-next").hidden = !cur.next;
    $("complete").hidden = false;
    say("Solved in " + count(taps, "tap") + (cur.hinted ? " with a hint: no stars."
      : ", " + count(stars, "star") + "."));
    $("complete-next").hidden ? $("complete-retry").focus() : $("complete-next").focus();
  }

  // ------------------------------------------------------------------ playground
  function currentTool() {
    const el = document.querySelector("input[name=tool]:checked");
    return el ? el.value : "play";
  }
  function fillPatternSelect(sel, withMixed) {
    sel.innerHTML = "";
    for (const name of Object.keys(PATTERNS).concat(withMixed ? ["mixed"] : [])) {
      const o = document.createElement("option");
      o.value = name;
      o.textContent = name;
      sel.appendChild(o);
    }
    sel.value = "cross";
  }
  function randomMixed(rows, cols) {
    const names = Object.keys(PATTERNS);
    const out = [];
    for (let r = 0; r < rows; r++) {
      const row = [];
      for (let c = 0; c < cols; c++) row.push(names[Math.floor(Math.random() * names.length)]);
      out.push(row);
    }
    return out;
  }
  function intField(id, lo, hi) {
    const el = $(id), v = Number(el.value);
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new Error(el.closest("label").firstChild.textContent.trim() + " must be a whole number " + lo + ".." + hi);
    }
    return v;
  }

  /** An optional count: null when the field is empty (the generator decides: with a
   * unique solution asked for, as few locked tiles as make it unique). */
  function optionalIntField(id, lo, hi) {
    return $(id).value.trim() === "" ? null : intField(id, lo, hi);
  }

  /* The pattern of the last loaded code when it has no name (custom offsets, or a
   * mixed board's per-tile patterns): {pattern, mixed, rows, cols}, offered in the
   * playground's Pattern menu as its "loaded" entry; null when there is none. */
  let loadedPattern = null;

  /** Set the playground's menus (size, states, pattern, wrap) to those of model `m`,
   * so that they show the board on screen and New empty board makes one like it. */
  function showMenusOf(m) {
    $("pg-rows").value = m.rows;
    $("pg-cols").value = m.cols;
    $("pg-states").value = m.n;
    $("pg-wrap").checked = m.wrap;
    const sel = $("pg-pattern"), pattern = m.board.pattern;
    let extra = sel.querySelector("option[value=loaded]");
    if (typeof pattern === "string") {
      if (extra) extra.remove();
      loadedPattern = null;
      sel.value = pattern;
      return;
    }
    loadedPattern = { pattern: pattern, mixed: m.mixed, rows: m.rows, cols: m.cols };
    if (!extra) {             // short enough for the menu's width (the info line names it)
      extra = document.createElement("option");
      extra.value = "loaded";
      extra.textContent = "as loaded";
      sel.appendChild(extra);
    }
    sel.value = "loaded";
  }

  /** The pattern New empty board uses for a rows x cols board: the menu's name, a
   * random mix, or the loaded code's own pattern (a mixed one only at its own size). */
  function menuPattern(rows, cols) {
    const name = $("pg-pattern").value;
    if (name === "mixed") return randomMixed(rows, cols);
    if (name !== "loaded") return name;
    const lp = loadedPattern;
    if (lp.mixed && (lp.rows !== rows || lp.cols !== cols)) {
      throw new Error("The loaded mixed pattern is " + lp.rows + "×" + lp.cols +
        ": keep that size for it, or pick another pattern");
    }
    return lp.pattern;
  }

  function newPlayground() {
    const rows = intField("pg-rows", 1, 30), cols = intField("pg-cols", 1, 30);
    const n = intField("pg-states", 2, 255);
    const board = Board.grid(rows, cols, { states: n, wrap: $("pg-wrap").checked,
      pattern: menuPattern(rows, cols) });
    const zeros = Array.from({ length: rows }, () => new Array(cols).fill(0));
    dispose(pgSession);
    pgSession = newSession("playground", board, zeros, { title: "Playground" });
    cur = pgSession;
  }

  /** The playground's board was replaced or edited: a search for the old one stops
   * (its answer would be dropped), and its messages (a solution's note, "No
   * solution", the live region's "Solved") go. */
  function boardChanged() {
    if (cancelWork) cancelWork();
    clearToast();
    say("");
  }

  function boardWithMasks(m) {
    const locked = [], holes = [];
    for (let i = 0; i < m.size; i++) {
      const rc = [Math.floor(i / m.cols), i % m.cols];
      if (m.locked[i]) locked.push(rc);
      if (m.holes[i]) holes.push(rc);
    }
    return Object.assign({}, m.board, { locked: locked, holes: holes });
  }

  function editTile(i) {
    const m = cur.model;
    const tool = currentTool();
    if (tool === "state") {
      if (m.holes[i]) return;
      cur.state[i] = (cur.state[i] + 1) % m.n;
    } else if (tool === "lock") {
      m.locked[i] ^= 1;
      m.holes[i] = 0;
    } else if (tool === "hole") {
      m.holes[i] ^= 1;
      m.locked[i] = 0;
      cur.state[i] = 0;
    }
    if (tool !== "state") {
      const state = cur.state;
      cur.model = new Model(Board.fromDict(boardWithMasks(m)));
      cur.solver = null;
      cur.state = state;
    }
    cur.start = Uint8Array.from(cur.state);
    cur.history = [];
    cur.hintMarks = [];
    cur.solution = null;
    $("code-output").value = "";
    boardChanged();
    updateTiles();
  }

  function randomStart() {
    const m = cur.model;
    cur.state = new Uint8Array(m.size);
    for (let i = 0; i < m.size; i++) {
      if (m.tappable(i)) m.press(cur.state, i, Math.floor(Math.random() * m.n));
    }
    cur.start = Uint8Array.from(cur.state);
    cur.history = [];
    cur.hintMarks = [];
    cur.solution = null;
    $("code-output").value = "";
    boardChanged();
    updateTiles();
  }

  async function shareCode() {
    $("pg-error").textContent = "";
    try {
      const p = new Puzzle(cur.model.b, cur.model.nested(cur.state));
      $("code-output").value = await p.code;
      $("code-output").select();
    } catch (e) {
      $("pg-error").textContent = "Cannot make a code: " + why(e);
    }
  }

  async function copyCode() {
    const text = $("code-output").value;
    if (!text) return;
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {
      $("code-output").select();
      document.execCommand("copy");
    }
    toast("Code copied.");
  }

  async function loadCode() {
    $("pg-error").textContent = "";
    const code = $("code-input").value.trim();
    if (!code) { $("pg-error").textContent = "Paste a puzzle code first."; return; }
    let p;
    try {
      p = Puzzle.fromCode(code);
      dispose(pgSession);
      pgSession = newSession("playground", p.board, await p.start, { title: "Playground", puzzle: null });
    } catch (e) {
      $("pg-error").textContent = "Cannot load that code: " + why(e);
      return;
    }
    cur = pgSession;
    boardChanged();
    showMenusOf(cur.model);
    $("code-output").value = await p.code;
    showPlay();
    say("Loaded: " + describe(cur.model) + ".");
  }

  // ------------------------------------------------------------------ screens
  function showScreen(name) {
    for (const s of document.querySelectorAll(".screen")) s.hidden = s.dataset.screen !== name;
    for (const a of document.querySelectorAll(".nav a")) {
      a.classList.toggle("active", a.getAttribute("href") === "#/" + name ||
        (name === "play" && cur && cur.mode === "playground" && a.id === "nav-playground"));
    }
    $("complete").hidden = true;
    clearPreview();
    document.body.dataset.screen = name;
  }

  function describe(m) {
    const pat = m.mixed ? "mixed" : (typeof m.board.pattern === "string" ? m.board.pattern : "custom pattern");
    const nl = m.locked.reduce((a, b) => a + b, 0), nh = m.holes.reduce((a, b) => a + b, 0);
    return m.rows + "×" + m.cols + " · " + m.n + " states · " + pat + (m.wrap ? " · wrap" : "") +
      (nl ? " · " + nl + " locked" : "") + (nh ? " · " + count(nh, "hole") : "");
  }

  function showPlay() {
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
    if (pendingToast) { toast(pendingToast); pendingToast = null; }
    if (cur.t0 !== null || cur.elapsed) startTimer();
    else { clearInterval(timerId); timerId = null; }
  }

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
  async function showCampaign() {
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

  function todayUTC() { return new Date().toISOString().slice(0, 10); }

  async function dailyPuzzles(date) {
    if (!dailyCache[date]) {
      dailyCache[date] = await busy(async () => Promise.all((await daily(date)).map(record)));
    }
    return dailyCache[date];
  }

  async function showDaily() {
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

  async function generateCustom(ev) {
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
    pendingToast = note || null;
    playPuzzle(p, "custom", "code:" + p.code, "Custom level", generateCustom);
  }

  function route() {
    const h = location.hash || "#/";
    if (cancelWork) cancelWork();
    clearToast();
    if (cur) stopTimer();             // paused while away; showPlay resumes a started try
    if (h === "#/campaign") showCampaign();
    else if (h === "#/daily") showDaily();
    else if (h === "#/custom") showScreen("custom");
    else if (h === "#/guide") showScreen("guide");
    else if (h === "#/playground") {
      if (!pgSession) newPlayground();
      cur = pgSession;
      showPlay();
    } else if (h === "#/play") {
      cur = gameSession;
      showPlay();
    } else if (h.startsWith("#/code/")) {
      openCode(decodeURIComponent(h.slice(7)));
    } else showScreen("home");
    if (pendingToast && h !== "#/play") { toast(pendingToast); pendingToast = null; }
  }

  async function openCode(code) {
    let p;
    try { p = await busy(() => record(Puzzle.fromCode(code))); } catch (e) {
      pendingToast = "Cannot load that code: " + why(e);
      location.hash = "#/";
      return;
    }
    playPuzzle(p, "code", "code:" + p.code, "Shared puzzle", null);
  }

  // ------------------------------------------------------------------ events
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
      onTile(i);
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
      const m = cur.model;
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

  function setFocus(i, move) {
    const tiles = $("board").children;
    if (tiles[cur.focus]) tiles[cur.focus].tabIndex = -1;
    cur.focus = i;
    tiles[i].tabIndex = 0;
    if (move) { tiles[i].focus(); showPreview(i); }
  }

  function wire() {
    wireBoard();
    $("undo").addEventListener("click", undo);
    $("reset").addEventListener("click", reset);
    $("hint").addEventListener("click", hint);
    $("solve").addEventListener("click", showSolution);
    $("show-numbers").checked = settings.numbers;
    $("show-numbers").addEventListener("change", () => {
      settings.numbers = $("show-numbers").checked;
      save(KEY_SETTINGS, settings);
      if (cur) updateTiles();
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
      if (cur && cur.next) cur.next();
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

  /** The home screen's picture: a 5x5 board of 4 states mid-way through a cross tap. */
  function drawHeroArt() {
    const art = $("hero-art");
    const states = [0, 1, 2, 0, 3, 1, 0, 3, 2, 0, 2, 3, 1, 0, 1, 0, 2, 0, 3, 2, 1, 0, 1, 2, 0];
    for (const k of states) {
      const i = document.createElement("i");
      i.style.backgroundColor = tileColour(k, 4)[0];
      art.appendChild(i);
    }
  }

  async function start() {
    wire();
    try {
      await engineReady();
    } catch (e) {
      toast("The game engine did not load: " + why(e));
    }
    for (const sel of document.querySelectorAll(".pattern-select")) fillPatternSelect(sel, true);
    drawHeroArt();
    route();
    document.body.dataset.ready = "true";
  }

  // For the browser tests and the curious: read-only views of the game, and the page's
  // own tap rule on any board dict (checked against Board.press by the tests).
  window.modlights = {
    state: () => (cur ? cur.model.nested(cur.state) : null),
    session: () => cur && { mode: cur.mode, taps: cur.history.length, hinted: cur.hinted, done: cur.done },
    press: (board, state, r, c) => {
      const m = new Model(Board.fromDict(board)), s = flatten(state, m);
      m.press(s, r * m.cols + c, 1);
      return m.nested(s);
    },
    preview: (board, r, c) => new Model(Board.fromDict(board)).effect(r * board.cols + c)
      .map(([j]) => [Math.floor(j / board.cols), j % board.cols]),
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
