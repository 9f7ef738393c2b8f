import type { AppType, ShareCreate, TaskPatch } from "@overture/backend/api";
import { type ClientResponse, hc, parseResponse } from "hono/client";
import type { AudioFormat, BackendReadiness, Selection, TaskPage } from "../shared/types.ts";
import { OvertureError } from "../shared/errors.ts";
import { networkError, responseError } from "./http.ts";

export interface ApiOptions {
  /** Backend origin without a trailing slash. */
  baseUrl: string;
  /** Session token; omitted for the sign-in calls. */
  token?: string | null;
  fetch?: typeof fetch;
}

export interface TaskQuery {
  status?: string;
  cursor?: string;
  limit?: number;
}

/**
 * Sends one typed request: a network failure becomes `offline` / `backend_unreachable`, a non-2xx
 * answer an `OvertureError` with the backend's code, a 2xx its typed body.
 */
async function ok<T extends ClientResponse<unknown>>(request: () => Promise<T>) {
  let response: T;
  try {
    response = await request();
  } catch (cause) {
    throw networkError(cause);
  }
  if (!response.ok) throw await responseError(response);
  return parseResponse(response);
}

/**
 * The backend's API as the background uses it, typed by the backend's own routes (`hc<AppType>`).
 * Every call throws `OvertureError` with a stable code; nothing here retries a POST, so a task
 * is never submitted twice.
 */
