import { useEffect, useState } from "preact/hooks";
import { clock } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import type { Task, TaskEstimate } from "../../lib/shared/types.ts";

/** States the platform is working on: an estimate of time left means something only then. */
const ESTIMATED: readonly Task["status"][] = ["waiting", "in_progress"];

/**
 * The time left of a running task in words, from the user's own similar tasks (read once per
 * state, then counted down with the clock); undefined without history, so the usual "1 to 10
 * minutes" stays.
 */
export function useEstimate(task: Task, now: number): string | undefined {
  const [estimate, setEstimate] = useState<{ value: TaskEstimate; at: number } | null>(null);
  const running = ESTIMATED.includes(task.status);

  useEffect(() => {
    if (!running) return;
    let current = true;
    send("tasks/estimate", { id: task.id })
      .then((value) => {
        if (current) setEstimate({ value, at: now });
      })
      // Without an estimate the line keeps the usual range: nothing to tell the person.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [task.id, task.status]);

  if (!running || !estimate || estimate.value.based_on === 0) return undefined;
  const passed = Math.max(0, now - estimate.at);
  const low = Math.max(0, estimate.value.remaining_low_seconds * 1000 - passed);
  const high = estimate.value.remaining_high_seconds * 1000 - passed;
  if (high <= 0) return i18n.t("task.estimateOver");
  return i18n.t("task.estimateLeft", {
    low: clock(low),
    high: clock(high),
    count: estimate.value.based_on,
  });
}
