import { MUSIC_FIELDS } from "@overture/core/music";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";

describeEachDriver("operations endpoints", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(() => t.close());

  it("answers /healthz while the process is up", async () => {
    const res = await t.app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("is ready when the database answers and migrations are applied", async () => {
    const res = await t.app.request("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "ready",
      database: "ok",
      migrations: "applied",
    });
  });

  it("is not ready once shutdown has begun", async () => {
    t.backend.deps.lifecycle.shuttingDown = true;
    try {
      const res = await t.app.request("/readyz");
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: "not_ready", shutting_down: true });
    } finally {
      t.backend.deps.lifecycle.shuttingDown = false;
    }
  });

  it("exposes Prometheus metrics named in the issue", async () => {
    await t.app.request("/healthz");
    const res = await t.app.request("/metrics");
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const name of [
      "overture_http_requests_total",
      "overture_webhook_deliveries_total",
      "overture_grant_refreshes_total",
      "overture_proxy_token_mints_total",
      "overture_platform_polls_total",
      "overture_sse_clients",
      "overture_task_queue_depth",
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
    expect(text).toMatch(
      /overture_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/,
    );
  });

  it("exposes process, memory, GC and event-loop metrics beside its own", async () => {
    const text = await (await t.app.request("/metrics")).text();
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_gc_duration_seconds",
      "nodejs_eventloop_lag_p99_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });

  it("describes every API route in the OpenAPI document", async () => {
    const doc = (await (await t.app.request("/openapi.json")).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/auth/start",
        "/oauth/callback",
        "/auth/token",
        "/api/me",
        "/api/sessions",
        "/api/namespaces/{ns}/tokens",
        "/api/tasks",
        "/api/tasks/{id}",
        "/api/tasks/{id}/cancel",
        "/api/quota",
        "/api/events",
        "/webhooks/platform",
      ]),
    );
  });

  it("documents the submit body with every music parameter, its type and its range", async () => {
    const doc = (await (await t.app.request("/openapi.json")).json()) as {
      paths: Record<string, { post?: { requestBody?: { content: Record<string, unknown> } } }>;
    };
    const body = doc.paths["/api/tasks"]?.post?.requestBody?.content["application/json"] as {
      schema: { properties: Record<string, Record<string, unknown>>; required: string[] };
    };
    const { properties, required } = body.schema;
    expect(Object.keys(properties)).toEqual(Object.keys(MUSIC_FIELDS));
    expect(required).toEqual(["prompt"]);
    for (const [name, spec] of Object.entries(MUSIC_FIELDS)) {
      const field = properties[name] ?? {};
      expect(field.description, name).toEqual(expect.any(String));
      if (spec.kind === "number" || spec.kind === "integer")
        expect(field, name).toMatchObject({
          type: spec.kind,
          minimum: spec.min,
          maximum: spec.max,
        });
      if (spec.kind === "integer-list")
        expect(field, name).toMatchObject({
          type: "array",
          items: { type: "integer", minimum: spec.min, maximum: spec.max },
        });
      if (spec.kind === "option") expect(field, name).toMatchObject({ enum: spec.options });
      if (spec.kind === "text")
        expect(field, name).toMatchObject({ type: "string", maxLength: spec.maxLength });
      if (spec.kind === "boolean") expect(field, name).toMatchObject({ type: "boolean" });
    }
  });

  it("renders a self-contained docs page under a script-free CSP", async () => {
    const res = await t.app.request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain("<code>/api/tasks</code>");
    expect(page).not.toContain("<script");
  });

  it("answers an unknown route with a JSON 404 naming it", async () => {
    const res = await t.app.request("/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found", message: "No route for GET /nope" });
  });
});
