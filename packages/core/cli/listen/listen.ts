import { DEFAULT_WEBHOOK_TOLERANCE_MS } from "@overture/core/webhook";
import { BackendClient, ChannelGone, ListenError, SessionEnded } from "./backend.ts";
import { deviceLogin } from "./device-login.ts";
import { forward, type ForwardResult, type RelayedDelivery } from "./forward.ts";
import { readFrames, type SseFrame } from "./sse.ts";
import { ConfigStore } from "./store.ts";

export interface ListenOptions {
  /** The backend's base URL, without a trailing slash. */
  backend: string;
  forwardTo: string;
  channel?: string;
  replay: boolean;
}

/** What `listen` touches, injected so tests run it in-process. */
export interface ListenIo {
  out: (line: string) => void;
  err: (line: string) => void;
  fetch: typeof globalThis.fetch;
  now: () => number;
  /** Aborted by Ctrl-C: the command stops cleanly. */
  signal?: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  configDir: string;
  userAgent: string;
  /** A stream silent this long is taken for dead and reopened (the backend pings every 15 s). */
  idleTimeoutMs?: number;
}

interface Channel {
  id: string;
  url: string | null;
}

const MAX_BACKOFF_MS = 30_000;
const IDLE_TIMEOUT_MS = 45_000;

/**
 * `overture-webhooks listen`: signs in (device flow, once per backend: the session is kept),
 * opens the channel's stream and sends each delivery on to `--forward-to`, one line per delivery.
 * Reconnects with Last-Event-ID when the stream ends; signs in again when the session ended.
 * Exit codes: 0 stopped (Ctrl-C), 1 cannot go on (the reason is printed).
 */
export async function listen(options: ListenOptions, io: ListenIo): Promise<number> {
  const listener = new Listener(options, io);
  try {
    await listener.start();
    await listener.relay();
  } catch (error) {
    if (!listener.stopped()) {
      if (!(error instanceof ListenError)) throw error;
      io.err(`overture-webhooks: ${error.message}`);
      return 1;
    }
  }
  io.out("Stopped.");
  return 0;
}

class Listener {
  private readonly store: ConfigStore;
  private readonly backend: BackendClient;
  private session = "";
  private channel: Channel = { id: "", url: null };
  private connected = false;
  private backoffMs = 1_000;
  /** The server's `retry:` hint: how long to wait before reconnecting. */
  private retryMs = 3_000;

  constructor(
    private readonly options: ListenOptions,
    private readonly io: ListenIo,
  ) {
    this.store = new ConfigStore(io.configDir);
    this.backend = new BackendClient(options.backend, io.fetch, io.userAgent);
  }

  /** Ctrl-C was pressed. A method: it changes while the listener awaits. */
  stopped(): boolean {
    return this.io.signal?.aborted === true;
  }

  private get origin(): string {
    return this.options.backend;
  }

  /** The stored session (or a new sign-in), the channel (stored, given or new), `--replay`. */
  async start(): Promise<void> {
    const entry = await this.store.backend(this.origin);
    this.session = entry.session_token ?? (await this.signIn());
    const id = this.options.channel ?? entry.default_channel;
    if (id !== undefined) this.channel = { id, url: entry.channels?.[id]?.url ?? null };
    else {
      try {
        this.channel = await this.newChannel();
      } catch (error) {
        if (!(error instanceof SessionEnded)) throw error;
        this.session = await this.signIn();
        this.channel = await this.newChannel();
      }
    }
    this.show();
    if (!this.options.replay) return;
    const last = await this.store.lastDelivery(this.channel.id);
    if (last) await this.deliver(last, true);
    else
      this.io.out("Nothing to replay: this machine has received no delivery on this channel yet.");
  }

