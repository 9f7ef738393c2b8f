import { z } from "@hono/zod-openapi";

/**
 * A platform namespace: a user's login or an organization (spec 4.4). The spec shows no format;
 * this is deliberately close to what logins usually allow (letters, digits, `_ . -`, not starting
 * with a punctuation mark) so a typo fails here with a clear message, not as a platform 404, and
 * nothing that could change the upstream path (`/`, `..`, `%`) gets through.
 */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export const namespaceSchema = z
  .string()
  .regex(
    NAMESPACE_PATTERN,
    "must be 1–100 letters, digits, `_`, `.` or `-`, starting with a letter or digit",
  )
  .openapi({ example: "demo", description: "A personal (login) or organization namespace" });

export function isNamespace(value: string): boolean {
  return NAMESPACE_PATTERN.test(value);
}
