import type { RelayBuffer } from "./buffer.ts";
import { REPLAY_PAGE } from "./buffer.ts";
import { deliveryFrame } from "./frames.ts";

/**
 * One listener's stream of a channel: a Web stream the response carries, its position (the last
 * delivery id written) and its lease. Deliveries are read from the buffer after the position,
 * one read at a time per stream, whatever woke it (a NOTIFY, the catch-up read, the start), so
 * each is written once and in order, from this instance or another.
 */
export class RelayStream {
  private closed = false;
  /** Set once the stream's first frames are written: a notification before that waits. */
  started = false;
  private pumping = false;
  private again = false;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;

  constructor(
    readonly channelId: string,
    readonly userId: number,
    readonly sessionId: string,
    readonly listenerId: string,
    /** Clock time at which it ends (its jittered lifetime). */
    readonly endsAt: number,
    /** Last delivery id written (or the position a fresh stream starts from). */
    public lastId: number,
    /** Queued bytes a client may leave unread before the stream is ended. */
    private readonly maxQueuedBytes: number,
    private readonly onEnd: (stream: RelayStream) => void,
  ) {}

  /** Ended, by either side. A method: a write or a read in between may end it. */
  isClosed(): boolean {
    return this.closed;
  }

  /** The response body; `cancel` (the client left) ends the stream. */
  body(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => {
          this.end();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
    );
  }

  write(frame: Uint8Array): void {
    const controller = this.controller;
    if (this.closed || !controller) return;
    try {
      controller.enqueue(frame);
    } catch {
      this.end(); // the client is gone
      return;
    }
    // A client that stopped reading: end it (it resumes from the buffer) before memory grows.
    if ((controller.desiredSize ?? 0) < -this.maxQueuedBytes) this.end();
  }

  /** Writes every buffered delivery after the position; a wake-up during a read reads again. */
  async pump(buffer: RelayBuffer): Promise<void> {
    if (!this.started || this.closed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        const rows = await buffer.after(this.channelId, this.lastId);
        for (const row of rows) {
          if (this.isClosed()) return;
          this.write(deliveryFrame(row));
          this.lastId = row.id;
        }
        if (rows.length === REPLAY_PAGE) this.again = true;
      } while (this.again && !this.isClosed());
    } finally {
      this.pumping = false;
    }
  }

  /** Ends the stream from the server's side (a last frame first, if any), or after the client left. */
  end(goodbye?: Uint8Array): void {
    if (this.closed) return;
    if (goodbye) this.write(goodbye);
    if (this.isClosed()) return; // the goodbye found the client too far behind, and ended it
    this.closed = true;
    try {
      this.controller?.close();
    } catch {
      // already closed by the client
    }
    this.onEnd(this);
  }
}
