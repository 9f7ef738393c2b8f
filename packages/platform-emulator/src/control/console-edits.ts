import type { EmulatorContext } from "../context.ts";
import { randomId } from "../util/random.ts";
import { ControlError, type EmulatorControl } from "./handle.ts";

const APP_FIELDS = ["name", "description", "homepage", "redirect_uri", "client_secret"] as const;

/** What the console changes by hand (spec 2.1, 2.8): authorizations, secrets, quotas, apps. */
export function createConsoleEdits(
  ctx: EmulatorContext,
  saved: <T>(value: T) => T,
): Pick<
  EmulatorControl,
  | "revokeAuthorization"
  | "resetWebhookSecret"
  | "setWebhookSecret"
  | "setQuota"
  | "updateApplication"
> {
  const account = (namespace: string) => {
    const found = ctx.state.accounts.get(namespace);
    if (!found) throw new ControlError("namespace_not_found", `no namespace ${namespace}`, 404);
    return found;
  };
  return {
    revokeAuthorization({ clientId, userId, login }) {
      const user =
        userId !== undefined ? ctx.state.users.get(userId) : ctx.state.userByLogin(login ?? "");
      if (!user) throw new ControlError("user_not_found", "no such user", 404);
      return saved(ctx.grants.revokeAuthorization(user.id, clientId));
    },
    resetWebhookSecret(namespace) {
      const secret = randomId("whsec_", 24);
      account(namespace).webhookSecret = secret;
      return saved(secret);
    },
    setWebhookSecret(namespace, secret) {
      account(namespace).webhookSecret = saved(secret);
    },
    setQuota(namespace, quota) {
      if (!Number.isInteger(quota) || quota < 0)
        throw new ControlError("invalid_quota", "quota must be an integer ≥ 0");
      account(namespace).quota = saved(quota);
    },
    updateApplication(clientId, patch) {
      const app = ctx.state.apps.get(clientId);
      if (!app) throw new ControlError("application_not_found", `no application ${clientId}`, 404);
      if (patch.redirect_uri !== undefined && !URL.canParse(patch.redirect_uri))
        throw new ControlError("invalid_application", "redirect_uri must be an absolute URL");
      if (patch.client_secret === "")
        throw new ControlError("invalid_application", "client_secret must not be empty");
      for (const key of APP_FIELDS) {
        const value = patch[key];
        if (value !== undefined) app[key] = value;
      }
      return saved({ ...app });
    },
  };
}
