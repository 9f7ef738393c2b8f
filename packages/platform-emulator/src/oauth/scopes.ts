/** The only scopes the spec names (5 rule 2). */
export const KNOWN_SCOPES = ["user_info", "api_key"] as const;

/** Splits a space-separated scope string; empty entries (double spaces) are dropped. */
export function parseScope(scope: string | undefined): string[] {
  return [...new Set((scope ?? "").split(" ").filter(Boolean))];
}

export function unknownScopes(scope: readonly string[]): string[] {
  return scope.filter((s) => !(KNOWN_SCOPES as readonly string[]).includes(s));
}
