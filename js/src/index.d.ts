// TypeScript declarations of the modlights package's public names (src/index.js).

/**
 * Tile values or tap counts: rows x cols nested Arrays of integers for grids (typed arrays
 * too, or one flat typed array of rows * cols values), a flat Array for graph boards.
 * Entries are integers (numbers or BigInts; true / false count as 1 / 0), and every
 * integer is reduced mod `states` silently, as in Python: with 3 states a 4 is 1 and a
 * -1 is 2. Anything else (a ragged row, a string, null, 1.5) throws an InputError naming
 * the row or entry.
 */
export type State = number[][] | number[] | Uint8Array | Uint8Array[] | Array<Array<number | bigint>>;
/** A position: [row, col] on a grid, a cell / tap index on a graph board. */
export type Position = [number, number] | number;
/** One tile's pattern: a name or [dr, dc] offsets. */
export type PatternSpec = string | Array<[number, number]>;
export type Difficulty = "easy" | "medium" | "hard" | "expert";

/** The stable codes of the package's errors (`error.code`); messages may be reworded. */
export type ErrorCode =
  // ModlightsError
  | "CORE_NOT_LOADED" | "CORE_LOAD_FAILED" | "NOT_IN_WORKER" | "WORKER_FAILED"
  // InputError
  | "INVALID_TYPE" | "OUT_OF_RANGE" | "INVALID_SHAPE" | "INVALID_VALUE" | "TOO_LARGE"
  | "INVALID_PUZZLE_CODE" | "IMPOSSIBLE" | "SOLVER_DISPOSED" | "INVALID_CERTIFICATE"
  // Unsolvable, FormatError, Interrupted
  | "UNSOLVABLE" | "NOT_A_CERTIFICATE" | "INTERRUPTED";

/** The base of every error the package throws on purpose; `code` says which. */
export class ModlightsError extends Error {
  constructor(message: string, options?: { code?: ErrorCode | string; cause?: unknown });
  readonly code: ErrorCode;
  name: string;
}
/** Bad input: the message says what was wrong and what is allowed, in JavaScript's words;
 * `code` says which check failed (INVALID_TYPE, OUT_OF_RANGE, INVALID_SHAPE, ...). */
export class InputError extends ModlightsError {
  constructor(message: string, options?: { code?: ErrorCode | string; cause?: unknown });
}
/** No tap counts bring the state to the target (code UNSOLVABLE). */
export class Unsolvable extends InputError {
  constructor(message: string, options?: { cause?: unknown });
}
/** Long work stopped by cancel() or an AbortSignal (code INTERRUPTED). */
export class Interrupted extends ModlightsError {
  constructor(message?: string, options?: { cause?: unknown });
}
/** @deprecated The name bad input was thrown under in earlier releases: an alias of
 * InputError (`e instanceof ValueError` holds for every InputError). Use InputError. */
export const ValueError: typeof InputError;
/** @deprecated Use InputError. */
export type ValueError = InputError;

/** The named patterns: cross, diagonal, square, horizontal, vertical, knight. */
export const PATTERNS: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>>;

export interface GridOptions {
  states?: number;
  pattern?: PatternSpec | PatternSpec[][];
  locked?: Array<[number, number]> | boolean[][] | null;
  holes?: Array<[number, number]> | boolean[][] | null;
  wrap?: boolean;
}

/** Python's Board.to_dict: a grid or a graph board as JSON. */
export type BoardDict =
  | { rows: number; cols: number; states: number; pattern: string | number[][] | any[][];
      locked: number[][]; holes: number[][]; wrap: boolean }
  | { effects: number[][]; states: number; n_cells: number };

export type GridSpec = {
  kind: "grid"; rows: number; cols: number; states: number; wrap: boolean;
  offsets: Array<[number, number]> | null; mixed: Array<Array<[number, number]>> | null;
  locked: Uint8Array; holes: Uint8Array;
};
export type GraphSpec = { kind: "graph"; states: number; nCells: number; effects: number[][] };

