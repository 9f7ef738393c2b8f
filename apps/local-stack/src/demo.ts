import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { isTerminalStatus } from "@overture/core/task";
import { CHROME_EXTENSION_ID } from "@overture/extension/identity";
import { json, readEvents } from "./demo/http.ts";
import { signIn } from "@overture/backend/testing";
import { demoEnvSchema } from "./env.ts";
import { ADDRESSES_FILE, type StackAddresses } from "./stack.ts";

/**
 * `pnpm demo`: the headless proof that the main job works. Signs in as the extension would,
 * submits a music task, receives its webhook, streams its events and saves the audio.
 */
const env = demoEnvSchema.parse(process.env);
// Where the running main job said it answers (any ports), unless told otherwise.
const addressesFile = resolve(env.OVERTURE_DATA_DIR, ADDRESSES_FILE);
const running: Partial<StackAddresses> = existsSync(addressesFile)
  ? (JSON.parse(readFileSync(addressesFile, "utf8")) as StackAddresses)
  : {};
const backendUrl = env.OVERTURE_BACKEND_URL ?? running.backendUrl ?? "http://127.0.0.1:8787";
const platformUrl = env.OVERTURE_PLATFORM_URL ?? running.platformUrl ?? "http://127.0.0.1:4010";
const outDir = resolve(env.OVERTURE_DEMO_OUT);
const deadlineMs = 180_000;

interface TaskJson {
  id: string;
  platform_task_id: string | null;
  status: string;
  file_url: string | null;
  webhook_expected: boolean;
  error: string | null;
}

function step(message: string): void {
  console.log(`• ${message}`);
}

async function main(): Promise<void> {
  await fetch(`${backendUrl}/healthz`).catch(() => {
    throw new Error(`no backend at ${backendUrl}: start the main job first (npx -y pnpm@10 start)`);
  });
  const started = Date.now();
  const session = await signIn(backendUrl, `https://${CHROME_EXTENSION_ID}.chromiumapp.org/`);
  const auth = { Authorization: `Bearer ${session}`, "Content-Type": "application/json" };
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${backendUrl}${path}`, { ...init, headers: auth });
  const me = await json<{ user: { login: string; name: string } }>(
    await api("/api/me"),
    "GET /api/me",
  );
  step(`signed in as ${me.user.name} (${me.user.login})`);

  const namespace = me.user.login;
  const { tokens } = await json<{ tokens: { id: number; name: string; usage_scenario: string }[] }>(
    await api(`/api/namespaces/${namespace}/tokens`),
    "list access tokens",
  );
  const token = tokens.find((t) => t.usage_scenario === "paid") ?? tokens[0];
  if (!token) throw new Error(`no access token in namespace ${namespace}`);
  await json(
    await api("/api/selection", {
      method: "PUT",
      body: JSON.stringify({ namespace, token_id: token.id }),
    }),
    "select token",
  );
  step(`using access token "${token.name}" (${token.usage_scenario})`);

  // As a person would: copy the account's webhook secret from the platform console.
  const platformConsole = await json<{ accounts: { namespace: string; webhook_secret: string }[] }>(
    await fetch(`${platformUrl}/__emulator/state`),
    "read the platform console",
  );
  const secret = platformConsole.accounts.find((a) => a.namespace === namespace)?.webhook_secret;
  if (secret) {
    const put = await api(`/api/namespaces/${namespace}/webhook-secret`, {
      method: "PUT",
      body: JSON.stringify({ secret }),
    });
    if (!put.ok) throw new Error(`set webhook secret: HTTP ${put.status}`);
    step("webhook secret saved: live callbacks on");
  } else step("no webhook secret on the platform account: the backend will poll");

  const events = new AbortController();
  const seen: TaskJson[] = [];
  let wake: () => void = () => undefined;
  const stream = await api("/api/events", { signal: events.signal });
  if (!stream.ok) throw new Error(`GET /api/events: HTTP ${stream.status}`);
  const reading = readEvents(stream, (event) => {
    if (event.event === "task") {
      seen.push(JSON.parse(event.data) as TaskJson);
      wake();
    }
  }).catch((error: unknown) => {
    if (!events.signal.aborted) throw error;
  });

  const created = await json<TaskJson>(
    await api("/api/tasks", {
      method: "POST",
      body: JSON.stringify({
        prompt: "warm lo-fi piano, vinyl crackle, slow tempo",
        lyrics: "[verse]\nLate night light on the keys\n[chorus]\nOverture, play for me",
        duration: 30,
      }),
    }),
    "POST /api/tasks",
  );
  step(`task ${created.id} submitted (${created.status})`);

  let final: TaskJson | undefined;
  while (!final) {
    const latest = seen.filter((t) => t.id === created.id).at(-1);
    if (latest) {
      if (isTerminalStatus(latest.status)) final = latest;
      else step(`live event: ${latest.status}`);
    }
    if (Date.now() - started > deadlineMs)
      throw new Error("the task did not finish within 3 minutes");
    if (!final)
      await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, 5_000)));
  }
  events.abort();
  await reading;
  if (final.status !== "success" || !final.file_url)
    throw new Error(`task ended ${final.status}: ${final.error ?? ""}`);
  const deliveries = await json<{ state: string }[]>(
    await fetch(
      `${platformUrl}/__emulator/deliveries?task_id=${encodeURIComponent(final.platform_task_id ?? "")}`,
    ),
    "read the platform's delivery records",
  );
  const delivered = deliveries.filter((d) => d.state === "succeeded").length;
  step(
    delivered > 0
      ? `task succeeded: ${delivered} signed webhook deliveries answered 2xx by the backend`
      : "task succeeded: status found by polling (no webhook delivered)",
  );

  const audio = await fetch(final.file_url);
  const bytes = new Uint8Array(await audio.arrayBuffer());
  const header = new TextDecoder().decode(bytes.subarray(0, 12));
  if (!audio.ok || !header.startsWith("RIFF") || !header.endsWith("WAVE"))
    throw new Error("the result is not a WAV file");
  mkdirSync(outDir, { recursive: true });
  const file = resolve(outDir, `overture-${created.id}.wav`);
  writeFileSync(file, bytes);
  step(
    `saved ${file} (${(bytes.length / 1024).toFixed(0)} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
