import type { MiddlewareHandler } from "hono";
import type { EmulatorContext } from "../context.ts";
import { jsonError } from "../util/http.ts";

const SUBMIT_PATH = "/v1/async/music/generations";

/**
 * Injected failures of the next N task requests (control plane): a 5xx answer, or a hang that
 * lasts until the client gives up, `releaseHangs`/reset/close, or `hangMs` wall milliseconds
 * (then 504). And lost submit answers: the submit is carried out (the task exists and is
 * charged), then its answer hangs the same way — what a client sees when the network drops
 * the response of a POST that landed.
 */
export function taskFaults(ctx: EmulatorContext): MiddlewareHandler {
  return async function injectTaskFault(c, next) {
    if (
      ctx.faults.lostSubmitAnswers > 0 &&
      c.req.method === "POST" &&
      c.req.path.endsWith(SUBMIT_PATH)
    ) {
      ctx.faults.lostSubmitAnswers--;
      await next();
      await hang(ctx, c.req.raw.signal);
      c.res = jsonError(
        504,
        "injected_lost_answer",
        "the submit was carried out, its answer lost (emulator fault)",
      );
      return;
    }
    const fault = ctx.faults.taskRequests;
    if (fault.remaining <= 0) return next();
    fault.remaining--;
    if (fault.mode === "5xx")
      return jsonError(fault.status, "injected_fault", "injected server error (emulator fault)");
    await hang(ctx, c.req.raw.signal);
    return jsonError(504, "injected_hang", "the request hung (emulator fault) and was released");
  };
}

/** Waits until `releaseHangs`/reset/close, the client going away, or `hangMs`. */
function hang(ctx: EmulatorContext, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      ctx.faults.hanging.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ctx.options.hangMs);
    ctx.faults.hanging.add(done);
    signal.addEventListener("abort", done, { once: true });
  });
}
