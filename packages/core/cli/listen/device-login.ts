import { type BackendClient, ListenError } from "./backend.ts";

const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** What `POST /auth/device` answers (RFC 8628 §3.2). */
interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

/** What an approved device receives. */
export interface SignedIn {
  session_token: string;
  user?: { login?: string };
}

export interface DeviceLoginIo {
  out: (line: string) => void;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Signs in as `gh auth login` does (RFC 8628): asks the backend for a code, shows it with the
 * page to enter it on, and polls until the person approved it in a browser, honouring
 * `interval` and `slow_down` (5 s more each time). Denied or expired: a `ListenError`.
 */
export async function deviceLogin(backend: BackendClient, io: DeviceLoginIo): Promise<SignedIn> {
  const started = await backend.json<DeviceAuthorization>(
    await backend.send("/auth/device", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "client_id=overture-webhooks",
    }),
  );
  const minutes = Math.round(started.expires_in / 60);
  io.out(`To sign in, open ${started.verification_uri_complete ?? started.verification_uri}`);
  io.out(`and check that it shows this code: ${started.user_code}`);
  io.out(`(or open ${started.verification_uri} and type the code). It expires in ${minutes} min.`);
  io.out("Waiting for you to approve it in the browser…");
  let intervalMs = (started.interval ?? 5) * 1000;
  for (;;) {
    await io.sleep(intervalMs, io.signal);
    const response = await backend.send("/auth/device/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: DEVICE_CODE_GRANT,
        device_code: started.device_code,
      }).toString(),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    if (response.ok) return (await response.json()) as SignedIn;
    const { error } = (await response.json().catch(() => ({}))) as { error?: string };
    if (error === "authorization_pending") continue;
    if (error === "slow_down") {
      intervalMs += 5_000;
      continue;
    }
    if (error === "access_denied")
      throw new ListenError(
        "the sign-in was denied in the browser; run the command again to retry",
      );
    if (error === "expired_token")
      throw new ListenError(
        "the code expired before it was approved; run the command again for a new one",
      );
    if (response.status === 429) {
      intervalMs += 5_000;
      continue;
    }
    throw new ListenError(
      `the sign-in failed: the backend answered ${response.status}${error ? ` ${error}` : ""}`,
    );
  }
}
