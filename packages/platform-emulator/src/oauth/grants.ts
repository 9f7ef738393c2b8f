import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import type { BearerRecord, GrantRecord, UserRecord } from "../state/types.ts";
import { randomId } from "../util/random.ts";

/** The OAuth token response of spec 2.2. */
export interface TokenPair {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface GrantService {
  create(input: Omit<GrantRecord, "id" | "createdAt">): GrantRecord;
  issue(grant: GrantRecord, refreshToken?: string): TokenPair;
  /** The live grant and user behind an OAuth access token, if any. */
  authenticate(accessToken: string): { grant: GrantRecord; user: UserRecord } | undefined;
  isLive(grantId: string): boolean;
  revoke(grantId: string, reason: string): void;
  /** Revokes every grant of a user for an application (console "revoke authorization"). */
  revokeAuthorization(userId: number, clientId: string): number;
}

export function createGrantService(
  state: EmulatorState,
  clock: EmulatorClock,
  options: ResolvedOptions,
): GrantService {
  const live = (grantId: string) => {
    const grant = state.grants.get(grantId);
    return grant && grant.revokedAt === undefined ? grant : undefined;
  };
  const revoke = (grantId: string, reason: string) => {
    const grant = state.grants.get(grantId);
    if (!grant || grant.revokedAt !== undefined) return;
    grant.revokedAt = clock.now();
    grant.revokedReason = reason;
    // Bearer records are dropped at once; proxy tokens check the grant on every use.
    for (const map of [state.accessTokens, state.refreshTokens])
      for (const [token, record] of map) if (record.grantId === grantId) map.delete(token);
  };
  return {
    create(input) {
      const grant = { ...input, id: randomId("grant_", 12), createdAt: clock.now() };
      state.grants.set(grant.id, grant);
      return grant;
    },
    issue(grant, refreshToken) {
      const now = clock.now();
      const access: BearerRecord = {
        token: randomId("at_"),
        grantId: grant.id,
        expiresAt: now + options.accessTokenTtlSeconds * 1000,
      };
      state.accessTokens.set(access.token, access);
      let refresh = refreshToken ? state.refreshTokens.get(refreshToken) : undefined;
      if (!refresh) {
        refresh = {
          token: randomId("rt_"),
          grantId: grant.id,
          expiresAt: now + options.refreshTokenTtlSeconds * 1000,
        };
        state.refreshTokens.set(refresh.token, refresh);
      }
      return {
        access_token: access.token,
        token_type: "Bearer",
        expires_in: options.accessTokenTtlSeconds,
        refresh_token: refresh.token,
        scope: grant.scope.join(" "),
      };
    },
    authenticate(accessToken) {
      const record = state.accessTokens.get(accessToken);
      if (!record || record.expiresAt <= clock.now()) return undefined;
      const grant = live(record.grantId);
      const user = grant && state.users.get(grant.userId);
      return grant && user ? { grant, user } : undefined;
    },
    isLive: (grantId) => live(grantId) !== undefined,
    revoke,
    revokeAuthorization(userId, clientId) {
      let count = 0;
      for (const g of state.grants.values())
        if (g.userId === userId && g.clientId === clientId && g.revokedAt === undefined) {
          revoke(g.id, "authorization revoked");
          count++;
        }
      return count;
    },
  };
}
