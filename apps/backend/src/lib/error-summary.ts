/**
 * What a log line says about an error. drizzle wraps a driver error as "Failed query: <SQL>
 * params: <values>", and the values are user content (prompts, lyrics) and sealed credentials:
 * logs carry the driver's own message and code instead, shortened.
 */
const MAX_MESSAGE = 300;

function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth += 1) {
    if (!(current instanceof Error) || !current.message.startsWith("Failed query:")) break;
    current = current.cause;
  }
  return current;
}

/** A short message for a log field. */
export function errorMessage(error: unknown): string {
  const inner = innermost(error);
  const message = inner instanceof Error ? inner.message : String(inner);
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/** `{ name, message, code }` for a log field. */
export function errorSummary(error: unknown): { name?: string; message: string; code?: unknown } {
  const inner = innermost(error);
  if (!(inner instanceof Error)) return { message: errorMessage(inner) };
  return {
    name: inner.name,
    message: errorMessage(inner),
    code: (inner as { code?: unknown }).code,
  };
}
