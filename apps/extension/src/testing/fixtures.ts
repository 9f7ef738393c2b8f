// Test-only data builders and a fake backend `fetch`.
import type { Snapshot } from "../lib/shared/snapshot.ts";
import { EMPTY_SNAPSHOT } from "../lib/shared/snapshot.ts";
import type { Refusal } from "../lib/shared/refusals.ts";
import type { Me, Quota, SessionGrant, Task, User } from "../lib/shared/types.ts";

export const USER: User = {
  id: 1001,
  login: "demo",
  name: "Demo Listener",
  avatar_url: "http://127.0.0.1:4010/avatars/1001.png",
};

export function task(overrides: Partial<Task> = {}): Task {
  return {
    id: "t1",
    status: "waiting",
    namespace: "demo",
    platform_task_id: "p1",
    // Empty, so names come from the prompt a test sets; tests of a renamed track set `title`.
    title: "",
    favourite: false,
    deleted_at: null,
    params: { prompt: "lofi piano" },
    webhook_expected: false,
    output: null,
    usage_info: null,
    error: null,
    unknown_status: null,
    file_url: null,
    file_expires_at: null,
    audio_url: null,
    archive: null,
    created_at: "2025-01-01T10:00:00.000Z",
    submitted_at: "2025-01-01T10:00:01.000Z",
    finished_at: null,
    updated_at: "2025-01-01T10:00:01.000Z",
    ...overrides,
  };
}

/** The backend's address in view tests, and the audio route of task t1 there. */
export const TEST_BACKEND = "http://127.0.0.1:8787";
export const T1_AUDIO = `${TEST_BACKEND}/api/tasks/t1/audio`;

/** A task's fields once the backend archived its result (task t1's routes). */
export function archivedFields(): Pick<Task, "audio_url" | "archive"> {
  return {
    audio_url: T1_AUDIO,
    archive: {
      status: "archived",
      error: null,
      audio_url: T1_AUDIO,
      mp3_url: `${T1_AUDIO}?format=mp3`,
      peaks_url: `${TEST_BACKEND}/api/tasks/t1/peaks`,
    },
  };
}

/** A refused webhook delivery as `GET /api/webhook-rejections` lists it. */
export function rejection(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    task_id: "t1",
    namespace: "demo",
    reason: "WEBHOOK_SIGNATURE_MISMATCH",
    message: "the signature matches no secret",
    diagnoses: null,
    http_status: 401,
    received_at: "2025-01-01T10:02:00.000Z",
    ...overrides,
  };
}

/** A refusal as the background keeps it (the delivery's account resolved). */
export function refusal(overrides: Partial<Refusal> = {}): Refusal {
  return {
    id: 1,
    task_id: "t1",
    namespace: "demo",
    reason: "WEBHOOK_SIGNATURE_MISMATCH",
    causes: [],
    message: "the signature matches no secret",
    received_at: "2025-01-01T10:02:00.000Z",
    ...overrides,
  };
}

export function snapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  return { ...EMPTY_SNAPSHOT, auth: "signed_in", user: USER, updatedAt: 1, ...overrides };
}

export const SELECTION = {
  namespace: "demo",
  token_id: 1,
  token_name: "Studio (paid)",
  usage_scenario: "paid",
};

export const QUOTA: Quota = { available: 2, max_concurrency: 2, queued: 0, namespace: "demo" };

export const ME: Me = {
  user: USER,
  grant: { status: "active", scope: "user_info api_key" },
  session: { id: "s1", expires_at: "2099-01-01T00:00:00.000Z" },
};

export const GRANT: SessionGrant = {
  session_token: "ovs_token",
  token_type: "Bearer",
  expires_at: "2099-01-01T00:00:00.000Z",
  user: USER,
};

export type Route = (request: Request) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/**
 * A fake backend: routes keyed `"METHOD /path"` (query ignored), every request recorded. An
 * unknown route answers 404 like the real one; `down()` makes every call fail like a closed port.
 */
export function fakeBackend(routes: Record<string, Route> = {}) {
  const requests: Request[] = [];
  let unreachable = false;
  const table: Record<string, Route> = {
    "GET /healthz": () => json({ status: "ok" }),
    "GET /readyz": () =>
      json({ status: "ready", database: "ok", migrations: "applied", shutting_down: false }),
    "GET /api/me": () => json(ME),
    "GET /api/selection": () => json({ selection: SELECTION }),
    "GET /api/quota": () => json(QUOTA),
    "GET /api/tasks": () => json({ tasks: [], next_cursor: null }),
    "GET /api/namespaces/demo/webhook-secret": () =>
      json({ namespace: "demo", configured: false, updated_at: null, previous_valid_until: null }),
    "POST /auth/token": () => json(GRANT),
    "POST /auth/logout": () => new Response(null, { status: 204 }),
    ...routes,
  };
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    if (unreachable) throw new TypeError("Failed to fetch");
    const url = new URL(request.url);
    const route = table[`${request.method} ${url.pathname}`];
    return route ? route(request) : json({ error: "not_found", message: "no route" }, 404);
  }) as typeof globalThis.fetch;
  return {
    fetch,
    requests,
    routes: table,
    down: () => (unreachable = true),
    up: () => (unreachable = false),
    /** Requests to one path, in order. */
    calls: (method: string, path: string) =>
      requests.filter((r) => r.method === method && new URL(r.url).pathname === path),
  };
}
