import { createArchiver } from "./archiver.ts";
import { createTaskQueue } from "./queue.ts";
import { createReconciler } from "./reconciler.ts";
import { createTaskRuntime, type TaskDeps } from "./runtime.ts";
import { createTaskService } from "./service.ts";

export interface TaskWingDeps extends TaskDeps {
  /** Outbound HTTP for result downloads (the archiver). */
  fetch: typeof fetch;
}

/**
 * The tasks wing: the runtime every task service shares, the `/api/tasks` service, the local
 * queue (drained again whenever a task of its account ends), the reconciler and, with
 * `ARCHIVE_DIR`, the archiver. Webhook intake applies its reports through `runtime`.
 */
export function createTaskServices(deps: TaskWingDeps) {
  const runtime = createTaskRuntime(deps);
  const taskQueue = createTaskQueue(runtime, { staleSubmitMs: deps.config.tasks.staleSubmitMs });
  runtime.onFreed((account) => {
    taskQueue.kick(account);
  });
  const archiveDir = deps.config.archiveDir;
  return {
    runtime,
    tasks: createTaskService(runtime, taskQueue),
    taskQueue,
    reconciler: createReconciler(runtime),
    archiver: archiveDir
      ? createArchiver(runtime, { dir: archiveDir, fetch: deps.fetch })
      : undefined,
  };
}
