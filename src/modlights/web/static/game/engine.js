/* modlights game: the engine, the modlights JavaScript package (the library's C core
 * compiled to WebAssembly): loading it, running work with the spinner, a Puzzle's
 * figures, one Solver per session, and the solver thread (solve-worker.js) for the
 * minimal searches that could take long. */
import { Solver, init } from "../js/src/index.js";
import { state } from "./state.js";
import { $, toast, clearToast } from "./page.js";

/** Loads the WebAssembly core (once per page), after which the package's synchronous
 * work (the Board's taps, daily, generate, a Puzzle's fewest taps) can run: the page
 * shows a board only once it has loaded (app.js awaits this before its first route). */
export async function engineReady() {
  await init();
}

/** Run `work` (engine calls): the page gets a turn of its event loop first (a click
 * is drawn before synchronous work holds the thread), and the spinner shows when the
 * work waits past 150 ms (the core still loading, a fetch). Returns work's result. */
export async function busy(work) {
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

/** The page's view of a package Puzzle: {puzzle, board, start, code, stars, min_taps,
 * proven, difficulty}; the values are awaited (a lazy one may be a promise). */
export async function record(p) {
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
export async function solverOf(session) {
  if (!session.solver) session.solver = await Solver.create(session.model.b);
  return session.solver;
}

/* The playground's minimal solutions (and hints on large kernels) run in
 * solve-worker.js (kept in state.solveWorker for the next one); while one runs, the
 * message line says so, counts the seconds and offers Cancel, which terminates the
 * worker (state.cancelWork). Resolves with the worker's {taps, length, provenMinimal};
 * rejects with its error, or Error("cancelled"). */
export function solveOffThread(board, boardState) {
  return new Promise((resolve, reject) => {
    if (!state.solveWorker) state.solveWorker = new Worker(new URL("../solve-worker.js", import.meta.url), { type: "module" });
    const w = state.solveWorker, t0 = Date.now();
    const t = $("toast");
    const show = () => {
      toast("Searching for the fewest taps… " + Math.floor((Date.now() - t0) / 1000) + " s ");
      clearTimeout(state.toastTimer);
      const b = document.createElement("button");
      b.type = "button";
      b.id = "cancel-work";
      b.textContent = "Cancel";
      b.addEventListener("click", () => state.cancelWork());
      t.appendChild(b);
    };
    const tick = setInterval(show, 1000);
    const stop = () => {
      clearInterval(tick);
      w.onmessage = w.onerror = null;
      state.cancelWork = null;
      $("solve").disabled = false;
      clearToast();
    };
    state.cancelWork = () => { stop(); w.terminate(); state.solveWorker = null; reject(new Error("cancelled")); };
    $("solve").disabled = true;
    show();
    w.onmessage = (ev) => { stop(); if (ev.data.error) reject(new Error(ev.data.error)); else resolve(ev.data); };
    w.onerror = (ev) => { stop(); w.terminate(); state.solveWorker = null; reject(new Error(ev.message || "the solver thread failed")); };
    w.postMessage({ board: board.toDict(), state: boardState });
  });
}
