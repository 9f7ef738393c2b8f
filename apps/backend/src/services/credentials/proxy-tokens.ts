import { isPlatformError } from "@overture/core/errors";
import { and, eq, sql } from "drizzle-orm";
import { proxyTokens } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { platformUnavailable } from "./errors.ts";
import type { GrantService } from "./grants.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import type { AppDatabase } from "../../db/client.ts";
import type { Vault } from "../../lib/vault.ts";
import type { PlatformClient } from "@overture/core/client";
import type { Clock } from "../../lib/clock.ts";
import type { Metrics } from "../../lib/metrics.ts";

type ProxyRow = typeof proxyTokens.$inferSelect;

/** Advisory-lock class for minting (the two-key form keeps it apart from other lock users). */
const MINT_LOCK_CLASS = 7_324_101;
const MAX_SAFETY_MARGIN_MS = 60_000;

/**
 * How long before its real expiry a cached proxy token stops being handed out: 10 % of its
 * lifetime, at most 60 s (a 1800 s token is used for 1740 s). A token handed out just before the
 * cut-off still has time to reach the platform.
 */
export function safetyMarginMs(lifetimeMs: number): number {
  return Math.min(MAX_SAFETY_MARGIN_MS, Math.max(0, lifetimeMs) / 10);
}

function usable(row: ProxyRow | undefined, now: number): row is ProxyRow {
  if (!row) return false;
  const expires = row.expiresAt.getTime();
  return expires - safetyMarginMs(expires - row.mintedAt.getTime()) > now;
}

export const proxyTokenContext = (userId: number, namespace: string, tokenId: number) =>
  `proxy:${userId}:${namespace}:${tokenId}`;

export interface ProxyTokenDeps {
  db: AppDatabase;
  vault: Vault;
  platform: PlatformClient;
  clock: Clock;
  metrics: Metrics;
}

/**
 * Short-lived proxy tokens (spec 2.5, 3.2) per (user, namespace, access-token id), cached sealed
 * until shortly before the returned `expires_in`, minted once across instances: minting holds a
 * transaction-scoped advisory lock on the key and re-checks the cache after acquiring it, so
 * concurrent callers on any instance wait for the first mint and reuse it.
 */
export function createProxyTokenService(deps: ProxyTokenDeps, grants: GrantService) {
  const { db, vault, clock, metrics } = deps;

  const service = {
    /** A valid proxy token for the access token `tokenId` in `namespace`, cached or minted once. */
    async get(userId: number, namespace: string, tokenId: number): Promise<string> {
      const [cached] = await db
        .select()
        .from(proxyTokens)
        .where(key(userId, namespace, tokenId))
        .limit(1);
      if (usable(cached, clock.now()))
        return vault.open(cached.tokenEnc, proxyTokenContext(userId, namespace, tokenId));
      try {
        // The access token is fetched before the mint lock is taken: a refresh never waits
        // inside it, so lock waiters cannot starve the pool of the connection a refresh needs.
        return await grants.withAccessToken(userId, (accessToken) =>
          mintProxyToken(deps, userId, namespace, tokenId, accessToken),
        );
      } catch (error) {
        if (!isPlatformError(error)) throw error;
        metrics.mints.inc({ outcome: "failed" });
        throw mintError(error, namespace, tokenId);
      }
    },

    /**
     * Drops the cached token when it is still `failedToken` (the platform just answered 401 to
     * it, for example because the user revoked the app); a newer one minted meanwhile stays.
     */
    async invalidate(
      userId: number,
      namespace: string,
      tokenId: number,
      failedToken: string,
    ): Promise<void> {
      const [cached] = await db
        .select()
        .from(proxyTokens)
        .where(key(userId, namespace, tokenId))
        .limit(1);
      if (
        !cached ||
        vault.open(cached.tokenEnc, proxyTokenContext(userId, namespace, tokenId)) !== failedToken
      )
        return;
      // Compare-and-delete on the ciphertext we read: a concurrent re-mint is not deleted.
      await db
        .delete(proxyTokens)
        .where(and(key(userId, namespace, tokenId), eq(proxyTokens.tokenEnc, cached.tokenEnc)));
    },

    /**
     * Calls `fn` with a proxy token; on a 401 drops it, mints a new one once and retries once.
     * A 401 to the new token drops that one too: a refused token never stays cached.
     */
    async withProxyToken<T>(
      userId: number,
      namespace: string,
      tokenId: number,
      fn: (proxyToken: string) => Promise<T>,
    ): Promise<T> {
      const token = await service.get(userId, namespace, tokenId);
      try {
        return await fn(token);
      } catch (error) {
        if (!isPlatformError(error, "PLATFORM_UNAUTHORIZED")) throw error;
      }
      await service.invalidate(userId, namespace, tokenId, token);
      const fresh = await service.get(userId, namespace, tokenId);
      try {
        return await fn(fresh);
      } catch (error) {
        if (isPlatformError(error, "PLATFORM_UNAUTHORIZED"))
          await service.invalidate(userId, namespace, tokenId, fresh);
        throw error;
      }
    },
  };
  return service;
}

