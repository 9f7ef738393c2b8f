import { WEBHOOK_BODY_ALREADY_PARSED } from "./codes.ts";
import {
  DEFAULT_MAX_BODY_BYTES,
  readLimited,
  receiveWebhook,
  tooLarge,
  type WebhookAnswer,
  type WebhookReceiverOptions,
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
  readonly method?: string;
  /** The request target as received: path and query, never re-encoded. */
  readonly url?: string;
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
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/**
 * A webhook receiver for Node's `http` server, Express, Connect or Fastify's middie:
 * `(req, res, next?) => Promise<void>`. It reads the raw body from the request stream (or takes
 * `req.body` when `express.raw()` ran first), verifies it over those bytes against
 * `req.url` exactly as received, with the timestamp window and every secret, checks the event
 * and calls `onEvent`; see `receiveWebhook` for each answer. It always answers; `next` only gets
 * an unexpected error. Mount it before any JSON body parser: a parsed body cannot be verified.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createWebhookMiddleware } from "@overture/core/receiver/node";
 *
 * const receive = createWebhookMiddleware({ secrets: [process.env.WEBHOOK_SECRET], onEvent });
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
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async function webhookMiddleware(req, res, next) {
    try {
      const method = req.method ?? "GET";
      let answer: WebhookAnswer;
      if (req.body !== undefined && !(req.body instanceof Uint8Array)) {
        answer = parsedBody();
      } else {
        const body =
          method.toUpperCase() !== "POST"
            ? new Uint8Array()
            : req.body instanceof Uint8Array
              ? req.body
              : await readLimited(req, max);
        answer =
          body === undefined
            ? rejected(tooLarge(max))
            : await receiveWebhook(
                { method, url: req.url ?? "/", headers: req.headers, body },
                options,
              );
      }
      res.statusCode = answer.status;
      res.setHeader("Content-Type", "application/json");
      if (answer.status === 405) res.setHeader("Allow", "POST");
      res.end(JSON.stringify(answer.body));
    } catch (error) {
      if (next) next(error);
      else throw error;
    }
  };

  function rejected(rejection: ReturnType<typeof tooLarge>): WebhookAnswer {
    options.onRejected?.(rejection);
    return {
      status: rejection.status,
      body: { error: rejection.code, message: rejection.message },
    };
  }

  /** A body parser consumed and parsed the body: its bytes, which were signed, are gone. */
  function parsedBody(): WebhookAnswer {
    const message =
      "The request body was parsed before the webhook receiver ran, so its signed bytes are gone: mount the receiver before any JSON body parser, or use express.raw()";
    return rejected({ status: 500, code: WEBHOOK_BODY_ALREADY_PARSED, message });
  }
}

export type {
  WebhookAnswer,
  WebhookEventContext,
  WebhookReceiverOptions,
  WebhookRejection,
} from "./receive.ts";
