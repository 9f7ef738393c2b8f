import type { BasicAuthEncoding } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import type { AppRecord } from "../state/types.ts";

export type ClientAuthResult =
  | { ok: true; client: AppRecord }
  | { ok: false; error: "invalid_request" | "invalid_client"; description: string; basic: boolean };

interface Credentials {
  id: string;
  secret: string;
}

/**
 * Client authentication of the token endpoint (spec 4.2, 5 rule 1): form fields, or HTTP Basic.
 * Basic follows the spec's wording by default: `base64(client_id:client_secret)`, the decoded
 * UTF-8 text split on its first colon, nothing else. `rfc6749` form-decodes id and secret first
 * (RFC 6749 2.3.1); `either` accepts a secret that matches in one reading or the other. Sending
 * the secret both ways is refused (RFC 6749 2.3: one method per request); a `client_id` field next
 * to Basic is accepted when it names the same client.
 */
export function authenticateClient(
  state: EmulatorState,
  authorization: string | undefined,
  form: URLSearchParams,
  encoding: BasicAuthEncoding = "spec",
): ClientAuthResult {
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? "");
  const formId = form.get("client_id") ?? undefined;
  const formSecret = form.get("client_secret") ?? undefined;
  if (!basic?.[1]) {
    if (!formId || formSecret === undefined)
      return fail("invalid_client", "client authentication is required", false);
    return check(state, [{ id: formId, secret: formSecret }], false);
  }
  const plain = decodeBasic(basic[1]);
  if (!plain) return fail("invalid_client", "malformed HTTP Basic credentials", true);
  if (formSecret !== undefined)
    return fail("invalid_request", "send client credentials one way: Basic or form", true);
  const readings: Credentials[] = [];
  if (encoding !== "rfc6749") readings.push(plain);
  if (encoding !== "spec") {
    const decoded = formDecoded(plain);
    if (decoded) readings.push(decoded);
    else if (encoding === "rfc6749")
      return fail("invalid_client", "malformed form-encoded HTTP Basic credentials", true);
  }
  if (formId !== undefined && !readings.some((r) => r.id === formId))
    return fail("invalid_request", "client_id in the form differs from HTTP Basic", true);
  return check(state, readings, true);
}

function check(state: EmulatorState, readings: Credentials[], basic: boolean): ClientAuthResult {
  for (const { id, secret } of readings) {
    const client = state.apps.get(id);
    if (client && timingSafeEqualText(client.client_secret, secret)) return { ok: true, client };
  }
  return fail("invalid_client", "unknown client or wrong client_secret", basic);
}

/** Strict base64, then strict UTF-8, then the first colon (RFC 7617 2). */
function decodeBasic(value: string): Credentials | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 === 1) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(value, "base64"));
  } catch {
    return undefined;
  }
  const colon = text.indexOf(":");
  if (colon < 0) return undefined;
  return { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

function formDecoded({ id, secret }: Credentials): Credentials | undefined {
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: decode(id), secret: decode(secret) };
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
