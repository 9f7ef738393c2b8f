import { createPkcePair } from "@overture/core/oauth";
import type { PlatformEmulator } from "@overture/platform-emulator";
import type { Backend } from "../../src/backend.ts";
import { CHROME_REDIRECT, PLATFORM_BASE_URL } from "./constants.ts";

/** What a test does with one backend instance: requests, and the sign-in flow step by step. */

export interface RequestOptions extends RequestInit {
  /** Sent as `Authorization: Bearer <session>`. */
  session?: string;
  /** The client's address as the rate limiter sees it; a fresh one per request by default. */
  ip?: string;
  /** Sent as `Origin`. */
  origin?: string;
}

export interface SignInOptions {
  /** Platform user to approve as (emulator seed login); default the first seeded user (demo). */
  login?: string;
  ip?: string;
  userAgent?: string;
  redirectUri?: string;
}

export interface SignedInUser {
  sessionToken: string;
  userId: number;
  login: string;
  expiresAt: string;
}

/** A started sign-in: the PKCE pair and the platform URL `/auth/start` redirected to. */
export interface StartedSignIn {
  verifier: string;
  challenge: string;
  authorizeUrl: string;
}

export interface TestInstance {
  backend: Backend;
  app: Backend["app"];
  request(path: string, init?: RequestOptions): Promise<Response>;
  signIn(options?: SignInOptions): Promise<SignedInUser>;
  /** `/auth/start` with a fresh PKCE pair; throws unless it redirects to the platform. */
  startSignIn(options?: SignInOptions): Promise<StartedSignIn>;
  /** Decides on the emulator's consent page; returns the redirect back to the backend. */
  authorize(
    authorizeUrl: string,
    options?: { login?: string; decision?: "approve" | "deny" },
  ): Promise<string>;
  /** Follows the platform's redirect to `/oauth/callback`. */
  callback(callbackUrl: string, init?: RequestOptions): Promise<Response>;
  /** `POST /auth/token`. */
  redeem(code: string, verifier: string, init?: RequestOptions): Promise<Response>;
}

let addressCounter = 0;
/** A fresh documentation-range address, so the per-IP rate limit never couples unrelated tests. */
export function freshIp(): string {
  addressCounter += 1;
  return `198.18.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export function instanceHelpers(backend: Backend, emu: PlatformEmulator): TestInstance {
  const app = backend.app;

  async function request(path: string, init: RequestOptions = {}): Promise<Response> {
    const { session, ip, origin, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (session) headers.set("Authorization", `Bearer ${session}`);
    if (origin) headers.set("Origin", origin);
    if (typeof rest.body === "string" && !headers.has("Content-Type"))
      headers.set("Content-Type", "application/json");
    // `getConnInfo` reads the socket from the Node bindings; in-process requests get a fake one.
    const env = {
      incoming: {
        socket: { remoteAddress: ip ?? freshIp(), remotePort: 50_000, remoteFamily: "IPv4" },
      },
    };
    return app.request(path, { ...rest, headers }, env);
  }

  async function startSignIn(options: SignInOptions = {}): Promise<StartedSignIn> {
    const { verifier, challenge } = await createPkcePair();
    const query = new URLSearchParams({
      redirect_uri: options.redirectUri ?? CHROME_REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const response = await request(`/auth/start?${query.toString()}`, {
      ...(options.ip ? { ip: options.ip } : {}),
    });
    const location = response.headers.get("location");
    if (response.status !== 302 || !location?.startsWith(`${PLATFORM_BASE_URL}/oauth/authorize?`)) {
      throw new Error(`/auth/start answered ${response.status}: ${await response.text()}`);
    }
    return { verifier, challenge, authorizeUrl: location };
  }

  async function authorize(
    authorizeUrl: string,
    options: { login?: string; decision?: "approve" | "deny" } = {},
  ): Promise<string> {
    const cookies = options.login ? [`emu_user=${options.login}`] : [];
    let response = await emu.app.request(authorizeUrl, { headers: { Cookie: cookies.join("; ") } });
    if (response.status === 200) {
      // The consent page (autoApprove off): post the decision with the page's request id.
      const page = await response.text();
      const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1];
      const browser = /emu_browser=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1];
      if (!requestId || !browser)
        throw new Error("consent page without request id or browser cookie");
      response = await emu.app.request(`${PLATFORM_BASE_URL}/oauth/authorize/decision`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: [...cookies, `emu_browser=${browser}`].join("; "),
        },
        body: new URLSearchParams({
          request_id: requestId,
          decision: options.decision ?? "approve",
        }).toString(),
      });
    }
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 303 || !location) {
      throw new Error(`emulator authorize answered ${response.status}: ${await response.text()}`);
    }
    return location;
  }

  const callback = (callbackUrl: string, init: RequestOptions = {}) => {
    const url = new URL(callbackUrl);
    return request(`${url.pathname}${url.search}`, init);
  };

  const redeem = (code: string, verifier: string, init: RequestOptions = {}) =>
    request("/auth/token", {
      method: "POST",
      body: JSON.stringify({ code, code_verifier: verifier }),
      ...init,
    });

  async function signIn(options: SignInOptions = {}): Promise<SignedInUser> {
    const ip = options.ip ?? freshIp();
    const started = await startSignIn({ ...options, ip });
    const back = await authorize(
      started.authorizeUrl,
      options.login ? { login: options.login } : {},
    );
    const done = await callback(back, { ip });
    const location = new URL(done.headers.get("location") ?? "about:blank");
    const code = location.searchParams.get("code");
    if (done.status !== 302 || !code)
      throw new Error(`/oauth/callback answered ${done.status} → ${location.toString()}`);
    const response = await redeem(code, started.verifier, {
      ip,
      ...(options.userAgent ? { headers: { "User-Agent": options.userAgent } } : {}),
    });
    if (response.status !== 200)
      throw new Error(`/auth/token answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as {
      session_token: string;
      expires_at: string;
      user: { id: number; login: string };
    };
    return {
      sessionToken: body.session_token,
      userId: body.user.id,
      login: body.user.login,
      expiresAt: body.expires_at,
    };
  }

  return { backend, app, request, signIn, startSignIn, authorize, callback, redeem };
}
