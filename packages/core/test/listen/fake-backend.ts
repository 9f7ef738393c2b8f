/**
 * A stand-in for an Overture backend's relay API, as `overture-webhooks listen` sees it over
 * HTTP: the device sign-in (with scripted poll answers), channels, and streams the test writes
 * frames into. The real backend's side is tested in apps/backend (relay, device flow, and the
 * command end to end against it).
 */
export const BACKEND = "http://backend.test";

export type PollAnswer =
  "authorization_pending" | "slow_down" | "access_denied" | "expired_token" | "approve";

export interface OpenedStream {
  channelId: string;
  session: string;
  lastEventId: string | null;
  userAgent: string | null;
  push(frame: string): void;
  end(): void;
}

const encoder = new TextEncoder();
const json = (body: unknown, status = 200) => Response.json(body, { status });

export function fakeBackend(options: { polls?: PollAnswer[]; relayEnabled?: boolean } = {}) {
  const polls = [...(options.polls ?? ["approve"])];
  const sessions = new Set<string>();
  const channels = new Map<string, string>();
  const streams: OpenedStream[] = [];
  const calls: string[] = [];
  let sessionCount = 0;
  let channelCount = 0;

  const authorised = (request: Request) => {
    const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    return token && sessions.has(token) ? token : null;
  };

  function openStream(request: Request, channelId: string, session: string): Response {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    const lastEventId = request.headers.get("last-event-id");
    const stream: OpenedStream = {
      channelId,
      session,
      lastEventId,
      userAgent: request.headers.get("user-agent"),
      push: (frame) => {
        controller.enqueue(encoder.encode(frame));
      },
      end: () => {
        controller.close();
      },
    };
    stream.push("retry: 10\n\n");
    if (lastEventId === null) stream.push(`id: 0\nevent: ready\ndata: {}\n\n`);
    request.signal.addEventListener("abort", () => {
      try {
        controller.error(new DOMException("aborted", "AbortError"));
      } catch {
        // already closed
      }
    });
    streams.push(stream);
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  }

  async function handle(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    calls.push(`${request.method} ${pathname}`);
    if (options.relayEnabled === false)
      return json(
        { error: "not_found", message: `No route for ${request.method} ${pathname}` },
        404,
      );
    if (pathname === "/auth/device")
      return json({
        device_code: "dc_fake",
        user_code: "BCDF-GHJK",
        verification_uri: `${BACKEND}/device`,
        verification_uri_complete: `${BACKEND}/device?user_code=BCDF-GHJK`,
        expires_in: 600,
        interval: 5,
      });
    if (pathname === "/auth/device/token") {
      const form = new URLSearchParams(await request.text());
      if (form.get("device_code") !== "dc_fake") return json({ error: "invalid_grant" }, 400);
      const answer = polls.shift() ?? "approve";
      if (answer !== "approve") return json({ error: answer, message: answer }, 400);
      const token = `ovs_fake_${(sessionCount += 1)}`;
      sessions.add(token);
      return json({ session_token: token, token_type: "Bearer", user: { login: "demo" } });
    }
    const session = authorised(request);
    if (!session) return json({ error: "unauthenticated", message: "Sign in first." }, 401);
    if (pathname === "/api/relay/channels" && request.method === "POST") {
      channelCount += 1;
      const id = `00000000-0000-4000-8000-${String(channelCount).padStart(12, "0")}`;
      const url = `${BACKEND}/relay/rl_${"x".repeat(40)}${channelCount}`;
      channels.set(id, url);
      return json({ id, url, label: null, created_at: "", last_delivery_at: null }, 201);
    }
    const events = /^\/api\/relay\/channels\/([^/]+)\/events$/.exec(pathname);
    if (events?.[1] !== undefined) {
      if (!channels.has(events[1]))
        return json({ error: "relay_channel_not_found", message: "No such channel." }, 404);
      return openStream(request, events[1], session);
    }
    return json({ error: "not_found", message: "no route" }, 404);
  }

  return {
    handle,
    calls,
    streams,
    channels,
    /** Signs every session out (a revoked device). */
    revokeAll: () => {
      sessions.clear();
    },
    deleteChannel: (id: string) => channels.delete(id),
  };
}

/** A delivery frame as the backend's stream writes it. */
export function deliveryFrame(delivery: {
  id: string;
  path?: string;
  query?: string;
  headers: [string, string][];
  body: Uint8Array | string;
}): string {
  const body = typeof delivery.body === "string" ? encoder.encode(delivery.body) : delivery.body;
  const data = {
    id: delivery.id,
    received_at: "2026-01-01T12:00:00.000Z",
    method: "POST",
    path: delivery.path ?? "",
    query: delivery.query ?? "",
    headers: delivery.headers,
    body_base64: Buffer.from(body).toString("base64"),
  };
  return `id: ${delivery.id}\nevent: delivery\ndata: ${JSON.stringify(data)}\n\n`;
}
