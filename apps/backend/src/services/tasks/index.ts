import type { BaseDeps } from "../../deps.ts";
import { createEventHub } from "../events/hub.ts";
import { createWebhookIntake } from "../intake/index.ts";
import { createArchiver } from "./archiver.ts";
import { createTaskQueue } from "./queue.ts";
import { createReconciler } from "./reconciler.ts";
import { createTaskRuntime, type CredentialServices } from "./runtime.ts";
import { createTaskService } from "./service.ts";

/**
 * Tasks, the local queue, the reconciler, webhook intake and live events, wired together. The
 * order of keys matters: the backend starts workers in this order and stops them in reverse,
 * so background work and intake finish before the live streams close.
 */
export function createTaskServices(base: BaseDeps, credentials: CredentialServices) {
  const runtime = createTaskRuntime({ ...base, ...credentials });
  const taskQueue = createTaskQueue(runtime, { staleSubmitMs: base.config.tasks.staleSubmitMs });
  runtime.onFreed((account) => {
    taskQueue.kick(account);
  });
  return {
    liveEvents: createEventHub({
      database: base.database,
      metrics: base.metrics,
      logger: base.logger,
    }),
    webhookIntake: createWebhookIntake(runtime),
    tasks: createTaskService(runtime, taskQueue),
    taskQueue,
    reconciler: createReconciler(runtime),
    archiver: base.config.archiveDir
      ? createArchiver(runtime, { dir: base.config.archiveDir, fetch: base.fetch })
      : undefined,
  };
}

export type TaskServices = ReturnType<typeof createTaskServices>;
