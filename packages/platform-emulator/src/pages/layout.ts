import { html, raw, type SafeHtml } from "./html.ts";

const CSS = `
:root{color-scheme:light dark;--bg:#f5f6f8;--card:#fff;--fg:#1c1f24;--muted:#5d6673;--line:#e2e5ea;
--accent:#3b5bdb;--accent-fg:#fff;--danger:#c92a2a;--chip:#eef1f6}
@media (prefers-color-scheme:dark){:root{--bg:#111318;--card:#1b1e25;--fg:#e8eaee;--muted:#9aa3b0;
--line:#2c313b;--accent:#7b93ff;--accent-fg:#0b0d12;--danger:#ff8787;--chip:#252a33}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:560px;margin:48px auto;padding:0 16px}
main.wide{max-width:1100px}
.card{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:24px;margin-bottom:16px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:20px 0 8px;color:var(--muted);font-weight:600}
p{margin:6px 0}.muted{color:var(--muted)}a{color:var(--accent)}
.who{display:flex;align-items:center;gap:12px}.who img{width:44px;height:44px;border-radius:50%}
ul.scopes{list-style:none;padding:0;margin:0}ul.scopes li{padding:10px 12px;border:1px solid var(--line);border-radius:10px;margin-bottom:8px}
code{background:var(--chip);padding:1px 6px;border-radius:6px;font-size:13px}
.actions{display:flex;gap:12px;justify-content:flex-end;margin-top:20px}
button{font:inherit;border-radius:10px;padding:9px 18px;border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}
button.primary{background:var(--accent);color:var(--accent-fg);border-color:var(--accent);font-weight:600}
button.link{border:0;background:none;color:var(--accent);padding:2px 4px}
.switch{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin-top:8px}
.error h1{color:var(--danger)}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}.pill{display:inline-block;padding:0 8px;border-radius:99px;background:var(--chip)}
`;

export function page(title: string, body: SafeHtml, wide = false): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          ${raw(CSS)}
        </style>
      </head>
      <body>
        <main class="${wide ? "wide" : ""}">${body}</main>
      </body>
    </html>`.__html;
}

/**
 * Headers for every HTML page: no scripts at all, no framing, no referrer. `formTargets` are the
 * sources a form on the page may end up at: Chromium applies `form-action` to every redirect that
 * follows the POST — and the application's redirect URI may redirect again (a backend handing
 * off to a browser extension's `https://<id>.chromiumapp.org/`), a chain the platform cannot
 * know. The consent page therefore allows any http(s) target (still no `javascript:`/`data:`).
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(" ");
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    // same-origin rather than no-referrer: with no-referrer a form POST carries `Origin: null`.
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
  };
}
