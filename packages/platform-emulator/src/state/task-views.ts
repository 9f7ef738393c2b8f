import type { ResolvedOptions } from "../options.ts";
import type { TaskRecord } from "./types.ts";

export function taskUrls(options: ResolvedOptions, id: string) {
  const get = `${options.apiUrl}/api/v1/task/${encodeURIComponent(id)}`;
  return { get, cancel: `${get}/cancel` };
}

/** Submit response (spec 4.6): `task_id`, `urls.get`, plus `status`, `created_at`, `urls.cancel`. */
export function submitView(options: ResolvedOptions, t: TaskRecord) {
  return {
    task_id: t.id,
    status: t.status,
    created_at: t.createdAt,
    urls: taskUrls(options, t.id),
  };
}

/**
 * Unified query (spec 4.7): status, ms timestamps (null until they happen), output, usage_info;
 * in the live profile also `price`, `currency` and, on failure, a top-level `message`.
 */
export function queryView(options: ResolvedOptions, t: TaskRecord) {
  return {
    task_id: t.id,
    status: t.status,
    created_at: t.createdAt,
    started_at: t.startedAt ?? null,
    completed_at: t.completedAt ?? null,
    output: currentOutput(options, t),
    usage_info: t.usageInfo,
    ...(t.price !== undefined ? { price: t.price, currency: "CNY" } : {}),
    ...(t.message !== undefined ? { message: t.message } : {}),
    urls: taskUrls(options, t.id),
  };
}

export function statusView(t: TaskRecord) {
  return { task_id: t.id, status: t.status };
}

/** Task record (spec 4.7 "full information: parameters, status, results"). */
export function recordView(options: ResolvedOptions, t: TaskRecord) {
  return {
    ...queryView(options, t),
    model: t.parameters.model ?? DEFAULT_MODEL,
    task: t.parameters.task ?? DEFAULT_TASK,
    parameters: t.parameters,
  };
}

/** Callback body (spec 2.7). */
export function eventView(options: ResolvedOptions, eventId: string, t: TaskRecord) {
  return {
    event_id: eventId,
    task_id: t.id,
    status: t.status,
    output: currentOutput(options, t),
    usage_info: t.usageInfo,
  };
}

/** `output` with its result link on today's base URL (see `TaskRecord.linkBase`). */
function currentOutput(options: ResolvedOptions, t: TaskRecord): Record<string, unknown> {
  const from = t.linkBase;
  if (from === undefined || from === options.baseUrl) return t.output;
  const output = { ...t.output };
  for (const field of ["file_url", "url"] as const) {
    const value = output[field];
    if (typeof value === "string" && value.startsWith(`${from}/files/`))
      output[field] = options.baseUrl + value.slice(from.length);
  }
  return output;
}

export const DEFAULT_MODEL = "ACE-Step-v1-3.5B";
export const DEFAULT_TASK = "text2music";
