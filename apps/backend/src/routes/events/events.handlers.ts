import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { requireSession } from "../../middleware/session.ts";
import type { SseTakeover } from "../../server/sse-takeover.ts";
import { liveEventsResponse } from "./live-response.ts";
import { eventChanges, streamEvents } from "./events.routes.ts";
import { eventResetSchema, type Task } from "../../schemas/task.ts";
import { INVALID_REQUEST } from "../../schemas/error-codes.ts";
import { parseEventId } from "../../schemas/event-id.ts";

function lastEventId(header: string | undefined, query: string | undefined): bigint | undefined {
  const raw = header ?? query;
  if (raw === undefined || raw === "") return undefined;
  const id = parseEventId(raw);
  if (id === undefined)
    throw new ApiError(400, INVALID_REQUEST, "Last-Event-ID must be an event id this stream sent.");
  return id;
}

/**
 * `GET /api/events`: Server-Sent Events of the user's task changes. Authorised by the session
 * bearer (read it with `fetch` streaming: `EventSource` cannot send headers). Frames:
 * `retry: 3000`; then either `event: ready` with `id:` = the resume position (fresh stream) or
 * the replay of every event after `Last-Event-ID` (header, or `?last_event_id=`), or with
 * `?replay=latest` only each task's newest one (every event carries the whole task); then live
 * `event: task` frames with `id:` = the task event id and `data:` = the task JSON; `: ping`
 * comments every 15 s. On shutdown the stream ends after `retry: 1000`: reconnect with the last
 * id seen and nothing is lost. When the session is revoked (sign-out, a revoked device) the
 * stream ends at once, on every instance; the reconnect is refused with 401. A stream also ends
 * after `SSE_MAX_STREAM_SECONDS` (±10 %), and a user's oldest stream on this instance ends when
 * they open more than `SSE_MAX_STREAMS_PER_USER`: both after `event: end` (`data.reason`) with a
 * `retry:`, and the reconnect with the last id loses nothing. A `Last-Event-ID` no replay can
 * serve (newer than any event this database has held, after a restore from a backup; or older
 * than what retention kept) gets `event: reset` with the newest id instead, and the stream goes
 * on live from there (services/events/resume.ts); open streams get the same frame when the
 * database goes back under them (a restore while the server runs: feed.ts's catch-up).
 */
export function eventsRouter(deps: AppDeps, takeover: Pick<SseTakeover, "offer">) {
  const { sessions, liveEvents } = deps.services;

  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // The reset frame's data is no response of its own: listed among the schemas by name.
  router.openAPIRegistry.register("EventReset", eventResetSchema);
  return router
    .openapi({ ...streamEvents, middleware: requireSession(sessions) }, (c) => {
      const resumeFrom = lastEventId(
        c.req.valid("header")["last-event-id"],
        c.req.valid("query").last_event_id,
      );
      // Attached at once: ends when the session is revoked, after its lifetime, or when the user
      // opens one too many. A normal Response (middleware adds its headers), offered to the Node
      // server to serve itself (server/sse-takeover.ts).
      const { userId, sessionId } = c.get("session");
      const live = liveEvents.open(userId, {
        lastEventId: resumeFrom,
        latestOnly: c.req.valid("query").replay === "latest",
        sessionId,
        limits: deps.config.sse,
      });
      return takeover.offer(liveEventsResponse(live), live);
    })
    .openapi({ ...eventChanges, middleware: requireSession(sessions) }, async (c) => {
      const after = BigInt(c.req.valid("query").after); // checked by eventIdSchema
      const changes = await liveEvents.changes(c.get("session").userId, after);
      return c.json(
        {
          // Stored as the task JSON the API answers (`toTaskJson`).
          tasks: changes.rows.map((row) => JSON.parse(row.payload) as Task),
          last_event_id: String(changes.lastEventId),
          more: changes.more,
          ...(changes.reset === undefined ? {} : { reset: changes.reset }),
        },
        200,
      );
    });
}
