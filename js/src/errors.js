/**
 * The errors of the modlights package: one family under ModlightsError (InputError and its
 * Unsolvable and FormatError (verify.js), Interrupted), each error with a stable `code` (the
 * table of README.md and index.d.ts's ErrorCode; messages may be reworded, codes are not).
 * `ValueError` is a deprecated alias of `InputError`.
 * @module errors
 */

/** The base of every error the package throws on purpose; `code` (a stable string) says
 * which. */
export class ModlightsError extends Error {
  constructor(message, { code = "MODLIGHTS_ERROR", cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ModlightsError";
    this.code = code;
  }
}

/** Bad input: the message says what was wrong and what is allowed; `code` which check
 * failed (INVALID_TYPE, OUT_OF_RANGE, INVALID_SHAPE, INVALID_VALUE, ...). */
export class InputError extends ModlightsError {
  constructor(message, { code = "INVALID_VALUE", cause } = {}) {
    super(message, { code, cause });
    this.name = "InputError";
  }
}

/** No tap counts bring the state to the target (code UNSOLVABLE). */
export class Unsolvable extends InputError {
  constructor(message, { cause } = {}) {
    super(message, { code: "UNSOLVABLE", cause });
    this.name = "Unsolvable";
  }
}

/** Long work stopped by a cancel (SolverWorker#cancel, an AbortSignal): code INTERRUPTED. */
export class Interrupted extends ModlightsError {
  constructor(message = "interrupted", { cause } = {}) {
    super(message, { code: "INTERRUPTED", cause });
    this.name = "Interrupted";
  }
}

/** @deprecated An alias of InputError (the name earlier releases threw bad input under). */
export const ValueError = InputError;

// Internal: the bad-input errors by their code.
const input = (code) => (message) => new InputError(message, { code });
export const badType = input("INVALID_TYPE");
export const outOfRange = input("OUT_OF_RANGE");
export const badShape = input("INVALID_SHAPE");
export const badValue = input("INVALID_VALUE");
export const tooLarge = input("TOO_LARGE");
