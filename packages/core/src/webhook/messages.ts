import type { SignatureDiagnosis } from "./codes.ts";

// Messages quote at most a short, JSON-escaped prefix of a header: it comes from the network and
// ends up in logs.
const quote = (text: string): string =>
  JSON.stringify(text.length > 32 ? `${text.slice(0, 32)}…` : text);

/** Why an `X-Sign-Timestamp` is malformed, with a hint for the usual mistake (seconds). */
export function describeTimestamp(timestamp: string): string {
  const hint = /^\d{10}$/.test(timestamp) ? " (seconds instead of milliseconds?)" : "";
  return `X-Sign-Timestamp must be 13 ASCII digits (milliseconds, spec 4.8), got ${quote(timestamp)}${hint}`;
}

/** Why an `X-Signature` is not 64 lowercase hex characters. */
export function describeSignatureShape(signature: string): string {
  const base = "X-Signature must be 64 lowercase hex characters (spec 4.8)";
  if (/^[0-9a-fA-F]{64}$/.test(signature)) {
    return `${base}; it has uppercase hex, which is not accepted`;
  }
  return `${base}; got ${signature.length} characters${/^[0-9a-fA-F]*$/.test(signature) ? "" : " including non-hex ones"}`;
}

/** The message of a signature mismatch, naming the confirmed causes or else the usual ones. */
export function mismatchMessage(
  secretCount: number,
  diagnoses: readonly SignatureDiagnosis[],
): string {
  const base = `X-Signature matches none of the ${secretCount} secret(s) for this timestamp, query and body (spec 4.9)`;
  if (diagnoses.length > 0)
    return `${base}; likely cause: ${diagnoses.map((d) => d.message).join("; ")}`;
  return `${base}; common causes (spec 7): an outdated secret, a parsed instead of raw body, a wrongly sorted query string, or a URL that differs from the one the platform called`;
}
