import {
  DEFAULT_MAX_BODY_BYTES,
  checkReceiverOptions,
  type WebhookReceiverOptions,
} from "./options.ts";
import {
  readLimited,
  receiveChecked,
  receiverFailure,
  refusal,
  tooLarge,
  type WebhookAnswer,
} from "./receive.ts";

/**
 * A fetch-style webhook receiver, `(request: Request) => Promise<Response>`, for any runtime with
 * the Fetch API: Hono, Bun, Deno, Cloudflare Workers, Next.js route handlers. It reads the raw
 * body (up to `maxBodyBytes`), verifies it over those bytes with the timestamp window and every
 * secret, checks the event, and calls `onEvent`; see `receiveWebhook` for each answer. The URL
 * signed is `request.url`, which the runtime has parsed: the query is the one the platform sent
 * as long as it used only characters a URL keeps as they are (spec 4.8; Overture's callback
 * URLs do). It always answers: what it cannot handle otherwise is a 500, reported to
 * `onRejected`.
 *
 * @throws TypeError when created without a secret, with an empty or blank one, or with `hash`
 *   and `hmac` (see {@link WebhookReceiverOptions}).
 *
 * @example
 * ```ts
 * const handle = createWebhookHandler({
 *   secrets: [env.WEBHOOK_SECRET],
 *   onEvent: async (event) => { await queue.send(event); },
 * });
 * export default { fetch: handle }; // a Worker; or Bun.serve({ fetch: handle }), Deno.serve(handle)
 * ```
 */
export function createWebhookHandler(
  options: WebhookReceiverOptions,
): (request: Request) => Promise<Response> {
  const checked = checkReceiverOptions(options, "createWebhookHandler");
  const max = checked.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async function handleWebhook(request: Request): Promise<Response> {
    let answer: WebhookAnswer;
    try {
      answer = await receive(request);
    } catch (error) {
      answer = receiverFailure(checked, error);
    }
    return json(answer.status, answer.body, answer.status === 405 ? { Allow: "POST" } : {});
  };

  async function receive(request: Request): Promise<WebhookAnswer> {
    const delivery = { method: request.method, url: request.url, headers: request.headers };
    let body: Uint8Array | undefined = new Uint8Array();
    if (request.method.toUpperCase() === "POST") {
      // A declared length over the limit is refused before a byte is read.
      const declared = Number(request.headers.get("content-length") ?? "0");
      body = declared > max ? undefined : await readLimited(streamOf(request), max);
    }
    if (body === undefined) return refusal(checked, tooLarge(max));
    return receiveChecked({ ...delivery, body }, checked);
  }
}

/** The request body as chunks; none when it has no body. */
async function* streamOf(request: Request): AsyncGenerator<Uint8Array> {
  if (!request.body) return;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stops reading at once when the caller stops early (a body over the limit).
    await reader.cancel().catch(() => undefined);
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}
