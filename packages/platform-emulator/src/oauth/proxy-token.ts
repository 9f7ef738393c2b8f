import { errors, jwtVerify, SignJWT } from "jose";
import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import type { ConsoleTokenRecord, GrantRecord } from "../state/types.ts";
import type { GrantService } from "./grants.ts";

/**
 * Proxy access tokens (spec 2.5, 3.2 rule 2): HS256 JWTs naming the console token and the grant
 * that minted them. Every use re-checks the grant, so revoking the application's authorization
 * kills them at once, before `exp`.
 */
export interface ProxyTokenService {
  mint(grant: GrantRecord, token: ConsoleTokenRecord): Promise<{ jwt: string; expiresIn: number }>;
  /** The console token a proxy token stands for, or undefined when invalid in any way. */
  verify(jwt: string): Promise<ConsoleTokenRecord | undefined>;
}

const AUDIENCE = "platform-emulator:api";
// A fixed issuer, not the base URL: a token minted before a restart on another address stays
// valid, as it would on a platform whose address does not change with its port.
const ISSUER = "platform-emulator";

export function createProxyTokenService(
  state: EmulatorState,
  clock: EmulatorClock,
  options: ResolvedOptions,
  grants: GrantService,
  key: Uint8Array,
): ProxyTokenService {
  return {
    async mint(grant, token) {
      const now = clock.now();
      const iat = Math.floor(now / 1000);
      const expiresIn = options.proxyTokenTtlSeconds;
      // `exp` is whole seconds from the floored `iat`, so alone it would end the token up to a
      // second before the expires_in that 2.5 makes authoritative; `exp_ms` holds the exact end.
      const claims = {
        ns: token.namespace,
        tid: token.id,
        gid: grant.id,
        exp_ms: now + expiresIn * 1000,
      };
      const jwt = await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(String(grant.userId))
        .setJti(crypto.randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + expiresIn)
        .sign(key);
      return { jwt, expiresIn };
    },
    async verify(jwt) {
      try {
        const { payload } = await jwtVerify(jwt, key, {
          algorithms: ["HS256"],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now()),
          // jose compares whole seconds; the exact end is checked below.
          clockTolerance: 1,
        });
        const { gid, tid, ns, exp_ms: expMs } = payload;
        const end = typeof expMs === "number" ? expMs : (payload.exp ?? 0) * 1000;
        if (clock.now() >= end) return undefined;
        if (typeof gid !== "string" || !grants.isLive(gid)) return undefined;
        const token = typeof tid === "number" ? state.consoleTokens.get(tid) : undefined;
        return token?.namespace === ns ? token : undefined;
      } catch (error) {
        if (error instanceof errors.JOSEError) return undefined;
        throw error;
      }
    },
  };
}
