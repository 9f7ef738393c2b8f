/**
 * Adds parameters to a registered redirect URI without re-encoding its own query (the
 * application may compare it byte for byte).
 */
export function withParams(
  redirectUri: string,
  params: Record<string, string | undefined>,
): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, v);
  const text = query.toString();
  if (!text) return redirectUri;
  const sep = redirectUri.includes("?") ? (/[?&]$/.test(redirectUri) ? "" : "&") : "?";
  return redirectUri + sep + text;
}