function mintError(error: Error, namespace: string, tokenId: number): Error {
  if (isPlatformError(error, ["PLATFORM_NOT_FOUND", "PLATFORM_FORBIDDEN"])) {
    return new ApiError(
      404,
      ACCESS_TOKEN_NOT_FOUND,
      `Access token ${tokenId} is not available in namespace "${namespace}" (deleted, or you are no longer a member); choose another one.`,
    );
  }
  if (
    isPlatformError(error, [
      "PLATFORM_SERVER_ERROR",
      "PLATFORM_NETWORK_ERROR",
      "PLATFORM_RATE_LIMITED",
    ])
  ) {
    return platformUnavailable(error);
  }
  return error;
}

const key = (userId: number, namespace: string, tokenId: number) =>
  and(
    eq(proxyTokens.userId, userId),
    eq(proxyTokens.namespace, namespace),
    eq(proxyTokens.tokenId, tokenId),
  );

/** Mints a proxy token under the account's advisory lock, unless another instance just did. */
async function mintProxyToken(
  deps: Pick<ProxyTokenDeps, "db" | "clock" | "metrics" | "vault" | "platform">,
  userId: number,
  namespace: string,
  tokenId: number,
  accessToken: string,
): Promise<string> {
  return deps.db.transaction(async (tx) => {
    const lockKey = `${userId}:${namespace}:${tokenId}`;
    await tx.execute(sql`select pg_advisory_xact_lock(${MINT_LOCK_CLASS}, hashtext(${lockKey}))`);
    const [cached] = await tx
      .select()
      .from(proxyTokens)
      .where(key(userId, namespace, tokenId))
      .limit(1);
    if (usable(cached, deps.clock.now())) {
      deps.metrics.mints.inc({ outcome: "reused" });
      return deps.vault.open(cached.tokenEnc, proxyTokenContext(userId, namespace, tokenId));
    }
    const mintedAt = deps.clock.now();
    const detail = await deps.platform.getAccessTokenDetail(accessToken, namespace, tokenId);
    const values = {
      tokenEnc: deps.vault.seal(
        detail.proxy_access_token,
        proxyTokenContext(userId, namespace, tokenId),
      ),
      // The returned expires_in is authoritative (spec 2.5), counted from before the request.
      expiresAt: new Date(mintedAt + detail.expires_in * 1000),
      mintedAt: new Date(mintedAt),
    };
    await tx
      .insert(proxyTokens)
      .values({ userId, namespace, tokenId, ...values })
      .onConflictDoUpdate({
        target: [proxyTokens.userId, proxyTokens.namespace, proxyTokens.tokenId],
        set: values,
      });
    deps.metrics.mints.inc({ outcome: "minted" });
    return detail.proxy_access_token;
  });
}

export type ProxyTokenService = ReturnType<typeof createProxyTokenService>;
