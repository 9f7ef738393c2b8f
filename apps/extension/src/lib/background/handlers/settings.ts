import { browser } from "wxt/browser";
import { originPattern, parseBackendUrl } from "../../shared/backend-url.ts";
import { OvertureError } from "../../shared/errors.ts";
import { backendUrl, backendUrlItem } from "../../shared/storage.ts";
import { createApi } from "../api.ts";
import type { Handler } from "./context.ts";
import { signOutLocally } from "./session.ts";

/** An address's origin, once the view asked for (and got) the permission to reach it. */
async function permittedOrigin(url: string): Promise<string> {
  const origin = parseBackendUrl(url);
  if (!origin) throw new OvertureError("invalid_url", "Enter an http:// or https:// address.");
  if (!(await browser.permissions.contains({ origins: [originPattern(origin)] })))
    throw new OvertureError("permission_denied", `Access to ${origin} was not granted.`);
  return origin;
}

/** `settings/backend-url`: switches backend (a session belongs to one: switching ends it here). */
export const setBackendUrl: Handler<"settings/backend-url"> = async (scope, { url }) => {
  const { ctx } = scope;
  const origin = await permittedOrigin(url);
  // The old backend keeps the session until it expires or is revoked from another device.
  if (origin !== (await backendUrl())) await signOutLocally(scope);
  // Stored even when it equals the development default: the person chose it.
  await backendUrlItem.setValue(origin);
  await ctx
    .api()
    .then((api) => api.health())
    .then(() => ctx.store.update((s) => ({ ...s, connectivity: "online" })))
    .catch((error: unknown) => ctx.noteFailure(error, null));
  return ctx.store.read();
};

/** `backend/check`: tests an address before it is saved (first run). */
export const checkBackend: Handler<"backend/check"> = async ({ ctx }, { url }) => {
  const origin = await permittedOrigin(url);
  return createApi({ baseUrl: origin, fetch: ctx.deps.fetch }).readiness();
};
