import { authorizeUrl } from "@overture/core/oauth";
import { eq, lt } from "drizzle-orm";
import { handoffCodes, loginAttempts } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { newOpaqueToken, pkceS256, safeEqual, sha256Hex } from "../../lib/secrets.ts";
import type { GrantService } from "../credentials/grants.ts";
import type { SessionService } from "./sessions.ts";
import type { UserRow, UserService } from "./users.ts";
import { INVALID_GRANT } from "../../schemas/error-codes.ts";
import type { AppDatabase } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Config } from "../../env/env.ts";
import type { PlatformClient } from "@overture/core/client";

export const SIGN_IN_SCOPE = ["user_info", "api_key"] as const;
/** A sign-in must come back from the platform within this time. */
export const LOGIN_ATTEMPT_TTL_MS = 10 * 60_000;
/** The extension redeems its hand-off code right after the redirect; a minute is plenty. */
export const HANDOFF_TTL_MS = 60_000;

export interface LoginAttempt {
  redirectUri: string;
  codeChallenge: string;
}

export interface SignedIn {
  sessionToken: string;
  sessionId: string;
  expiresAt: Date;
  user: UserRow;
}

const invalidGrant = (message: string) => new ApiError(400, INVALID_GRANT, message);

export interface SignInDeps {
  db: AppDatabase;
  clock: Clock;
  config: Config;
  platform: PlatformClient;
}

/**
 * The sign-in flow of DESIGN "Sign-in": `state` and hand-off codes are random, single use,
 * short-lived and stored only as SHA-256, so reading the database does not let anyone finish a
 * sign-in. Consuming is `DELETE … RETURNING`: of two concurrent uses exactly one gets the row.
 */
export function createSignInService(
  deps: SignInDeps,
  services: { users: UserService; grants: GrantService; sessions: SessionService },
) {
  const { clock, config, platform } = deps;
  const callbackUrl = `${config.publicUrl}/oauth/callback`;

  function platformAuthorizeUrl(state: string): string {
    return authorizeUrl({
      baseUrl: config.platform.baseUrl,
      clientId: config.platform.clientId,
      redirectUri: callbackUrl,
      scope: [...SIGN_IN_SCOPE],
      state,
    });
  }

  /**
   * Exchanges the platform's code and records the user and the grant: the part of a sign-in the
   * extension's and the command line's share. Platform failures propagate as `PlatformError`s.
   */
  async function signInUser(code: string): Promise<UserRow> {
    const obtainedAt = clock.now();
    const tokens = await platform.exchangeCode({ code, redirectUri: callbackUrl });
    // A platform may grant fewer scopes than asked (RFC 6749 3.3). Without `api_key` Overture
    // cannot list tokens or mint proxy tokens, so the sign-in stops here with a clear reason.
    const granted = tokens.scope?.split(" ");
    if (granted && !granted.includes("api_key")) throw new InsufficientScopeError(granted);
    const info = await platform.getUserInfo(tokens.access_token);
    const user = await services.users.upsert(info);
    await services.grants.store(user.id, tokens, SIGN_IN_SCOPE.join(" "), obtainedAt);
    return user;
  }

  return {
    callbackUrl,

    /**
     * The platform's authorization URL for a sign-in whose `state` the caller stored: the
     * command-line sign-in (device-flow.ts) sends its person through the same page and callback.
     */
    authorizeUrl: platformAuthorizeUrl,

    signInUser,
    ...loginAttemptsOf(deps, platformAuthorizeUrl),
    ...handoffsOf(deps, services, signInUser),
  };
}

/** Deletes login attempts and hand-off codes past their expiry. */
async function pruneExpired(db: AppDatabase, now: number): Promise<void> {
  await db.delete(loginAttempts).where(lt(loginAttempts.expiresAt, new Date(now)));
  await db.delete(handoffCodes).where(lt(handoffCodes.expiresAt, new Date(now)));
}