export class Board {
  private constructor(token: never);
  static grid(rows: number, cols: number, opts?: GridOptions): Board;
  static fromEffects(effects: number[][], states: number, nCells?: number | null): Board;
  static fromDict(d: object, opts?: { maxTiles?: number | null }): Board;
  toDict(): BoardDict;
  readonly states: number;
  readonly shape: number[];
  readonly isGrid: boolean;
  readonly wrap: boolean;
  readonly pattern: ReadonlyArray<readonly [number, number]> | null;
  readonly mixed: Array<Array<ReadonlyArray<readonly [number, number]>>> | null;
  readonly effects: number[][] | null;
  readonly nCells: number;
  readonly nTaps: number;
  readonly anyLocked: boolean;
  readonly anyHoles: boolean;
  readonly locked: boolean[][] | null;
  readonly holes: boolean[][] | null;
  readonly cells: Position[];
  readonly taps: Position[];
  offsetsAt(r: number, c: number): ReadonlyArray<readonly [number, number]>;
  spec(): GridSpec | GraphSpec;
  column(j: number): ReadonlyArray<number>;
  matrix(): number[][];
  tapIndex(pos: Position): number;
  cellIndex(pos: Position): number;
  /** The state after tapping `pos` `times` times (default 1; any integer, negative too,
   * reduced mod states); the state's entries are reduced mod states (see State). */
  press(state: State, pos: Position, times?: number): number[][] | number[];
  /** state + A taps, mod states; both reduced mod states first (see State). */
  apply(state: State, taps: State): number[][] | number[];
  applyVector(x: ArrayLike<number>): number[];
  coerceState(state: State, what?: string): number[][] | number[];
  cellVector(state: State, what?: string): number[];
  fromCellVector(v: ArrayLike<number>): number[][] | number[];
  tapVector(taps: State): number[];
  fromTapVector(x: ArrayLike<number>): number[][] | number[];
  equals(other: unknown): boolean;
}

/** A solution: tap counts shaped as a state, their sum, and whether it is proved minimal. */
export class Solution {
  readonly taps: number[][] | number[];
  readonly length: number;
  readonly provenMinimal: boolean;
  readonly kernelSize: bigint;
  /** coset elements the minimal search examined */
  readonly examined: number;
  /** coset elements it skipped by its bound */
  readonly pruned: number;
  /** positions to tap, each repeated by its count, row-major */
  moves(): Position[];
  /** Python's Solution.to_dict */
  toDict(): { taps: number[][] | number[]; length: number; proven_minimal: boolean;
    moves: Position[]; kernel_size: number | string };
}

export interface SolveOptions {
  minimal?: boolean;
  /** coset elements the minimal search may examine (default: `Solver.defaultBudget`) */
  budget?: number;
  /** default 0; an integer or a State, reduced mod states */
  target?: number | State;
}

/** The WebAssembly solver of one board (holds WebAssembly memory until dispose()). */
export class Solver {
  private constructor(core: never, spec: never);
  /** Loads the core first when needed. */
  static create(board: Board | GridSpec | GraphSpec): Promise<Solver>;
  /** After `await init()`; before, a ModlightsError with code CORE_NOT_LOADED. */
  static createSync(board: Board | GridSpec | GraphSpec): Solver;
  readonly states: number;
  /** The C library's plan (Python's Solver.plan as JSON) */
  readonly plan: { engine: string; family: string; variant: string | null; reason: string;
    rejected: Record<string, string>; [key: string]: unknown };
  readonly nullity: number;
  readonly rank: number;
  readonly kernelSize: bigint;
  readonly isUnique: boolean;
  /** The default budget (coset elements): a coset within it is searched whole, as
   * Python's default does; Python searches a larger one for a second (a deadline) */
  readonly defaultBudget: number;
  solvable(state: State, opts?: { target?: number | State }): boolean;
  solve(state: State, opts?: SolveOptions): Solution;
  /** The next tap of a minimal plan, or null when the state is solved. */
  hint(state: State, opts?: { budget?: number; target?: number | State }): Position | null;
  dispose(): void;
}

