import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.ts";

/** A developer relay channel, as its owner sees it. */
export const relayChannelSchema = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    url: z.string().nullable().openapi({
      description:
        "`{PUBLIC_URL}/relay/<token>`: paste it (with any path and query you like after it) into `X-WebHook`. Shown only when the channel is created; null afterwards (only its hash is stored).",
      example: "https://overture.example.com/relay/rl_4kq…",
    }),
    label: z.string().nullable(),
    created_at: isoTime,
    last_delivery_at: isoTime.nullable(),
  })
  .openapi("RelayChannel");

export type RelayChannel = z.infer<typeof relayChannelSchema>;

export const relayChannelListSchema = z
  .object({ channels: z.array(relayChannelSchema) })
  .openapi("RelayChannelList");

export const relayChannelCreateSchema = z.object({
  label: z.string().trim().min(1).max(100).optional(),
});

/**
 * One delivery as a relay stream carries it (`event: delivery`): everything needed to send the
 * same request again, byte for byte, so the developer's own signature check passes unchanged.
 */
export const relayDeliverySchema = z
  .object({
    id: z.string().openapi({ description: "The stream's event id (resume with Last-Event-ID)" }),
    received_at: isoTime,
    method: z.string().openapi({ example: "POST" }),
    path: z
      .string()
      .openapi({ description: "What followed the channel's URL in the path: `` or `/…`" }),
    query: z.string().openapi({ description: "The query as received, without `?`" }),
    headers: z.array(z.tuple([z.string(), z.string()])).openapi({
      description:
        "Name/value pairs (sorted by name; a repeated header's values joined by `, `), without hop-by-hop headers, Host, Content-Length and the proxies' forwarding headers",
    }),
    body_base64: z.string().openapi({ description: "The body's exact bytes, base64" }),
  })
  .openapi("RelayDelivery");

export type RelayDelivery = z.infer<typeof relayDeliverySchema>;
