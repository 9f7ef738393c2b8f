import { taskFrame } from "./frames.ts";
import { MAX_QUEUED_FRAMES, type StreamTarget } from "./stream-target.ts";

/** A stream opened with `EventHub.open`: a transport claims it, or closes it. */
export interface LiveStream {
  /** Sends everything so far and every later frame to `target` (once). */
  claim(target: StreamTarget): void;
  /** The client left. */
  close(): void;
  /** Settles once the stream is live (after its `ready` frame or its replay), or failed. */
  readonly attached: Promise<void>;
}

/** Where a stream leaves the hub's registry; one object, shared by every stream. */
export interface StreamRegistry {
  remove(stream: Stream): void;
}

/** One user's events after `afterId`, oldest first, at most a page (the feed reads them). */
export type ReplayPage = (
  userId: number,
  afterId: bigint,
) => Promise<{ id: bigint; payload: string }[]>;

/**
 * One connected live-event stream: its frames until a transport claims it, its replay, its
 * position and its lifetime. Kept small (an instance holds thousands): plain fields, methods shared.
 */
export class Stream implements LiveStream {
  /** Null until a transport claims the stream; frames wait in `unclaimed` meanwhile. */
  private target: StreamTarget | null = null;
  private unclaimed: Uint8Array[] | null = [];
  /** Live events held back while the stream replays from the database; null once live. */
  private pending: { id: bigint; frame: Uint8Array }[] | null;
  /** Closed by the hub (backlog, lifetime, limit, stop) or the client. */
  closed = false;
  /** Why attaching failed, for a transport that claims the stream afterwards. */
  private failure?: unknown;
  attached: Promise<void> = Promise.resolve();
  /** Which of the hub's heartbeat slices pings it. */
  heartbeatSlice = 0;

  constructor(
    private readonly registry: StreamRegistry,
    readonly userId: number,
    /** The session that opened it: the stream ends when that session is revoked. */
    readonly sessionId: string | undefined,
    /** Clock time at which the heartbeat ends it (its jittered maximum lifetime). */
    readonly endsAt: number,
    /** Last event id written to this stream (dedupes replay against live). */
    public lastId: bigint,
    replaying: boolean,
  ) {
    this.pending = replaying ? [] : null;
  }

  /** Whether it is live (not replaying): heartbeats go only to live streams. */
  get live(): boolean {
    return this.pending === null;
  }

  write(frame: Uint8Array): void {
    if (this.closed) return;
    const target = this.target;
    if (!target) {
      this.unclaimed?.push(frame);
      if ((this.unclaimed?.length ?? 0) > MAX_QUEUED_FRAMES) this.end();
      return;
    }
    if (target.backlogged()) {
      this.end();
      return;
    }
    try {
      target.write(frame);
    } catch {
      this.registry.remove(this); // the stream was closed under us
    }
  }

  /** A live event: written now, or held while the replay runs; each id at most once. */
  deliver(id: bigint, frame: Uint8Array): void {
    if (this.pending) this.pending.push({ id, frame });
    else if (id > this.lastId) {
      this.lastId = id;
      this.write(frame);
    }
  }

  /** Writes every event after `lastId` from the database; live ones wait until {@link goLive}. */
  async replay(read: ReplayPage, pageSize: number): Promise<void> {
    for (;;) {
      const rows = await read(this.userId, this.lastId);
      for (const row of rows) {
        this.lastId = row.id;
        this.write(taskFrame(row.id, row.payload));
      }
      if (rows.length < pageSize) break;
    }
  }

  /**
   * Writes `frame` and sets the stream's position to `id`, also back (a client ahead of the
   * database): the client takes up everything up to `id` by other means, and every later event
   * comes live.
   */
  resetTo(id: bigint, frame: Uint8Array): void {
    this.lastId = id;
    this.write(frame);
  }

  /** Ends the replay: writes the live events that arrived meanwhile, then each as it comes. */
  goLive(): void {
    const held = this.pending ?? [];
    this.pending = null;
    for (const event of held) this.deliver(event.id, event.frame);
  }

  /** Closes the stream from the server side (the client reconnects and replays). */
  end(goodbye?: Uint8Array): void {
    this.registry.remove(this);
    if (this.closed) return;
    this.closed = true;
    this.unclaimed = null;
    try {
      if (goodbye) this.target?.write(goodbye);
      this.target?.close();
    } catch {
      // already closed by the client
    }
  }

  /** Attaching failed: the stream is over, and its transport (now or later) is told. */
  fail(error: unknown): void {
    this.registry.remove(this);
    this.closed = true;
    this.unclaimed = null;
    this.failure = error;
    this.target?.fail(error);
  }

  claim(target: StreamTarget): void {
    if (this.target) return;
    this.target = target;
    if (this.failure !== undefined) {
      target.fail(this.failure);
      return;
    }
    const waiting = this.unclaimed ?? [];
    this.unclaimed = null;
    if (this.closed) {
      target.close();
      return;
    }
    for (const frame of waiting) this.write(frame);
  }

  close(): void {
    this.registry.remove(this);
    this.closed = true;
    this.unclaimed = null;
  }
}
