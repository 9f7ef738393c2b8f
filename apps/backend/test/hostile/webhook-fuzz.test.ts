import { createHmac } from "node:crypto";
import { canonicalQuery, queryOf } from "@overture/core/webhook";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { storableId } from "../../src/lib/storable.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { createRandom, forceGc, fuzzSeed, heapAfterGc, type Random } from "../support/fuzz.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const CASES = Number(process.env.OVERTURE_FUZZ_CASES ?? 10_000);
const WARM_UP = 500;
const STATUSES = [
  "waiting",
  "in_progress",
  "success",
  "failure",
  "cancelled",
  "paused",
  "",
  "SUCCESS",
];

interface Target {
  url: string;
  platformId: string;
}

interface Case {
  method: string;
  url: string;
  headers: Headers;
  body: string | Uint8Array;
  /** Body, query, timestamp and signature are exactly what was signed with the right secret. */
  signed: boolean;
  /** The `event_id` the body names (what the backend would store), if any. */
  eventId: string | undefined;
  mutations: string[];
}

/**
 * A header value as a server reads it off the wire: UTF-8 bytes seen as Latin-1, and without the
 * CR, LF and NUL that HTTP parsers refuse before any app sees the request.
 */
const onTheWire = (value: string) =>
  Buffer.from(value, "utf8")
    .toString("latin1")
    .replace(/[\r\n\0]/g, "");

