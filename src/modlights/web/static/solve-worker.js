/* modlights: the game's solver thread. The playground's "Show solution" runs here, off
 * the page's thread, so a long minimal search neither freezes the page nor outlives a
 * Cancel (the page terminates this worker). A module worker on the package's public
 * entry, like the page; the handler is in place before the package (and its
 * WebAssembly core) has loaded, so no message is lost meanwhile.
 *
 * Message in:  {board: Board.toDict(), state: board-shaped ints}
 * Message out: {taps: board-shaped tap counts, length, provenMinimal}
 *              or {error: message, name: "Unsolvable" | "ValueError" | ...}
 */
const modlights = import("./js/src/index.js");

self.onmessage = async (ev) => {
  try {
    const { Board, Solver, init } = await modlights;
    await init();                      // the core first: a Board is the C library's
    const solver = await Solver.create(Board.fromDict(ev.data.board));
    try {
      const sol = solver.solve(ev.data.state, { minimal: true });
      self.postMessage({ taps: sol.taps, length: Number(sol.length),
        provenMinimal: Boolean(sol.provenMinimal) });
    } finally {
      solver.dispose();
    }
  } catch (e) {
    self.postMessage({ error: e && e.message ? e.message : String(e), name: e && e.name });
  }
};
