import {
  OAUTH_INVALID_CLIENT,
  OAUTH_INVALID_GRANT,
  PLATFORM_ABORTED,
  PLATFORM_FORBIDDEN,
  PLATFORM_INVALID_RESPONSE,
  PLATFORM_NETWORK_ERROR,
  PLATFORM_NOT_FOUND,
  PLATFORM_RATE_LIMITED,
  PLATFORM_SERVER_ERROR,
  PlatformError,
} from "@overture/core/errors";
import { exchangeCode } from "@overture/core/oauth";
import type { PlatformClientCheck } from "../env/check.ts";
import { errorMessage } from "../lib/error-summary.ts";

/** ✓ passes, ✗ fails the check, ? passes but could not tell (the platform's answers are not public). */
export interface Probe {
  ok: boolean;
  message: string;
  uncertain?: boolean;
}

/** Never a real code: the probe must not be able to sign anyone in. */
const PROBE_CODE = "overture-check-config-probe";

const CLIENT_SETTINGS = "PLATFORM_CLIENT_ID / PLATFORM_CLIENT_SECRET";

/**
 * Asks the token endpoint, with the backend's own request code (@overture/core/oauth), to
 * exchange a made-up code. RFC 6749 §5.2 checks the client before the grant: a refused client
 * (401 or `invalid_client`) is a wrong id, secret or auth mode, and a refused code means the
 * client got through. The real platform's token errors are not public (spec 7 shows none), so
 * answers that fit neither are reported as they are, not guessed at. The secret is never printed.
 */
export async function probeTokenEndpoint(
  client: PlatformClientCheck,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Promise<Probe> {
  const { baseUrl, clientId, clientSecret, clientAuth, redirectUri } = client;
  try {
    await exchangeCode({
      baseUrl,
      clientId,
      clientSecret,
      clientAuth,
      code: PROBE_CODE,
      redirectUri,
      fetch: fetchImpl,
      timeoutMs,
    });
    return {
      ok: true,
      uncertain: true,
      message:
        "the token endpoint issued tokens for a made-up code: check that PLATFORM_BASE_URL is the real platform",
    };
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    return readRefusal(error, clientAuth);
  }
}

function answer(error: PlatformError): string {
  return [`HTTP ${error.status ?? "?"}`, error.platformCode].filter(Boolean).join(", ");
}

function readRefusal(error: PlatformError, clientAuth: string): Probe {
  switch (error.code) {
    case OAUTH_INVALID_CLIENT:
      return {
        ok: false,
        message: `the token endpoint refused the client credentials (${answer(error)}): check ${CLIENT_SETTINGS}, and PLATFORM_CLIENT_AUTH (now ${clientAuth})`,
      };
    case OAUTH_INVALID_GRANT:
      return {
        ok: true,
        message: `client credentials accepted (the token endpoint refused only the probe's made-up code: ${answer(error)})`,
      };
    case PLATFORM_NETWORK_ERROR:
    case PLATFORM_ABORTED: {
      // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) is its cause.
      const fetchError = error.cause;
      const reason = fetchError instanceof Error ? fetchError : error;
      const cause = reason.cause ? ` (${errorMessage(reason.cause)})` : "";
      return { ok: false, message: `does not answer: ${errorMessage(reason)}${cause}` };
    }
    case PLATFORM_NOT_FOUND:
      return {
        ok: false,
        message: `answers, but has no token endpoint at /api/open/oauth/token (${answer(error)}): check PLATFORM_BASE_URL (the platform's origin, no path)`,
      };
    case PLATFORM_INVALID_RESPONSE:
      return {
        ok: false,
        message: `answers, but not as an OAuth token endpoint (a success that is not a token response): check PLATFORM_BASE_URL`,
      };
    case PLATFORM_FORBIDDEN:
      return {
        ok: true,
        uncertain: true,
        message: `answers, but its refusal names neither the client nor the code (${answer(error)}): could not tell whether the client credentials are accepted; the first sign-in will`,
      };
    case PLATFORM_RATE_LIMITED:
    case PLATFORM_SERVER_ERROR:
      return {
        ok: true,
        uncertain: true,
        message: `answers, but could not check the client credentials now (${answer(error)}): run check-config again later`,
      };
    default:
      // Another refusal that does not name the client (400 invalid_request, 403…): how the
      // platform words a bad code is not public, so this reads as accepted, said with care.
      return {
        ok: true,
        message: `client credentials accepted, as far as the answer tells: the token endpoint refused the probe's made-up code without naming the client (${answer(error)})`,
      };
  }
}

/**
 * A URL other than the token endpoint (PLATFORM_API_URL): any HTTP answer means reachable, since
 * its root need not serve a page, so the status is shown without judging it.
 */
export async function probeReachable(
  url: string,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Promise<Probe> {
  try {
    const response = await fetchImpl(url, {
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return {
      ok: true,
      message: `reachable (HTTP ${response.status} at its root; only reachability is checked here)`,
    };
  } catch (error) {
    const cause = error instanceof Error && error.cause ? ` (${errorMessage(error.cause)})` : "";
    return { ok: false, message: `does not answer: ${errorMessage(error)}${cause}` };
  }
}
