import { connect, type Socket } from "node:net";

/**
 * A minimal HTTP/1.1 client over one keep-alive socket, one request at a time. The load
 * generators use it instead of `fetch`/`http.request` because on a 2-core machine the client's
 * own CPU cost is taken from the server under test: this one does little more than write bytes
 * and find the end of the answer (Content-Length or chunked).
 */
export interface HttpAnswer {
  status: number;
  body: string;
}

export class Http1Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting:
    { resolve: (answer: HttpAnswer) => void; reject: (error: Error) => void } | undefined;
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    socket.on("error", (error) => {
      this.fail(error);
    });
    socket.on("close", () => {
      this.fail(new Error("connection closed by the server"));
    });
  }

  static open(port: number, host = "127.0.0.1"): Promise<Http1Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host }, () => {
        socket.off("error", reject);
        resolve(new Http1Connection(socket));
      });
      socket.once("error", reject);
    });
  }

  /** False once either side closed the socket: a pool must open another in its place. */
  get isOpen(): boolean {
    return !this.closed;
  }

  /** Sends one complete request (head and body) and resolves with the answer. */
  send(request: Buffer | string): Promise<HttpAnswer> {
    if (this.closed) return Promise.reject(new Error("connection closed"));
    if (this.waiting) return Promise.reject(new Error("one request at a time"));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private fail(error: Error): void {
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  private parse(): void {
    const headEnd = this.buffer.indexOf("\r\n\r\n");
    if (headEnd < 0 || !this.waiting) return;
    const head = this.buffer.toString("latin1", 0, headEnd).toLowerCase();
    const status = Number(head.slice(9, 12));
    const start = headEnd + 4;
    const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
    let body: string;
    let end: number;
    if (length) {
      end = start + Number(length[1]);
      if (this.buffer.length < end) return;
      body = this.buffer.toString("utf8", start, end);
    } else if (/\r\ntransfer-encoding:\s*chunked/.test(head)) {
      const chunked = decodeChunked(this.buffer, start);
      if (!chunked) return;
      ({ body, end } = chunked);
    } else {
      body = "";
      end = start;
    }
    this.buffer = this.buffer.subarray(end);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve({ status, body });
  }
}

/** A complete chunked body starting at `from`, or undefined while more bytes are needed. */
function decodeChunked(buffer: Buffer, from: number): { body: string; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf("\r\n", at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buffer.toString("latin1", at, lineEnd), 16);
    if (size === 0) {
      const trailerEnd = buffer.indexOf("\r\n", lineEnd + 2);
      if (trailerEnd < 0) return undefined;
      return { body: Buffer.concat(parts).toString("utf8"), end: trailerEnd + 2 };
    }
    if (buffer.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** One Server-Sent Events frame: only the fields the benchmarks read. */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
}

/**
 * A Server-Sent Events stream over a raw socket: the response head, then the chunked body
 * decoded incrementally and split into frames. `onFrame` runs for every frame.
 */
export function openSse(options: {
  port: number;
  path: string;
  headers: Record<string, string>;
  onFrame: (frame: SseFrame) => void;
  /** Parse frames only while true (an idle stream only needs its first bytes). */
  parseFrames?: boolean;
}): Promise<{ status: number; close: () => void; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: options.port, host: "127.0.0.1" });
    socket.setNoDelay(true);
    let raw: Buffer = Buffer.alloc(0);
    let headDone = false;
    let text = "";
    let pendingChunk: Buffer = Buffer.alloc(0);
    const close = () => socket.destroy();

    function frames(decoded: string): void {
      if (options.parseFrames === false) return;
      text += decoded;
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const frame: SseFrame = {};
        for (const line of block.split("\n")) {
          const colon = line.indexOf(":");
          if (colon <= 0) continue;
          const field = line.slice(0, colon);
          const value = line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") frame.id = value;
          else if (field === "event") frame.event = value;
          else if (field === "data") frame.data = value;
        }
        options.onFrame(frame);
      }
    }

    // Incremental chunked decoding: keep undecoded bytes until a whole chunk is there.
    function body(bytes: Buffer): void {
      pendingChunk = pendingChunk.length === 0 ? bytes : Buffer.concat([pendingChunk, bytes]);
      for (;;) {
        const lineEnd = pendingChunk.indexOf("\r\n");
        if (lineEnd < 0) return;
        const size = parseInt(pendingChunk.toString("latin1", 0, lineEnd), 16);
        if (!Number.isFinite(size) || size === 0) {
          pendingChunk = Buffer.alloc(0);
          return;
        }
        if (pendingChunk.length < lineEnd + 2 + size + 2) return;
        frames(pendingChunk.toString("utf8", lineEnd + 2, lineEnd + 2 + size));
        pendingChunk = pendingChunk.subarray(lineEnd + 2 + size + 2);
      }
    }

    socket.on("connect", () => {
      const headers = Object.entries(options.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.write(`GET ${options.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
    });
    socket.on("data", (chunk: Buffer) => {
      if (headDone) {
        body(chunk);
        return;
      }
      raw = raw.length === 0 ? chunk : Buffer.concat([raw, chunk]);
      const headEnd = raw.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      headDone = true;
      const status = Number(raw.toString("latin1", 9, 12));
      const rest = raw.subarray(headEnd + 4);
      raw = Buffer.alloc(0);
      resolve({ status, close, socket });
      if (rest.length > 0) body(rest);
    });
    socket.on("error", (error) => {
      if (!headDone) reject(error);
    });
  });
}
