/**
 * A platform whose OAuth server nobody here wrote: panva's `oidc-provider` (a certified OpenID
 * Provider, RFC 6749 compliant) on 127.0.0.1, with the authorization_code and refresh_token
 * grants, rotating refresh tokens (a reused one is refused and ends the grant), a confidential
 * client on `client_secret_basic`, and RFC 6749 error bodies. Its routes sit where spec 4.1–4.3
 * puts them (`/oauth/authorize`, `/api/open/oauth/token`). Beside it, a minimal resource server
 * for the two open endpoints a grant is used for (user info, the token list), which accepts
 * exactly the access tokens the provider still holds valid.
 */

import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, {
  type Adapter,
  type AdapterFactory,
  type AdapterPayload,
  type Configuration,
  type JWK,
} from "oidc-provider";

export interface OidcAccount {
  id: number;
  login: string;
  name: string;
}

export const OIDC_ACCOUNTS: readonly OidcAccount[] = [
  { id: 1001, login: "demo", name: "Demo Listener" },
  { id: 1002, login: "ada", name: "Ada" },
];

export interface OidcPlatformOptions {
  clientId: string;
  clientSecret: string;
  /** The backend's `/oauth/callback`, registered exactly. */
  redirectUri: string;
  /** Access-token lifetime in seconds (`expires_in`). */
  accessTokenTtl: number;
  /** How the client authenticates at the token endpoint; default `client_secret_basic`. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
}

/** One request to the token endpoint, as the server saw it. */
export interface TokenEndpointCall {
  grantType: string | null;
  authorization: string | null;
  status: number;
  /** The JSON answer: tokens, `expires_in` and `scope`, or `error` and `error_description`. */
  body: Record<string, unknown>;
}

export interface OidcPlatform {
  url: string;
  provider: Provider;
  /** Every token-endpoint request, oldest first. */
  tokenCalls: TokenEndpointCall[];
  /** Errors the provider reported as its own fault (should stay empty). */
  serverErrors: unknown[];
  /**
   * Plays the user's browser on the authorization page: follows the provider's redirects through
   * its login and consent interactions (approved as `login`) and returns the URL it finally
   * redirects to, the backend's callback with `code` and `state` (or `error`).
   */
  authorize(authorizeUrl: string, login?: string): Promise<string>;
  close(): Promise<void>;
}

function signingKey(): JWK {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: "interop", alg: "RS256", use: "sig" };
}

/**
 * The provider's state in plain maps, one set per platform (its built-in memory adapter works the
 * same but warns on every start). Expiry is the provider's own check on `find`.
 */
function memoryAdapter(): AdapterFactory {
  const records = new Map<string, AdapterPayload>();
  const byUid = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();
  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    return {
      upsert(id, payload) {
        records.set(key(id), payload);
        if (payload.uid) byUid.set(payload.uid, key(id));
        if (payload.grantId) {
          const keys = byGrant.get(payload.grantId) ?? new Set<string>();
          byGrant.set(payload.grantId, keys.add(key(id)));
        }
        return Promise.resolve();
      },
      find: (id) => Promise.resolve(records.get(key(id))),
      findByUid(uid) {
        const found = byUid.get(uid);
        return Promise.resolve(found ? records.get(found) : undefined);
      },
      findByUserCode: () => Promise.resolve(undefined),
      consume(id) {
        const record = records.get(key(id));
        if (record) record.consumed = Math.floor(Date.now() / 1000);
        return Promise.resolve();
      },
      destroy(id) {
        records.delete(key(id));
        return Promise.resolve();
      },
      revokeByGrantId(grantId) {
        for (const stored of byGrant.get(grantId) ?? []) records.delete(stored);
        byGrant.delete(grantId);
        return Promise.resolve();
      },
    };
  };
}

function configuration(options: OidcPlatformOptions): Configuration {
  return {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? "client_secret_basic",
      },
    ],
    // The spec's scopes. No `openid`: the backend asks for plain OAuth 2.0, which the provider
    // allows for the code flow (no ID token is issued then).
    scopes: ["user_info", "api_key"],
    claims: { user_info: ["login", "name"] },
    routes: {
      authorization: "/oauth/authorize",
      token: "/api/open/oauth/token",
      userinfo: "/oidc/me",
      jwks: "/oidc/jwks",
      revocation: "/oidc/revoke",
      end_session: "/oidc/logout",
    },
    jwks: { keys: [signingKey()] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    // PKCE runs between the extension and the backend; the backend is a confidential client
    // here, for which RFC 9700 and the provider's default do not demand it.
    pkce: { required: () => false },
    // Every code grant gets a refresh token (the spec's platform issues one without
    // `offline_access`), it outlives the login session, and it rotates on every use.
    issueRefreshToken: () => true,
    expiresWithSession: () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: options.accessTokenTtl,
      AuthorizationCode: 60,
      RefreshToken: 14 * 86_400,
      Grant: 14 * 86_400,
      Interaction: 600,
      Session: 86_400,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  };
}

