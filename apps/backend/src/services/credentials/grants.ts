import { isPlatformError } from "@overture/core/errors";
import type { TokenResponse } from "@overture/core/schemas";
import { eq, sql } from "drizzle-orm";
import { grants, proxyTokens } from "../../db/schema/index.ts";
import type { AppDatabase, Transaction } from "../../db/client.ts";
import { backendMisconfigured, CLIENT_REJECTED_LOG } from "../../lib/errors.ts";
import { platformUnavailable, reauthenticationRequired } from "./errors.ts";
import { VaultError, type Vault } from "../../lib/vault.ts";
import type { PlatformClient } from "@overture/core/client";
import type { Clock } from "../../lib/clock.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { Logger } from "../../lib/logger.ts";

type GrantRow = typeof grants.$inferSelect;

/** Refresh this long before the access token expires, so a call never starts with a dying token. */
export const REFRESH_AHEAD_MS = 60_000;
/** Lifetime assumed when a token response leaves `expires_in` out (RFC 6749 allows it). */
export const DEFAULT_ACCESS_TTL_SECONDS = 3_600;

export interface GrantStatus {
  status: "active" | "revoked";
  scope: string;
  accessExpiresAt: Date;
  revokedReason: string | null;
}

/** Why a refresh is needed: the token is (nearly) expired, or the platform just refused it. */
type Trigger =
  { kind: "expiry"; seenVersion: number } | { kind: "unauthorized"; failedToken: string };

type RefreshOutcome =
  | { kind: "token"; token: string }
  | { kind: "revoked"; reason: string }
  | { kind: "error"; error: unknown };

export const accessContext = (userId: number) => `grant:${userId}:access`;
export const refreshContext = (userId: number) => `grant:${userId}:refresh`;

export interface GrantDeps {
  db: AppDatabase;
  vault: Vault;
  platform: PlatformClient;
  clock: Clock;
  metrics: Metrics;
  logger: Logger;
}

/**
 * A sealed token of a grant, opened. A grant that opens with no listed key (a key removed too
 * early, damaged data) is left as it is, so listing the key again brings it back; meanwhile its
 * owner is asked to sign in, which replaces it (docs/self-hosting.md, "Key rotation").
 */
function openGrant(vault: Vault, sealed: string, context: string): string {
  try {
    return vault.open(sealed, context);
  } catch (error) {
    if (error instanceof VaultError) throw reauthenticationRequired("grant_unreadable");
    throw error;
  }
}

/** When an access token obtained at `from` (epoch ms) expires. */
const expiresAt = (tokens: TokenResponse, from: number) =>
  new Date(from + (tokens.expires_in ?? DEFAULT_ACCESS_TTL_SECONDS) * 1000);

/**
 * The user's platform OAuth grant (DESIGN "Tokens the backend keeps"). Tokens are sealed at rest.
 * A refresh happens once across every instance: the grant row is locked (`FOR UPDATE`) and
 * re-read, and an instance that finds a newer `version` (or a different token than the one that
 * failed) uses it instead of redeeming the refresh token again, which matters when the platform
 * rotates refresh tokens and treats a second use as theft.
 */
