import { createPkcePair } from "@overture/core/oauth";

/**
 * `@overture/backend/testing`: a headless sign-in for smoke tests of a running backend (its own
 * live suites, the local stack's demo and main-job test, a self-hoster's check against the
 * emulator). Not used by the backend itself.
 *
 * Signs in the way the extension does — `/auth/start` with a PKCE challenge, the platform's consent
 * page, the backend's callback, the hand-off code exchange — except that "clicking Approve" is a
 * POST of the consent page's own form.
 */
export async function signIn(backendUrl: string, extensionRedirect: string): Promise<string> {
  const pkce = await createPkcePair();
  const start = new URL("/auth/start", backendUrl);
  start.search = new URLSearchParams({
    redirect_uri: extensionRedirect,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
  }).toString();
  const authorizeUrl = locationOf(await fetchManual(start.toString()), "GET /auth/start");

  const consent = await fetch(authorizeUrl);
  const html = await consent.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  const cookie = /emu_browser=[^;]+/.exec(consent.headers.get("set-cookie") ?? "")?.[0];
  if (!consent.ok || !requestId || !cookie)
    throw new Error(`consent page: HTTP ${consent.status}, no form found`);
  const platform = new URL(authorizeUrl).origin;
  const decision = await fetchManual(`${platform}/oauth/authorize/decision`, {
    method: "POST",
    headers: {
      Cookie: cookie,
      Origin: platform,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ request_id: requestId, decision: "approve" }),
  });
  const callback = locationOf(decision, "approve on the consent page");
  const handoff = new URL(locationOf(await fetchManual(callback), "GET /oauth/callback"));
  const code = handoff.searchParams.get("code");
  if (!code)
    throw new Error(
      `sign-in ended without a code: ${handoff.searchParams.get("error") ?? "unknown error"}`,
    );

  const session = await json<{ session_token: string }>(
    await fetch(new URL("/auth/token", backendUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, code_verifier: pkce.verifier }),
    }),
    "POST /auth/token",
  );
  return session.session_token;
}

async function fetchManual(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, redirect: "manual" });
}

function locationOf(response: Response, what: string): string {
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || !location) {
    throw new Error(`${what}: expected a redirect, got HTTP ${response.status}`);
  }
  return location;
}

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
