import type { Task as TaskJson } from "../../src/schemas/task.ts";
import { appendTaskEvents } from "../../src/services/events/append.ts";
import type { TestBackend, TestInstance } from "./harness.ts";

/** A signed-in user with an access token chosen for tasks (and optionally a webhook secret). */
export interface TaskUser {
  session: string;
  userId: number;
  namespace: string;
}

/** Signs in, chooses the namespace's first paid token, and stores the account's webhook secret when asked. */
export async function setUpTaskUser(
  t: TestBackend,
  options: { login?: string; namespace?: string; webhookSecret?: boolean } = {},
): Promise<TaskUser & { secret?: string }> {
  const {
    sessionToken: session,
    userId,
    login,
  } = await t.signIn(options.login ? { login: options.login } : {});
  const namespace = options.namespace ?? login;
  const listed = await t.request(`/api/namespaces/${namespace}/tokens`, { session });
  const { tokens } = (await listed.json()) as { tokens: { id: number; usage_scenario: string }[] };
  const token = tokens.find((tk) => tk.usage_scenario === "paid") ?? tokens[0];
  if (!token) throw new Error(`no access token in ${namespace}`);
  const chosen = await t.request("/api/selection", {
    method: "PUT",
    session,
    body: JSON.stringify({ namespace, token_id: token.id }),
  });
  if (chosen.status !== 200)
    throw new Error(`selection answered ${chosen.status}: ${await chosen.text()}`);
  if (!options.webhookSecret) return { session, userId, namespace };
  const secret = t.emu.control.resetWebhookSecret(namespace);
  await storeSecret(t, session, namespace, secret);
  return { session, userId, namespace, secret };
}

export async function storeSecret(
  t: TestInstance,
  session: string,
  namespace: string,
  secret: string,
): Promise<void> {
  const stored = await t.request(`/api/namespaces/${namespace}/webhook-secret`, {
    method: "PUT",
    session,
    body: JSON.stringify({ secret }),
  });
  if (stored.status !== 204)
    throw new Error(`webhook secret answered ${stored.status}: ${await stored.text()}`);
}

export async function createTask(
  t: TestInstance,
  session: string,
  params: Record<string, unknown> = {},
): Promise<TaskJson> {
  const response = await t.request("/api/tasks", {
    method: "POST",
    session,
    body: JSON.stringify({ prompt: "lofi hip hop, mellow piano", duration: 30, ...params }),
  });
  if (response.status !== 201)
    throw new Error(`POST /api/tasks answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as TaskJson;
}

export async function getTask(t: TestInstance, session: string, id: string): Promise<TaskJson> {
  const response = await t.request(`/api/tasks/${id}`, { session });
  if (response.status !== 200) throw new Error(`GET /api/tasks/${id} answered ${response.status}`);
  return (await response.json()) as TaskJson;
}

/** Requests the backend sent to the platform's task query endpoints (polls). */
export function pollCount(t: TestBackend): number {
  return t.platformCalls.filter((c) => c.method === "GET" && c.path.includes("/task/")).length;
}

export function submitCount(t: TestBackend): number {
  return t.platformCalls.filter((c) => c.method === "POST" && c.path.endsWith("/music/generations"))
    .length;
}

/**
 * Appends one `in_progress` event of `task` to task_events as a webhook would, announced by
 * NOTIFY or not; its id.
 */
export async function appendInProgress(
  t: TestBackend,
  user: TaskUser,
  task: TaskJson,
  options: { announce: boolean },
): Promise<bigint> {
  const id = await appendTaskEvents(
    t.database.db,
    [
      {
        userId: user.userId,
        taskId: task.id,
        status: "in_progress",
        source: "webhook",
        payload: { ...task, status: "in_progress" },
        createdAt: new Date(),
      },
    ],
    options,
  );
  if (id === undefined) throw new Error("nothing appended");
  return id;
}
