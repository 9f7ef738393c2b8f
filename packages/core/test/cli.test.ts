import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { run, type CliIo } from "../cli/main.ts";
import { createWebhookHandler, parseCallbackEvent } from "../src/receiver/index.ts";
import { readWebhookBody, signWebhook } from "../src/webhook/index.ts";
import { bodyBytes, vectorCases } from "../src/webhook/vectors.fixtures.ts";

const SECRET = "cli-test-secret-+/=";
const NOW = 1_767_225_600_000;

function io(files: Record<string, string | Uint8Array> = {}, overrides: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = {
    env: { OVERTURE_WEBHOOK_SECRET: SECRET },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readFile: (path) => {
      const file = files[path];
      if (file === undefined) return Promise.reject(new Error("ENOENT"));
      return Promise.resolve(
        typeof file === "string" ? new TextEncoder().encode(file) : new Uint8Array(file),
      );
    },
    fetch: () => Promise.reject(new Error("no network in this test")),
    now: () => NOW,
    ...overrides,
  };
  return { cli, out, err, all: () => [...out, ...err].join("\n") };
}

const vectors = vectorCases;

describe("overture-webhooks", () => {
  it("prints its help with exit code 0, and with 2 when no command is given", async () => {
    const help = io();
    expect(await run(["--help"], help.cli)).toBe(0);
    expect(help.out.join("\n")).toContain("overture-webhooks sign");
    expect(await run([], io().cli)).toBe(2);
  });

  it("refuses an unknown command or a missing flag with exit code 2", async () => {
    const unknown = io();
    expect(await run(["trigger"], unknown.cli)).toBe(2);
    expect(unknown.err.join("")).toContain("unknown command");
    const missing = io();
    expect(await run(["sign", "--body-file", "b"], missing.cli)).toBe(2);
    expect(missing.err.join("")).toContain("--url is required");
  });

  it("sign prints the headers signWebhook computes, and never the secret", async () => {
    const body = '{"event_id":"e1"}';
    const cli = io({ "body.json": body });
    expect(
      await run(
        ["sign", "--url", "https://r.example/h?b=2&a=1", "--body-file", "body.json"],
        cli.cli,
      ),
    ).toBe(0);
    const headers = await signWebhook({
      secret: SECRET,
      url: "https://r.example/h?b=2&a=1",
      body,
      timestamp: NOW,
    });
    expect(cli.out).toEqual([`X-Sign-Timestamp: ${NOW}`, `X-Signature: ${headers["X-Signature"]}`]);
    expect(cli.all()).not.toContain(SECRET);
  });

  it("reads the secret from a named variable or a file, and says which is missing", async () => {
    const fromFile = io({ "body.json": "{}", "secret.txt": `${SECRET}\n` }, { env: {} });
    expect(
      await run(
        [
          "sign",
          "--url",
          "https://r.example/h",
          "--body-file",
          "body.json",
          "--secret-file",
          "secret.txt",
        ],
        fromFile.cli,
      ),
    ).toBe(0);
    const missing = io({ "body.json": "{}" }, { env: {} });
    expect(
      await run(["sign", "--url", "https://r.example/h", "--body-file", "body.json"], missing.cli),
    ).toBe(2);
    expect(missing.err.join("")).toContain("OVERTURE_WEBHOOK_SECRET");
  });

  it("send delivers a signed test event that a receiver accepts, exit code 0", async () => {
    const events: unknown[] = [];
    const handle = createWebhookHandler({
      secrets: SECRET,
      now: () => NOW,
      onEvent: (e) => void events.push(e),
    });
    const cli = io({}, { fetch: (input, init) => handle(new Request(input, init)) });
    const code = await run(
      ["send", "--url", "https://r.example/hook?k=1", "--status", "failure", "--task-id", "T1"],
      cli.cli,
    );
    expect(cli.out.join("")).toContain("HTTP 200");
    expect(code).toBe(0);
    expect(events).toMatchObject([{ task_id: "T1", status: "failure" }]);
  });

  it("send exits 1 when the receiver refuses the delivery", async () => {
    const handle = createWebhookHandler({
      secrets: "another",
      now: () => NOW,
      onEvent: () => undefined,
    });
    const cli = io({}, { fetch: (input, init) => handle(new Request(input, init)) });
    expect(await run(["send", "--url", "https://r.example/hook"], cli.cli)).toBe(1);
    expect(cli.out.join("")).toContain("HTTP 401");
  });

  it("send to a port nobody listens on names the refused address, not only 'fetch failed'", async () => {
    const port = await closedPort();
    const cli = io({}, { fetch: globalThis.fetch });
    expect(await run(["send", "--url", `http://127.0.0.1:${port}/hook`], cli.cli)).toBe(1);
    expect(cli.err.join("")).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
  });

  it("verify says a signed body that is no callback event is not valid, as the receivers answer 400", async () => {
    const url = "https://r.example/h";
    const verifyBody = async (body: string) => {
      const headers = await signWebhook({ secret: SECRET, url, body, timestamp: NOW });
      const cli = io({ body });
      const args = ["verify", "--url", url, "--body-file", "body"];
      for (const [name, value] of Object.entries(headers))
        args.push("--header", `${name}: ${value}`);
      return { code: await run(args, cli.cli), out: cli.out };
    };
    const noLink = await verifyBody(
      '{"event_id":"e","task_id":"t","status":"success","output":{}}',
    );
    expect(noLink.out.at(-2)).toMatch(
      /^FAIL event: .*output\.file_url.*\[WEBHOOK_EVENT_INVALID\]$/,
    );
    expect(noLink.out.at(-1)).toBe("not valid: event");
    expect(noLink.code).toBe(1);
    const live = await verifyBody(
      '{"event_id":"e","task_id":"t","status":"success","output":{"url":"u"}}',
    );
    expect(live.out.slice(-2)).toEqual(["ok   event: a success event of task t", "valid"]);
    expect(live.code).toBe(0);
  });

  it.each(vectors)("verify: $id", async (v) => {
    const env = Object.fromEntries(v.secrets.map((s, i) => [`S${i}`, s]));
    const cli = io({ body: bodyBytes(v) }, { env, now: () => v.now });
    const args = [
      "verify",
      "--url",
      v.url,
      "--body-file",
      "body",
      "--tolerance-ms",
      String(v.tolerance_ms),
    ];
    for (const [name, value] of Object.entries(v.headers))
      args.push("--header", `${name}: ${value}`);
    for (const name of Object.keys(env)) args.push("--secret-env", name);
    // Valid: signed, JSON, and a callback event a receiver accepts (one vector is a success
    // without its result link: signed correctly, and still answered 400).
    const read = readWebhookBody(bodyBytes(v));
    const isEvent = read.ok && parseCallbackEvent(read.json).ok;
    const valid = v.expected.ok && v.expected.body_reading === "json" && isEvent;
    expect(await run(args, cli.cli)).toBe(valid ? 0 : 1);
    expect(cli.out.at(-1)).toMatch(valid ? /^valid$/ : /^not valid: /);
    for (const secret of v.secrets) expect(cli.all()).not.toContain(secret);
  });
});

/** A local port that was free a moment ago and has nothing listening on it now. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}
