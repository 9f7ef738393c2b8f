import type { BaseDeps } from "../deps.ts";
import { createAccessTokenCatalog } from "./access-tokens.ts";
import { createGrantService } from "./grants.ts";
import { createProxyTokenService } from "./proxy-tokens.ts";
import { createRateLimitStore } from "./rate-limits.ts";
import { createResealer } from "./reseal.ts";
import { createSelectionService } from "./selections.ts";
import { createSignInService } from "./sign-in.ts";
import { createUserService } from "./users.ts";
import { createWebhookSecretService } from "./webhook-secrets.ts";
import { createSessionService } from "./sessions.ts";
import { createTaskServices } from "./tasks/index.ts";

/** The backend's stateful services, built once per app from the base dependencies. */
export function createServices(base: BaseDeps) {
  const sessions = createSessionService(base);
  const users = createUserService(base);
  const grants = createGrantService(base);
  const proxyTokens = createProxyTokenService(base, grants);
  const accessTokens = createAccessTokenCatalog(base, grants);
  const selections = createSelectionService(base, accessTokens);
  const webhookSecrets = createWebhookSecretService(base);
  const signIn = createSignInService(base, { users, grants, sessions });
  const taskServices = createTaskServices(base, { proxyTokens, selections, webhookSecrets });
  return {
    sessions,
    users,
    grants,
    proxyTokens,
    accessTokens,
    selections,
    webhookSecrets,
    signIn,
    rateLimits: createRateLimitStore(base),
    ...taskServices,
    // A worker (start/stop): re-seals values of retired encryption keys.
    resealer: createResealer(base),
  };
}

export type Services = ReturnType<typeof createServices>;
