/**
 * Why a `fetch` got no answer, in words a developer can act on. Node's fetch rejects with a bare
 * "fetch failed" and keeps the reason in `cause` (a socket error with `code`, `address` and
 * `port`, or an AggregateError when several addresses of a name were tried): that reason is what
 * tells a dead port (ECONNREFUSED 127.0.0.1:3000) from a wrong host name (ENOTFOUND).
 */
export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "no answer in time (timed out)";
  if (error.name === "AbortError") return "stopped";
  const reasons = socketReasons(error.cause);
  if (reasons.length > 0) return [...new Set(reasons)].join(", ");
  const cause = error.cause;
  if (cause instanceof Error && cause.message) return `${error.message}: ${cause.message}`;
  return error.message;
}

function socketReasons(cause: unknown, depth = 0): string[] {
  if (!(cause instanceof Error) || depth > 3) return [];
  if (cause instanceof AggregateError)
    return cause.errors.flatMap((inner) => socketReasons(inner, depth + 1));
  const { code, address, port, hostname } = cause as {
    code?: unknown;
    address?: unknown;
    port?: unknown;
    hostname?: unknown;
  };
  if (typeof code !== "string") return socketReasons(cause.cause, depth + 1);
  const where =
    typeof address === "string"
      ? ` ${address.includes(":") ? `[${address}]` : address}${typeof port === "number" ? `:${port}` : ""}`
      : typeof hostname === "string"
        ? ` ${hostname}`
        : "";
  return [`${code}${where}`];
}
