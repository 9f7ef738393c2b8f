import type { EmulatorState } from "../state/store.ts";
import type { AppRecord } from "../state/types.ts";

export type ClientAuthResult =
  | { ok: true; client: AppRecord }
  | { ok: false; error: "invalid_request" | "invalid_client"; description: string; basic: boolean };

/**
 * Client authentication of the token endpoint (spec 4.2, 5 rule 1): form fields, or HTTP Basic
 * where id and secret are each form-urlencoded before base64 (RFC 6749 2.3.1). Sending the secret
 * both ways is refused (RFC 6749 2.3: one method per request); a `client_id` field next to Basic
 * is accepted when it names the same client.
 */
export function authenticateClient(
  state: EmulatorState,
  authorization: string | undefined,
  form: URLSearchParams,
): ClientAuthResult {
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? "");
  let id = form.get("client_id") ?? undefined;
  let secret = form.get("client_secret") ?? undefined;
  if (basic?.[1]) {
    const decoded = decodeBasic(basic[1]);
    if (!decoded) return fail("invalid_client", "malformed HTTP Basic credentials", true);
    if (secret !== undefined)
      return fail("invalid_request", "send client credentials one way: Basic or form", true);
    if (id !== undefined && id !== decoded.id)
      return fail("invalid_request", "client_id in the form differs from HTTP Basic", true);
    ({ id, secret } = decoded);
  }
  const isBasic = Boolean(basic);
  if (!id || secret === undefined)
    return fail("invalid_client", "client authentication is required", isBasic);
  const client = state.apps.get(id);
  if (!client || !timingSafeEqualText(client.client_secret, secret))
    return fail("invalid_client", "unknown client or wrong client_secret", isBasic);
  return { ok: true, client };
}

function decodeBasic(value: string): { id: string; secret: string } | undefined {
  try {
    const text = Buffer.from(value, "base64").toString("utf8");
    const colon = text.indexOf(":");
    if (colon < 0) return undefined;
    const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: formDecode(text.slice(0, colon)), secret: formDecode(text.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function fail(
  error: "invalid_request" | "invalid_client",
  description: string,
  basic: boolean,
): ClientAuthResult {
  return { ok: false, error, description, basic };
}

function timingSafeEqualText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
