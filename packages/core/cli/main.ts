import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { parseCallbackEvent } from "@overture/core/receiver";
import { diagnoseWebhook, readWebhookBody, signWebhook } from "@overture/core/webhook";
import { describeFetchError } from "./fetch-error.ts";
import { listen } from "./listen/listen.ts";
import { defaultConfigDir } from "./listen/store.ts";

/** What the CLI touches, injected so tests run it in-process. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly readFile: (path: string) => Promise<Uint8Array<ArrayBuffer>>;
  readonly fetch: typeof fetch;
  readonly now: () => number;
  /**
   * For a command that stops cleanly on Ctrl-C (`listen`): from the call on, Ctrl-C aborts the
   * returned signal instead of ending the process.
   */
  readonly interrupts?: () => AbortSignal;
  /** Where `listen` keeps its session and channel (default: the per-user config folder). */
  readonly configDir?: string;
  /** Waits, or rejects when `signal` aborts (tests make it instant). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How long `listen` waits on a silent stream before reopening it (tests shorten it). */
  readonly idleTimeoutMs?: number;
}

const DEFAULT_SECRET_ENV = "OVERTURE_WEBHOOK_SECRET";
const STATUSES = ["waiting", "in_progress", "success", "failure", "cancelled"];

const HELP = `overture-webhooks: sign, send and verify the platform's webhook deliveries (spec 4.8, 4.9)

Usage:
  overture-webhooks sign   --url URL --body-file FILE [--timestamp MS] [--json]
  overture-webhooks send   --url URL [--status STATUS] [--task-id ID] [--event-id ID] [--body-file FILE]
  overture-webhooks verify --url URL --header "X-Sign-Timestamp: …" --header "X-Signature: …"
                           --body-file FILE [--now MS] [--tolerance-ms MS]
  overture-webhooks listen --backend URL --forward-to URL [--channel ID] [--replay]

The secret is never an argument (arguments show in process lists): it is read from the
environment variable ${DEFAULT_SECRET_ENV}, another one named by --secret-env NAME, or a file
named by --secret-file PATH (one trailing newline ignored). Repeat --secret-env or --secret-file
to verify against several secrets (rotation); --former-secret-env NAME explains a mismatch.
No command prints a secret.

  sign    prints the X-Sign-Timestamp and X-Signature headers for the body and the URL.
  send    POSTs a signed test event (spec 2.7) for STATUS (default success: ${STATUSES.join(", ")})
          to URL, like the platform, and prints the answer.
  verify  checks a captured delivery rule by rule and says which rule failed.
  listen  receives the platform's deliveries on your machine through an Overture backend's relay
          (its operator sets RELAY_ENABLED=true): signs in with a code you approve in the browser
          (the session is kept, readable by you only, in $OVERTURE_CONFIG_DIR or
          ~/.config/overture), prints the channel's URL to put in X-WebHook, and sends each
          delivery to --forward-to with the same body bytes, headers, path suffix and query, so
          your own signature check passes. One line per delivery; --replay first sends the last
          one again; Ctrl-C stops. --channel uses another of your channels.

Exit codes: 0 done (signed, delivered with 2xx, valid; listen stopped); 1 refused (answer not
2xx, delivery not valid; listen cannot go on); 2 wrong usage or unreadable input.`;

class UsageError extends Error {}

const OPTIONS = {
  url: { type: "string" },
  "body-file": { type: "string" },
  timestamp: { type: "string" },
  json: { type: "boolean" },
  status: { type: "string" },
  "task-id": { type: "string" },
  "event-id": { type: "string" },
  header: { type: "string", multiple: true },
  now: { type: "string" },
  "tolerance-ms": { type: "string" },
  "secret-env": { type: "string", multiple: true },
  "secret-file": { type: "string", multiple: true },
  "former-secret-env": { type: "string", multiple: true },
  backend: { type: "string" },
  "forward-to": { type: "string" },
  channel: { type: "string" },
  replay: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

/**
 * Runs the CLI with `args` (without the program name) and returns the exit code.
 */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: OPTIONS,
      allowPositionals: true,
    });
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === "help") {
      io.out(HELP);
      return command === undefined && !values.help ? 2 : 0;
    }
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    if (command === "sign") return await sign(values, io);
    if (command === "send") return await send(values, io);
    if (command === "verify") return await verify(values, io);
    if (command === "listen") return await startListening(values, io);
    throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    io.err(`overture-webhooks: ${error.message} (see --help)`);
    return 2;
  }
}

async function sign(values: Values, io: CliIo): Promise<number> {
  const url = required(values.url, "--url");
  const body = await readInput(io, required(values["body-file"], "--body-file"));
  const [secret] = await secrets(values, io);
  const timestamp =
    values.timestamp === undefined ? io.now() : integer(values.timestamp, "--timestamp");
  const headers = await signWebhook({ secret: secret ?? "", url, body, timestamp });
  if (values.json) io.out(JSON.stringify(headers));
  else for (const [name, value] of Object.entries(headers)) io.out(`${name}: ${value}`);
  return 0;
}

async function send(values: Values, io: CliIo): Promise<number> {
  const url = required(values.url, "--url");
  const [secret] = await secrets(values, io);
  const status = values.status ?? "success";
  if (!STATUSES.includes(status))
    throw new UsageError(`--status must be one of ${STATUSES.join(", ")}`);
  const body =
    values["body-file"] === undefined
      ? JSON.stringify(testEvent(status, values["task-id"], values["event-id"]))
      : await readInput(io, values["body-file"]);
  const headers = await signWebhook({ secret: secret ?? "", url, body, timestamp: io.now() });
  let response: Response;
  try {
    response = await io.fetch(url, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body,
    });
  } catch (error) {
    io.err(`overture-webhooks: no answer from ${url}: ${describeFetchError(error)}`);
    return 1;
  }
  const text = (await response.text()).slice(0, 500);
  io.out(`HTTP ${response.status}${text ? ` ${text}` : ""}`);
  return response.ok ? 0 : 1;
}

