// A conformance subset of @overture/core's webhook, receiver, form and client modules, written as
// plain ESM against the installed package, bundled and run in every runtime the README claims.
import vectorFile from "@overture/core/test-vectors/webhook-signatures.json" with { type: "json" };
import { createPlatformClient } from "@overture/core/client";
import { encodeForm, encodeMultipart } from "@overture/core/form";
import { createWebhookHandler } from "@overture/core/receiver";
import {
  canonicalQuery,
  queryOf,
  readWebhookBody,
  signWebhook,
  verifyWebhook,
} from "@overture/core/webhook";

const bytesOf = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const header = (headers, name) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/** Runs every check; returns how many passed and what failed. */
export async function runConformance() {
  const results = [];
  const check = async (name, fn) => {
    try {
      const outcome = await fn();
      results.push(
        outcome === true ? { name, ok: true } : { name, ok: false, detail: String(outcome) },
      );
    } catch (error) {
      results.push({ name, ok: false, detail: String(error?.stack ?? error) });
    }
  };

  for (const v of vectorFile.cases) {
    const body = bytesOf(v.body_base64);
    await check(`webhook: ${v.id}`, async () => {
      const { expected } = v;
      if (canonicalQuery(queryOf(v.url)) !== expected.canonical_raw) return "canonical query";
      const input = {
        body,
        url: v.url,
        headers: v.headers,
        secrets: v.secrets,
        now: () => v.now,
        toleranceMs: v.tolerance_ms,
      };
      const result = await verifyWebhook(input);
      if (result.ok !== expected.ok) return `ok ${result.ok}: ${result.message ?? ""}`;
      if (!result.ok && result.code !== expected.code) return `code ${result.code}`;
      if (
        result.ok &&
        (result.secretIndex !== expected.secret_index || result.reading !== expected.reading)
      )
        return "secret or reading";
      if (result.ok) {
        const reading = readWebhookBody(body);
        if ((reading.ok ? "json" : reading.code) !== expected.body_reading) return "body reading";
      }
      if (expected.signature !== undefined) {
        const timestamp = Number(header(v.headers, "x-sign-timestamp"));
        const signed = await signWebhook({
          secret: v.secrets[expected.secret_index ?? 0],
          url: v.url,
          body,
          timestamp,
          reading: expected.reading ?? "raw",
        });
        if (signed["X-Signature"] !== expected.signature) return "signWebhook";
      }
      return true;
    });
  }

  await check("receiver: fetch handler accepts a signed event, refuses a forged one", async () => {
    const secret = "conformance-secret";
    const events = [];
    const handle = createWebhookHandler({
      secrets: [secret],
      onEvent: (event) => void events.push(event),
    });
    const url = "https://receiver.example/webhooks/platform?k=abc";
    const output = { file_url: "https://files.example/t1.wav" };
    const body = JSON.stringify({ event_id: "e1", task_id: "t1", status: "success", output });
    const headers = await signWebhook({ secret, url, body });
    const ok = await handle(new Request(url, { method: "POST", headers, body }));
    const forged = await handle(
      new Request(url, { method: "POST", headers, body: body.replace("success", "failure") }),
    );
    return ok.status === 200 && forged.status === 401 && events.length === 1
      ? true
      : `${ok.status} ${forged.status}`;
  });

  await check("form: encodeMultipart keeps LF and parses back", async () => {
    const { body, contentType } = encodeMultipart({
      lyrics: "a\nb",
      seeds: [1, 2],
      lora_name: null,
      flag: true,
    });
    const raw = await new Response(body).text();
    const form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
    const fields = [...form.entries()].map(([k, v]) => `${k}=${v}`).join("|");
    if (!raw.includes("\r\n\r\na\nb\r\n")) return "LF changed on the wire";
    return fields === "lyrics=a\nb|seeds=1,2|lora_name=|flag=true" ? true : fields;
  });

  await check("form: encodeForm entries", () => {
    const fields = [...encodeForm({ a: 1, b: null, c: ["x", "y"] }).entries()]
      .map(([k, v]) => `${k}=${v}`)
      .join("|");
    return fields === "a=1|b=|c=x,y" ? true : fields;
  });

  await check("client: submit, query and a refused submit through an injected fetch", async () => {
    const seen = [];
    const fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push(request);
      if (request.url.endsWith("/v1/async/music/generations")) {
        if (seen.length > 1)
          return Response.json({ error: "quota_exceeded", message: "quota full" }, { status: 429 });
        return Response.json({ task_id: "T1", status: "waiting" });
      }
      return Response.json({
        task_id: "T1",
        status: "success",
        output: { file_url: "https://f.example/a.wav" },
      });
    };
    const client = createPlatformClient({ baseUrl: "https://platform.example", fetch });
    const submitted = await client.submitMusicTask("token", {
      prompt: "lofi\r\npiano",
      seeds: "7",
    });
    const wire = await seen[0].clone().text();
    const form = await seen[0].formData();
    const task = await client.getTask("token", submitted.task_id);
    let refused = "";
    try {
      await client.submitMusicTask("token", { prompt: "lofi" });
    } catch (error) {
      refused = error.code;
    }
    if (!wire.includes("lofi\npiano")) return "prompt line break";
    if (form.get("seeds") !== "7" || form.get("lora_name") !== "") return "form fields";
    if (task.status !== "success") return `status ${task.status}`;
    return refused === "QUOTA_EXHAUSTED" ? true : `refused ${refused}`;
  });

  const failed = results.filter((r) => !r.ok);
  return { passed: results.length - failed.length, failed };
}