/** Every UTF-8 byte as %XX (a lone surrogate becomes U+FFFD, as a client would send it). */
const percentEncoded = (value: string) =>
  [...Buffer.from(value, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

function eventIdOf(body: string | Uint8Array): string | undefined {
  try {
    // Read as the intake reads a verified body: a leading byte-order mark is not part of the JSON
    // (a BOM signed with the body is accepted since the HMAC covers the bytes received).
    const text = typeof body === "string" ? body : Buffer.from(body).toString();
    const parsed: unknown = JSON.parse(text.startsWith("\ufeff") ? text.slice(1) : text);
    const id = (parsed as { event_id?: unknown } | null)?.event_id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

const sign = (secret: string, timestamp: string, url: string, body: string) =>
  createHmac("sha256", secret)
    .update(`${timestamp}\n${canonicalQuery(queryOf(url))}\n${body}`)
    .digest("hex");

/**
 * The URL as a server receives it: a fragment never leaves the client. A mutation that only
 * lands after a `#` (a random value can contain one) leaves the delivery signed.
 */
const sentUrl = (url: string) => url.split("#", 1)[0];

/** The same body: equal text, or equal bytes. */
const sameBody = (a: string | Uint8Array, b: string | Uint8Array) =>
  typeof a === "string" || typeof b === "string"
    ? a === b
    : Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
        Buffer.from(b.buffer, b.byteOffset, b.byteLength),
      );

/** One fuzz case: a valid signed delivery, then a few of the mutations below. */
function makeCase(
  r: Random,
  index: number,
  ctx: { targets: Target[]; secret: string; now: number; maxBytes: number },
): Case {
  const target = r.pick(ctx.targets);
  const mutations: string[] = [];
  const event: Record<string, unknown> = {
    event_id: `evt_fuzz_${index}`,
    task_id: r.chance(0.9) ? target.platformId : r.string(40),
    status: r.pick(STATUSES),
    output: r.chance(0.5) ? { file_url: `http://127.0.0.1:4010/files/${r.string(10)}.wav` } : {},
    usage_info: {},
  };
  let url = target.url;
  let body: string | Uint8Array = JSON.stringify(event);

  // Changes to what gets signed: the case may still be signed validly afterwards (resign).
  const before = r.int(0, 2);
  for (let i = 0; i < before; i += 1) {
    const [name, change] = r.pick(SIGNED_MUTATIONS);
    mutations.push(name);
    ({ url, body } = change(r, { url, body, event, maxBytes: ctx.maxBytes }));
  }
  let timestamp = String(ctx.now + r.int(-60_000, 60_000));
  const bodyText = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  let signature = sign(ctx.secret, timestamp, url, bodyText);
  let signed = typeof body === "string" || Buffer.from(bodyText, "utf8").equals(Buffer.from(body));

  // Changes after signing: any of them makes the delivery unsigned (most cases: a stored event
  // costs a real commit, a refusal does not), unless a later one undoes it (the same signature
  // character flipped twice): what counts is whether the delivery sent is the one signed.
  if (r.chance(0.88)) {
    const asSigned = { url, body, timestamp, signature };
    const after = r.int(1, 3);
    for (let i = 0; i < after; i += 1) {
      const [name, change] = r.pick(UNSIGNED_MUTATIONS);
      mutations.push(name);
      ({ url, body, timestamp, signature } = change(r, {
        url,
        body,
        timestamp,
        signature,
        secret: ctx.secret,
        now: ctx.now,
      }));
    }
    if (
      sentUrl(url) !== sentUrl(asSigned.url) ||
      !sameBody(body, asSigned.body) ||
      timestamp !== asSigned.timestamp ||
      signature !== asSigned.signature
    )
      signed = false;
  }

  const headers = new Headers();
  if (timestamp !== "\u0000drop") headers.set("X-Sign-Timestamp", onTheWire(timestamp));
  if (signature !== "\u0000drop") headers.set("X-Signature", onTheWire(signature));
  headers.set("Content-Type", "application/json");
  for (let i = r.int(0, 2); i > 0; i -= 1) {
    const [name, change] = r.pick(HEADER_MUTATIONS);
    mutations.push(name);
    change(r, headers);
  }
  const method = r.chance(0.01) ? r.pick(["GET", "PUT", "DELETE", "PATCH", "OPTIONS"]) : "POST";
  if (method !== "POST") mutations.push(`method ${method}`);
  return { method, url, headers, body, signed, eventId: eventIdOf(body), mutations };
}

interface Signed {
  url: string;
  body: string | Uint8Array;
}
const SIGNED_MUTATIONS: [
  string,
  (r: Random, c: Signed & { event: Record<string, unknown>; maxBytes: number }) => Signed,
][] = [
  ["malformed JSON", (r, c) => ({ ...c, body: JSON.stringify(c.event).slice(0, r.int(0, 40)) })],
  [
    "JSON of another type",
    (r, c) => ({ ...c, body: r.pick(["[]", "null", "42", '"x"', "true", "{}"]) }),
  ],
  ["random text body", (r, c) => ({ ...c, body: r.string(300) })],
  ["random bytes body", (r, c) => ({ ...c, body: r.bytes(300) })],
  [
    "field dropped",
    (r, c) => {
      const dropped = r.pick(["event_id", "task_id", "status", "output", "usage_info"]);
      const copy = Object.fromEntries(Object.entries(c.event).filter(([key]) => key !== dropped));
      return { ...c, body: JSON.stringify(copy) };
    },
  ],
  [
    "field of another type",
    (r, c) => ({
      ...c,
      body: JSON.stringify({
        ...c.event,
        [r.pick(["event_id", "task_id", "status", "output", "usage_info"])]: r.pick([
          null,
          1,
          -1.5,
          true,
          [],
          ["a"],
          {},
          { x: 1 },
          "",
          r.string(50),
        ]),
      }),
    }),
  ],
  [
    "odd event_id",
    (r, c) => ({
      ...c,
      body: JSON.stringify({
        ...c.event,
        event_id: `${String(c.event.event_id)}${r.string(r.pick([5, 300, 3000]))}`,
      }),
    }),
  ],
  [
    "unknown status",
    (r, c) => ({ ...c, body: JSON.stringify({ ...c.event, status: r.string(30) }) }),
  ],
  [
    "extra fields",
    (r, c) => ({
      ...c,
      body: JSON.stringify({
        ...c.event,
        [r.string(20)]: r.string(50),
        __proto__: { admin: true },
      }),
    }),
  ],
  [
    "prototype keys",
    (_r, c) => ({
      ...c,
      body: JSON.stringify(c.event).replace(
        "{",
        '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},',
      ),
    }),
  ],
  [
    "duplicate keys",
    (r, c) => ({
      ...c,
      body: JSON.stringify(c.event).replace("{", `{"status":"${r.pick(STATUSES)}",`),
    }),
  ],
  [
    "big output",
    (r, c) => ({
      ...c,
      body: JSON.stringify({
        ...c.event,
        output: {
          file_url: "http://x/y.wav",
          // Mostly kilobytes, sometimes up to the body limit (every stored one is a real write).
          blob: "x".repeat(r.chance(0.2) ? r.int(c.maxBytes / 2, c.maxBytes) : r.int(1_000, 8_000)),
        },
      }),
    }),
  ],
  [
    "deep output",
    (r, c) => {
      const depth = r.pick([100, 1_000, 5_000]);
      return {
        ...c,
        body: JSON.stringify({ ...c.event, output: {} }).replace(
          '"output":{}',
          `"output":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`,
        ),
      };
    },
  ],
  [
    "body around the size limit",
    (r, c) => {
      const target = c.maxBytes + r.int(-2, 2);
      const base = JSON.stringify({ ...c.event, output: { pad: "" } });
      return {
        ...c,
        body: base.replace('"pad":""', `"pad":"${"p".repeat(Math.max(0, target - base.length))}"`),
      };
    },
  ],
  [
    "BOM and whitespace",
    (r, c) => ({
      ...c,
      body: `${r.pick(["\ufeff", " \n\t", "\r\n"])}${String(c.body)}${r.pick(["", "\n", "   "])}`,
    }),
  ],
  [
    "unicode escapes",
    (_r, c) => ({ ...c, body: String(c.body).replace(/"status":"/, '"status":"\\u0073') }),
  ],
  [
    "extra query parameter",
    (r, c) => ({ ...c, url: `${c.url}&${r.string(8, "abcxyz")}=${r.string(8)}` }),
  ],
  [
    "reordered query",
    (_r, c) => {
      const parsed = new URL(c.url);
      return { ...c, url: `${parsed.origin}${parsed.pathname}?z=1&${parsed.search.slice(1)}&a=` };
    },
  ],
];

type Unsigned = Signed & { timestamp: string; signature: string };
const UNSIGNED_MUTATIONS: [
  string,
  (r: Random, c: Unsigned & { secret: string; now: number }) => Unsigned,
][] = [
  ["signature dropped", (_r, c) => ({ ...c, signature: "\u0000drop" })],
  ["timestamp dropped", (_r, c) => ({ ...c, timestamp: "\u0000drop" })],
  [
    "signature random hex",
    (r, c) => ({ ...c, signature: r.string(r.pick([63, 64, 65, 128]), "0123456789abcdef") }),
  ],
  ["signature garbage", (r, c) => ({ ...c, signature: r.string(100) })],
  [
    "signature uppercase",
    (_r, c) => ({
      ...c,
      signature: c.signature.toUpperCase() === c.signature ? "A" : c.signature.toUpperCase(),
    }),
  ],
  [
    "signature one char flipped",
    (r, c) => {
      const i = r.int(0, c.signature.length - 1);
      const flipped = c.signature[i] === "0" ? "1" : "0";
      return { ...c, signature: c.signature.slice(0, i) + flipped + c.signature.slice(i + 1) };
    },
  ],
  [
    "signature with the wrong secret",
    (r, c) => ({
      ...c,
      signature: sign(`${c.secret}${r.string(3)}x`, c.timestamp, c.url, String(c.body)),
    }),
  ],
  ["timestamp stale", (r, c) => ({ ...c, timestamp: String(c.now - r.int(301_000, 10 ** 9)) })],
  ["timestamp future", (r, c) => ({ ...c, timestamp: String(c.now + r.int(301_000, 10 ** 9)) })],
  [
    "timestamp malformed",
    (r, c) => ({
      ...c,
      timestamp: r.pick([
        "",
        " ",
        "-1",
        "1e12",
        "NaN",
        "0x1f",
        "１２３",
        `${c.now}.5`,
        ` ${c.now}`,
        String(Math.floor(c.now / 1000)),
        "9".repeat(40),
        r.string(20),
      ]),
    }),
  ],
  ["body changed", (r, c) => ({ ...c, body: `${String(c.body)}${r.pick([" ", "x", "\n"])}` })],
  ["query changed", (r, c) => ({ ...c, url: `${c.url}&${r.string(4, "abc")}=1` })],
  [
    "key changed",
    (r, c) => ({
      ...c,
      url: c.url.replace(
        /k=[^&]*/,
        `k=${r.pick(["", percentEncoded(r.string(43)), r.string(43, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), "%", "%zz", "A".repeat(5_000)])}`,
      ),
    }),
  ],
  ["key dropped", (_r, c) => ({ ...c, url: c.url.replace(/\?.*$/, "") })],
  ["key duplicated", (r, c) => ({ ...c, url: `${c.url}&k=${r.string(43)}` })],
];

const HEADER_MUTATIONS: [string, (r: Random, h: Headers) => void][] = [
  [
    "content-type",
    (r, h) => {
      h.set(
        "Content-Type",
        r.pick([
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "",
          "*/*",
        ]),
      );
    },
  ],
  [
    "content-encoding",
    (r, h) => {
      h.set("Content-Encoding", r.pick(["gzip", "br", "deflate", "identity", "x-unknown"]));
    },
  ],
  [
    "duplicated signature header",
    (r, h) => {
      h.append("X-Signature", r.string(64, "0123456789abcdef"));
    },
  ],
  [
    "duplicated timestamp header",
    (r, h) => {
      h.append("X-Sign-Timestamp", String(r.int(0, 2 ** 31)));
    },
  ],
  [
    "random header",
    (r, h) => {
      h.set(
        `X-${r.string(10, "abcdefghijklmnopqrstuvwxyz")}`,
        r.string(200, "abcdefghijklmnopqrstuvwxyz0123456789 -_=;,"),
      );
    },
  ],
  [
    "huge header",
    (r, h) => {
      h.set("X-Padding", "h".repeat(r.int(1_000, 16_000)));
    },
  ],
];

/**
 * The webhook endpoint under at least 10,000 seeded cases (print the seed; replay with
 * `OVERTURE_FUZZ_SEED`): valid signed deliveries and their mutations — headers, query, body,
 * encodings and sizes, before and after signing. The promises: never a 5xx while the database is
 * up; an event is stored only from a delivery whose body, query, timestamp and signature are what
 * the account's secret signed; process memory stays flat.
 */
describeEachDriver("webhook endpoint fuzz", (driver) => {
  let t: TestBackend;
  let user: TaskUser & { secret?: string };
  const targets: Target[] = [];
  beforeAll(async () => {
    // Logs stay quiet: the harness keeps every line in memory, which would read as growth.
    t = await startTestBackend({ driver, config: { LOG_LEVEL: "warn" } });
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 100);
    for (let i = 0; i < 4; i += 1) {
      const task = await createTask(t, user.session, { prompt: `fuzz ${i}` });
      const view = t.emu.control.getTask(task.platform_task_id ?? "");
      if (!view?.webhook_url) throw new Error("no callback URL");
      targets.push({ url: view.webhook_url, platformId: view.task_id });
    }
  });
  afterAll(() => t.close());

  const cases = CASES;
  it(`answers ${cases} hostile deliveries without a 5xx, stores only signed events, and keeps memory flat`, async () => {
    const seed = fuzzSeed();
    console.log(
      `[fuzz] webhook endpoint [${driver}]: seed ${seed} (replay: OVERTURE_FUZZ_SEED=${seed})`,
    );
    const r = createRandom(seed);
    const gc = forceGc();
    const ctx = {
      targets,
      secret: user.secret ?? "",
      now: t.clock.now(),
      maxBytes: t.config.webhook.maxBodyBytes,
    };
    const signedIds = new Set<string>();
    const statuses = new Map<number, number>();
    let heapBefore = 0;
    let heapMiddle = 0;

    for (let i = 0; i < cases; i += 1) {
      if (i === WARM_UP) heapBefore = heapAfterGc(gc);
      if (i === Math.floor(cases / 2)) heapMiddle = heapAfterGc(gc);
      const c = makeCase(r, i, ctx);
      // As stored: ids the database cannot index as given are kept as their hash (lib/storable.ts).
      if (c.signed && c.eventId !== undefined) signedIds.add(storableId(c.eventId));
      const response = await t.app.request(c.url, {
        method: c.method,
        headers: c.headers,
        ...(c.method === "GET" ? {} : { body: c.body as BodyInit }),
      });
      const answer = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500 || (!c.signed && response.status < 400)) {
        throw new Error(
          `case ${i} (seed ${seed}) answered ${response.status} ${answer.slice(0, 200)}; signed: ${c.signed}; mutations: ${c.mutations.join(", ")}; url: ${c.url.slice(0, 300)}; logs: ${t.logs.slice(-3).join("\n").slice(-2500)}`,
        );
      }
    }
    await t.backend.deps.services.webhookIntake.flushRejections();
    const heapAfter = heapAfterGc(gc);

    // Every stored event: one the emulator sent itself, or one a case signed.
    const fromPlatform = new Set(t.emu.control.listDeliveries().map((d) => d.eventId));
    const stored = (
      await selectRows<{ event_id: string }>(
        t.database.db,
        sql`select event_id from webhook_events`,
      )
    ).filter((row) => !fromPlatform.has(row.event_id));
    const unsigned = stored.map((row) => row.event_id).filter((id) => !signedIds.has(id));
    console.log(
      `[fuzz] webhook endpoint [${driver}]: ${cases} cases, answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}, ${signedIds.size} signed, ${stored.length} stored, heap ${heapBefore.toFixed(1)} → ${heapMiddle.toFixed(1)} → ${heapAfter.toFixed(1)} MB`,
    );
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(unsigned).toEqual([]);
    expect(stored.length).toBeGreaterThan(0);
    expect(heapAfter - heapBefore).toBeLessThan(16);
  }, 300_000);
});
