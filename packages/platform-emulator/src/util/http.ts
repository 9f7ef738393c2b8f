/**
 * The emulator's error body where the spec shows none (7): `{ error: "<snake_code>", message }`.
 * The token endpoint uses RFC 6749's `{ error, error_description }` instead (oauth/token.ts).
 */
export function jsonError(
  status: number,
  error: string,
  message: string,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify({ error, message }), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive). */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

export const UNAUTHORIZED_HEADERS = { "WWW-Authenticate": 'Bearer realm="platform-emulator"' };