/** Progress of work in a SolverWorker. */
export interface WorkerProgress {
  phase: "factor" | "search" | "working" | "done";
  elapsedMs: number;
  /** |ker A| as a decimal string (phase "search") */
  total?: string;
}

/** A Solver in a Web Worker (browsers) or worker_threads (node): progress and cancel. */
export class SolverWorker {
  /** `workerUrl`: the worker's script (default: the package's src/solver-worker.js); a
   * script of your own (a bundler's entry) must call `serveSolverRequests()`. */
  constructor(board: Board | GridSpec | GraphSpec, options?: { workerUrl?: string | URL });
  /** Rejects with Unsolvable, InputError, or Interrupted after cancel(). */
  solve(state: State, opts?: SolveOptions & { onProgress?: (p: WorkerProgress) => void }):
    Promise<Solution>;
  info(opts?: { onProgress?: (p: WorkerProgress) => void }):
    Promise<{ rank: number; nullity: number; kernelSize: bigint }>;
  /** Stop the pending work: its promise rejects with Interrupted. */
  cancel(): void;
  /** End the worker (pending calls reject with Interrupted). */
  terminate(): void;
}

/**
 * Serves SolverWorker's requests in this worker (Web Worker: `self`; worker_threads: its
 * parentPort): the explicit call of a worker script. Importing the package never installs
 * a message handler. On the main thread it rejects (code NOT_IN_WORKER).
 */
export function serveSolverRequests(port?: unknown): Promise<void>;

/** One solve in a fresh worker, ended afterwards; `signal` aborting cancels it. */
export function runInWorker(board: Board | GridSpec | GraphSpec, state: State,
  opts?: SolveOptions & { onProgress?: (p: WorkerProgress) => void; signal?: AbortSignal }):
  Promise<Solution>;

/** The instantiated WebAssembly core. */
export interface Core {
  exports: any;
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
}
/**
 * Loads the WebAssembly core (once; later calls wait for the same load). Importing the
 * package loads nothing. In browsers call it before a Board (Board.grid, fromEffects,
 * fromDict and its plays), Solver.createSync, generate, daily, puzzle codes
 * (Puzzle#code, Puzzle.fromCode, Puzzle.fromDict), a Puzzle's minTaps /
 * proven / stars / difficulty / bands / toDict, tapBands, difficultyOf, starsLimits,
 * starsForTaps, SplitMix64's draws and seedFrom of a string or bytes (Solver.create and
 * SolverWorker load it themselves; before, those throw a ModlightsError with code
 * CORE_NOT_LOADED that names what needed the core); in node the first of those calls
 * loads it synchronously. `source` defaults to ../dist/modlights.wasm next to the package's
 * modules. Rejects with a ModlightsError, code CORE_LOAD_FAILED (its `cause` says why).
 */
export function init(
  source?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module): Promise<void>;
/** Whether the core is loaded. */
export function isLoaded(): boolean;
/** The build of the core this engine loads: "simd128" (WebAssembly SIMD) or "baseline". */
export function coreVariant(): "simd128" | "baseline";
/** As init(), resolving to the instantiated core. */
export function loadCore(
  source?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module): Promise<Core>;

export interface Stars { 3: number; 2: number; 1: number }
export type Bands = Record<Difficulty, [number, number]>;

export interface PuzzleDict {
  board: BoardDict; start: number[][]; code: string;
  stars: { "3": number; "2": number; "1": number };
  min_taps: number; proven: boolean; difficulty: Difficulty;
}

