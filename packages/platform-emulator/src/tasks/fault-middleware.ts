import type { MiddlewareHandler } from "hono";
import type { EmulatorContext } from "../context.ts";
import { jsonError } from "../util/http.ts";

/**
 * Injected failures of the next N task requests (control plane): a 5xx answer, or a hang that
 * lasts until the client gives up, `releaseHangs`/reset/close, or `hangMs` wall milliseconds
 * (then 504).
 */
export function taskFaults(ctx: EmulatorContext): MiddlewareHandler {
  return async function injectTaskFault(c, next) {
    const fault = ctx.faults.taskRequests;
    if (fault.remaining <= 0) return next();
    fault.remaining--;
    if (fault.mode === "5xx")
      return jsonError(fault.status, "injected_fault", "injected server error (emulator fault)");
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        ctx.faults.hanging.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ctx.options.hangMs);
      ctx.faults.hanging.add(done);
      c.req.raw.signal.addEventListener("abort", done, { once: true });
    });
    return jsonError(504, "injected_hang", "the request hung (emulator fault) and was released");
  };
}
