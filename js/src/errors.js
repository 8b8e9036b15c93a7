/**
 * The errors of the modlights package: one family under {@link ModlightsError}, each
 * error with a stable `code` (a string; messages may be reworded, codes are not).
 *
 * ```
 * ModlightsError           code CORE_NOT_LOADED, CORE_LOAD_FAILED, NOT_IN_WORKER,
 * │                             WORKER_FAILED
 * ├── InputError           bad input: INVALID_TYPE, OUT_OF_RANGE, INVALID_SHAPE,
 * │   │                    INVALID_VALUE, TOO_LARGE, INVALID_PUZZLE_CODE, IMPOSSIBLE,
 * │   │                    SOLVER_DISPOSED, INVALID_CERTIFICATE
 * │   ├── Unsolvable       UNSOLVABLE: no taps bring the state to the target
 * │   └── FormatError      NOT_A_CERTIFICATE (verify: not a modlights certificate)
 * └── Interrupted          INTERRUPTED: work stopped by cancel() / an AbortSignal
 * ```
 *
 * `ValueError` is a deprecated alias of `InputError` (the name bad input was thrown under
 * in earlier releases): `e instanceof ValueError` still holds for every bad input.
 * @module errors
 */

/** The base of every error the package throws on purpose; `code` says which. */
export class ModlightsError extends Error {
  /** @param {{code?: string, cause?: unknown}} [options] */
  constructor(message, { code = "MODLIGHTS_ERROR", cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ModlightsError";
    /** A stable string naming the kind of error (see the module's table). */
    this.code = code;
  }
}

/** Bad input: the message says what was wrong and what is allowed; `code` which check
 * failed (INVALID_TYPE, OUT_OF_RANGE, INVALID_SHAPE, INVALID_VALUE, ...). */
export class InputError extends ModlightsError {
  /** @param {{code?: string, cause?: unknown}} [options] code default INVALID_VALUE */
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

/**
 * Deprecated alias of {@link InputError}, kept for code written against earlier releases
 * (`catch (e) { if (e instanceof ValueError) ... }` still works). New code: InputError.
 * @deprecated
 */
export const ValueError = InputError;

// Internal: the bad-input errors by their code.
const input = (code) => (message) => new InputError(message, { code });
export const badType = input("INVALID_TYPE");
export const outOfRange = input("OUT_OF_RANGE");
export const badShape = input("INVALID_SHAPE");
export const badValue = input("INVALID_VALUE");
export const tooLarge = input("TOO_LARGE");
