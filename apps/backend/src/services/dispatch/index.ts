import { errorMessage } from "../../lib/error-summary.ts";
import type { IssuedCallbackKey } from "../tasks/record.ts";
import type { DispatchDeps } from "./deps.ts";
import { createTaskQueue } from "./queue.ts";
import { createReconciler } from "./reconciler.ts";
import { createTaskService } from "./service.ts";

export type { CredentialServices, DispatchDeps } from "./deps.ts";

/**
 * The dispatch wing: the platform-facing side of tasks (not the developer relay of
 * services/dev-relay). The `/api/tasks` service, the local queue that submits (drained again
 * whenever a task of its account ends) and the reconciler that polls; the task record
 * (services/tasks) keeps what they learn.
 */
export function createDispatch(deps: Omit<DispatchDeps, "keyIssued">) {
  const keyListeners: ((key: IssuedCallbackKey) => void)[] = [];
  const wired: DispatchDeps = {
    ...deps,
    keyIssued(key) {
      for (const listener of keyListeners) {
        try {
          listener(key);
        } catch (error) {
          deps.logger.warn({ err: errorMessage(error) }, "callback-key listener failed");
        }
      }
    },
  };
  const taskQueue = createTaskQueue(wired, { staleSubmitMs: deps.config.tasks.staleSubmitMs });
  // Accounts whose tasks just ended: those with queued tasks are drained now. One read per
  // commit finds them, whatever their number: most accounts queue nothing, and a read per ended
  // task would cost the webhook's hot path more than the rest of its work.
  deps.record.onFreed((accounts) => {
    taskQueue.kickFreed(accounts);
  });
  return {
    tasks: createTaskService(wired, taskQueue),
    taskQueue,
    reconciler: createReconciler(wired),
    /** Calls `listener` with each callback key issued on this instance, before its submit. */
    onKeyIssued: (listener: (key: IssuedCallbackKey) => void): void => {
      keyListeners.push(listener);
    },
  };
}