export function createGrantService(deps: GrantDeps) {
  const { db, vault, clock, metrics } = deps;

  const openAccess = (row: GrantRow) =>
    openGrant(vault, row.accessTokenEnc, accessContext(row.userId));

  async function readGrant(userId: number): Promise<GrantRow> {
    const [row] = await db.select().from(grants).where(eq(grants.userId, userId)).limit(1);
    if (!row) throw reauthenticationRequired("no_grant");
    if (row.status === "revoked") throw reauthenticationRequired(row.revokedReason ?? "revoked");
    return row;
  }

  async function refreshLocked(userId: number, trigger: Trigger): Promise<string> {
    const outcome = await db.transaction(async (tx): Promise<RefreshOutcome> => {
      const [row] = await tx.select().from(grants).where(eq(grants.userId, userId)).for("update");
      if (!row) return { kind: "revoked", reason: "no_grant" };
      if (row.status === "revoked")
        return { kind: "revoked", reason: row.revokedReason ?? "revoked" };
      const stored = openAccess(row);
      const fresh = row.accessExpiresAt.getTime() - clock.now() > REFRESH_AHEAD_MS;
      const someoneRefreshed =
        trigger.kind === "expiry"
          ? row.version !== trigger.seenVersion || fresh
          : stored !== trigger.failedToken;
      if (someoneRefreshed) {
        metrics.refreshes.inc({ outcome: "reused" });
        return { kind: "token", token: stored };
      }
      return refreshGrantWithPlatform(deps, tx, row);
    });
    if (outcome.kind === "token") return outcome.token;
    if (outcome.kind === "revoked") throw reauthenticationRequired(outcome.reason);
    throw toApiError(outcome.error);
  }

  const service = {
    /** Stores the grant of a sign-in, replacing any older one (and its cached proxy tokens). */
    store(
      userId: number,
      tokens: TokenResponse,
      requestedScope: string,
      obtainedAt: number,
    ): Promise<void> {
      return storeGrant(deps, userId, tokens, requestedScope, obtainedAt);
    },

    /**
     * The grant's status for `/api/me`; null when the user never completed a sign-in. A grant
     * whose tokens no listed key opens is reported revoked (`grant_unreadable`), as every call
     * that needs it answers: the extension then asks its owner to sign in, which replaces it.
     */
    status(userId: number): Promise<GrantStatus | null> {
      return grantStatus(deps, userId);
    },

    /**
     * A valid OAuth access token for the user, refreshed first when less than
     * {@link REFRESH_AHEAD_MS} is left. Throws `reauthentication_required` (401) when the grant
     * is revoked and `platform_unavailable` (503) when a needed refresh could not reach the platform.
     */
    async accessToken(userId: number): Promise<string> {
      const row = await readGrant(userId);
      if (row.accessExpiresAt.getTime() - clock.now() > REFRESH_AHEAD_MS) return openAccess(row);
      return refreshLocked(userId, { kind: "expiry", seenVersion: row.version });
    },

    /**
     * Calls `fn` with an access token; when the platform answers 401 (PLATFORM_UNAUTHORIZED),
     * refreshes (only if the failed token is still the stored one) and calls `fn` once more.
     */
    async withAccessToken<T>(userId: number, fn: (accessToken: string) => Promise<T>): Promise<T> {
      const token = await service.accessToken(userId);
      try {
        return await fn(token);
      } catch (error) {
        if (!isPlatformError(error, "PLATFORM_UNAUTHORIZED")) throw error;
      }
      return fn(await refreshLocked(userId, { kind: "unauthorized", failedToken: token }));
    },
  };
  return service;
}

/**
 * The token endpoint refused the refresh token itself (RFC 6749 `invalid_grant`, or another 400
 * about the request): the grant is over. `invalid_client` is not in this list on purpose: it
 * means the backend's own credentials are wrong, and revoking every user's grant over a
 * configuration mistake would force everyone to sign in again once it is fixed.
 */
function refusesGrant(error: unknown): boolean {
  return isPlatformError(error, ["OAUTH_INVALID_GRANT", "PLATFORM_BAD_REQUEST"]);
}

function toApiError(error: unknown): Error {
  if (isPlatformError(error, "OAUTH_INVALID_CLIENT")) return backendMisconfigured();
  return platformUnavailable(error);
}

/** Stores a sign-in's grant, sealed, replacing any older one and its cached proxy tokens. */
async function storeGrant(
  deps: Pick<GrantDeps, "db" | "vault" | "clock">,
  userId: number,
  tokens: TokenResponse,
  requestedScope: string,
  obtainedAt: number,
): Promise<void> {
  const now = new Date(deps.clock.now());
  const values = {
    accessTokenEnc: deps.vault.seal(tokens.access_token, accessContext(userId)),
    refreshTokenEnc: tokens.refresh_token
      ? deps.vault.seal(tokens.refresh_token, refreshContext(userId))
      : null,
    scope: tokens.scope ?? requestedScope,
    accessExpiresAt: expiresAt(tokens, obtainedAt),
    status: "active" as const,
    revokedReason: null,
    refreshedAt: null,
    updatedAt: now,
  };
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(grants)
      .values({ userId, ...values, version: 1, createdAt: now })
      .onConflictDoUpdate({
        target: grants.userId,
        set: { ...values, version: sql`${grants.version} + 1` },
      });
    await tx.delete(proxyTokens).where(eq(proxyTokens.userId, userId));
  });
}

