// Test-only fixtures for the webhook tests; production code never imports this file.
import { signWebhook, type HmacSha256HexSync, type VerifyWebhookInput } from "./index.ts";
import { syncHmacSha256Hex } from "./sync-hmac.fixtures.ts";

export const SECRET = "overture-test-secret";
export const NOW = 1_767_225_600_000; // 2026-01-01T00:00:00Z
export const TIMESTAMP = "1767225600000";
export const URL_AS_CALLED = "https://receiver.example/hook?task=t1&b=2&a=1";
export const BODY = '{"event_id":"e1","status":"success"}';

// The literals below were computed outside this code base, with openssl:
//   printf '%s\n%s\n%s' 1767225600000 'a=1&b=2&task=t1' "$BODY" \
//     | openssl dgst -sha256 -hmac overture-test-secret
export const OPENSSL_SIGNATURE = "5495def672cbce70ed127112b926d668e27bf49c4182e5bf79b3f374b3f401b2";
// Same, joined with CRLF instead of LF: printf '%s\r\n%s\r\n%s' ...
export const OPENSSL_CRLF_SIGNATURE =
  "5f00ae3eddb8a07bb20b46acc9adadf862a5f93aef77b798e7ab19deab1c732b";
// Same, with the query as given instead of sorted: 'task=t1&b=2&a=1'.
export const OPENSSL_UNSORTED_SIGNATURE =
  "0de63942656c5a06036affa5945418014c08236fe5ed3b1ccc4fe61c18b00695";

/** A valid delivery signed with {@link OPENSSL_SIGNATURE}, verified at {@link NOW}. */
export function literalInput(overrides: Partial<VerifyWebhookInput> = {}): VerifyWebhookInput {
  return {
    body: BODY,
    url: URL_AS_CALLED,
    headers: { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": OPENSSL_SIGNATURE },
    secrets: SECRET,
    now: () => NOW,
    ...overrides,
  };
}

/** A valid delivery freshly signed by `signWebhook` for `url` and `body`. */
export async function signedInput(
  options: { url?: string; body?: string; secret?: string; timestamp?: number } = {},
  overrides: Partial<VerifyWebhookInput> = {},
): Promise<VerifyWebhookInput> {
  const url = options.url ?? URL_AS_CALLED;
  const body = options.body ?? BODY;
  const headers = await signWebhook({
    secret: options.secret ?? SECRET,
    url,
    body,
    timestamp: options.timestamp ?? NOW,
  });
  return { body, url, headers: { ...headers }, secrets: SECRET, now: () => NOW, ...overrides };
}

/** A synchronous HMAC that counts its calls. */
export function countingHmac(): {
  readonly hmac: HmacSha256HexSync;
  readonly calls: () => number;
} {
  let calls = 0;
  return {
    hmac: (secret, message) => {
      calls++;
      return syncHmacSha256Hex(secret, message);
    },
    calls: () => calls,
  };
}
