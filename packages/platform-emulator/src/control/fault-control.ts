import type { EmulatorContext } from "../context.ts";
import { releaseHangs } from "../state/faults.ts";
import { ControlError, type FaultControl } from "./handle.ts";

/** `control.faults`: checks each fault it is given and sets it on the shared fault state. */
export function createFaultControl(ctx: EmulatorContext): FaultControl {
  return {
    failNextTaskRequests(n, mode = "5xx", status = 503) {
      if (!Number.isInteger(n) || n < 0)
        throw new ControlError("invalid_fault", "n must be an integer ≥ 0");
      if (status < 500 || status > 599)
        throw new ControlError("invalid_fault", "status must be 5xx");
      ctx.faults.taskRequests = { remaining: n, mode, status };
    },
    loseNextSubmitAnswers(n) {
      if (!Number.isInteger(n) || n < 0)
        throw new ControlError("invalid_fault", "n must be an integer ≥ 0");
      ctx.faults.lostSubmitAnswers = n;
    },
    get webhooks() {
      return { ...ctx.faults.webhooks };
    },
    set webhooks(value) {
      ctx.faults.webhooks = { ...value };
      if (!value.reorder) ctx.webhooks.flushHeld();
    },
    releaseHangs: () => {
      releaseHangs(ctx.faults);
    },
    clear: () => {
      clearFaults(ctx);
    },
    get: () => ({
      taskRequests: { ...ctx.faults.taskRequests },
      lostSubmitAnswers: ctx.faults.lostSubmitAnswers,
      webhooks: { ...ctx.faults.webhooks },
    }),
  };
}

/** Every fault off; events held by `reorder` are sent. */
export function clearFaults(ctx: EmulatorContext): void {
  ctx.faults.taskRequests = { remaining: 0, mode: "5xx", status: 503 };
  ctx.faults.lostSubmitAnswers = 0;
  ctx.faults.webhooks = {};
  ctx.webhooks.flushHeld();
}
