import type { Context } from "hono";
import { html } from "hono/html";

/**
 * A minimal self-contained page for browser-facing results (sign-in errors). Every value is
 * escaped by `hono/html`; there is no script, and the security-headers middleware adds a CSP
 * that allows none.
 */
export function messagePage(title: string, message: string) {
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
        </style>
      </head>
      <body>
        <h1>${title}</h1>
        <p>${message}</p>
        <p>You can close this window and start again from the Overture extension.</p>
      </body>
    </html>`;
}

/** Whether the caller is a browser navigation (HTML) rather than a programmatic client (JSON). */
export function wantsHtml(c: Context): boolean {
  return (c.req.header("accept") ?? "").includes("text/html");
}
