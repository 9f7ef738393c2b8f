import { createPlatformEmulator, DEFAULT_BASE_URL } from "@overture/platform-emulator";
import { serveEmulator } from "../lib/emulator-server.ts";
import type { Sample } from "./archiving-figures.ts";

/** An access token of the default seed (a local test value). */
const SEED_TOKEN = "emu-demo-studio-paid-0001";
const SUBMIT_PATH = "/v1/async/music/generations";

/** What the emulator's side of item 9 records. */
export interface PlatformTimes {
  /** Each webhook: the emulator's send to the backend's answer. */
  webhooks: Sample[];
  /** Webhook send times by `<platform task id>:<status>`, to time its live event. */
  sent: Map<string, number>;
  /** The first request for each long result's file, by path: where its archiving starts. */
  fileRequests: Map<string, number>;
  /** Tasks that succeeded on the platform: the long ones and the warm-up, if all goes as planned. */
  successes: number;
}

/**
 * A 240 s studio WAV as the emulator makes it, made once before any backend starts, on an
 * emulator of its own: made while the probes run, its CPU (seconds of it on a busy machine) would
 * fall into the process that times them, in one window and not the others.
 */
export async function makeLongWav(seconds: number): Promise<ArrayBuffer> {
  const emu = createPlatformEmulator({
    clock: "manual",
    audioFormat: "studio",
    maxAudioSeconds: seconds,
  });
  try {
    const form = new FormData();
    form.set("prompt", "the long one");
    form.set("duration", String(seconds));
    const submitted = await emu.app.fetch(
      new Request(`${DEFAULT_BASE_URL}${SUBMIT_PATH}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${SEED_TOKEN}` },
        body: form,
      }),
    );
    const { task_id: id } = (await submitted.json()) as { task_id: string };
    await emu.control.clock.advance(60_000);
    const url = fileUrl(emu.control.getTask(id)?.output);
    if (!url) throw new Error("the emulator made no file for the long result");
    return await (await emu.app.fetch(new Request(url))).arrayBuffer();
  } finally {
    emu.control.close();
  }
}

const fileUrl = (output: Record<string, unknown> | undefined) => {
  const url = output?.file_url ?? output?.url;
  return typeof url === "string" ? url : undefined;
};

/** The `duration` a submit to the platform asks for (multipart, or JSON in other shapes). */
async function durationOf(request: Request): Promise<number> {
  const copy = request.clone();
  const json = (copy.headers.get("content-type") ?? "").includes("json");
  const duration: unknown = json
    ? ((await copy.json()) as { duration?: unknown }).duration
    : (await copy.formData()).get("duration");
  return Number(duration);
}

/**
 * The platform emulator of item 9: it times every webhook, and serves the long results' WAV from
 * memory. The load's tasks (`loadSeconds` long) end in failure on the platform: each still brings
 * its three webhooks and live events, and none of them leaves anything to archive, so the
 * windows without archiving have none at all (a success whose file the archiver then gives up
 * is still a claim and an update, and the archiver takes at most two a second).
 */
export function archivingPlatform(setup: {
  port: number;
  backendUrl: string;
  secret: string;
  longSeconds: number;
  loadSeconds: number;
  /** Platform ids of the long tasks: their files are served from `wav`. */
  longTasks: Set<string>;
  wav: ArrayBuffer;
  times: PlatformTimes;
}) {
  const { times, wav } = setup;
  // One submit at a time: the failure rate set for one must be the one its task is planned with.
  let submits: Promise<unknown> = Promise.resolve();
  const platform = serveEmulator({
    port: setup.port,
    backendUrl: setup.backendUrl,
    secret: setup.secret,
    quotas: { demo: 10_000 },
    options: {
      speed: "demo",
      autoApprove: true,
      audioFormat: "studio",
      maxAudioSeconds: setup.longSeconds,
      fetch: async (input, init) => {
        const event = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as {
          task_id?: string;
          status?: string;
        };
        const sentAt = performance.now();
        if (event.status === "success") times.successes += 1;
        times.sent.set(`${event.task_id ?? ""}:${event.status ?? ""}`, sentAt);
        const response = await fetch(input, init);
        times.webhooks.push([sentAt, performance.now() - sentAt]);
        return response;
      },
    },
    handle(request, pass) {
      const { pathname } = new URL(request.url);
      if (request.method === "POST" && pathname.endsWith(SUBMIT_PATH)) {
        const answer = submits.then(async () => {
          const load = (await durationOf(request)) === setup.loadSeconds;
          // The emulator plans each task with the failure rate of the moment (emu.options).
          platform.emu.options.timing.failureRate = load ? 1 : 0;
          return pass(request);
        });
        submits = answer.catch(() => undefined);
        return answer;
      }
      if (!pathname.startsWith("/files/")) return pass(request);
      if (!isLong(pathname)) return pass(request);
      if (!times.fileRequests.has(pathname)) times.fileRequests.set(pathname, performance.now());
      return new Response(wav, {
        headers: { "Content-Type": "audio/wav", "Content-Length": String(wav.byteLength) },
      });
    },
  });

  /** Whether `pathname` is the result file of one of the long tasks. */
  function isLong(pathname: string): boolean {
    for (const id of setup.longTasks) {
      const url = fileUrl(platform.emu.control.getTask(id)?.output);
      if (url && new URL(url).pathname === pathname) return true;
    }
    return false;
  }
  return platform;
}
