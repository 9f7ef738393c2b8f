import type { Hono } from "hono";
import { z } from "zod";
import type { EmulatorControl } from "../control/handle.ts";

const faultsBody = z.object({
  taskRequests: z
    .object({
      count: z.number().int().min(0),
      mode: z.enum(["5xx", "hang"]).default("5xx"),
      status: z.number().int().min(500).max(599).optional(),
    })
    .optional(),
  lostSubmitAnswers: z.number().int().min(0).optional(),
  webhooks: z
    .object({
      drop: z.union([z.boolean(), z.number().int().min(0)]).optional(),
      duplicate: z.union([z.boolean(), z.number().int().min(0)]).optional(),
      delayMs: z.number().min(0).optional(),
      reorder: z.boolean().optional(),
    })
    .optional(),
});

/** The emulator clock: read it, move it, scale it; settle fires due timers and waits. */
export function clockRoutes(app: Hono, control: EmulatorControl): void {
  app.get("/clock", (c) =>
    c.json({ now: control.clock.now(), scale: control.clock.scale, mode: control.clock.mode }),
  );
  app.post("/clock/advance", async (c) => {
    const { ms } = z.object({ ms: z.number().min(0) }).parse(await c.req.json());
    await control.clock.advance(ms);
    return c.json({ now: control.clock.now() });
  });
  app.post("/clock/scale", async (c) => {
    const { scale } = z.object({ scale: z.number().positive() }).parse(await c.req.json());
    control.clock.setScale(scale);
    return c.json({ scale: control.clock.scale });
  });
  app.post("/settle", async (c) => {
    await control.tick();
    return c.json({ ok: true });
  });
}

/** Injected faults of task requests and webhook deliveries (see `control.faults`). */
export function faultRoutes(app: Hono, control: EmulatorControl): void {
  app.get("/faults", (c) => c.json(control.faults.get()));
  app.post("/faults", async (c) => {
    const body = faultsBody.parse(await c.req.json());
    if (body.taskRequests) {
      const { count, mode, status } = body.taskRequests;
      control.faults.failNextTaskRequests(count, mode, status);
    }
    if (body.lostSubmitAnswers !== undefined)
      control.faults.loseNextSubmitAnswers(body.lostSubmitAnswers);
    if (body.webhooks) control.faults.webhooks = body.webhooks;
    return c.json(control.faults.get());
  });
  app.post("/faults/release-hangs", (c) => {
    control.faults.releaseHangs();
    return c.json({ ok: true });
  });
  app.delete("/faults", (c) => {
    control.faults.clear();
    return c.json(control.faults.get());
  });
}
