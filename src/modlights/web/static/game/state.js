/* modlights game: the page's shared mutable state, one object that every module
 * imports (module bindings cannot be assigned from outside, an object's fields can).
 * State that one module alone uses stays in that module. */

export const state = {
  /** The session on screen (model.js newSession): gameSession or pgSession, or null. */
  cur: null,
  /** The game's session (campaign, daily, custom, code); kept while the player visits
   * other screens, replaced by the next puzzle (screens.js playPuzzle). */
  gameSession: null,
  /** The playground's session, kept while the player visits other screens. */
  pgSession: null,
  /** The interval that redraws the play timer every 500 ms, or null. */
  timerId: null,
  /** The timeout that hides the toast after 6 s, or null. */
  toastTimer: null,
  /** A message for the screen a navigation is about to show (route clears the old one). */
  pendingToast: null,
  /** The tile whose tap is previewed (outlined), or null. */
  previewed: null,
  /** The solver thread (solve-worker.js), made on first use and kept for the next one. */
  solveWorker: null,
  /** While a search runs in the solver thread: stops it (route calls it too), else null. */
  cancelWork: null,
};
