// Test-only fake of fetch; production code never imports this module.

/** One scripted answer: a response, a thrown error, a handler, or "hang" until aborted. */
export type FakeReply =
  Response | Error | ((request: Request) => Response | Promise<Response>) | "hang";

export interface FakeFetch {
  fetch: typeof fetch;
  /** Every request received, in order. */
  requests: Request[];
  /** Queues answers, used one per request in order. */
  reply(...replies: FakeReply[]): FakeFetch;
}

function hang(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener("abort", () => {
      reject(signal.reason as Error);
    });
  });
}

/** A fetch that answers from a queue; a request with nothing queued fails the test loudly. */
export function createFakeFetch(): FakeFetch {
  const queue: FakeReply[] = [];
  const requests: Request[] = [];
  const fake: FakeFetch = {
    requests,
    reply(...replies) {
      queue.push(...replies);
      return fake;
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request);
      if (init?.signal?.aborted) throw init.signal.reason as Error;
      const next = queue.shift();
      if (next === undefined)
        throw new Error(`Unexpected request: ${request.method} ${request.url}`);
      if (next === "hang") return hang(init?.signal);
      if (next instanceof Error) throw next;
      if (next instanceof Response) return next;
      return next(request);
    },
  };
  return fake;
}

/** A JSON response. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** What Node's fetch throws when nothing listens on the port: the request never left. */
export function connectionRefused(): TypeError {
  const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4010"), {
    code: "ECONNREFUSED",
  });
  return new TypeError("fetch failed", { cause });
}

/** What Node's fetch throws when the connection drops mid-request: ambiguous. */
export function connectionReset(): TypeError {
  const cause = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
  return new TypeError("fetch failed", { cause });
}
