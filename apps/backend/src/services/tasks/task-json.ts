import type { tasks, TaskState } from "../../db/schema/index.ts";

export type TaskRow = typeof tasks.$inferSelect;

/**
 * A task as the API, the live-event stream and the task-event snapshots show it. One shape
 * everywhere: the extension renders SSE payloads and `GET /api/tasks` rows with the same code.
 */
export interface TaskJson {
  id: string;
  status: TaskState;
  namespace: string;
  platform_task_id: string | null;
  params: unknown;
  webhook_expected: boolean;
  output: unknown;
  usage_info: unknown;
  /** Why the task failed, was rejected or is `unknown`, in words for a person. */
  error: string | null;
  /** A status string the platform sent that the spec does not list (kept, never applied). */
  unknown_status: string | null;
  /** The platform's result link (`output.file_url`); it expires (see `file_expires_at`). */
  file_url: string | null;
  /** An estimate: completion time + 24 h, the spec's "usually 24 hours" (spec 8). */
  file_expires_at: string | null;
  /** The backend's copy of the result, when archived; read it with the session bearer. */
  audio_url: string | null;
  created_at: string;
  submitted_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The JSON of a task row. `publicUrl` is the backend's public origin (for `audio_url`). */
export function toTaskJson(row: TaskRow, publicUrl: string): TaskJson {
  return {
    id: row.id,
    status: row.status,
    namespace: row.namespace,
    platform_task_id: row.platformTaskId,
    params: row.params,
    webhook_expected: row.webhookExpected,
    output: row.output ?? null,
    usage_info: row.usageInfo ?? null,
    error: row.error,
    unknown_status: row.unknownStatus,
    file_url: row.fileUrl,
    file_expires_at: iso(row.fileExpiresAt),
    audio_url: row.archiveStatus === "archived" ? `${publicUrl}/api/tasks/${row.id}/audio` : null,
    created_at: row.createdAt.toISOString(),
    submitted_at: iso(row.submittedAt),
    finished_at: iso(row.finishedAt),
    updated_at: row.updatedAt.toISOString(),
  };
}
