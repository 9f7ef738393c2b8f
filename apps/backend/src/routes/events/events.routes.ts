import { createRoute, z } from "@hono/zod-openapi";
import { errorBody } from "../../schemas/common.ts";
import { EVENT_ID_PATTERN, eventIdSchema } from "../../schemas/event-id.ts";
import { eventChangesSchema } from "../../schemas/task.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

export const streamEvents = createRoute({
  method: "get",
  path: "/api/events",
  tags: ["Tasks"],
  security: [{ session: [] }],
  summary: "Live task changes as Server-Sent Events, resumable with Last-Event-ID",
  description:
    "Read with `fetch` streaming (EventSource cannot send the session header). Frames: `retry: 3000`; then `event: ready` " +
    '(`id:` = resume position, `data: {"last_event_id":"<id>"}`) on a fresh stream, or the replay of every event after ' +
    "`Last-Event-ID`; then `event: task` (`id:` = task event id, `data:` = Task JSON); `: ping` every 15 s; `retry: 1000` " +
    "before the server closes the stream on shutdown. After its maximum lifetime (±10 %), or when the user opens more " +
    'streams than allowed (the oldest ends), the stream ends with `event: end` (`data: {"reason":"max_lifetime"}` or ' +
    '`{"reason":"too_many_streams"}`) and a `retry:`; reconnect with the last id seen. When no replay can bring the ' +
    "client up to date, the stream sends `event: reset` instead of the replay (`id:` = the newest event id, " +
    '`data: {"reason":"ahead_of_server"|"older_than_retention","last_event_id":"<id>"}`, schema `EventReset`) and goes ' +
    "on live after that id: `ahead_of_server` when `Last-Event-ID` is newer than any event this database has held (it " +
    "was restored from a backup since), `older_than_retention` when retention deleted events after it (then the reset " +
    "may also come right after a replay that retention cut short). A live stream gets the same `ahead_of_server` " +
    "reset when the database is restored under the running server. Reload the task list (`GET /api/tasks`) and keep " +
    "the new id as the resume position.",
  request: {
    headers: z.object({
      "last-event-id": z.string().optional().openapi({
        description: "An event id the stream sent (`id:`); empty or absent: start fresh",
        pattern: EVENT_ID_PATTERN.source,
      }),
    }),
    query: z.object({
      last_event_id: z.string().optional().openapi({
        description: "Same as the Last-Event-ID header",
        pattern: EVENT_ID_PATTERN.source,
      }),
      replay: z
        .enum(["all", "latest"])
        .optional()
        .openapi({
          description:
            "`latest`: replay only each task's newest event after Last-Event-ID (each event carries the whole task, " +
            "so a client that keeps task rows needs no earlier one); `all` (default): every event",
        }),
    }),
  },
  responses: {
    200: {
      description: "The event stream",
      content: { "text/event-stream": { schema: z.string() } },
    },
    400: {
      description: "`invalid_request`: malformed Last-Event-ID",
      content: { "application/json": { schema: errorBody } },
    },
    ...sessionErrors,
  },
});

export const eventChanges = createRoute({
  method: "get",
  path: "/api/events/changes",
  tags: ["Tasks"],
  security: [{ session: [] }],
  summary: "What changed after an event id: each changed task once, as JSON",
  description:
    "The replay of `GET /api/events?replay=latest` as one ordinary (compressible) JSON answer: each task changed " +
    "after `after`, as its newest event has it, oldest change first, at most 200 a page. Resume the event stream " +
    "with `Last-Event-ID: last_event_id`; while `more` is true, ask again with `after=last_event_id`. When `after` " +
    "is newer than any event this database has held (restored from a backup since) or retention deleted events " +
    'after it, the answer is `{"tasks":[],"last_event_id":"<newest id>","more":false,"reset":"ahead_of_server"}` ' +
    '(or `"older_than_retention"`): reload the task list (`GET /api/tasks`) and resume from `last_event_id`.',
  request: {
    query: z.object({
      after: eventIdSchema.openapi({
        description: "An event id the stream sent (its `Last-Event-ID`)",
      }),
    }),
  },
  responses: {
    200: {
      description: "The changed tasks and the position they bring the client to",
      content: json(eventChangesSchema),
    },
    400: {
      description: "`invalid_request`: `after` is no event id",
      content: { "application/json": { schema: errorBody } },
    },
    ...sessionErrors,
  },
});
