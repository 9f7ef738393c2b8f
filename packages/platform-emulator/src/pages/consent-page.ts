import type { AppRecord, UserRecord } from "../state/types.ts";
import { html, safeHref } from "./html.ts";
import { page } from "./layout.ts";

const SCOPE_TEXT: Record<string, string> = {
  user_info: "Know who you are: your id, login, name and avatar.",
  api_key:
    "List your access tokens (personal and organization namespaces) and obtain short-lived proxy tokens to run tasks for you. Token values are never shown to the application.",
};

export interface ConsentView {
  requestId: string;
  app: AppRecord;
  user: UserRecord;
  otherUsers: readonly UserRecord[];
  scope: readonly string[];
  redirectUri: string;
}

/** The authorization page of spec 4.1: plain HTML forms, no script. */
export function consentPage(v: ConsentView): string {
  const homepage = safeHref(v.app.homepage);
  return page(
    `Authorize ${v.app.name}`,
    html`<div class="card">
        <p class="muted">Platform emulator · authorization</p>
        <h1><span data-testid="app-name">${v.app.name}</span> wants to access your account</h1>
        ${v.app.description ? html`<p data-testid="app-description">${v.app.description}</p>` : ""}
        ${
          homepage
            ? html`<p class="muted">
                Homepage: <a href="${homepage}" rel="noopener noreferrer">${homepage}</a>
              </p>`
            : ""
        }
      </div>
      <div class="card">
        <div class="who">
          <img src="${v.user.avatar_url}" alt="" />
          <div>
            <div>Signed in as <strong data-testid="signed-in-name">${v.user.name}</strong></div>
            <div class="muted">@${v.user.login} · id ${v.user.id}</div>
          </div>
        </div>
        ${
          v.otherUsers.length > 0
            ? html`<form class="switch" method="post" action="/oauth/authorize/switch">
                <input type="hidden" name="request_id" value="${v.requestId}" />
                <span class="muted">Not you? Switch to</span>
                ${v.otherUsers.map(
                  (u) =>
                    html`<button class="link" type="submit" name="login" value="${u.login}">
                      ${u.name}
                    </button>`,
                )}
              </form>`
            : ""
        }
        <h2>This will allow ${v.app.name} to</h2>
        <ul class="scopes">
          ${v.scope.map(
            (s) => html`<li data-scope="${s}"><code>${s}</code> ${SCOPE_TEXT[s] ?? ""}</li>`,
          )}
        </ul>
        <p class="muted">You will be sent back to <code>${v.redirectUri}</code>.</p>
        <form method="post" action="/oauth/authorize/decision">
          <input type="hidden" name="request_id" value="${v.requestId}" />
          <div class="actions">
            <button type="submit" name="decision" value="deny">Deny</button>
            <button class="primary" type="submit" name="decision" value="approve">Approve</button>
          </div>
        </form>
      </div>`,
  );
}
