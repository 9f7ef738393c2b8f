import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import { ApiError } from "../../lib/errors.ts";
import { relayEnabled } from "../../middleware/relay-enabled.ts";
import { requireSession } from "../../middleware/session.ts";
import type { AppDeps } from "../../services/index.ts";
import { INVALID_REQUEST, METHOD_NOT_ALLOWED } from "../../schemas/error-codes.ts";
import { relayIntake } from "./relay-intake.ts";
import {
  channelEvents,
  createChannel,
  deleteChannel,
  listChannels,
  relayDelivery,
} from "./relay.routes.ts";

const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

function lastEventId(header: string | undefined, query: string | undefined): number | undefined {
  const raw = header ?? query;
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,15}$/.test(raw))
    throw new ApiError(400, INVALID_REQUEST, "Last-Event-ID must be an event id this stream sent.");
  return Number(raw);
}

/**
 * The developer relay: the owner's channels and their live stream (`/api/relay/…`, session),
 * and each channel's public URL (`/relay/<token>…`). Every route answers 404 unless the operator
 * turned the relay on (`RELAY_ENABLED`).
 */
export function relayRouter(deps: AppDeps) {
  const { devRelay, sessions } = deps.services;
  const on = relayEnabled(deps.config.relay.enabled);
  const session = requireSession(sessions);
  const intake = relayIntake(deps);
  const onlyPost = (c: Context<AppEnv>) => {
    c.header("Allow", "POST");
    return c.json(
      {
        error: METHOD_NOT_ALLOWED,
        message: "This is a relay channel's URL: the platform POSTs its deliveries here.",
      },
      405,
    );
  };

  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi({ ...createChannel, middleware: [on, session] }, async (c) => {
      const body = c.req.valid("json");
      const channel = await devRelay.channels.create(c.get("session").userId, body.label);
      c.header("Cache-Control", "no-store");
      return c.json(channel, 201);
    })
    .openapi({ ...listChannels, middleware: [on, session] }, async (c) => {
      const channels = await devRelay.channels.list(c.get("session").userId);
      return c.json({ channels }, 200);
    })
    .openapi({ ...deleteChannel, middleware: [on, session] }, async (c) => {
      await devRelay.removeChannel(c.get("session").userId, c.req.valid("param").id);
      return c.body(null, 204);
    })
    .openapi({ ...channelEvents, middleware: [on, session] }, async (c) => {
      const { userId, sessionId } = c.get("session");
      const resumeFrom = lastEventId(
        c.req.valid("header")["last-event-id"],
        c.req.valid("query").last_event_id,
      );
      const channel = await devRelay.channels.owned(userId, c.req.valid("param").id);
      const body = await devRelay.streams.open({
        channelId: channel.id,
        userId,
        sessionId,
        ...(resumeFrom === undefined ? {} : { lastEventId: resumeFrom }),
      });
      return new Response(body, { headers: EVENT_STREAM_HEADERS });
    })
    // Wrapped so the route's own path types the handler (the shared handler takes any path).
    .openapi({ ...relayDelivery, middleware: on }, (c) => intake(c));
  // Any path may follow a channel's token: routes without a schema of their own (and so outside
  // the typed client, which never calls a channel's URL).
  router.post("/relay/:token/*", on, intake);
  router.on(
    ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"],
    ["/relay/:token", "/relay/:token/*"],
    on,
    onlyPost,
  );
  return router;
}