  /** Reads the channel's stream until Ctrl-C, reconnecting after each end. */
  async relay(): Promise<void> {
    while (!this.stopped()) {
      // Ends this stream only: when it falls silent (a connection that died without closing).
      const silent = new AbortController();
      const signals = [silent.signal, ...(this.io.signal ? [this.io.signal] : [])];
      const response = await this.open(AbortSignal.any(signals));
      if (!response) continue;
      if (!this.connected) this.io.out("Ready.");
      this.connected = true;
      this.backoffMs = 1_000;
      const idleMs = this.io.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const alive = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          silent.abort();
        }, idleMs);
      };
      try {
        alive();
        for await (const frame of readFrames(response.body ?? new ReadableStream(), alive))
          await this.onFrame(frame);
      } catch (error) {
        if (this.stopped()) return;
        const why = silent.signal.aborted ? `nothing for ${idleMs / 1000} s` : describe(error);
        this.io.err(`The stream was cut (${why}); reconnecting.`);
      } finally {
        clearTimeout(watchdog);
      }
      if (this.stopped()) return;
      await this.io.sleep(this.retryMs, this.io.signal);
    }
  }

  /** The stream, or null after handling why there is none (signed in again, new channel, wait). */
  private async open(abort: AbortSignal): Promise<Response | null> {
    const stored = await this.store.backend(this.origin);
    const resumeFrom = stored.channels?.[this.channel.id]?.last_event_id;
    try {
      return await this.backend.openStream(this.session, this.channel.id, resumeFrom, abort);
    } catch (error) {
      if (this.stopped()) throw error;
      if (error instanceof SessionEnded) {
        this.io.err("The session ended (signed out, revoked or expired): sign in again.");
        await this.store.update(this.origin, (entry) => delete entry.session_token);
        this.session = await this.signIn();
        return null;
      }
      if (error instanceof ChannelGone) {
        if (this.options.channel !== undefined)
          throw new ListenError(
            `relay channel ${this.channel.id} is not one of yours (deleted, or another user's)`,
          );
        this.io.err("The relay channel no longer exists; here is a new one for X-WebHook.");
        this.channel = await this.newChannel();
        this.show();
        return null;
      }
      // Unreachable or failing after it worked: keep trying; at start, say why and stop.
      if (!(error instanceof ListenError && error.retryable && this.connected)) throw error;
      this.io.err(`${error.message}; trying again in ${this.backoffMs / 1000} s`);
      await this.io.sleep(this.backoffMs, this.io.signal);
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
      return null;
    }
  }

  private async onFrame(frame: SseFrame): Promise<void> {
    if (frame.retry !== undefined) this.retryMs = frame.retry;
    if (frame.event === "delivery") {
      await this.deliver(frame.data, false);
      await this.store.saveLastDelivery(this.channel.id, frame.data);
    }
    if ((frame.event === "delivery" || frame.event === "ready") && frame.id !== undefined)
      await this.remember(frame.id);
  }

  /** Where the stream resumes next time, this run or the next. */
  private async remember(lastEventId: string): Promise<void> {
    const { id, url } = this.channel;
    await this.store.update(this.origin, (entry) => {
      const known = entry.channels?.[id] ?? { url };
      entry.channels = { ...entry.channels, [id]: { ...known, last_event_id: lastEventId } };
    });
  }

  private async deliver(json: string, replayed: boolean): Promise<void> {
    const delivery = JSON.parse(json) as RelayedDelivery;
    const result = await forward(this.io.fetch, this.options.forwardTo, delivery, this.io.now);
    this.io.out(deliveryLine(delivery, result, replayed));
    const note = replayed ? staleSignatureNote(delivery, this.io.now()) : undefined;
    if (note) this.io.out(note);
  }

  private async signIn(): Promise<string> {
    const { io } = this;
    const signedIn = await deviceLogin(this.backend, {
      out: io.out,
      sleep: io.sleep,
      ...(io.signal ? { signal: io.signal } : {}),
    });
    await this.store.update(this.origin, (entry) => {
      entry.session_token = signedIn.session_token;
      if (signedIn.user?.login) entry.login = signedIn.user.login;
    });
    const who = signedIn.user?.login ? ` as ${signedIn.user.login}` : "";
    io.out(`Signed in to ${this.origin}${who}.`);
    return signedIn.session_token;
  }

  private async newChannel(): Promise<Channel> {
    const created = await this.backend.createChannel(this.session);
    await this.store.update(this.origin, (entry) => {
      entry.default_channel = created.id;
      entry.channels = { ...entry.channels, [created.id]: { url: created.url } };
    });
    return created;
  }

  private show(): void {
    const { io, channel } = this;
    if (channel.url) {
      io.out("Relay URL (put it in X-WebHook; any path and query after it are kept):");
      io.out(`  ${channel.url}`);
    } else io.out(`Relay channel ${channel.id} (its URL was shown when it was created).`);
    io.out(`Forwarding deliveries to ${this.options.forwardTo}. Press Ctrl-C to stop.`);
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One line per delivery: when, what came in, which event, and the local receiver's answer. */
export function deliveryLine(
  delivery: RelayedDelivery,
  result: ForwardResult,
  replayed: boolean,
): string {
  const at = new Date(delivery.received_at).toTimeString().slice(0, 8);
  const target = `${delivery.method} ${delivery.path || "/"}${delivery.query ? `?${delivery.query}` : ""}`;
  const answer =
    "error" in result
      ? `no answer: ${result.error}`
      : `${result.status}${result.summary ? ` ${result.summary.replace(/\s+/g, " ")}` : ""}`;
  return `${replayed ? "replay " : ""}${at}  ${target}  ${describeEvent(delivery)}  → ${answer} (${result.ms} ms)`;
}

/**
 * Why a replayed delivery may be refused: it keeps the platform's X-Sign-Timestamp, which is
 * part of the signature, so neither the relay nor this command can renew it; past the receivers'
 * default window they answer 401. `undefined` while it is within the window.
 */
export function staleSignatureNote(delivery: RelayedDelivery, now: number): string | undefined {
  const header = delivery.headers.find(([name]) => name.toLowerCase() === "x-sign-timestamp");
  const ageMs = now - Number(header?.[1]);
  if (!Number.isFinite(ageMs) || ageMs <= DEFAULT_WEBHOOK_TOLERANCE_MS) return undefined;
  const minutes = Math.round(ageMs / 60_000);
  const window = DEFAULT_WEBHOOK_TOLERANCE_MS / 60_000;
  return `  (signed ${minutes} min ago: a receiver with the default ${window}-minute window refuses it; its X-Sign-Timestamp is part of the signature, so a replay cannot renew it)`;
}

/** `success 7f2a…` from a callback body (spec 2.7); what the body is otherwise. */
function describeEvent(delivery: RelayedDelivery): string {
  const body = Buffer.from(delivery.body_base64, "base64");
  try {
    const event = JSON.parse(body.toString("utf8")) as { status?: unknown; event_id?: unknown };
    const status = typeof event.status === "string" ? event.status : undefined;
    const id = typeof event.event_id === "string" ? event.event_id : undefined;
    if (status !== undefined || id !== undefined) return `${status ?? "?"} ${id ?? "-"}`;
  } catch {
    // not JSON: said below
  }
  return `(${body.byteLength} bytes, not a callback event)`;
}
