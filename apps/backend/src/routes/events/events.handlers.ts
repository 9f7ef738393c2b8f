import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { requireSession } from "../../middleware/session.ts";
import type { SseTakeover } from "../../server/sse-takeover.ts";
import { liveEventsResponse } from "./live-response.ts";
import { eventChanges, streamEvents } from "./events.routes.ts";
import type { Task } from "../../schemas/task.ts";
import { INVALID_REQUEST } from "../../schemas/error-codes.ts";

function lastEventId(header: string | undefined, query: string | undefined): number | undefined {
  const raw = header ?? query;
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,18}$/.test(raw)) {
    throw new ApiError(400, INVALID_REQUEST, "Last-Event-ID must be an event id this stream sent.");
  }
  return Number(raw);
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
 * `retry:`, and the reconnect with the last id loses nothing.
 */
export function eventsRouter(deps: AppDeps, takeover: Pick<SseTakeover, "offer">) {
  const { sessions, liveEvents } = deps.services;

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
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
      const after = Number(c.req.valid("query").after);
      const rows = await liveEvents.changes(c.get("session").userId, after);
      return c.json(
        {
          // Stored as the task JSON the API answers (`toTaskJson`).
          tasks: rows.map((row) => JSON.parse(row.payload) as Task),
          last_event_id: String(rows.at(-1)?.id ?? after),
          more: rows.length === liveEvents.pageSize,
        },
        200,
      );
    });
}
