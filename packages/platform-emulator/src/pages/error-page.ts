import { html } from "./html.ts";
import { page } from "./layout.ts";

/** The page shown when an authorization request is rejected without a redirect (spec 7). */
export function errorPage(title: string, message: string, detail?: string): string {
  return page(
    title,
    html`<div class="card error">
      <h1>${title}</h1>
      <p>${message}</p>
      ${detail ? html`<p class="muted"><code>${detail}</code></p>` : ""}
      <p class="muted">
        You were not redirected. Close this window and start again from the application.
      </p>
    </div>`,
  );
}
