import type { CollectRequest, CollectResult, ListenResult } from "../workers/sse-clients.ts";
import type { SendRequest, SendResult } from "../workers/live-sender.ts";
import type { ProcessLoad } from "./process-load.ts";
import type { Worker } from "./procs.ts";
import { fmt, sleep, summarise, type LatencySummary } from "./stats.ts";

/**
 * One live run of item 4: the SSE clients connect (one process), the sender delivers webhooks on
 * its open-loop schedule (another process), and each event's arrival is joined to its send by
 * the event's key. Both processes time on the machine's monotonic clock, and each reports its own
 * event-loop lag: a busy measuring process would otherwise add its lag to what it measures.
 */
export interface LiveRunRequest extends Omit<SendRequest, "port" | "users"> {
  ssePort: number;
  webhookPort: number;
  /** SSE clients = users: client c is user c + 1, so each event reaches exactly one client. */
  clients: number;
}

export interface LiveResult {
  connected: number;
  sent: number;
  /** Events sent in the measured window and how many of them arrived. */
  measured: number;
  received: number;
  /** Webhook sent → its `event: task` frame read by the client. */
  latency: LatencySummary;
  /** The webhook's own HTTP answer time, same window. */
  webhook: LatencySummary;
  non2xx: number;
  late: number;
  /** Sender connections the server had closed, replaced by new ones. */
  reopened: number;
  /** Deliveries due while every connection awaited an answer wait for one: due → written. */
  waited: LatencySummary;
  /** Deliveries waiting for a connection every 500 ms from the start, warm-up included. */
  backlog: number[];
  /** The warm-up: at least the one asked for, and until the sender was on schedule. */
  warmedUpMs: number;
  /** Deliveries still waiting when the window opened (0 unless the warm-up was cut short). */
  backlogAtWindow: number;
  /** Share of the measured events that end their task (`success`); the others are first callbacks. */
  endingShare: number;
  sender: ProcessLoad;
  listener: ProcessLoad;
  /** Client streams the server ended during the run (a client here does not reconnect). */
  endedEarly: number;
  /** Up to 5 measured events that never arrived: each key, and whether its webhook was answered. */
  missing: string[];
  /** CPU of the watched processes over the window, % of one core (when asked). */
  watched?: SendResult["watched"];
}

/** A measured event: key, sent, answered and arrived (monotonic ms; 0 when it did not happen). */
export type LiveEvent = [key: string, sentAt: number, answeredAt: number, arrivedAt: number];

/**
 * Item 4's seeded workload: a user per SSE client, and tasks enough that the events due in the
 * longest warm-up and the window all change a task (event k is task k mod tasks' first
 * callback below `tasks`, its last below 2 × tasks, a repeat that changes nothing after).
 */
export const liveWorkload = (clients: number) => ({ users: clients, tasks: clients * 10 });

// Longest wait for the last events after the sender's window closed.
const ARRIVAL_WAIT_MS = 5_000;

export async function runLive(
  workers: { clients: Worker; sender: Worker },
  request: LiveRunRequest,
): Promise<{ result: LiveResult; events: LiveEvent[] }> {
  const { connected } = await workers.clients.call<ListenResult>("listen", {
    port: request.ssePort,
    clients: request.clients,
  });
  await sleep(500); // every stream attached to the hub
  const send: SendRequest = {
    port: request.webhookPort,
    users: request.clients,
    tasks: request.tasks,
    rate: request.rate,
    warmupMs: request.warmupMs,
    durationMs: request.durationMs,
    connections: request.connections,
    run: request.run,
    ...(request.watch ? { watch: request.watch } : {}),
  };
  const sent = await workers.sender.call<SendResult>("send", send);
  const keys = sent.measured.map(([key]) => key);
  const { arrivals, load, endedEarly } = await workers.clients.call<CollectResult>("collect", {
    keys,
    waitMs: ARRIVAL_WAIT_MS,
    window: sent.window,
  } satisfies CollectRequest);
  const events = sent.measured.map(([key, sentAt, answeredAt], i): LiveEvent => [
    key,
    sentAt,
    answeredAt,
    arrivals[i] ?? 0,
  ]);
  const arrived = events.filter(([, , , arrivedAt]) => arrivedAt > 0);
  const answered = events.filter(([, , answeredAt]) => answeredAt > 0);
  return {
    result: {
      connected,
      sent: sent.sent,
      measured: events.length,
      received: arrived.length,
      latency: summarise(arrived.map(([, sentAt, , arrivedAt]) => arrivedAt - sentAt)),
      webhook: summarise(answered.map(([, sentAt, answeredAt]) => answeredAt - sentAt)),
      non2xx: sent.non2xx,
      late: sent.late,
      reopened: sent.reopened,
      waited: sent.waited,
      backlog: sent.backlog,
      warmedUpMs: sent.warmedUpMs,
      backlogAtWindow: sent.backlogAtWindow,
      endingShare:
        events.filter(([key]) => key.endsWith(":success")).length / Math.max(1, events.length),
      sender: sent.load,
      listener: load,
      endedEarly,
      missing: events
        .filter(([, , , arrivedAt]) => arrivedAt === 0)
        .slice(0, 5)
        .map(([key, sentAt, answeredAt]) =>
          answeredAt > 0
            ? `${key} answered ${fmt(answeredAt - sentAt)} ms after it was sent`
            : `${key} never answered`,
        ),
      ...(sent.watched ? { watched: sent.watched } : {}),
    },
    events,
  };
}
