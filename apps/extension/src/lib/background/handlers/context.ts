import type { RequestOf, ResponseOf, MessageType } from "../../shared/messages.ts";
import type { Context } from "../context.ts";
import type { LiveHub } from "../live.ts";

/** What every message handler is given: the background's context and its live stream. */
export interface HandlerScope {
  ctx: Context;
  live: LiveHub;
}

/** The background's answer to one message of the map, by its name (`handlers/index.ts`). */
export type Handler<K extends MessageType> = (
  scope: HandlerScope,
  request: RequestOf<K>,
) => Promise<ResponseOf<K>>;
