import { createRoute, z } from "@hono/zod-openapi";
import { errorBody } from "../../schemas/common.ts";
import {
  relayChannelCreateSchema,
  relayChannelListSchema,
  relayChannelSchema,
} from "../../schemas/relay.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

const tags = ["Developer relay"];
const security = [{ session: [] }];
const idParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid" }),
});
const notFound = {
  404: {
    description:
      "`relay_channel_not_found` (none of yours has this id), or `not_found` while RELAY_ENABLED is off",
    content: json(errorBody),
  },
} as const;

export const createChannel = createRoute({
  method: "post",
  path: "/api/relay/channels",
  tags,
  security,
  summary: "Create a relay channel: a URL for the platform's X-WebHook that reaches your listener",
  request: { body: { required: false, content: json(relayChannelCreateSchema) } },
  responses: {
    201: {
      description: "The channel; its `url` is shown only now",
      content: json(relayChannelSchema),
    },
    400: { description: "`invalid_request`", content: json(errorBody) },
    409: {
      description: "`relay_channel_limit`: RELAY_CHANNELS_PER_USER reached",
      content: json(errorBody),
    },
    ...notFound,
    ...sessionErrors,
  },
});

export const listChannels = createRoute({
  method: "get",
  path: "/api/relay/channels",
  tags,
  security,
  summary: "Your relay channels, newest first (without their URLs)",
  responses: {
    200: { description: "The channels", content: json(relayChannelListSchema) },
    ...notFound,
    ...sessionErrors,
  },
});

export const deleteChannel = createRoute({
  method: "delete",
  path: "/api/relay/channels/{id}",
  tags,
  security,
  summary: "Delete a relay channel: its URL answers 404 and its listeners' streams end",
  request: { params: idParams },
  responses: { 204: { description: "Deleted" }, ...notFound, ...sessionErrors },
});

export const channelEvents = createRoute({
  method: "get",
  path: "/api/relay/channels/{id}/events",
  tags,
  security,
  summary: "Listen: the channel's deliveries as Server-Sent Events, resumable with Last-Event-ID",
  description:
    "Deliveries are accepted at the channel's URL only while at least one listener is connected (elsewhere they are answered 503, so the platform retries). Frames: `retry: 3000`; `event: ready` (`id:` = resume position) on a fresh stream, or the replay of every buffered delivery after `Last-Event-ID` (kept 5 minutes); then `event: delivery` (`id:` = delivery id, `data:` = RelayDelivery JSON); `: ping` every 15 s. The server may end the stream with `event: end` (`data.reason`: `max_lifetime`, `too_many_listeners`, `channel_gone`) and a `retry:`; reconnect with the last id seen. Read with `fetch` streaming: EventSource cannot send the session header.",
  request: {
    params: idParams,
    headers: z.object({ "last-event-id": z.string().optional() }),
    query: z.object({
      last_event_id: z.string().optional().openapi({ description: "Same as Last-Event-ID" }),
    }),
  },
  responses: {
    200: { description: "The stream", content: { "text/event-stream": { schema: z.string() } } },
    400: { description: "`invalid_request`: malformed Last-Event-ID", content: json(errorBody) },
    ...notFound,
    ...sessionErrors,
  },
});

export const relayDelivery = createRoute({
  method: "post",
  path: "/relay/{token}",
  tags,
  summary: "A channel's URL: what the platform delivers here goes to the owner's listener",
  description:
    "Any path and query may follow the token (`/relay/{token}/hook?k=1`); both are kept, with the body's exact bytes and the headers (without hop-by-hop, Host, Content-Length and forwarding headers). Nothing is verified here: the developer's own receiver checks the signature after `overture-webhooks listen` sends it on. The answer is the relay's, not the receiver's.",
  request: {
    params: z.object({ token: z.string().openapi({ param: { name: "token", in: "path" } }) }),
  },
  responses: {
    202: {
      description: 'Relayed to the listener (`{ status: "relayed", id }`)',
      content: json(z.object({ status: z.literal("relayed"), id: z.string() })),
    },
    404: {
      description: "`relay_channel_not_found`, or `not_found` while RELAY_ENABLED is off",
      content: json(errorBody),
    },
    405: { description: "`method_not_allowed`: only POST", content: json(errorBody) },
    413: {
      description: "`payload_too_large`: over WEBHOOK_MAX_BODY_BYTES",
      content: json(errorBody),
    },
    429: {
      description: "`rate_limited`: over RELAY_DELIVERIES_PER_MINUTE, with `Retry-After`",
      content: json(errorBody),
    },
    431: {
      description: "`invalid_request`: too many or too large headers",
      content: json(errorBody),
    },
    503: {
      description:
        "`relay_no_listener` (nobody listens now) or `relay_buffer_full`, with `Retry-After`: the platform delivers again later",
      content: json(errorBody),
    },
  },
});