export function createApi(options: ApiOptions) {
  const fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const headers: Record<string, string> = options.token
    ? { Authorization: `Bearer ${options.token}` }
    : {};
  const client = hc<AppType>(baseUrl, { fetch: fetcher, headers });
  const api = client.api;
  const ns = (namespace: string) => ({ param: { ns: namespace } });
  const id = (taskId: string) => ({ param: { id: taskId } });

  return {
    baseUrl,
    fetch: fetcher,
    /** Liveness without a session: tells "backend unreachable" apart before opening a window. */
    health: () => ok(() => client.healthz.$get()),
    /**
     * Readiness without a session (first-run check): the backend answers 200 when ready and 503
     * with the same body when its database is not; anything else is not an Overture backend.
     */
    readiness: async (): Promise<BackendReadiness> => {
      let response: Response;
      try {
        response = await fetcher(new Request(`${baseUrl}/readyz`));
      } catch (cause) {
        throw networkError(cause);
      }
      if (response.status !== 200 && response.status !== 503) throw await responseError(response);
      const body = (await response.json().catch(() => null)) as Partial<BackendReadiness> | null;
      if (body?.status !== "ready" && body?.status !== "not_ready")
        throw new OvertureError("not_found", "No Overture backend answers at this address.");
      return { status: body.status, database: body.database ?? "unreachable" };
    },
    /** Whether this backend allows `redirectUri` (and its platform callback), before a window opens. */
    signInCheck: (redirectUri: string) =>
      ok(() => client.auth.check.$get({ query: { redirect_uri: redirectUri } })),
    exchangeCode: (code: string, codeVerifier: string) =>
      ok(() => client.auth.token.$post({ json: { code, code_verifier: codeVerifier } })),
    logout: () => ok(() => client.auth.logout.$post()),
    me: () => ok(() => api.me.$get()),
    sessions: async () => (await ok(() => api.sessions.$get())).sessions,
    revokeSession: (sessionId: string) => ok(() => api.sessions[":id"].$delete(id(sessionId))),
    tokens: async (namespace: string) =>
      (await ok(() => api.namespaces[":ns"].tokens.$get(ns(namespace)))).tokens,
    selection: async (): Promise<Selection | null> =>
      (await ok(() => api.selection.$get())).selection,
    setSelection: async (selection: { namespace: string; token_id: number }): Promise<Selection> =>
      (await ok(() => api.selection.$put({ json: selection }))).selection,
    webhookStatus: (namespace: string) =>
      ok(() => api.namespaces[":ns"]["webhook-secret"].$get(ns(namespace))),
    setWebhookSecret: (namespace: string, secret: string) =>
      ok(() =>
        api.namespaces[":ns"]["webhook-secret"].$put({ ...ns(namespace), json: { secret } }),
      ),
    clearWebhookSecret: (namespace: string) =>
      ok(() => api.namespaces[":ns"]["webhook-secret"].$delete(ns(namespace))),
    submitTask: (params: Record<string, unknown>) => ok(() => api.tasks.$post({ json: params })),
    tasks: async (query: TaskQuery = {}): Promise<TaskPage> => {
      const q = {
        ...(query.status ? { status: query.status } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
        ...(query.limit ? { limit: String(query.limit) } : {}),
      };
      return ok(() => api.tasks.$get({ query: q }));
    },
    /** A page of the library searched, filtered and sorted (`listParams` of a library query). */
    library: (params: Record<string, string>): Promise<TaskPage> =>
      ok(() => api.tasks.$get({ query: { ...params, limit: "20" } })),
    task: (taskId: string) => ok(() => api.tasks[":id"].$get(id(taskId))),
    cancelTask: (taskId: string) => ok(() => api.tasks[":id"].cancel.$post(id(taskId))),
    /** Renames and/or (un)favourites a task; answers the changed row. */
    updateTask: (taskId: string, patch: TaskPatch) =>
      ok(() => api.tasks[":id"].$patch({ ...id(taskId), json: patch })),
    /** Hides a finished task; `restoreTask` brings it back until `undo_until`. */
    deleteTask: (taskId: string) => ok(() => api.tasks[":id"].$delete(id(taskId))),
    /** Every parameter, lyrics, durations, timings and cost of one task. */
    details: (taskId: string) => ok(() => api.tasks[":id"].details.$get(id(taskId))),
    /** The same parameters again as a new task (new seeds where seeds were used). */
    regenerate: (taskId: string) => ok(() => api.tasks[":id"].regenerate.$post(id(taskId))),
    /** Time left for a task, from the user's similar finished tasks. */
    estimate: (taskId: string) => ok(() => api.tasks[":id"].estimate.$get(id(taskId))),
    /** A public link to one track; its `url` is in this answer only. */
    createShare: (taskId: string, share: ShareCreate) =>
      ok(() => api.tasks[":id"].shares.$post({ ...id(taskId), json: share })),
    shares: async (taskId: string) =>
      (await ok(() => api.tasks[":id"].shares.$get(id(taskId)))).shares,
    revokeShare: (shareId: string) => ok(() => api.shares[":id"].$delete(id(shareId))),
    restoreTask: (taskId: string) => ok(() => api.tasks[":id"].restore.$post(id(taskId))),
    quota: () => ok(() => api.quota.$get()),
    /** The newest refused webhook deliveries for the person's tasks, newest first. */
    webhookRejections: async (limit: number) =>
      (await ok(() => api["webhook-rejections"].$get({ query: { limit: String(limit) } })))
        .rejections,
    /** The waveform of an archived result (a few KB; no audio). */
    peaks: (taskId: string) => ok(() => api.tasks[":id"].peaks.$get(id(taskId))),
    /** A short-lived URL of the archived audio that an `<audio>` element loads without the session. */
    mediaLink: (taskId: string, format: AudioFormat) =>
      ok(() => api.tasks[":id"]["media-link"].$post({ ...id(taskId), query: { format } })),
    /** The archived result (not a JSON route): the caller reads the body. */
    audio: async (taskId: string): Promise<Response> => {
      const request = new Request(`${baseUrl}/api/tasks/${encodeURIComponent(taskId)}/audio`, {
        headers,
      });
      const response = await fetcher(request).catch((cause: unknown) => {
        throw networkError(cause);
      });
      if (!response.ok) throw await responseError(response);
      return response;
    },
    /**
     * What changed after the event `after`: each changed task once, as compressible JSON (the
     * replay, before the stream opens), and the event id to resume the stream from.
     */
    changes: (after: string) => ok(() => api.events.changes.$get({ query: { after } })),
    /**
     * The live event stream request (read by `sse.ts`), resuming after `lastEventId`. Events carry
     * whole task rows, so the replay brings only each task's newest (`replay=latest`).
     */
    eventsRequest: (lastEventId: string | null): Request =>
      new Request(`${baseUrl}/api/events?replay=latest`, {
        headers: {
          ...headers,
          Accept: "text/event-stream",
          ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}),
        },
      }),
  };
}

export type Api = ReturnType<typeof createApi>;
