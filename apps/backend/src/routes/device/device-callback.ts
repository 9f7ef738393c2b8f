import { isPlatformError } from "@overture/core/errors";
import type { Context } from "hono";
import type { AppEnv } from "../../middleware/app-env.ts";
import { CLIENT_REJECTED_LOG } from "../../lib/errors.ts";
import type { AppDeps } from "../../services/index.ts";
import type { DeviceSignIn } from "../../services/auth/device-flow.ts";
import { InsufficientScopeError } from "../../services/auth/sign-in.ts";
import type { UserRow } from "../../services/auth/users.ts";
import { confirmPage, resultPage, sendPage } from "./device-page.ts";

/** The query of the platform's redirect to `/oauth/callback` (spec 4.1). */
interface CallbackQuery {
  code?: string | undefined;
  error?: string | undefined;
}

/**
 * `/oauth/callback` for a sign-in started on `/device`: the platform's sign-in is the extension's
 * (same page, same callback, same code exchange); what follows is a confirmation form instead of
 * a redirect to the extension. A refusal on the platform's page denies the device.
 */
export async function deviceCallback(
  c: Context<AppEnv>,
  deps: AppDeps,
  device: DeviceSignIn,
  query: CallbackQuery,
) {
  const { deviceFlow, signIn } = deps.services;
  const origin = new URL(deps.config.platform.baseUrl).origin;
  const show = (title: string, message: string, status: 200 | 400 | 502) =>
    sendPage(c, resultPage(title, message), status, origin);
  if (query.error !== undefined) {
    await deviceFlow.deny(device);
    return show(
      "Sign-in declined",
      "You declined on the platform, so the command-line tool is not signed in. It says so in your terminal.",
      200,
    );
  }
  if (!query.code)
    return show("Sign-in failed", "The platform returned neither a code nor an error.", 400);
  let signedIn: { user: UserRow; confirm: string };
  try {
    const user = await signIn.signInUser(query.code);
    signedIn = { user, confirm: await deviceFlow.signedIn(device, user.id) };
  } catch (error) {
    return refused(error);
  }
  const { user, confirm } = signedIn;
  return sendPage(
    c,
    confirmPage({
      login: user.login,
      name: user.name,
      userAgent: device.userAgent,
      startedAt: `${device.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
      confirm,
    }),
    200,
    origin,
  );

  /** The platform's sign-in failed: why, as the extension's sign-in says it. */
  function refused(error: unknown) {
    const code = isPlatformError(error) ? error.code : undefined;
    deps.logger.warn(
      { requestId: c.get("requestId"), platformError: code ?? (error as Error).name },
      "command-line sign-in could not be completed",
    );
    if (error instanceof InsufficientScopeError)
      return show(
        "Permission missing",
        "Overture needs the api_key permission; enter the code again and allow it on the platform.",
        400,
      );
    if (code === "OAUTH_INVALID_CLIENT") {
      deps.logger.error(
        { requestId: c.get("requestId"), platformError: code },
        CLIENT_REJECTED_LOG,
      );
      return show(
        "Backend misconfigured",
        "The platform refused this backend's client credentials; its operator must fix them.",
        502,
      );
    }
    return show(
      "Sign-in failed",
      "The sign-in could not be completed; enter the code again to retry.",
      code === "OAUTH_INVALID_GRANT" ? 400 : 502,
    );
  }
}
