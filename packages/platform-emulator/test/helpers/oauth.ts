import type { PlatformEmulator } from "../../src/index.ts";
import { CLIENT } from "./emulator.ts";

export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  response_type?: string;
}

export function authorizePath(params: AuthorizeParams = {}): string {
  const q = new URLSearchParams({
    response_type: params.response_type ?? "code",
    client_id: params.client_id ?? CLIENT.id,
    redirect_uri: params.redirect_uri ?? CLIENT.redirectUri,
    scope: params.scope ?? "user_info api_key",
    state: params.state ?? "st-123",
  });
  return `/oauth/authorize?${q.toString()}`;
}

/** Opens the consent page as a browser would: returns the request id and the browser cookie. */
export async function openConsent(
  emu: PlatformEmulator,
  params: AuthorizeParams = {},
  login?: string,
): Promise<{ requestId: string; cookie: string; html: string }> {
  const res = await emu.app.request(authorizePath(params), {
    headers: login ? { Cookie: `emu_user=${login}` } : {},
  });
  if (res.status !== 200) throw new Error(`consent page answered ${res.status}`);
  const html = await res.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  const cookie = /emu_browser=[^;]+/.exec(res.headers.get("set-cookie") ?? "")?.[0];
  if (!requestId || !cookie) throw new Error("consent page lacks a request id or cookie");
  return { requestId, cookie, html };
}

export async function decide(
  emu: PlatformEmulator,
  consent: { requestId: string; cookie: string },
  decision: "approve" | "deny",
  headers: Record<string, string> = {},
): Promise<Response> {
  return emu.app.request("/oauth/authorize/decision", {
    method: "POST",
    headers: { Cookie: consent.cookie, ...headers },
    body: new URLSearchParams({ request_id: consent.requestId, decision }),
  });
}

/** Approves a consent request and returns the authorization code. */
export async function authorizationCode(
  emu: PlatformEmulator,
  params: AuthorizeParams = {},
  login?: string,
): Promise<string> {
  const res = await decide(emu, await openConsent(emu, params, login), "approve");
  const code = new URL(res.headers.get("location") ?? "").searchParams.get("code");
  if (!code) throw new Error(`no code in ${res.headers.get("location") ?? "(no redirect)"}`);
  return code;
}

export function tokenRequest(
  emu: PlatformEmulator,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> | Response {
  return emu.app.request("/api/open/oauth/token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

/** Full sign-in over HTTP: consent, approve, code exchange with form credentials. */
export async function signIn(
  emu: PlatformEmulator,
  options: { scope?: string; login?: string; redirectUri?: string } = {},
): Promise<Tokens> {
  const redirectUri = options.redirectUri ?? CLIENT.redirectUri;
  const params = { scope: options.scope, redirect_uri: redirectUri };
  const code = await authorizationCode(emu, params, options.login);
  const res = await tokenRequest(emu, {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    client_id: CLIENT.id,
    client_secret: CLIENT.secret,
  });
  if (res.status !== 200) throw new Error(`token exchange answered ${res.status}`);
  return (await res.json()) as Tokens;
}

/** The refresh_token grant with form credentials. */
export function refreshRequest(
  emu: PlatformEmulator,
  refreshToken: string,
): Promise<Response> | Response {
  return tokenRequest(emu, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: CLIENT.id,
    client_secret: CLIENT.secret,
  });
}
