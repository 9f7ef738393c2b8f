import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { chooseEncoding, compression } from "./compression.ts";

const BIG = JSON.stringify({
  tasks: Array.from({ length: 60 }, (_, i) => ({ id: i, title: "night drive", status: "success" })),
});

function app() {
  const hono = new Hono();
  hono.use(compression());
  hono.get("/json", (c) => c.json(JSON.parse(BIG)));
  hono.get("/small", (c) => c.json({ ok: true }));
  hono.get(
    "/audio",
    () => new Response(new Uint8Array(4_096), { headers: { "Content-Type": "audio/mpeg" } }),
  );
  hono.get(
    "/range",
    () => new Response(BIG, { status: 206, headers: { "Content-Type": "application/json" } }),
  );
  // A stream that never ends, as the live events are: it must be passed on, never read here.
  hono.get(
    "/events",
    () =>
      new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }), {
        headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform" },
      }),
  );
  return hono;
}
const get = (path: string, encoding?: string) =>
  app().request(path, { headers: encoding ? { "Accept-Encoding": encoding } : {} });

describe("response compression", () => {
  it("answers a large JSON body with brotli when the client accepts it, saying Vary", async () => {
    const response = await get("/json", "gzip, deflate, br");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toContain("Accept-Encoding");
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.byteLength);
    expect(body.byteLength).toBeLessThan(BIG.length / 4);
    expect(brotliDecompressSync(body).toString()).toBe(BIG);
  });

  it("falls back to gzip when brotli is not accepted", async () => {
    const response = await get("/json", "gzip, br;q=0");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(BIG);
  });

  it("sends the body as it is, with Vary, to a client that accepts no coding", async () => {
    const response = await get("/json");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toContain("Accept-Encoding");
    expect(await response.text()).toBe(BIG);
  });

  it("leaves a body under 1 KB uncompressed", async () => {
    const response = await get("/small", "br");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.json()).toEqual({ ok: true });
  });

  it("never compresses audio", async () => {
    const response = await get("/audio", "br");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(4_096);
  });

  it("never compresses a partial (Range) answer", async () => {
    const response = await get("/range", "br");
    expect(response.status).toBe(206);
    expect(response.headers.get("content-encoding")).toBeNull();
  });

  it("passes the event stream on unread and uncompressed", async () => {
    const response = await get("/events", "br");
    expect(response.headers.get("content-encoding")).toBeNull();
    await response.body?.cancel();
  });
});

describe("chooseEncoding", () => {
  it("prefers br, then gzip, and honours q=0 and the wildcard", () => {
    expect(chooseEncoding("gzip, br")).toBe("br");
    expect(chooseEncoding("gzip;q=0.5, br;q=0")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
