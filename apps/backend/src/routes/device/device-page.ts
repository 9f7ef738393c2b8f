import type { Context } from "hono";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/**
 * The pages of the command-line sign-in (`/device`). No script; every value escaped by
 * `hono/html`. Their own CSP: the code form's answer redirects to the platform's sign-in page,
 * and `form-action` also governs where a form's redirects may go, so the platform's origin is
 * allowed there besides this backend.
 */
export function deviceCsp(platformOrigin: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${platformOrigin}; frame-ancestors 'none'; base-uri 'none'`;
}

type Body = HtmlEscapedString | Promise<HtmlEscapedString>;

function layout(title: string, body: Body) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title} · Overture</title>
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 34rem;
            margin: 4rem auto;
            padding: 0 1rem;
            color: #1d1d1f;
          }
          h1 {
            font-size: 1.4rem;
          }
          p {
            color: #444;
          }
          input[name="user_code"] {
            font:
              1.4rem ui-monospace,
              monospace;
            letter-spacing: 0.1em;
            text-transform: uppercase;
            width: 11ch;
          }
          button {
            font: inherit;
            padding: 0.4rem 1rem;
            margin-right: 0.5rem;
          }
          .error {
            color: #a30000;
          }
        </style>
      </head>
      <body>
        <h1>${title}</h1>
        ${body}
      </body>
    </html>`;
}

/** Where the person types the code their terminal shows (RFC 8628 §3.3). */
export function codeEntryPage(prefill: string, error?: string) {
  return layout(
    "Sign in a command-line tool",
    html`<p>
        Enter the code that <code>overture-webhooks</code> shows in your terminal. You will then
        sign in on the platform and confirm.
      </p>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
      <form method="post" action="/device">
        <label for="user_code">Code</label>
        <input
          id="user_code"
          name="user_code"
          value="${prefill}"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck="false"
          maxlength="16"
          required
        />
        <button type="submit">Continue</button>
      </form>`,
  );
}

/** After the platform's sign-in: approve or deny, with the form's one-time token. */
export function confirmPage(input: {
  login: string;
  name: string;
  userAgent: string | null;
  startedAt: string;
  confirm: string;
}) {
  return layout(
    "Allow this command-line sign-in?",
    html`<p>
        A command-line tool (<code>${input.userAgent ?? "unknown program"}</code>, started
        ${input.startedAt}) asks to sign in to Overture as <strong>${input.name}</strong>
        (${input.login}). It could then use your Overture account as the extension does.
      </p>
      <p>
        Allow it only if you started <code>overture-webhooks</code> yourself just now and typed the
        code it showed. If someone sent you this link or code, deny.
      </p>
      <form method="post" action="/device/confirm">
        <input type="hidden" name="confirm" value="${input.confirm}" />
        <button type="submit" name="decision" value="approve">Allow</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>`,
  );
}

/** The end of the flow, or why it cannot go on. */
export function resultPage(title: string, message: string) {
  return layout(title, html`<p>${message}</p>`);
}

/** Answers with a device page, its CSP, and no caching (the confirmation carries a token). */
export function sendPage(
  c: Context,
  page: Body,
  status: 200 | 400 | 403 | 404 | 429 | 502,
  platformOrigin: string,
) {
  c.header("Content-Security-Policy", deviceCsp(platformOrigin));
  c.header("Cache-Control", "no-store");
  return c.html(page, status);
}