export async function startOidcPlatform(options: OidcPlatformOptions): Promise<OidcPlatform> {
  const tokenCalls: TokenEndpointCall[] = [];
  const serverErrors: unknown[] = [];
  // Listen first: the provider's issuer is the address the port makes.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(url, configuration(options));
  /** Who approves the next interaction (the test's "browser" sets it). */
  let approvingLogin = "demo";

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === "login") {
      await provider.interactionFinished(req, res, { login: { accountId: approvingLogin } });
      return;
    }
    // Consent: grant what the client asked for (the user clicks "Allow").
    const accountId = details.session?.accountId ?? approvingLogin;
    const clientId = String(details.params.client_id);
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId, clientId });
    if (!grant) throw new Error("grant of the interaction is gone");
    const missing = details.prompt.details.missingOIDCScope;
    if (Array.isArray(missing)) grant.addOIDCScope(missing.join(" "));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }

  /** The two open endpoints (spec 4.3, 4.4), for access tokens the provider still honours. */
  async function openApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const value = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    const token = value ? await provider.AccessToken.find(value) : undefined;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!token || token.isExpired) {
      send(401, { error: "invalid_token", error_description: "access token invalid or expired" });
      return;
    }
    const account = OIDC_ACCOUNTS.find((a) => a.login === token.accountId);
    if (!account) {
      send(401, { error: "invalid_token", error_description: "unknown account" });
      return;
    }
    if (path === "/api/open/v1/userinfo") {
      send(200, { id: account.id, login: account.login, name: account.name, avatar_url: null });
      return;
    }
    const namespace = /^\/api\/open\/v1\/([^/]+)\/tokens$/.exec(path)?.[1];
    if (namespace !== undefined && token.scopes.has("api_key")) {
      if (namespace !== account.login) {
        send(404, { error: "not_found", message: "namespace not found" });
        return;
      }
      send(200, [{ id: 101, name: "Studio (paid)", usage_scenario: "paid" }]);
      return;
    }
    send(404, { error: "not_found" });
  }

  provider.on("server_error", (_ctx: unknown, error: unknown) => serverErrors.push(error));
  // Koa middleware in front of the provider's own: records each token-endpoint request as answered.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== "/api/open/oauth/token") return;
    const params = (ctx as { oidc?: { params?: { grant_type?: unknown } } }).oidc?.params;
    const body: unknown = ctx.body;
    tokenCalls.push({
      grantType: typeof params?.grant_type === "string" ? params.grant_type : null,
      authorization: ctx.get("authorization") || null,
      status: ctx.status,
      body: typeof body === "object" && body !== null ? { ...body } : {},
    });
  });
  const providerHandler = provider.callback();

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const fail = (error: unknown) => {
      serverErrors.push(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    };
    if (path.startsWith("/interaction/")) {
      interaction(req, res).catch(fail);
      return;
    }
    if (path.startsWith("/api/open/v1/")) {
      openApi(req, res, path).catch(fail);
      return;
    }
    Promise.resolve(providerHandler(req, res)).catch(fail);
  });

  async function authorize(authorizeUrl: string, login = "demo"): Promise<string> {
    approvingLogin = login;
    const cookies = new Map<string, string>();
    let next = authorizeUrl;
    // authorize → login interaction → resume → consent interaction → resume → the client.
    for (let hop = 0; hop < 10; hop++) {
      if (!next.startsWith(url)) return next;
      const response = await fetch(next, {
        redirect: "manual",
        headers: { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      for (const header of response.headers.getSetCookie()) {
        const [pair = ""] = header.split(";");
        const at = pair.indexOf("=");
        const name = pair.slice(0, at);
        const value = pair.slice(at + 1);
        if (value === "" || /expires=Thu, 01 Jan 1970/i.test(header)) cookies.delete(name);
        else cookies.set(name, value);
      }
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 303 || !location) {
        throw new Error(`authorization answered ${response.status}: ${await response.text()}`);
      }
      next = new URL(location, next).toString();
    }
    throw new Error("authorization did not come back to the client within 10 redirects");
  }

  return {
    url,
    provider,
    tokenCalls,
    serverErrors,
    authorize,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}
