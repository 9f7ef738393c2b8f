import { createTaskQueue } from "./queue.ts";
import { createReconciler } from "./reconciler.ts";
import { createTaskRuntime, type TaskDeps } from "./runtime.ts";
import { createTaskService } from "./service.ts";

/**
 * The tasks wing: the runtime every task service shares, the `/api/tasks` service, the local
 * queue (drained again whenever a task of its account ends) and the reconciler. Webhook intake
 * applies its reports through `runtime`; the archive wing (services/archive) copies results.
 */
export function createTaskServices(deps: TaskDeps) {
  const runtime = createTaskRuntime(deps);
  const taskQueue = createTaskQueue(runtime, { staleSubmitMs: deps.config.tasks.staleSubmitMs });
  // Accounts whose tasks just ended: those with queued tasks are drained now. One read per
  // commit finds them, whatever their number: most accounts queue nothing, and a read per ended
  // task would cost the webhook's hot path more than the rest of its work.
  runtime.onFreed((accounts) => {
    taskQueue.kickFreed(accounts);
  });
  return {
    runtime,
    tasks: createTaskService(runtime, taskQueue),
    taskQueue,
    reconciler: createReconciler(runtime),
  };
}
