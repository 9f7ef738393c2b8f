import { describeFetchError } from "../fetch-error.ts";

/**
 * A reason `listen` cannot go on, said in words the developer can act on (exit code 1).
 * `retryable`: the backend is unreachable or failing for now, so a listener already running
 * keeps trying; at start the command stops with the reason.
 */
export class ListenError extends Error {
  override readonly name = "ListenError";
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** The backend no longer accepts the stored session (revoked or expired): sign in again. */
export class SessionEnded extends Error {
  override readonly name = "SessionEnded";
}

/** The channel is not (or no longer) one of the signed-in user's. */
export class ChannelGone extends Error {
  override readonly name = "ChannelGone";
}

/** An error body of the backend: `{ error, message }`. */
interface ErrorBody {
  error?: string;
  message?: string;
}

/**
 * The backend's relay API as `listen` calls it: every failure becomes one of the errors above,
 * so the command says "cannot reach", "relay not enabled", "sign in again" or "channel gone"
 * instead of a status code.
 */
export class BackendClient {
  constructor(
    readonly origin: string,
    private readonly fetch: typeof globalThis.fetch,
    private readonly userAgent: string,
  ) {}

  /** Sends a request; an unreachable backend is a `ListenError` naming the cause. */
  async send(path: string, init: RequestInit = {}, session?: string): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("User-Agent", this.userAgent);
    if (session) headers.set("Authorization", `Bearer ${session}`);
    try {
      return await this.fetch(`${this.origin}${path}`, { ...init, headers });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ListenError(
        `cannot reach the backend at ${this.origin}: ${describeFetchError(error)}`,
        true,
      );
    }
  }

  /** The answer's JSON when it is 2xx; otherwise the error it means. */
  async json<T>(response: Response): Promise<T> {
    if (response.ok) return (await response.json()) as T;
    throw await this.failure(response);
  }

  /** What a refused request means for the command. */
  async failure(response: Response): Promise<Error> {
    const body = (await response.json().catch(() => ({}))) as ErrorBody;
    if (response.status === 401)
      return new SessionEnded(body.message ?? "the session is unknown, expired or signed out");
    if (response.status === 404 && body.error === "relay_channel_not_found")
      return new ChannelGone(body.message ?? "no such relay channel of yours");
    if (response.status === 404)
      return new ListenError(
        `${this.origin} has no developer relay: its operator has not turned it on (RELAY_ENABLED=true), or this is not an Overture backend`,
      );
    const reason = body.message ?? `HTTP ${response.status}`;
    return new ListenError(
      `the backend answered ${response.status} ${body.error ?? ""}: ${reason}`,
      response.status >= 500,
    );
  }

  async createChannel(session: string): Promise<{ id: string; url: string }> {
    const response = await this.send(
      "/api/relay/channels",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ label: "overture-webhooks listen" }),
      },
      session,
    );
    return this.json(response);
  }

  /** Opens the channel's stream; the response when it is 200, else the error it means. */
  async openStream(
    session: string,
    channelId: string,
    lastEventId: string | undefined,
    signal: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    const response = await this.send(
      `/api/relay/channels/${encodeURIComponent(channelId)}/events`,
      { headers, signal },
      session,
    );
    if (response.ok && response.body) return response;
    throw await this.failure(response);
  }
}
