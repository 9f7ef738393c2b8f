import { z } from "@hono/zod-openapi";

/** Postgres bigint's largest value: no task_events id is larger. */
export const EVENT_ID_MAX = 9223372036854775807n;

/** An event id as the server writes it: decimal digits without a leading zero (or `0`). */
export const EVENT_ID_PATTERN = /^(0|[1-9][0-9]{0,18})$/;

/**
 * An event id from a client (`Last-Event-ID`, `after`), exactly: as a bigint, because ids pass
 * 2^53 where a JavaScript number stops holding every integer. Undefined when it is no id the
 * server could have sent.
 */
export function parseEventId(text: string): bigint | undefined {
  if (!EVENT_ID_PATTERN.test(text)) return undefined;
  const id = BigInt(text);
  return id <= EVENT_ID_MAX ? id : undefined;
}

/**
 * A task event id in the API, as a decimal string: the ids the server sends (SSE `id:`,
 * `last_event_id`) and the ones it accepts back are the same set.
 */
export const eventIdSchema = z
  .string()
  .regex(EVENT_ID_PATTERN, "an event id is decimal digits without a leading zero")
  .refine((text) => parseEventId(text) !== undefined, {
    message: `an event id is at most ${EVENT_ID_MAX}`,
  })
  .openapi({
    description: `A task event id: decimal digits, at most ${EVENT_ID_MAX} (Postgres bigint)`,
    example: "1042",
  });
