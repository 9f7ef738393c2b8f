// Micro-benchmark of webhook verification against a bare HMAC of the same signing text.
//
//   npx tsx bench/verify.bench.ts            (from packages/core)
//   BENCH_TRIALS=9 BENCH_CYCLES=30 BENCH_SLICE_MS=20 npx tsx bench/verify.bench.ts
//
// Not a test and not part of the published package. Variants run in short interleaved slices
// (round-robin), so load on a shared machine hits them alike; each trial gives one ratio per
// variant against its bare baseline, and the summary shows the median and range over trials.
import { createHmac, hash } from "node:crypto";
import {
  canonicalQuery,
  hmacSha256HexFrom,
  queryOf,
  signingText,
  verifyWebhook,
  verifyWebhookSync,
  type VerifyWebhookOptions,
} from "../src/webhook/index.ts";

const TRIALS = Number(process.env.BENCH_TRIALS ?? 5);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 20);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 25);
const BATCH = 64;

// A callback body of about 700 bytes (spec 2.7), a sorted query and Node-style lowercase headers:
// the common case a receiver sees.
const SECRET = "whsec_overture_bench_0123456789abcdef";
const PADDED_BODY = JSON.stringify({
  event_id: "evt_01JH8Z3Q6V2M4K7T9W",
  task_id: "task_01JH8Z3Q6V2M4K7T9W",
  status: "success",
  output: {
    file_url: "https://files.example/music/2026/01/01/task_01JH8Z3Q6V2M4K7T9W/final-master.mp3",
    duration: 60,
    format: "mp3",
  },
  usage_info: { unit: "second", quantity: 60, prompt_tokens: 0, completion_tokens: 0 },
  params: {
    model: "ACE-Step-v1-3.5B",
    task: "text2music",
    prompt: "lofi hip hop, mellow piano, vinyl crackle, slow tempo, warm bass, soft drums",
    lyrics: "[verse]\nRain on the window, the city asleep\n[chorus]\nHold on, hold on, hold on",
    infer_steps: 60,
    guidance_scale: 15,
    scheduler_type: "euler",
    cfg_type: "apg",
  },
}).padEnd(700, " ");
// Decoded from bytes, as a server reads a body: a flat string. (`padEnd` leaves a rope that
// every concatenation would walk again, which no real request body is.)
const BODY = new TextDecoder().decode(new TextEncoder().encode(PADDED_BODY));
const URL_CALLED = "https://receiver.example/webhooks/platform?account=demo&k=abc123&task=t1";
const NOW = 1_767_225_600_000;
const TIMESTAMP = String(NOW - 1_500);
const TEXT = signingText(TIMESTAMP, canonicalQuery(queryOf(URL_CALLED)), BODY);

const nodeHmac = (secret: string, message: string | Uint8Array): string =>
  createHmac("sha256", secret).update(message).digest("hex");
const SIGNATURE = nodeHmac(SECRET, TEXT);
const request: VerifyWebhookOptions = {
  body: BODY,
  url: URL_CALLED,
  headers: { "x-sign-timestamp": TIMESTAMP, "x-signature": SIGNATURE },
  secrets: SECRET,
  now: () => NOW,
};
// Same keys in the same order, so the variants share one object shape: a server passes one
// shape, and mixing shapes here would slow every variant's property reads alike.
const hmacInput = { ...request, hmac: nodeHmac, createHmac: undefined, hash: undefined };
const cachedKeyInput = {
  ...request,
  hmac: hmacSha256HexFrom(createHmac),
  createHmac: undefined,
  hash: undefined,
};
const createHmacInput = { ...request, hmac: undefined, createHmac, hash: undefined };
const hashInput = { ...request, hmac: undefined, createHmac: undefined, hash };

const encoder = new TextEncoder();
const key = await crypto.subtle.importKey(
  "raw",
  encoder.encode(SECRET),
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["sign"],
);

interface Variant {
  readonly name: string;
  /** The variant this one is compared with. */
  readonly baseline?: string;
  /** Runs BATCH operations. */
  readonly batch: () => unknown;
}

let sink = 0;
function check(ok: boolean): void {
  if (!ok) throw new Error("verification failed: the benchmark input is wrong");
  sink++;
}

