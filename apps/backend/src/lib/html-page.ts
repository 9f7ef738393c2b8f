import type { Context } from "hono";
import { html, raw } from "hono/html";

/** What one of the backend's pages puts in the shell. */
export interface Page {
  /** The whole `<title>`. */
  title: string;
  /** The page's language; `en` unless the page is translated (the share page). */
  lang?: string;
  /** Its style sheet, inline: the pages load nothing, and their CSP allows no other source. */
  style: string;
  /** The body's markup, escaped by `hono/html`. */
  body: unknown;
  /** Search engines may index it: the API reference. Sign-in results and shared tracks: never. */
  indexable?: boolean;
}

/**
 * The one HTML shell of the backend's pages (sign-in results, the API reference, the share
 * page): self-contained, no script, every value escaped by `hono/html`. The security-headers
 * middleware adds a CSP that allows no script, unless the route set its own (the share page's,
 * which also allows its audio).
 */
export function htmlPage(page: Page) {
  return html`<!doctype html>
    <html lang="${page.lang ?? "en"}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${page.indexable ? "" : html`<meta name="robots" content="noindex" />`}
        <title>${page.title}</title>
        <style>
          ${raw(page.style)}
        </style>
      </head>
      <body>
        ${page.body}
      </body>
    </html>`;
}

const MESSAGE_STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 4rem auto; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.4rem; }
  p { color: #444; }
`;

/** A page for a browser-facing result (a refused sign-in, a rate limit). */
export function messagePage(title: string, message: string) {
  return htmlPage({
    title: `${title} · Overture`,
    style: MESSAGE_STYLE,
    body: html`<h1>${title}</h1>
      <p>${message}</p>
      <p>You can close this window and start again from the Overture extension.</p>`,
  });
}

/** Whether the caller is a browser navigation (HTML) rather than a programmatic client (JSON). */
export function wantsHtml(c: Context): boolean {
  return (c.req.header("accept") ?? "").includes("text/html");
}
