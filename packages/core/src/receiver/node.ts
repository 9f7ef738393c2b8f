/**
 * The webhook receiver for Node's `http` server, Express, Connect or Fastify's middie
 * (`createWebhookMiddleware`), typed structurally so core imports nothing from Node. It does what
 * the fetch handler of `@overture/core/receiver` does, on Node's request and response.
 *
 * @packageDocumentation
 */
import { WEBHOOK_BODY_ALREADY_PARSED } from "./codes.ts";
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
 * The part of Node's `http.IncomingMessage` (and Express's `req`) the middleware uses, typed
 * structurally so that core imports nothing from Node. `body` is set by a body parser mounted
 * before: raw bytes (`express.raw()`) are verified; a parsed object cannot be.
 *
 * @example
 * ```ts
 * const req: NodeRequestLike = incomingMessage;
 * ```
 */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  readonly method?: string | undefined;
  /** The request target as received: path and query, never re-encoded. */
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body?: unknown;
}

/**
 * The part of Node's `http.ServerResponse` (and Express's `res`) the middleware uses.
 *
 * @example
 * ```ts
 * const res: NodeResponseLike = serverResponse;
 * ```
 */
export interface NodeResponseLike {
  /** The status the answer is sent with. */
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and ends the response. */
  end(body?: string): unknown;
}

/**
 * A webhook receiver for Node's `http` server, Express, Connect or Fastify's middie:
 * `(req, res, next?) => Promise<void>`. It reads the raw body from the request stream (or takes
 * `req.body` when `express.raw()` ran first), verifies it over those bytes against
 * `req.url` exactly as received, with the timestamp window and every secret, checks the event
 * and calls `onEvent`; see `receiveWebhook` for each answer. Mount it before any JSON body
 * parser: a parsed body cannot be verified.
 *
 * Its promise never rejects, so `createServer(receive)` cannot end the process on a bad request:
 * what it cannot handle otherwise (a request stream that breaks, a bug) goes to `next` when
 * there is one (Express answers it), else it answers 500 and reports to `onRejected`.
 *
 * @throws TypeError when created without a secret, with an empty or blank one, or with `hash`
 *   and `hmac` (see {@link WebhookReceiverOptions}).
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createWebhookMiddleware } from "@overture/core/receiver/node";
 *
 * const receive = createWebhookMiddleware({ secrets: process.env.WEBHOOK_SECRET, onEvent });
 * createServer(receive).listen(8787);        // or: app.post("/webhooks/platform", receive)
 * ```
 */
export function createWebhookMiddleware(
  options: WebhookReceiverOptions,
): (
  req: NodeRequestLike,
  res: NodeResponseLike,
  next?: (error?: unknown) => void,
) => Promise<void> {
  const checked = checkReceiverOptions(options, "createWebhookMiddleware");
  const max = checked.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async function webhookMiddleware(req, res, next) {
    let answer: WebhookAnswer;
    try {
      answer = await receive(req);
    } catch (error) {
      if (next) {
        passOn(next, error);
        return;
      }
      answer = receiverFailure(checked, error);
    }
    try {
      res.statusCode = answer.status;
      res.setHeader("Content-Type", "application/json");
      if (answer.status === 405) res.setHeader("Allow", "POST");
      res.end(JSON.stringify(answer.body));
    } catch (error) {
      // The response is gone (the client hung up): nothing left to answer, only to report.
      receiverFailure(checked, error);
    }
  };

  async function receive(req: NodeRequestLike): Promise<WebhookAnswer> {
    const method = req.method ?? "GET";
    if (req.body !== undefined && !(req.body instanceof Uint8Array)) return parsedBody();
    const body =
      method.toUpperCase() !== "POST"
        ? new Uint8Array()
        : req.body instanceof Uint8Array
          ? req.body
          : await readLimited(req, max);
    if (body === undefined) return refusal(checked, tooLarge(max));
    return receiveChecked({ method, url: req.url ?? "/", headers: req.headers, body }, checked);
  }

  /** A body parser consumed and parsed the body: its bytes, which were signed, are gone. */
  function parsedBody(): WebhookAnswer {
    const message =
      "The request body was parsed before the webhook receiver ran, so its signed bytes are gone: mount the receiver before any JSON body parser, or use express.raw()";
    return refusal(checked, { status: 500, code: WEBHOOK_BODY_ALREADY_PARSED, message });
  }

  function passOn(next: (error?: unknown) => void, error: unknown): void {
    try {
      next(error);
    } catch (thrown) {
      receiverFailure(checked, thrown);
    }
  }
}

export type { WebhookAnswer } from "./receive.ts";
export type { CallbackEvent, CallbackEventOf } from "./event.ts";
export type {
  CallbackEventHandler,
  CallbackEventHandlers,
  WebhookEventContext,
  WebhookReceiverOptions,
  WebhookRejection,
  WebhookSecrets,
} from "./options.ts";
