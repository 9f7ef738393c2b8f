import type { EmulatorContext } from "../context.ts";
import { parseSeed } from "../seed/schema.ts";
import { releaseHangs } from "../state/faults.ts";
import { createConsoleEdits } from "./console-edits.ts";
import { clearFaults, createFaultControl } from "./fault-control.ts";
import { ControlError, type EmulatorControl } from "./handle.ts";
import { consoleSnapshot, controlTaskView, deliveryView } from "./views.ts";

export function createControl(ctx: EmulatorContext): EmulatorControl {
  let currentSeed = ctx.state.seed;
  const settle = () => ctx.tracker.settle();
  const saved = <T>(value: T): T => {
    ctx.persistence.changed();
    return value;
  };
  const stopAll = () => {
    ctx.tasks.reset();
    ctx.webhooks.reset();
    ctx.clock.clearAll();
    releaseHangs(ctx.faults);
  };
  const reset = () => {
    stopAll();
    clearFaults(ctx);
    ctx.state.load(currentSeed);
    ctx.persistence.changed();
  };

  return {
    reset,
    seed(seed) {
      try {
        currentSeed = parseSeed(seed);
      } catch (error) {
        throw new ControlError("invalid_seed", (error as Error).message);
      }
      reset();
    },
    clock: {
      now: () => ctx.clock.now(),
      get scale() {
        return ctx.clock.scale;
      },
      get mode() {
        return ctx.clock.mode;
      },
      advance: (ms) => ctx.clock.advance(ms, settle),
      setScale: (scale) => {
        ctx.clock.setScale(scale);
      },
    },
    async tick() {
      ctx.clock.tick();
      await settle();
    },
    settle,
    snapshot: () => consoleSnapshot(ctx.state, ctx.clock),
    ...createConsoleEdits(ctx, saved),
    ...recordViews(ctx, saved),
    faults: createFaultControl(ctx),
    flush() {
      ctx.persistence.flush();
    },
    close() {
      // Save first: stopping drops timers and records the state file must keep.
      ctx.persistence.close();
      stopAll();
      ctx.clock.close();
    },
  };
}

/** Tasks and deliveries as the control plane shows them, and a manual retry. */
function recordViews(
  ctx: EmulatorContext,
  saved: <T>(value: T) => T,
): Pick<
  EmulatorControl,
  "listTasks" | "getTask" | "listDeliveries" | "getDelivery" | "retryDelivery"
> {
  return {
    listTasks(filter = {}) {
      return [...ctx.state.tasks.values()]
        .filter((t) => (filter.namespace ?? t.namespace) === t.namespace)
        .filter((t) => (filter.status ?? t.status) === t.status)
        .map((t) => controlTaskView(ctx.options, t));
    },
    getTask(id) {
      const task = ctx.state.tasks.get(id);
      return task && controlTaskView(ctx.options, task);
    },
    listDeliveries(filter = {}) {
      return ctx.webhooks
        .list()
        .filter((r) => (filter.taskId ?? r.taskId) === r.taskId)
        .filter((r) => (filter.state ?? r.state) === r.state)
        .map(deliveryView);
    },
    getDelivery(id) {
      const r = ctx.webhooks.get(id);
      return r && deliveryView(r);
    },
    async retryDelivery(id) {
      const r = ctx.webhooks.get(id);
      if (!r) throw new ControlError("delivery_not_found", `no delivery ${id}`, 404);
      if (r.state !== "failed" && r.state !== "dropped")
        throw new ControlError(
          "delivery_not_retryable",
          `delivery is ${r.state}; only failed or dropped deliveries can be retried`,
          409,
        );
      await ctx.webhooks.retry(id);
      return saved(deliveryView(r));
    },
  };
}
