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
  runtime.onFreed((account) => {
    taskQueue.kick(account);
  });
  return {
    runtime,
    tasks: createTaskService(runtime, taskQueue),
    taskQueue,
    reconciler: createReconciler(runtime),
  };
}
