import { z } from "zod";
import {
  type Config,
  ConfigError,
  type DatabaseConfig,
  defaultPublicUrl,
  envVariables,
  parseEnv,
  processEnvironment,
  withoutEmpty,
} from "./env.ts";

// `overture-backend check-config`'s reading of the environment: beside env.ts, which parses it
// for a start, because a check goes on where a start stops (every problem, and what still probes).

/** What `overture-backend check-config` reports: the problems, and what it can still probe. */
export interface EnvironmentCheck {
  config?: Config;
  problems: string[];
  /** The database to probe, when its own variables parse (even if others do not). */
  database?: DatabaseConfig;
  /** The platform URLs to probe, likewise. */
  platformUrls: string[];
  /** The token endpoint's client settings, when they parse: check-config tries them. */
  platformClient?: PlatformClientCheck;
}

/** What check-config needs to ask the token endpoint whether it accepts the client. */
export interface PlatformClientCheck {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  clientAuth: Config["platform"]["clientAuth"];
  /** The callback the backend would send with a real code. */
  redirectUri: string;
}

/** Parses the environment without exiting, keeping whatever can be probed when parts are bad. */
export function checkEnvironment(
  environment: Record<string, string | undefined> = processEnvironment(),
): EnvironmentCheck {
  const env = withoutEmpty(environment);
  try {
    const config = parseEnv(env);
    const platformUrls = [...new Set([config.platform.baseUrl, config.platform.apiUrl])];
    const { baseUrl, clientId, clientSecret, clientAuth } = config.platform;
    const redirectUri = `${config.publicUrl}/oauth/callback`;
    const platformClient = { baseUrl, clientId, clientSecret, clientAuth, redirectUri };
    return { config, problems: [], database: config.database, platformUrls, platformClient };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const shape = envVariables.shape;
    const url = shape.DATABASE_URL.safeParse(env.DATABASE_URL);
    const dataDir = shape.PGLITE_DATA_DIR.safeParse(env.PGLITE_DATA_DIR);
    const database: DatabaseConfig | undefined =
      url.success && url.data
        ? { driver: "pg", url: url.data }
        : !url.success || !dataDir.success
          ? undefined
          : { driver: "pglite", dataDir: dataDir.data };
    const platformUrls = [env.PLATFORM_BASE_URL, env.PLATFORM_API_URL].flatMap((value) => {
      const parsed = shape.PLATFORM_API_URL.safeParse(value);
      return parsed.success && parsed.data ? [parsed.data] : [];
    });
    const client = z
      .object({
        baseUrl: shape.PLATFORM_BASE_URL,
        clientId: shape.PLATFORM_CLIENT_ID,
        clientSecret: shape.PLATFORM_CLIENT_SECRET,
        clientAuth: shape.PLATFORM_CLIENT_AUTH,
        publicUrl: shape.PUBLIC_URL,
        host: shape.HOST,
        port: shape.PORT,
      })
      .safeParse({
        baseUrl: env.PLATFORM_BASE_URL,
        clientId: env.PLATFORM_CLIENT_ID,
        clientSecret: env.PLATFORM_CLIENT_SECRET,
        clientAuth: env.PLATFORM_CLIENT_AUTH,
        publicUrl: env.PUBLIC_URL,
        host: env.HOST,
        port: env.PORT,
      });
    const platformClient = client.success
      ? {
          baseUrl: client.data.baseUrl,
          clientId: client.data.clientId,
          clientSecret: client.data.clientSecret,
          clientAuth: client.data.clientAuth,
          redirectUri: `${client.data.publicUrl ?? defaultPublicUrl(client.data.host, client.data.port)}/oauth/callback`,
        }
      : undefined;
    return {
      problems: error.problems,
      database,
      platformUrls: [...new Set(platformUrls)],
      ...(platformClient ? { platformClient } : {}),
    };
  }
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A PUBLIC_URL that points at this machine on another port than PORT, with no proxy declared
 * (TRUST_PROXY): the sign-in redirect and the platform's webhooks would go to a port nothing of
 * ours listens on. Only a loopback name or HOST itself is judged: any other host may well be a
 * proxy or a port mapping (a container's `-p 80:8787`) that check-config cannot see.
 */
export function publicUrlWarning(config: Config): string | undefined {
  if (config.trustedProxies > 0 || config.port === 0) return undefined;
  const url = new URL(config.publicUrl);
  const ours = LOOPBACK.test(url.hostname) || url.hostname === config.host;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (!ours || port === config.port) return undefined;
  return `PUBLIC_URL ${config.publicUrl} points at this machine on port ${port}, but the server listens on PORT=${config.port}: the sign-in redirect and webhooks would miss it. Set PUBLIC_URL to port ${config.port}, or leave it unset (it follows PORT), unless a proxy on port ${port} forwards to ${config.port} (then set TRUST_PROXY).`;
}
