// Item 3: signature verification throughput in one process, interleaved in short slices so load
// on the shared machine hits every variant alike: a bare HMAC-SHA256 of the signing text with
// node:crypto's createHmac (what a hand-written verifier pays), the same HMAC built bare on the
// one-shot hash (the floor of core's method), core's verifyWebhookSync({ hash }) as the intake
// runs it (the body as the bytes Node read), the same with the body as text and with createHmac,
// and the `standardwebhooks` library's verify as a peer (its own signing scheme, same body).
import { createHmac, hash } from "node:crypto";
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
  /** Median over trials of the per-trial ratio to the bare createHmac HMAC. */
  ratioToBare: Record<string, number>;
  ratioRange: Record<string, [number, number]>;
  /** The same for core's one-shot-hash verifier against the bare HMAC on that hash. */
  ratioToBareHash: number;
  ratioToBareHashRange: [number, number];
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

// RFC 2104 by hand on the one-shot hash, with everything prepared that can be: the padded key
// joined to the signing text once, the outer pad once. Per call: the two hashes and the copy of
// the inner digest into the outer message, which any HMAC on a one-shot hash does.
const KEY_BLOCK = new Uint8Array(64);
KEY_BLOCK.set(Buffer.from(SECRET));
const INNER_MESSAGE = Buffer.concat([KEY_BLOCK.map((b) => b ^ 0x36), Buffer.from(TEXT)]);
const OUTER_MESSAGE = new Uint8Array(96);
OUTER_MESSAGE.set(KEY_BLOCK.map((b) => b ^ 0x5c));
function bareHashHmac(): string {
  const inner = hash("sha256", INNER_MESSAGE, "binary");
  for (let i = 0; i < 32; i++) OUTER_MESSAGE[64 + i] = inner.charCodeAt(i);
  return hash("sha256", OUTER_MESSAGE, "binary");
}
if (Buffer.from(bareHashHmac(), "latin1").toString("hex") !== SIGNATURE) {
  throw new Error("the bare one-shot HMAC is wrong");
}

const BATCH = 64;
let sink = 0;
const now = () => NOW;
const BARE = "bare createHmac of the signing text";
const BARE_HASH = "bare HMAC on the one-shot hash";
const CORE = "verifyWebhookSync({ hash })";
const CORE_TEXT = "verifyWebhookSync({ hash }), text body";
const CORE_STREAM = "verifyWebhookSync({ createHmac })";
const PEER = "standardwebhooks Webhook.verify";
const VARIANTS: Record<string, () => void> = {
  [BARE]: () => {
    for (let i = 0; i < BATCH; i++)
      sink += createHmac("sha256", SECRET).update(TEXT).digest("hex").length;
  },
  [BARE_HASH]: () => {
    for (let i = 0; i < BATCH; i++) sink += bareHashHmac().length;
  },
  // A fresh input per call, as the intake builds one per delivery (with a stable clock function).
  [CORE]: () => {
    coreBatch(BODY_BYTES, { hash });
  },
  [CORE_TEXT]: () => {
    coreBatch(BODY, { hash });
  },
  [CORE_STREAM]: () => {
    coreBatch(BODY_BYTES, { createHmac });
  },
  [PEER]: () => {
    for (let i = 0; i < BATCH; i++) {
      standard.verify(BODY, standardHeaders, { jsonParse: false });
      sink++;
    }
  },
};

function coreBatch(
  body: string | Uint8Array,
  mac: { hash: typeof hash } | { createHmac: typeof createHmac },
): void {
  for (let i = 0; i < BATCH; i++) {
    const result = verifyWebhookSync({
      body,
      url: URL_CALLED,
      headers,
      secrets: SECRET,
      now,
      ...mac,
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
  ratios[`${CORE} / ${BARE_HASH}`] = [];
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
    ratios[`${CORE} / ${BARE_HASH}`]?.push(rate(CORE) / rate(BARE_HASH));
  }
  return { rates, ratios };
}

function run(request: VerifyRequest): Promise<VerifyResult> {
  const core = family([BARE, BARE_HASH, CORE, CORE_TEXT, CORE_STREAM], request);
  const peer = family([BARE, PEER], request);
  if (sink === 0) throw new Error("no work done");
  const ratiosOf = (name: string) => core.ratios[name] ?? peer.ratios[name] ?? [];
  const variants = [CORE, CORE_TEXT, CORE_STREAM, PEER];
  const toBareHash = core.ratios[`${CORE} / ${BARE_HASH}`] ?? [];
  return Promise.resolve({
    bodyBytes: BODY_BYTES.length,
    perSecond: {
      [BARE]: median(core.rates[BARE] ?? []),
      [BARE_HASH]: median(core.rates[BARE_HASH] ?? []),
      [CORE]: median(core.rates[CORE] ?? []),
      [CORE_TEXT]: median(core.rates[CORE_TEXT] ?? []),
      [CORE_STREAM]: median(core.rates[CORE_STREAM] ?? []),
      [`${BARE} (peer family)`]: median(peer.rates[BARE] ?? []),
      [PEER]: median(peer.rates[PEER] ?? []),
    },
    ratioToBare: Object.fromEntries(variants.map((n) => [n, median(ratiosOf(n))])),
    ratioRange: Object.fromEntries(
      variants.map((n) => [n, [Math.min(...ratiosOf(n)), Math.max(...ratiosOf(n))]]),
    ),
    ratioToBareHash: median(toBareHash),
    ratioToBareHashRange: [Math.min(...toBareHash), Math.max(...toBareHash)],
  });
}

serveWorker({ run });
