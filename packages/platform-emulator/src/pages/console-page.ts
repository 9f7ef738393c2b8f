import type { ConsoleSnapshot, ControlTaskView, DeliveryView } from "../control/views.ts";
import { html, type SafeHtml } from "./html.ts";
import { page } from "./layout.ts";

const time = (ms: number | null | undefined) =>
  ms ? new Date(ms).toISOString().slice(11, 19) : "–";

function table(title: string, head: string[], rows: SafeHtml[]): SafeHtml {
  return html`<div class="card">
    <h1>${title}</h1>
    ${
      rows.length === 0
        ? html`<p class="muted">None.</p>`
        : html`<table>
            <thead>
              <tr>
                ${head.map((h) => html`<th>${h}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }
  </div>`;
}

/** The read-only console: the JSON API under /__emulator/ does the changing. */
export function consolePage(
  s: ConsoleSnapshot,
  tasks: readonly ControlTaskView[],
  deliveries: readonly DeliveryView[],
): string {
  return page(
    "Platform emulator console",
    html`<div class="card">
        <h1>Platform emulator console</h1>
        <p class="muted">
          Clock ${new Date(s.clock.now).toISOString()} · ${s.clock.mode} · scale ${s.clock.scale}× ·
          JSON API: <code>/__emulator/</code>
        </p>
      </div>
      ${applicationsTable(s)} ${usersTable(s)} ${accountsTable(s)} ${accessTokensTable(s)}
      ${authorizationsTable(s)} ${tasksTable(tasks)} ${deliveriesTable(deliveries)}`,
    true,
  );
}

function applicationsTable(s: ConsoleSnapshot): SafeHtml {
  return table(
    "Applications",
    ["name", "client_id", "client_secret", "redirect_uri"],
    s.applications.map(
      (a) =>
        html`<tr>
          <td>${a.name}</td>
          <td><code>${a.client_id}</code></td>
          <td><code>${a.client_secret}</code></td>
          <td>${a.redirect_uri}</td>
        </tr>`,
    ),
  );
}

function usersTable(s: ConsoleSnapshot): SafeHtml {
  return table(
    "Users",
    ["id", "login", "name"],
    s.users.map(
      (u) =>
        html`<tr>
          <td>${u.id}</td>
          <td>${u.login}</td>
          <td>${u.name}</td>
        </tr>`,
    ),
  );
}

function accountsTable(s: ConsoleSnapshot): SafeHtml {
  return table(
    "Accounts",
    ["namespace", "kind", "members", "quota", "active", "webhook secret"],
    s.accounts.map(
      (a) =>
        html`<tr>
          <td>${a.namespace}</td>
          <td>${a.kind}</td>
          <td>${a.members.join(", ")}</td>
          <td>${a.quota}</td>
          <td>${a.active_tasks}</td>
          <td>
            ${a.webhook_secret ? html`<code>${a.webhook_secret}</code>` : html`<span class="muted">empty (no callbacks)</span>`}
          </td>
        </tr>`,
    ),
  );
}

function accessTokensTable(s: ConsoleSnapshot): SafeHtml {
  return table(
    "Access tokens",
    ["id", "namespace", "name", "usage", "token"],
    s.access_tokens.map(
      (t) =>
        html`<tr>
          <td>${t.id}</td>
          <td>${t.namespace}</td>
          <td>${t.name}</td>
          <td>${t.usage_scenario}</td>
          <td><code>${t.value}</code></td>
        </tr>`,
    ),
  );
}

function authorizationsTable(s: ConsoleSnapshot): SafeHtml {
  return table(
    "Authorizations",
    ["grant", "user", "client", "scope", "revoked"],
    s.authorizations.map(
      (g) =>
        html`<tr>
          <td><code>${g.grant_id}</code></td>
          <td>${g.login}</td>
          <td>${g.client_id}</td>
          <td>${g.scope}</td>
          <td>${g.revoked_reason ?? "–"}</td>
        </tr>`,
    ),
  );
}

function tasksTable(tasks: readonly ControlTaskView[]): SafeHtml {
  return table(
    "Tasks",
    ["task", "account", "status", "created", "completed", "prompt"],
    tasks.map(
      (t) =>
        html`<tr>
          <td><code>${t.task_id}</code></td>
          <td>${t.namespace}</td>
          <td><span class="pill">${t.status}</span></td>
          <td>${time(t.created_at)}</td>
          <td>${time(t.completed_at)}</td>
          <td>${String(t.parameters.prompt ?? "")}</td>
        </tr>`,
    ),
  );
}

function deliveriesTable(deliveries: readonly DeliveryView[]): SafeHtml {
  return table(
    "Webhook deliveries",
    ["delivery", "task", "event", "state", "attempts", "last"],
    deliveries.map((d) => {
      const last = d.attempts.at(-1);
      return html`<tr>
        <td><code>${d.id}</code></td>
        <td><code>${d.taskId}</code></td>
        <td>${d.eventStatus}</td>
        <td><span class="pill">${d.state}</span></td>
        <td>${d.attempts.length}</td>
        <td>
          ${last ? `${last.outcome}${last.responseStatus ? ` ${last.responseStatus}` : ""}` : "–"}
        </td>
      </tr>`;
    }),
  );
}