/** The extension's login attempts: started with a `state`, taken back once by the callback. */
function loginAttemptsOf(
  { db, clock }: Pick<SignInDeps, "db" | "clock">,
  platformAuthorizeUrl: (state: string) => string,
) {
  return {
    /** Records a login attempt and returns the platform authorization URL to redirect to. */
    async start(attempt: LoginAttempt): Promise<string> {
      const now = clock.now();
      await pruneExpired(db, now);
      const state = newOpaqueToken("st");
      await db.insert(loginAttempts).values({
        stateHash: sha256Hex(state),
        redirectUri: attempt.redirectUri,
        codeChallenge: attempt.codeChallenge,
        expiresAt: new Date(now + LOGIN_ATTEMPT_TTL_MS),
        createdAt: new Date(now),
      });
      return platformAuthorizeUrl(state);
    },

    /** Takes the attempt `state` names, once; null when unknown, already used or expired. */
    async consumeAttempt(state: string): Promise<LoginAttempt | null> {
      const [row] = await db
        .delete(loginAttempts)
        .where(eq(loginAttempts.stateHash, sha256Hex(state)))
        .returning({
          redirectUri: loginAttempts.redirectUri,
          codeChallenge: loginAttempts.codeChallenge,
          expiresAt: loginAttempts.expiresAt,
        });
      if (!row || row.expiresAt.getTime() <= clock.now()) return null;
      return { redirectUri: row.redirectUri, codeChallenge: row.codeChallenge };
    },
  };
}

/** The hand-off codes that carry a finished sign-in to the extension, redeemed for a session. */
function handoffsOf(
  { db, clock }: Pick<SignInDeps, "db" | "clock">,
  services: { users: UserService; sessions: SessionService },
  signInUser: (code: string) => Promise<UserRow>,
) {
  return {
    /**
     * Exchanges the platform's code, records the user and the grant, and returns a hand-off code
     * for the extension bound to the attempt's PKCE challenge. Platform failures propagate as
     * `PlatformError`s for the caller to report on the extension redirect.
     */
    async complete(
      attempt: LoginAttempt,
      code: string,
    ): Promise<{ handoffCode: string; user: UserRow }> {
      const user = await signInUser(code);
      const handoffCode = newOpaqueToken("hc");
      const now = clock.now();
      await db.insert(handoffCodes).values({
        codeHash: sha256Hex(handoffCode),
        userId: user.id,
        codeChallenge: attempt.codeChallenge,
        expiresAt: new Date(now + HANDOFF_TTL_MS),
        createdAt: new Date(now),
      });
      return { handoffCode, user };
    },

    /**
     * Redeems a hand-off code for a session. The code is consumed before the verifier is checked,
     * on purpose: a wrong guess burns it, so an intercepted code allows one guess, not many.
     */
    async redeem(input: {
      code: string;
      codeVerifier: string;
      userAgent: string | null;
    }): Promise<SignedIn> {
      const [row] = await db
        .delete(handoffCodes)
        .where(eq(handoffCodes.codeHash, sha256Hex(input.code)))
        .returning();
      if (!row)
        throw invalidGrant("The sign-in code is unknown or was already used; sign in again.");
      if (row.expiresAt.getTime() <= clock.now())
        throw invalidGrant("The sign-in code has expired; sign in again.");
      if (!safeEqual(pkceS256(input.codeVerifier), row.codeChallenge)) {
        throw invalidGrant(
          "The code_verifier does not match the code_challenge of this sign-in; sign in again.",
        );
      }
      const user = await services.users.get(row.userId);
      if (!user) throw invalidGrant("The user of this sign-in no longer exists; sign in again.");
      const session = await services.sessions.create(row.userId, input.userAgent);
      return {
        sessionToken: session.token,
        sessionId: session.id,
        expiresAt: session.expiresAt,
        user,
      };
    },
  };
}

/** The platform granted the sign-in without the `api_key` scope Overture needs. */
export class InsufficientScopeError extends Error {
  override readonly name = "InsufficientScopeError";
  constructor(readonly granted: string[]) {
    super(`granted scope "${granted.join(" ")}" lacks api_key`);
  }
}

export type SignInService = ReturnType<typeof createSignInService>;
