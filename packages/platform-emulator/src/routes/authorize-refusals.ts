/**
 * The authorize flow's refusals: an error page for the person at the browser (a JSON body for a
 * caller that asks for one), never a redirect to an address that is not registered (spec 2.1, 7).
 */

import type { Context } from "hono";
import { errorPage } from "../pages/error-page.ts";
import { pageHeaders } from "../pages/layout.ts";
import type { AppRecord } from "../state/types.ts";

/**
 * Names both addresses so whoever runs the application sees what to fix: a backend on another
 * port than the one registered is the common case. A caller that asks for JSON (not a browser)
 * gets the same facts as an RFC 6749-style error body.
 */
export function redirectMismatch(
  c: Context,
  client: AppRecord,
  requested: string | undefined,
): Response {
  const asked = requested ?? "(no redirect_uri)";
  const description =
    `redirect_uri ${asked} is not the one registered for ${client.name} ` +
    `(${client.redirect_uri}); they must be equal (spec 2.1)`;
  const accept = c.req.header("Accept") ?? "";
  if (/application\/json/i.test(accept) && !/text\/html/i.test(accept))
    return c.json(
      {
        error: "invalid_request",
        error_description: description,
        redirect_uri: requested ?? null,
        registered_redirect_uri: client.redirect_uri,
      },
      400,
    );
  return showError(
    c,
    "Redirect address not registered",
    `${client.name} asked to come back to an address that is not the one registered for it, ` +
      "so the platform will not send you there. Register the address the application uses " +
      "(platform console → applications), or run the application's backend at the registered " +
      "address (its public URL and port).",
    [
      ["Address in this request", asked],
      ["Address registered for the application", client.redirect_uri],
    ],
  );
}

export function showError(
  c: Context,
  title: string,
  message: string,
  detail?: Parameters<typeof errorPage>[2],
): Response {
  return c.body(errorPage(title, message, detail), 400, pageHeaders());
}

export function expired(c: Context): Response {
  return showError(
    c,
    "Authorization request expired",
    "This authorization request was already answered, has expired, or came from another browser.",
  );
}