/** The grant's status, reported revoked when no listed key opens its tokens. */
async function grantStatus(
  deps: Pick<GrantDeps, "db" | "vault">,
  userId: number,
): Promise<GrantStatus | null> {
  const [row] = await deps.db.select().from(grants).where(eq(grants.userId, userId)).limit(1);
  if (!row) return null;
  const readable = (sealed: string | null, context: string) => {
    if (sealed === null) return true;
    try {
      deps.vault.open(sealed, context);
      return true;
    } catch {
      return false;
    }
  };
  const unreadable =
    row.status === "active" &&
    !(
      readable(row.accessTokenEnc, accessContext(userId)) &&
      readable(row.refreshTokenEnc, refreshContext(userId))
    );
  return {
    status: unreadable ? "revoked" : row.status,
    scope: row.scope,
    accessExpiresAt: row.accessExpiresAt,
    revokedReason: unreadable ? "grant_unreadable" : row.revokedReason,
  };
}

/** Revokes the grant in `tx` and drops the proxy tokens minted under it. */
async function revokeGrant(
  deps: Pick<GrantDeps, "clock" | "metrics" | "logger">,
  tx: Transaction,
  userId: number,
  reason: string,
): Promise<RefreshOutcome> {
  await tx
    .update(grants)
    .set({ status: "revoked", revokedReason: reason, updatedAt: new Date(deps.clock.now()) })
    .where(eq(grants.userId, userId));
  // Proxy tokens minted under this grant die with it on the platform (spec 3.2 rule 2).
  await tx.delete(proxyTokens).where(eq(proxyTokens.userId, userId));
  deps.metrics.refreshes.inc({ outcome: "revoked" });
  deps.logger.info({ userId, reason }, "grant revoked");
  return { kind: "revoked", reason };
}

/** Redeems the refresh token while the row is locked; stores the result or the revocation. */
async function refreshGrantWithPlatform(
  deps: Pick<GrantDeps, "clock" | "platform" | "metrics" | "logger" | "vault">,
  tx: Transaction,
  row: GrantRow,
): Promise<RefreshOutcome> {
  const userId = row.userId;
  if (!row.refreshTokenEnc) return revokeGrant(deps, tx, userId, "no_refresh_token");
  const refreshToken = openGrant(deps.vault, row.refreshTokenEnc, refreshContext(userId));
  const startedAt = deps.clock.now();
  let tokens: TokenResponse;
  try {
    tokens = await deps.platform.refreshGrant({ refreshToken });
  } catch (error) {
    if (refusesGrant(error)) return revokeGrant(deps, tx, userId, "refresh_refused");
    deps.metrics.refreshes.inc({ outcome: "failed" });
    const code = isPlatformError(error) ? error.code : undefined;
    if (code === "OAUTH_INVALID_CLIENT")
      deps.logger.error({ userId, platformError: code }, CLIENT_REJECTED_LOG);
    else
      deps.logger.warn({ userId, platformError: code }, "grant refresh failed; the grant is kept");
    return { kind: "error", error };
  }
  await tx
    .update(grants)
    .set({
      accessTokenEnc: deps.vault.seal(tokens.access_token, accessContext(userId)),
      // Rotation: store the new refresh token when one came back, keep the old one otherwise.
      ...(tokens.refresh_token
        ? { refreshTokenEnc: deps.vault.seal(tokens.refresh_token, refreshContext(userId)) }
        : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      accessExpiresAt: expiresAt(tokens, startedAt),
      version: sql`${grants.version} + 1`,
      refreshedAt: new Date(startedAt),
      updatedAt: new Date(deps.clock.now()),
    })
    .where(eq(grants.userId, userId));
  deps.metrics.refreshes.inc({ outcome: "refreshed" });
  return { kind: "token", token: tokens.access_token };
}

export type GrantService = ReturnType<typeof createGrantService>;
