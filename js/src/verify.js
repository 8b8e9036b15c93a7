/**
 * verify(cert): the certificate, as JSON.stringify writes it (a BigInt or a cycle makes it
 * malformed), checked by the C library's checker (csrc/verify, ml_verify_json: exact
 * arithmetic, sharing no code with the solver) with Python's verdicts and messages: true,
 * or an InputError (INVALID_CERTIFICATE) naming the first step that fails, or a FormatError
 * (NOT_A_CERTIFICATE). No work bound: a long check stops through the interrupt handler.
 * @module verify
 */
import { InputError } from "./errors.js";
import { cString, failure, withMem, written } from "./capi.js";

/** Not a modlights certificate (format, version or kind unknown): code NOT_A_CERTIFICATE. */
export class FormatError extends InputError {
  constructor(message, { cause } = {}) {
    super(message, { code: "NOT_A_CERTIFICATE", cause });
    this.name = "FormatError";
  }
}

/** A step of the certificate fails: InputError, code INVALID_CERTIFICATE. */
const rejected = (message, cause) =>
  new InputError(message, { code: "INVALID_CERTIFICATE", cause });

/** The certificate as JSON bytes (what is not JSON at the top: not a certificate). */
function jsonOf(cert) {
  let text;
  try {
    text = JSON.stringify(cert);
  } catch (e) {
    throw rejected(`malformed certificate: ${e.name}: ${e.message}`.slice(0, 300), e);
  }
  if (text === undefined) throw new FormatError(`a certificate is a JSON object, got ${typeof cert}`);
  return new TextEncoder().encode(text);
}

/** The C checker's failure as the package's error (a refused certificate: INVALID_CERTIFICATE,
 * or a FormatError for what is not one). */
function refusal(core) {
  const x = core.exports;
  const e = failure(core, { INVALID_VALUE: "INVALID_CERTIFICATE" }, "array");
  return cString(core, x.ml_msg_name(x.ml_errmsg_id(0))) === "ML_M_CERT_FORMAT"
    ? new FormatError(e.message) : e;
}

/** Checks `cert` as verify does and says in one line what it proves (ml_verify_json). */
export function summary(cert) {
  const json = jsonOf(cert);
  return withMem("verify", [json], (core, text) => written(core, (buf, cap, len) =>
    core.exports.ml_verify_json(0, text, json.length, buf, cap, len), refusal));
}

/** Checks a certificate (Python's sol.certificate() / h.certificate()): true, or the
 * errors of the module's doc. */
export function verify(cert) {
  summary(cert);
  return true;
}
