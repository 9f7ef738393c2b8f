import { canonicalQuery } from "@overture/core/webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformEmulator, QueryReading } from "../../src/index.ts";
import {
  rawQuery,
  referenceCanonicalQuery,
  referenceSignature,
} from "../helpers/reference-signer.ts";
import { startReceiver, type ReceivedRequest } from "../helpers/receiver.ts";
import { submitId } from "../helpers/tasks.ts";
import { SECRET, webhookEmulator } from "../helpers/webhooks.ts";

/** UTF-8 bytes as a header value: what a client puts on the wire for non-ASCII text. */
const utf8Header = (text: string) => Buffer.from(text, "utf8").toString("latin1");

/**
 * X-WebHook queries whose characters fetch (WHATWG URL) re-encodes or keeps: every one must be
 * signed exactly as the receiver gets it (issue 11 item 5).
 */
const QUERIES: [name: string, query: string][] = [
  ["an apostrophe", "q=it's&b=1"],
  ["a plus", "q=a+b"],
  ["%20", "q=a%20b"],
  ["a space", "q=a b"],
  ["%2B", "q=%2B1"],
  ["non-ASCII sent as UTF-8 bytes", utf8Header("q=曲&r=é")],
  ["%7E and ~", "a=%7E&b=~"],
  ["quotes and angle brackets", 'q="<x>"'],
  ["an empty value", "empty=&none"],
  ["a duplicate key", "k=2&k=1&k=2"],
];

/** The signed query a receiver computes from the request-target it received. */
function verifies(got: ReceivedRequest, reading: QueryReading): boolean {
  const query = rawQuery(got.rawUrl);
  const canonical =
    reading === "raw"
      ? referenceCanonicalQuery(query)
      : canonicalQuery(query, { reading: "form-decoded" });
  const ts = String(got.headers["x-sign-timestamp"]);
  return got.headers["x-signature"] === referenceSignature(SECRET, ts, canonical, got.body);
}

describe.each<QueryReading>(["raw", "form-decoded"])(
  "4.8, 4.9: signs the query the receiver actually gets (queryReading %s)",
  (reading) => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let emu: PlatformEmulator;

    beforeAll(async () => {
      receiver = await startReceiver();
      emu = webhookEmulator({ queryReading: reading, fetch: (i, init) => fetch(i, init) }).emu;
      emu.control.setQuota("demo", QUERIES.length);
    });
    afterAll(async () => {
      emu.control.close();
      await receiver.close();
    });

    it.each(QUERIES)("with %s, a receiver verifying what it received accepts", async (_, query) => {
      const before = receiver.received.length;
      await submitId(emu, undefined, { webhook: `${receiver.url}/hook?${query}` });
      await emu.control.settle();
      const got = receiver.received[before];
      if (!got) throw new Error("no delivery received");
      expect(verifies(got, reading)).toBe(true);
      const delivery = emu.control.listDeliveries().at(-1);
      expect(delivery?.url).toBe(`${receiver.url}${got.rawUrl}`);
    });
  },
);

describe("X-WebHook header bytes", () => {
  it("are read as UTF-8: a non-ASCII query is called as its percent-encoded UTF-8", async () => {
    const receiver = await startReceiver();
    const { emu } = webhookEmulator({ fetch: (i, init) => fetch(i, init) });
    try {
      await submitId(emu, undefined, { webhook: `${receiver.url}/hook?${utf8Header("q=曲")}` });
      await emu.control.settle();
      expect(receiver.received[0]?.rawUrl).toBe("/hook?q=%E6%9B%B2");
      expect(emu.control.listTasks()[0]?.webhook_url).toBe(`${receiver.url}/hook?q=曲`);
    } finally {
      emu.control.close();
      await receiver.close();
    }
  });
});