async function verify(values: Values, io: CliIo): Promise<number> {
  const url = required(values.url, "--url");
  const body = await readInput(io, required(values["body-file"], "--body-file"));
  const headers: Record<string, string> = {};
  for (const line of values.header ?? []) {
    const colon = line.indexOf(":");
    if (colon <= 0)
      throw new UsageError(`--header must be "Name: value", got ${JSON.stringify(line)}`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const diagnosis = await diagnoseWebhook({
    body,
    url,
    headers,
    secrets: await secrets(values, io),
    formerSecrets: (values["former-secret-env"] ?? []).map((name) => fromEnv(io, name)),
    now: values.now === undefined ? io.now : () => integer(values.now ?? "", "--now"),
    ...(values["tolerance-ms"] === undefined
      ? {}
      : { toleranceMs: integer(values["tolerance-ms"], "--tolerance-ms") }),
  });
  const checks = diagnosis.ok ? [...diagnosis.checks, eventCheck(body)] : diagnosis.checks;
  for (const check of checks) {
    io.out(
      `${check.ok ? "ok  " : "FAIL"} ${check.rule}: ${check.message}${check.code && !check.ok ? ` [${check.code}]` : ""}`,
    );
  }
  const failed = checks.filter((c) => !c.ok).map((c) => c.rule);
  io.out(failed.length === 0 ? "valid" : `not valid: ${failed.join(", ")}`);
  return failed.length === 0 ? 0 : 1;
}

/**
 * The last rule a receiver applies, after the signature: the JSON is a callback event of its
 * status (spec 2.7; a success carries its result link). A signed body that fails it is
 * answered 400 by the receivers, so "valid" must not be said of it.
 */
function eventCheck(body: Uint8Array): {
  rule: string;
  ok: boolean;
  message: string;
  code?: string;
} {
  const read = readWebhookBody(body);
  const reading = parseCallbackEvent(read.ok ? read.json : undefined);
  if (!reading.ok)
    return { rule: "event", ok: false, code: reading.code, message: reading.message };
  if ("unknownStatus" in reading) {
    const status = JSON.stringify(reading.unknownStatus.status);
    return {
      rule: "event",
      ok: true,
      message: `status ${status} is not one of spec 2.7's: a receiver without onUnknownStatus answers 400`,
    };
  }
  return {
    rule: "event",
    ok: true,
    message: `a ${reading.event.status} event of task ${reading.event.task_id}`,
  };
}

async function startListening(values: Values, io: CliIo): Promise<number> {
  const backend = httpUrl(required(values.backend, "--backend"), "--backend");
  const forwardTo = httpUrl(required(values["forward-to"], "--forward-to"), "--forward-to");
  if (forwardTo.search || forwardTo.hash)
    throw new UsageError(
      "--forward-to takes no query: the query of the URL the platform called is sent on as it was (put yours in X-WebHook)",
    );
  const signal = io.interrupts?.();
  return listen(
    {
      backend: backend.href.replace(/\/+$/, ""),
      forwardTo: forwardTo.href,
      ...(values.channel === undefined ? {} : { channel: values.channel }),
      replay: values.replay === true,
    },
    {
      out: io.out,
      err: io.err,
      fetch: io.fetch,
      now: io.now,
      ...(signal ? { signal } : {}),
      sleep: io.sleep ?? ((ms, signal) => sleep(ms, undefined, signal ? { signal } : {})),
      configDir: io.configDir ?? defaultConfigDir(io.env),
      ...(io.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: io.idleTimeoutMs }),
      userAgent: `overture-webhooks (listen; node ${process.version}; ${process.platform}; ${hostname()})`,
    },
  );
}

function httpUrl(text: string, flag: string): URL {
  const url = URL.parse(text);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new UsageError(`${flag} must be an http(s) URL, got ${JSON.stringify(text)}`);
  return url;
}

/** The event the platform would send for `status` (spec 2.7), with fresh ids. */
function testEvent(status: string, taskId?: string, eventId?: string) {
  const hex = () =>
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
  const output =
    status === "success"
      ? { file_url: "https://files.example.invalid/overture-test.mp3" }
      : status === "failure"
        ? { error: { code: 500, message: "Test failure sent by overture-webhooks" } }
        : {};
  return {
    event_id: eventId ?? hex(),
    task_id: taskId ?? hex().toUpperCase(),
    status,
    output,
    usage_info: null,
  };
}

async function secrets(values: Values, io: CliIo): Promise<string[]> {
  const names = values["secret-env"] ?? [];
  const files = values["secret-file"] ?? [];
  const found = names.map((name) => fromEnv(io, name));
  for (const path of files)
    found.push(new TextDecoder().decode(await readInput(io, path)).replace(/\r?\n$/, ""));
  if (found.length === 0) found.push(fromEnv(io, DEFAULT_SECRET_ENV));
  if (found.some((secret) => secret === "")) throw new UsageError("a webhook secret is empty");
  return found;
}

function fromEnv(io: CliIo, name: string): string {
  const value = io.env[name];
  if (value === undefined || value === "")
    throw new UsageError(`set the webhook secret in the environment variable ${name}`);
  return value;
}

async function readInput(io: CliIo, path: string): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await io.readFile(path);
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new UsageError(`${flag} is required`);
  return value;
}

function integer(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} must be a whole number of milliseconds`);
  return Number(text);
}
