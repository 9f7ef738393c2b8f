import { BACKEND_MISCONFIGURED } from "@overture/backend/api";
import { OvertureError } from "../shared/errors.ts";
import type { SessionGrant } from "../shared/types.ts";
import type { Api } from "./api.ts";

/** The part of `browser.identity` sign-in needs (a fake in tests). */
export interface IdentityApi {
  getRedirectURL(path?: string): string;
  launchWebAuthFlow(details: { url: string; interactive?: boolean }): Promise<string | undefined>;
}

export interface SignInDeps {
  api: Api;
  identity: IdentityApi;
  createPkcePair: () => Promise<{ verifier: string; challenge: string }>;
}

/** The backend URL that starts a sign-in for this redirect URL and PKCE challenge. */
export function authStartUrl(baseUrl: string, redirectUri: string, challenge: string): string {
  const url = new URL(`${baseUrl}/auth/start`);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.href;
}

/**
 * A redirect URL the backend refuses would open a window showing the backend's error page, which
 * the person can only close — and closing it reads as "cancelled". Asking first names the real
 * problem. A backend too old to answer the check is not a reason to refuse: the window decides.
 */
async function checkRedirect(api: Api, redirectUri: string): Promise<void> {
  let allowed = true;
  try {
    allowed = (await api.signInCheck(redirectUri)).redirect_allowed;
  } catch (error) {
    if (error instanceof OvertureError && error.status === undefined) throw error;
  }
  if (!allowed)
    throw new OvertureError(
      "sign_in_redirect_refused",
      `The backend does not allow this browser's redirect URL ${redirectUri}.`,
    );
}

// Chrome rejects launchWebAuthFlow with this when the first page fails to load (a backend that
// answers /healthz but not /auth/start, or a refused redirect_uri); a closed window gives
// "The user did not approve access." instead.
const PAGE_NOT_LOADED = /could not be loaded/i;

/**
 * Signs in (DESIGN "Sign-in"): checks the backend answers, makes a PKCE pair, opens the backend's
 * `/auth/start` in the browser's auth window, reads the hand-off `code` (or `error`) from the
 * redirect and exchanges it with the verifier for a session. Runs in the background: a popup
 * closes when the auth window opens. Throws `OvertureError` with `sign_in_denied` (consent
 * refused), `sign_in_redirect_refused` (the backend does not allow this browser's redirect URL),
 * `sign_in_cancelled` (window closed), `sign_in_failed`, `offline` or `backend_unreachable`.
 */
export async function signIn(deps: SignInDeps): Promise<SessionGrant> {
  await deps.api.health();
  const redirectUri = deps.identity.getRedirectURL();
  await checkRedirect(deps.api, redirectUri);
  const { verifier, challenge } = await deps.createPkcePair();
  let responseUrl: string | undefined;
  try {
    responseUrl = await deps.identity.launchWebAuthFlow({
      url: authStartUrl(deps.api.baseUrl, redirectUri, challenge),
      interactive: true,
    });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (PAGE_NOT_LOADED.test(message))
      throw new OvertureError("sign_in_failed", "The sign-in page could not be loaded.", { cause });
    throw new OvertureError("sign_in_cancelled", "The sign-in window was closed.", { cause });
  }
  if (!responseUrl?.startsWith(redirectUri))
    throw new OvertureError("sign_in_cancelled", "The sign-in did not come back.");
  const params = new URL(responseUrl).searchParams;
  const error = params.get("error");
  if (error === "access_denied")
    throw new OvertureError("sign_in_denied", "Access was denied on the consent page.");
  // The backend's own platform credentials were refused: retrying cannot help, its operator must.
  if (error === BACKEND_MISCONFIGURED)
    throw new OvertureError("backend_misconfigured", params.get("error_description") ?? error);
  if (error) throw new OvertureError("sign_in_failed", params.get("error_description") ?? error);
  const code = params.get("code");
  if (!code) throw new OvertureError("sign_in_failed", "The sign-in came back without a code.");
  try {
    return await deps.api.exchangeCode(code, verifier);
  } catch (cause) {
    // A refused hand-off code (expired, used, wrong verifier) is a failed sign-in; an
    // unreachable backend stays what it is.
    if (cause instanceof OvertureError && cause.status === 400)
      throw new OvertureError("sign_in_failed", cause.message, { cause, status: 400 });
    throw cause;
  }
}
