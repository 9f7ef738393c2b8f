import { createHash, createHmac } from "node:crypto";
import { canonicalQuery, signingText } from "@overture/core/webhook";

/**
 * The benchmark workload, derived from indices so the seeder, the load generators and the
 * database loop agree without passing lists around: task `i` belongs to user `i % users`, is
 * called back at `/webhooks/platform?k=<keyOf(i)>`, and event `k` of a run is a status change of
 * task `k % tasks` (first `in_progress`, then `success`, then repeats that change nothing).
 */
export const ENCRYPTION_KEY = `bench:${Buffer.alloc(32, 7).toString("base64")}`;
export const WEBHOOK_PATH = "/webhooks/platform";

export const keyOf = (task: number): string =>
  createHash("sha256").update(`overture-bench-key-${task}`).digest("base64url");
export const keyHashOf = (task: number): string =>
  createHash("sha256").update(keyOf(task)).digest("hex");
export const secretOf = (userId: number): string =>
  `whsec_overture_bench_user_${userId}_0123456789`;
export const platformTaskIdOf = (task: number): string => `ptask_${task}`;
/** What identifies an event in its SSE frame (a task's status changes once per status here). */
export const eventKey = (platformTaskId: string, status: string): string =>
  `${platformTaskId}:${status}`;
export const sessionTokenOf = (userId: number): string =>
  `ovs_bench_session_token_for_user_${userId}`;
export const userIdOf = (task: number, users: number): number => 1 + (task % users);

export type EventStatus = "in_progress" | "success";

export interface PlannedEvent {
  task: number;
  eventId: string;
  status: EventStatus;
}

/** Event `k` of a run tagged `run` (event ids are unique per run and index). */
export function plannedEvent(run: string, k: number, tasks: number): PlannedEvent {
  const task = k % tasks;
  return {
    task,
    eventId: `evt_${run}_${k}`,
    status: Math.floor(k / tasks) === 0 ? "in_progress" : "success",
  };
}

const PARAMS = {
  model: "ACE-Step-v1-3.5B",
  task: "text2music",
  prompt: "lofi hip hop, mellow piano, vinyl crackle, slow tempo, warm bass, soft drums",
  lyrics: "[verse]\nRain on the window, the city asleep\n[chorus]\nHold on, hold on",
  infer_steps: 60,
  guidance_scale: 15,
};

export const outputOf = (task: number, status: EventStatus): Record<string, unknown> =>
  status === "success"
    ? {
        file_url: `https://files.example/music/2026/01/01/${platformTaskIdOf(task)}/final-master.mp3`,
        duration: 60,
        format: "mp3",
        params: PARAMS,
      }
    : { progress: 0.5, params: PARAMS };

export const usageOf = (status: EventStatus): Record<string, unknown> =>
  status === "success"
    ? { unit: "second", quantity: 60, prompt_tokens: 0, completion_tokens: 0 }
    : {};

/** A callback body (spec 2.7) of about 700 bytes, padded with spaces the way a pretty printer would. */
export function callbackBody(event: PlannedEvent): string {
  const body = JSON.stringify({
    event_id: event.eventId,
    task_id: platformTaskIdOf(event.task),
    status: event.status,
    output: outputOf(event.task, event.status),
    usage_info: usageOf(event.status),
  });
  return body.length >= 700 ? body : body + " ".repeat(700 - body.length);
}

/** The raw bytes of a signed delivery of `event` (spec 4.8, 4.9), as the platform sends it. */
export function signedDelivery(
  event: PlannedEvent,
  users: number,
  host: string,
  now = Date.now(),
): Buffer {
  const body = callbackBody(event);
  const query = `k=${keyOf(event.task)}`;
  const timestamp = String(now);
  const signature = createHmac("sha256", secretOf(userIdOf(event.task, users)))
    .update(signingText(timestamp, canonicalQuery(query), body))
    .digest("hex");
  const head =
    `POST ${WEBHOOK_PATH}?${query} HTTP/1.1\r\nHost: ${host}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Sign-Timestamp: ${timestamp}\r\nX-Signature: ${signature}\r\n\r\n`;
  return Buffer.from(head + body);
}
