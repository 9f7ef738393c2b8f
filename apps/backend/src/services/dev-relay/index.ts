import type { AppDatabase, Database } from "../../db/client.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import type { RateLimitStore } from "../auth/rate-limits.ts";
import { type AcceptResult, createRelayBuffer, type IncomingDelivery } from "./buffer.ts";
import { createRelayChannels } from "./channels.ts";
import { createRelayListeners } from "./listeners.ts";
import { createRelayStreams, type RelayStreamsDeps } from "./streams.ts";

export type { AcceptResult, IncomingDelivery } from "./buffer.ts";

export interface DevRelayDeps {
  db: AppDatabase;
  database: Database;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, "publicUrl" | "relay" | "sse">;
}

/** A delivery refused by the channel's rate limit, with when to come back. */
export interface RateLimited {
  outcome: "rate_limited";
  retryAfterSeconds: number;
}

/**
 * The developer relay of `overture-webhooks listen` (DESIGN "Developer relay"): channels owned by
 * signed-in users, whose URL takes deliveries it does not verify (the developer's secret is not
 * the backend's) while the owner's listener is connected, into a short bounded buffer that
 * instances share through Postgres, streamed to the listener on whichever instance holds it.
 * Nothing here touches tasks or the webhook intake. A wing of its own: `services/relay/` is the
 * platform-facing task relay's name.
 */
export function createDevRelay(
  deps: DevRelayDeps,
  services: {
    rateLimits: RateLimitStore;
    revocations: RelayStreamsDeps["revocations"];
    /** Other expired rows pruned with the relay's (the command-line sign-in's device codes). */
    prune: () => Promise<void>;
  },
) {
  const channels = createRelayChannels(deps);
  const buffer = createRelayBuffer(deps);
  const listeners = createRelayListeners(deps);
  const streams = createRelayStreams({
    ...deps,
    buffer,
    listeners,
    revocations: services.revocations,
    prune: async () => {
      await buffer.prune();
      await listeners.prune();
      await services.prune();
    },
  });
  const perMinute = deps.config.relay.deliveriesPerMinute;

  return {
    channels,
    streams,

    /** Deletes a channel and ends its streams here at once (elsewhere at their next renewal). */
    async removeChannel(userId: number, channelId: string): Promise<void> {
      await channels.remove(userId, channelId);
      streams.endChannel(channelId);
    },

    /** Spends one of the channel's deliveries (a bucket every instance shares). */
    async admit(channelId: string): Promise<RateLimited | null> {
      const { allowed, tokens } = await services.rateLimits.take(`relay:${channelId}`, {
        burst: perMinute,
        perMs: perMinute / 60_000,
      });
      if (allowed) return null;
      return {
        outcome: "rate_limited",
        retryAfterSeconds: Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute)),
      };
    },

    /** Whether someone listens on the channel now (before the body is read). */
    hasListener: (channelId: string) => buffer.hasListener(channelId),

    accept: (channelId: string, delivery: IncomingDelivery): Promise<AcceptResult> =>
      buffer.accept(channelId, delivery),

    /** A worker: LISTEN, the streams' rounds and the pruning (also started by the first stream). */
    start: () => streams.start(),
    stop: () => streams.stop(),
  };
}

export type DevRelay = ReturnType<typeof createDevRelay>;
