import { type Refusal, currentRefusals } from "../shared/refusals.ts";
import type { Task, WebhookSecretStatus } from "../shared/types.ts";
import type { Api } from "./api.ts";
import type { Context } from "./context.ts";

/** Refusals read at a time: the backend lists newest first, and only recent ones matter. */
const PAGE = 50;
/** Tasks looked up to learn a refusal's account, when the backend's list does not name it. */
const LOOKUPS = 10;

/**
 * The person's recent refused deliveries with their account, as the backend names it, else taken
 * from the known tasks or, for a few unknown ones, asked of the backend. A refusal whose account cannot be learned is left
 * out rather than shown under the wrong account.
 */
export async function loadRefusals(api: Api, known: readonly Task[]): Promise<Refusal[]> {
  const rows = await api.webhookRejections(PAGE);
  const namespaces = new Map(known.map((task) => [task.id, task.namespace]));
  // The backend names each refusal's account; one from before it did leaves it out.
  for (const row of rows)
    if (row.task_id !== null && typeof row.namespace === "string")
      namespaces.set(row.task_id, row.namespace);
  const unknown = [...new Set(rows.map((r) => r.task_id))].filter(
    (id): id is string => id !== null && !namespaces.has(id),
  );
  const found = await Promise.all(
    unknown.slice(0, LOOKUPS).map((id) => api.task(id).catch(() => null)),
  );
  for (const task of found) if (task) namespaces.set(task.id, task.namespace);
  const refusals: Refusal[] = [];
  for (const row of rows) {
    const namespace = row.task_id === null ? undefined : namespaces.get(row.task_id);
    if (row.task_id === null || namespace === undefined) continue;
    refusals.push({
      id: row.id,
      task_id: row.task_id,
      namespace,
      reason: row.reason,
      causes: (row.diagnoses ?? []).map((d) => d.code),
      message: row.message,
      received_at: row.received_at,
    });
  }
  return refusals;
}

/** One account's current refusals (see `currentRefusals`); no request when it has no secret. */
export async function refusalsOf(
  api: Api,
  known: readonly Task[],
  namespace: string,
  secret: WebhookSecretStatus,
): Promise<Refusal[]> {
  if (!secret.configured) return [];
  return currentRefusals(await loadRefusals(api, known), namespace, secret);
}

/** Re-reads the selected account's refusals into the snapshot (the alarm, while a view is open). */
export async function refreshRefusals(ctx: Context): Promise<void> {
  const snapshot = await ctx.store.read();
  const namespace = snapshot.selection?.namespace;
  if (!namespace || !snapshot.webhookConfigured) return;
  const refusals = await ctx.call(async (api) =>
    refusalsOf(api, snapshot.tasks, namespace, await api.webhookStatus(namespace)),
  );
  await ctx.store.update((s) =>
    s.selection?.namespace === namespace ? { ...s, webhookRefusals: refusals } : s,
  );
}
