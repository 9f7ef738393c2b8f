import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { htmlPage } from "../../lib/html-page.ts";

/** The parts of an OpenAPI 3.1 document the docs page reads. */
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation | undefined> | undefined>;
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: unknown;
  }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: unknown }> }
  >;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/**
 * A self-contained reference page rendered from the backend's own OpenAPI document: no script,
 * no CDN, so it works offline and under the strict CSP of the security-headers middleware.
 */
export function docsPage(doc: OpenApiDocument): HtmlEscapedString | Promise<HtmlEscapedString> {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  return htmlPage({
    title: `${doc.info.title} · API`,
    style: STYLE,
    indexable: true,
    body: html`<header>
        <h1>${doc.info.title} <small>v${doc.info.version}</small></h1>
        <p>${doc.info.description ?? ""}</p>
        <p>
          Machine-readable: <a href="/openapi.json">/openapi.json</a>. Routes marked
          <span class="lock">session</span> need
          <code>Authorization: Bearer &lt;session token&gt;</code>.
        </p>
      </header>
      ${[...byTag.entries()].map(
        ([tag, ops]) =>
          html`<section>
            <h2>${tag}</h2>
            ${ops.map(({ method, path, op }) => operation(method, path, op))}
          </section>`,
      )}`,
  });
}

function operation(method: string, path: string, op: Operation) {
  const body = op.requestBody?.content ? Object.entries(op.requestBody.content) : [];
  return html`<details id="${method}-${path}">
    <summary>
      <span class="method ${method}">${method.toUpperCase()}</span> <code>${path}</code>
      <span class="summary">${op.summary ?? ""}</span>
      ${op.security?.length ? html`<span class="lock">session</span>` : ""}
    </summary>
    ${op.description ? html`<p>${op.description}</p>` : ""}
    ${
      op.parameters?.length
        ? html`<h3>Parameters</h3>
            <ul>
              ${op.parameters.map(
                (p) =>
                  html`<li>
                    <code>${p.name}</code> (${p.in}${p.required ? ", required" : ""})
                    ${p.description ?? ""}
                  </li>`,
              )}
            </ul>`
        : ""
    }
    ${body.map(
      ([type, media]) =>
        html`<h3>Request body <small>${type}</small></h3>
          ${schema(media.schema)}`,
    )}
    <h3>Responses</h3>
    <ul>
      ${Object.entries(op.responses ?? {}).map(
        ([status, response]) =>
          html`<li>
            <strong>${status}</strong> ${response.description ?? ""}
            ${Object.entries(response.content ?? {}).map(([type, media]) => html`<small>${type}</small>${schema(media.schema)}`)}
          </li>`,
      )}
    </ul>
  </details>`;
}

function schema(value: unknown) {
  return value === undefined ? "" : html`<pre>${JSON.stringify(value, null, 2)}</pre>`;
}

const STYLE = `
  :root { color-scheme: light dark; --muted: #666; --line: #ddd; --code: #f4f4f6; }
  @media (prefers-color-scheme: dark) { :root { --muted: #aaa; --line: #333; --code: #1e1e22; } }
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
  small { color: var(--muted); font-weight: normal; }
  h2 { border-bottom: 1px solid var(--line); padding-bottom: .3rem; margin-top: 2rem; }
  h3 { font-size: .95rem; margin: 1rem 0 .3rem; }
  details { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .4rem .8rem; }
  summary { cursor: pointer; }
  .method { display: inline-block; min-width: 4.2rem; font: 600 .8rem ui-monospace, monospace; }
  .get { color: #1a7f37; } .post { color: #0550ae; } .put { color: #9a6700; } .delete { color: #cf222e; }
  .summary { color: var(--muted); margin-left: .5rem; }
  .lock { font-size: .75rem; border: 1px solid var(--line); border-radius: 4px; padding: 0 .3rem; margin-left: .4rem; }
  pre, code { background: var(--code); border-radius: 4px; }
  pre { padding: .6rem; overflow: auto; font-size: .8rem; max-height: 24rem; }
`;
