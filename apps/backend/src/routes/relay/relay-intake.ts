import type { Context } from "hono";
import type { AppEnv } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { relayedHeaders } from "../../services/dev-relay/headers.ts";
import {
  INVALID_REQUEST,
  PAYLOAD_TOO_LARGE,
  RATE_LIMITED,
  RELAY_BUFFER_FULL,
  RELAY_CHANNEL_NOT_FOUND,
  RELAY_NO_LISTENER,
} from "../../schemas/error-codes.ts";
import { readLimitedBytes } from "../webhooks/read-body.ts";

const NO_LISTENER_RETRY_SECONDS = "5";
const BUFFER_FULL_RETRY_SECONDS = "30";

/**
 * `POST /relay/<token>[/…][?…]`: a delivery for a channel's listener. Checked in the order that
 * costs least first: the channel, its rate, whether anyone listens (all before the body is read),
 * the body's size, the headers, and the buffer's room. It is stored as received and never
 * verified, parsed or handed to the webhook intake: the developer's receiver does all that.
 */
export function relayIntake(deps: AppDeps) {
  const { devRelay } = deps.services;
  const maxBytes = deps.config.webhook.maxBodyBytes;

  return async function relayIntakeHandler(c: Context<AppEnv>) {
    const token = c.req.param("token") ?? "";
    const channel = await devRelay.channels.resolve(token);
    if (!channel)
      return c.json(
        { error: RELAY_CHANNEL_NOT_FOUND, message: "No relay channel at this address." },
        404,
      );
    const limited = await devRelay.admit(channel.id);
    if (limited) {
      c.header("Retry-After", String(limited.retryAfterSeconds));
      const message = `This relay channel takes at most ${deps.config.relay.deliveriesPerMinute} deliveries a minute; try again in ${limited.retryAfterSeconds} s.`;
      return c.json({ error: RATE_LIMITED, message }, 429);
    }
    if (!(await devRelay.hasListener(channel.id))) return noListener(c);
    const body = await readLimitedBytes(c.req.raw, maxBytes);
    if (!body)
      return c.json(
        { error: PAYLOAD_TOO_LARGE, message: `The body exceeds ${maxBytes} bytes.` },
        413,
      );
    const headers = relayedHeaders(c.req.raw.headers);
    if (!headers)
      return c.json({ error: INVALID_REQUEST, message: "Too many or too large headers." }, 431);
    // The path after the token and the query, as the URL the request was made to spells them.
    const url = new URL(c.req.url);
    const prefix = `/relay/${token}`;
    const result = await devRelay.accept(channel.id, {
      method: c.req.method,
      path: url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : "",
      query: url.search.slice(1),
      headers,
      body,
    });
    if (result.outcome === "no_listener") return noListener(c);
    if (result.outcome === "buffer_full") {
      c.header("Retry-After", BUFFER_FULL_RETRY_SECONDS);
      return c.json(
        {
          error: RELAY_BUFFER_FULL,
          message: "This relay channel holds as many deliveries as it may; try again later.",
        },
        503,
      );
    }
    return c.json({ status: "relayed" as const, id: String(result.id) }, 202);
  };
}

function noListener(c: Context<AppEnv>) {
  c.header("Retry-After", NO_LISTENER_RETRY_SECONDS);
  return c.json(
    {
      error: RELAY_NO_LISTENER,
      message:
        "Nobody listens on this relay channel now: start `overture-webhooks listen`. The platform delivers again later.",
    },
    503,
  );
}