const BARE_NODE = "bare createHmac of the signing text";
const BARE_WEB = "bare WebCrypto sign, pre-imported key";
const allVariants: Variant[] = [
  {
    name: BARE_NODE,
    batch: () => {
      for (let i = 0; i < BATCH; i++) sink += nodeHmac(SECRET, TEXT).length;
    },
  },
  {
    name: "verifyWebhookSync, hmac = (s, m) => createHmac…",
    baseline: BARE_NODE,
    batch: () => {
      for (let i = 0; i < BATCH; i++) check(verifyWebhookSync(hmacInput).ok);
    },
  },
  {
    name: "verifyWebhookSync, hmacSha256HexFrom(createHmac)",
    baseline: BARE_NODE,
    batch: () => {
      for (let i = 0; i < BATCH; i++) check(verifyWebhookSync(cachedKeyInput).ok);
    },
  },
  {
    name: "verifyWebhookSync, createHmac injected",
    baseline: BARE_NODE,
    batch: () => {
      for (let i = 0; i < BATCH; i++) check(verifyWebhookSync(createHmacInput).ok);
    },
  },
  {
    name: "verifyWebhookSync, hash (one-shot) injected",
    baseline: BARE_NODE,
    batch: () => {
      for (let i = 0; i < BATCH; i++) check(verifyWebhookSync(hashInput).ok);
    },
  },
  {
    name: "verifyWebhook (async), hmac = (s, m) => createHmac…",
    baseline: BARE_NODE,
    batch: async () => {
      for (let i = 0; i < BATCH; i++) check((await verifyWebhook(hmacInput)).ok);
    },
  },
  {
    name: BARE_WEB,
    batch: async () => {
      for (let i = 0; i < BATCH; i++) {
        sink += (await crypto.subtle.sign("HMAC", key, encoder.encode(TEXT))).byteLength;
      }
    },
  },
  {
    name: "verifyWebhook, default WebCrypto HMAC",
    baseline: BARE_WEB,
    batch: async () => {
      for (let i = 0; i < BATCH; i++) check((await verifyWebhook(request)).ok);
    },
  },
];

// Each family runs on its own: a variant is interleaved with its baseline and its siblings only,
// since WebCrypto's garbage (promises, buffers) would otherwise tax whichever slice runs next.
// BENCH_ONLY=node or BENCH_ONLY=webcrypto runs one family.
const families = [BARE_NODE, BARE_WEB]
  .filter((bare) => process.env.BENCH_ONLY !== (bare === BARE_NODE ? "webcrypto" : "node"))
  .map((bare) => allVariants.filter((v) => v.name === bare || v.baseline === bare));

/** Operations and time spent, summed over the slices of one trial. */
interface Tally {
  ops: number;
  wallMs: number;
  cpuMs: number;
}

/** Runs `variant` in batches for about `ms` of wall time, adding to `tally`. */
async function slice(variant: Variant, ms: number, tally: Tally): Promise<void> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    const pending = variant.batch();
    if (pending instanceof Promise) await pending;
    tally.ops += BATCH;
    now = performance.now();
  }
  const used = process.cpuUsage(cpu);
  tally.wallMs += now - start;
  tally.cpuMs += (used.user + used.system) / 1000;
}

/** One trial: every variant of the family in turn, one slice each, CYCLES times. */
async function trial(variants: readonly Variant[]): Promise<Map<string, Tally>> {
  const tallies = new Map(variants.map((v) => [v.name, { ops: 0, wallMs: 0, cpuMs: 0 }]));
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    for (const variant of variants) {
      const tally = tallies.get(variant.name);
      if (tally) await slice(variant, SLICE_MS, tally);
    }
  }
  return tallies;
}

type Clock = "wallMs" | "cpuMs";
const rate = (tally: Tally | undefined, clock: Clock): number =>
  tally ? tally.ops / (tally[clock] / 1000) : 0;
const ratio = (result: Map<string, Tally>, variant: Variant, clock: Clock): number =>
  rate(result.get(variant.name), clock) / rate(result.get(variant.baseline ?? ""), clock);
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function runFamily(variants: readonly Variant[]): Promise<void> {
  const compared = variants.filter((v) => v.baseline !== undefined);
  console.log(`\nratios per trial (wall clock): ${compared.map((v) => v.name).join(" | ")}`);
  const warmUp = { ops: 0, wallMs: 0, cpuMs: 0 };
  for (const variant of variants) await slice(variant, 300, warmUp); // JIT and key caches
  const results: Map<string, Tally>[] = [];
  for (let t = 0; t < TRIALS; t++) {
    const result = await trial(variants);
    results.push(result);
    const ratios = compared.map((v) => ratio(result, v, "wallMs").toFixed(3));
    console.log(`trial ${t + 1}: ${ratios.join("  ")}`);
  }

  // Wall-clock ops/s is what a server sees; CPU-time ops/s leaves out the time this process was
  // not running, which on a shared machine is most of the noise.
  console.log("");
  const pad = Math.max(...allVariants.map((v) => v.name.length));
  for (const variant of variants) {
    const perSecond = (clock: Clock) =>
      Math.round(median(results.map((r) => rate(r.get(variant.name), clock))));
    let line = `${variant.name.padEnd(pad)}  ${perSecond("wallMs").toLocaleString("en").padStart(9)} ops/s`;
    line += ` (${perSecond("cpuMs").toLocaleString("en").padStart(9)} per CPU-s)`;
    if (variant.baseline !== undefined) {
      const range = (clock: Clock) => {
        const ratios = results.map((r) => ratio(r, variant, clock));
        return `${median(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`;
      };
      line += `  ×${range("wallMs")} wall, ×${range("cpuMs")} CPU`;
    }
    console.log(line);
  }
}

console.log(`signing text: ${encoder.encode(TEXT).length} bytes (body ${BODY.length} bytes)`);
console.log(`${TRIALS} trials × ${CYCLES} cycles × ${SLICE_MS} ms slices, interleaved`);
for (const family of families) await runFamily(family);
if (sink === 0) console.log("(no work done)");
