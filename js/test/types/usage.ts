// A typed use of every public name: `npx tsc --noEmit -p test/types` checks it
// against src/index.d.ts (nothing here runs).
import {
  Board, Solver, Solution, Puzzle, daily, generate, PATTERNS, ValueError, Unsolvable,
  loadCore, verify, summary, FormatError, tapBands, SplitMix64, seedFrom, Interrupted, type Difficulty, type Position,
  SolverWorker, runInWorker, type WorkerProgress, init, isLoaded, ModlightsError, InputError,
  type ErrorCode, serveSolverRequests,
} from "modlights";

async function main(): Promise<number> {
  await init();
  await loadCore();
  const loaded: boolean = isLoaded();
  const b: Board = Board.grid(5, 5, { states: 3, pattern: "cross", locked: [[0, 0]], holes: [],
    wrap: false });
  const g: Board = Board.fromEffects([[0, 1], [1]], 2);
  const s: Solver = await Solver.create(b);
  const k: bigint = s.kernelSize;
  const sol: Solution = s.solve([[1, 0, 0, 0, 0]], { minimal: true, budget: 1e6 });
  const proven: boolean = sol.provenMinimal;
  const moves: Position[] = sol.moves();
  const hint: Position | null = s.hint([[1, 0, 0, 0, 0]]);
  const p: Puzzle = Puzzle.fromCode(generate({ rows: 5, cols: 5, states: 3, difficulty: "hard",
    seed: 7 }).code);
  const d: Difficulty = p.difficulty;
  const [easy, medium, hard] = daily("2026-11-22");
  const offs = PATTERNS.cross;
  const r = new SplitMix64(seedFrom("x")).nextU64();
  try {
    Board.fromDict(b.toDict());
  } catch (e) {
    if (e instanceof FormatError || e instanceof Unsolvable || e instanceof ValueError || e instanceof Interrupted) return 1;
    if (e instanceof ModlightsError) {
      const code: ErrorCode = e.code;
      if (e instanceof InputError && code === "INVALID_SHAPE") return 2;
    }
  }
  const legacy: ValueError = new ValueError("still constructible");
  const input: InputError = legacy;
  void input;
  const w = new SolverWorker(b);
  const own = new SolverWorker(b, { workerUrl: new URL("file:///worker.mjs") });
  own.terminate();
  if (!loaded) await serveSolverRequests();
  const phases: string[] = [];
  const ws: Solution = await w.solve([[1, 0, 0, 0, 0]], {
    budget: 1000, onProgress: (q: WorkerProgress) => { phases.push(q.phase); } });
  const info = await w.info();
  w.cancel();
  w.terminate();
  const once: Solution = await runInWorker(b, [[1, 0, 0, 0, 0]], { signal: new AbortController().signal });
  void ws; void once; void info.kernelSize;
  p.dispose();
  s.dispose();
  const ok: true = verify({});
  const said: string = summary({});
  return offs.length + Number(k) + sol.length + (proven ? 1 : 0) + easy.minTaps + medium.stars[3] +
    hard.starsFor(3) + g.nTaps + moves.length + (hint === null ? 0 : 1) + tapBands(25, 2).easy[0] + d.length + said.length + (ok ? 1 : 0) + Number(r % 2n);
}
void main;