/** A grid board and a start state to bring to all zeros. */
export class Puzzle {
  constructor(board: Board, start: State);
  /** The puzzle of a code (the C library's decoder, Python's checks and messages): after
   * `await init()`; before, a ModlightsError with code CORE_NOT_LOADED. */
  static fromCode(code: string): Puzzle;
  /** Python's Puzzle.from_dict (the C library's reader, its checks and messages): after
   * `await init()` in browsers (node loads the core on first need). */
  static fromDict(d: object, opts?: { maxTiles?: number | null }): Puzzle;
  readonly board: Board;
  readonly start: ReadonlyArray<ReadonlyArray<number>>;
  /** Python's code, byte for byte (the C library's encoder): after `await init()`. */
  readonly code: string;
  readonly solver: Solver;
  /** Free the solver's WebAssembly memory; the measured figures stay. */
  dispose(): void;
  readonly minTaps: number;
  readonly proven: boolean;
  readonly solution: Solution;
  readonly touched: number;
  readonly bands: Bands;
  readonly difficulty: Difficulty;
  readonly score: number;
  readonly stars: Stars;
  starsFor(taps: number): number;
  toDict(): PuzzleDict;
  equals(other: unknown): boolean;
}

export const DIFFICULTIES: ReadonlyArray<Difficulty>;
export const TAP_FLOOR: number;
export const GENERATE_BUDGET: number;
export const DAILY_SCHEME: string;
/** The bands, difficulty and stars are the C library's rules: these four need
 * `await init()` (else a ModlightsError with code CORE_NOT_LOADED); arguments are
 * integers (states 2..255), else an InputError. */
export function tapBands(nTaps: number, states: number): Bands;
export function difficultyOf(minTaps: number, nTaps: number, states: number): Difficulty;
export function starsLimits(m: number): Stars;
export function starsForTaps(limits: Stars, taps: number): number;

export interface GenerateOptions {
  rows?: number; cols?: number; states?: number;
  pattern?: PatternSpec | PatternSpec[][];
  difficulty?: Difficulty;
  locked?: number | Array<[number, number]> | boolean[][] | null;
  holes?: number | Array<[number, number]> | boolean[][] | null;
  wrap?: boolean; unique?: boolean;
  seed?: number | bigint | string | null;
}
/** A new puzzle, the same as Python's generate for the same arguments (after init()). */
export function generate(opts?: GenerateOptions): Puzzle;
/** The day's three puzzles (easy, medium, hard), the same as Python's daily (after init()). */
export function daily(date?: Date | string | null): [Puzzle, Puzzle, Puzzle];

/** SplitMix64, Python's numbers (the C library's draws): nextU64 and the draws built on
 * it need `await init()` first (else CORE_NOT_LOADED); the constructor does not with an
 * integer seed. */
export class SplitMix64 {
  constructor(seed?: number | bigint | string | Uint8Array | null);
  nextU64(): bigint;
  randbelow(n: number): number;
  randint(lo: number, hi: number): number;
  random(): number;
  shuffle<T>(seq: T[]): void;
  sample<T>(seq: Iterable<T>, k: number): T[];
  choice<T>(seq: ArrayLike<T>): T;
}
/** A 64-bit seed: an integer mod 2^64, or the first 8 bytes (big-endian) of the SHA-256
 * of a string's UTF-8 bytes or of bytes (those need `await init()`), or fresh randomness
 * for null. */
export function seedFrom(value?: number | bigint | string | Uint8Array | null): bigint;

/** Not a modlights certificate (format, version or kind unknown): code NOT_A_CERTIFICATE. */
export class FormatError extends InputError {
  constructor(message: string, options?: { cause?: unknown });
}
/** Checks a certificate (Python's sol.certificate() / h.certificate()) in exact
 * arithmetic with the C library's checker: true, or an InputError (code
 * INVALID_CERTIFICATE) naming the step that fails. Needs the core (`await init()`). */
export function verify(cert: unknown): true;
/** Checks as verify does and says in one line what the certificate proves. */
export function summary(cert: unknown): string;
