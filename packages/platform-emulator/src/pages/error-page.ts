import { html } from "./html.ts";
import { page } from "./layout.ts";

/**
 * The page shown when an authorization request is rejected without a redirect (spec 7). `detail`
 * is one value, or labelled values (each shown in full, so a user can compare addresses).
 */
export function errorPage(
  title: string,
  message: string,
  detail?: string | readonly (readonly [label: string, value: string])[],
): string {
  const details =
    typeof detail === "string"
      ? html`<p class="muted"><code>${detail}</code></p>`
      : (detail ?? []).map(([label, value]) => html`<p>${label}<br /><code>${value}</code></p>`);
  return page(
    title,
    html`<div class="card error">
      <h1>${title}</h1>
      <p>${message}</p>
      ${details}
      <p class="muted">
        You were not redirected. Close this window and start again from the application.
      </p>
    </div>`,
  );
}
