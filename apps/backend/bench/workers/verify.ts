// Item 3: signature verification throughput in one process, interleaved in short slices so load
// on the shared machine hits every variant alike: a bare HMAC-SHA256 of the signing text (the
// floor of any verifier), core's verifyWebhookSync({ createHmac }) as the intake runs it (the body
// as the bytes Node read), the same with the body as text, and the `standardwebhooks` library's
// verify as a peer (its own signing scheme over the same body).
import { createHmac } from "node:crypto";
import { canonicalQuery, signingText, verifyWebhookSync } from "@overture/core/webhook";
import { Webhook } from "standardwebhooks";
import { callbackBody } from "../lib/plan.ts";
import { serveWorker } from "../lib/procs.ts";
import { median } from "../lib/stats.ts";

export interface VerifyRequest {
  trials: number;
  cycles: number;
  sliceMs: number;
}

export interface VerifyResult {
  bodyBytes: number;
  /** Median verifications per second over trials, by variant. */
  perSecond: Record<string, number>;
  /** Median over trials of the per-trial ratio to the bare HMAC. */
  ratioToBare: Record<string, number>;
  ratioRange: Record<string, [number, number]>;
}

const SECRET = "whsec_overture_bench_0123456789abcdef";
// The body's bytes in a Buffer, as the intake reads them; and decoded, as a server that reads text
// has it (a flat string, not a rope).
const BODY_BYTES = Buffer.from(
  callbackBody({ task: 7, eventId: "evt_verify_1", status: "success" }),
);
const BODY = new TextDecoder().decode(BODY_BYTES);
const URL_CALLED =
  "http://127.0.0.1:8787/webhooks/platform?k=Zm9vYmFyYmF6cXV4MDEyMzQ1Njc4OWFiY2RlZmdoaWo";
const NOW = Date.now();
const TIMESTAMP = String(NOW - 1_500);
const TEXT = signingText(TIMESTAMP, canonicalQuery(URL_CALLED.split("?")[1] ?? ""), BODY);
const SIGNATURE = createHmac("sha256", SECRET).update(TEXT).digest("hex");
const headers = { "x-sign-timestamp": TIMESTAMP, "x-signature": SIGNATURE };

const standardSecret = `whsec_${Buffer.from(SECRET).toString("base64")}`;
const standard = new Webhook(standardSecret);
const standardHeaders = {
  "webhook-id": "msg_evt_verify_1",
  "webhook-timestamp": String(Math.floor(NOW / 1000)),
  "webhook-signature": standard.sign("msg_evt_verify_1", new Date(NOW), BODY),
};

const BATCH = 64;
let sink = 0;
const now = () => NOW;
const BARE = "bare createHmac of the signing text";
const CORE = "verifyWebhookSync({ createHmac })";
const CORE_TEXT = "verifyWebhookSync({ createHmac }), text body";
const PEER = "standardwebhooks Webhook.verify";
const VARIANTS: Record<string, () => void> = {
  [BARE]: () => {
    for (let i = 0; i < BATCH; i++)
      sink += createHmac("sha256", SECRET).update(TEXT).digest("hex").length;
  },
  // A fresh input per call, as the intake builds one per delivery (with a stable clock function).
  [CORE]: () => {
    coreBatch(BODY_BYTES);
  },
  [CORE_TEXT]: () => {
    coreBatch(BODY);
  },
  [PEER]: () => {
    for (let i = 0; i < BATCH; i++) {
      standard.verify(BODY, standardHeaders, { jsonParse: false });
      sink++;
    }
  },
};

function coreBatch(body: string | Uint8Array): void {
  for (let i = 0; i < BATCH; i++) {
    const result = verifyWebhookSync({
      body,
      url: URL_CALLED,
      headers,
      secrets: SECRET,
      now,
      createHmac,
    });
    if (!result.ok) throw new Error("verification failed: the benchmark input is wrong");
    sink++;
  }
}

interface Tally {
  ops: number;
  ms: number;
}

function slice(fn: () => void, ms: number, tally: Tally): void {
  const start = performance.now();
  let at = start;
  while (at - start < ms) {
    fn();
    tally.ops += BATCH;
    at = performance.now();
  }
  tally.ms += at - start;
}

/**
 * Trials of one family (a variant and the bare HMAC, interleaved). The peer runs in a family of
 * its own: its garbage (typed arrays per call) would otherwise tax whichever slice runs next.
 */
function family(names: string[], request: VerifyRequest) {
  for (const name of names) slice(VARIANTS[name] ?? (() => undefined), 300, { ops: 0, ms: 0 });
  const rates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const ratios: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let t = 0; t < request.trials; t++) {
    const tallies = new Map(names.map((n) => [n, { ops: 0, ms: 0 }]));
    for (let c = 0; c < request.cycles; c++) {
      for (const name of names) {
        const tally = tallies.get(name);
        const fn = VARIANTS[name];
        if (tally && fn) slice(fn, request.sliceMs, tally);
      }
    }
    const rate = (name: string) => {
      const tally = tallies.get(name);
      return tally ? tally.ops / (tally.ms / 1000) : 0;
    };
    for (const name of names) {
      rates[name]?.push(rate(name));
      ratios[name]?.push(rate(name) / rate(BARE));
    }
  }
  return { rates, ratios };
}

function run(request: VerifyRequest): Promise<VerifyResult> {
  const core = family([BARE, CORE, CORE_TEXT], request);
  const peer = family([BARE, PEER], request);
  if (sink === 0) throw new Error("no work done");
  const ratiosOf = (name: string) => core.ratios[name] ?? peer.ratios[name] ?? [];
  const variants = [CORE, CORE_TEXT, PEER];
  return Promise.resolve({
    bodyBytes: BODY_BYTES.length,
    perSecond: {
      [BARE]: median(core.rates[BARE] ?? []),
      [CORE]: median(core.rates[CORE] ?? []),
      [CORE_TEXT]: median(core.rates[CORE_TEXT] ?? []),
      [`${BARE} (peer family)`]: median(peer.rates[BARE] ?? []),
      [PEER]: median(peer.rates[PEER] ?? []),
    },
    ratioToBare: Object.fromEntries(variants.map((n) => [n, median(ratiosOf(n))])),
    ratioRange: Object.fromEntries(
      variants.map((n) => [n, [Math.min(...ratiosOf(n)), Math.max(...ratiosOf(n))]]),
    ),
  });
}

serveWorker({ run });
