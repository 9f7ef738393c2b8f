import type { TaskRow } from "../../db/schema/index.ts";
import type { Task } from "../../schemas/task.ts";
import type { ArchiveFailure } from "../../schemas/task-states.ts";

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/**
 * The API's JSON of a task row (`schemas/task.ts`): what routes answer, and the payload of every
 * task event. `publicUrl` is the backend's public origin (for `audio_url`).
 */
export function toTaskJson(row: TaskRow, publicUrl: string): Task {
  const archived = row.archiveStatus === "archived";
  const base = `${publicUrl}/api/tasks/${row.id}`;
  return {
    id: row.id,
    status: row.status,
    namespace: row.namespace,
    platform_task_id: row.platformTaskId,
    title: row.title,
    favourite: row.favourite,
    deleted_at: iso(row.deletedAt),
    params: row.params,
    webhook_expected: row.webhookExpected,
    output: row.output ?? null,
    usage_info: row.usageInfo ?? null,
    error: row.error,
    unknown_status: row.unknownStatus,
    file_url: row.fileUrl,
    file_expires_at: iso(row.fileExpiresAt),
    audio_url: archived ? `${base}/audio` : null,
    archive: row.archiveStatus
      ? {
          status: row.archiveStatus,
          error: (row.archiveError as ArchiveFailure | null) ?? null,
          audio_url: archived ? `${base}/audio` : null,
          mp3_url: archived ? `${base}/audio?format=mp3` : null,
          peaks_url: archived ? `${base}/peaks` : null,
        }
      : null,
    created_at: row.createdAt.toISOString(),
    submitted_at: iso(row.submittedAt),
    finished_at: iso(row.finishedAt),
    updated_at: row.updatedAt.toISOString(),
  };
}
