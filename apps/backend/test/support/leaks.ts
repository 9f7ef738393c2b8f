import type { EmulatorControl } from "@overture/platform-emulator";

/**
 * The secret values a backend run could leak, by what they are: every secret the platform
 * emulator holds (webhook secrets, API tokens, client secrets, OAuth tokens) and the backend's
 * own (client secret, encryption keys). Collect it more than once in a long run: a refresh token
 * rotated away is no longer in the emulator's snapshot.
 */
export function secretValues(
  control: EmulatorControl,
  env: Record<string, string>,
  into = new Map<string, string>(),
): Map<string, string> {
  // Short values ("1", "demo") would match anywhere; every real secret here is long.
  const add = (value: string | null | undefined, what: string) => {
    if (value && value.length >= 12) into.set(value, what);
  };
  const snapshot = control.snapshot();
  for (const account of snapshot.accounts) add(account.webhook_secret, "webhook secret");
  for (const token of snapshot.access_tokens) add(token.value, "platform API token");
  for (const app of snapshot.applications) add(app.client_secret, "client secret");
  for (const token of snapshot.oauth_tokens) add(token.token, token.kind);
  add(env.PLATFORM_CLIENT_SECRET, "client secret");
  for (const entry of (env.TOKEN_ENCRYPTION_KEYS ?? "").split(","))
    add(entry.slice(entry.indexOf(":") + 1), "encryption key");
  return into;
}

/** What kinds of secret appear in `lines` (none, in a passing test). */
export function leakedIn(lines: readonly string[], secrets: Map<string, string>): string[] {
  const text = lines.join("\n");
  return [...secrets].filter(([value]) => text.includes(value)).map(([, what]) => what);
}
