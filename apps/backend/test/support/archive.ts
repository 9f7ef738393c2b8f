import { sql } from "drizzle-orm";
import type { Archiver } from "../../src/services/archive/archiver.ts";
import type { Task } from "../../src/schemas/task.ts";
import type { TestBackend, TestInstance } from "./harness.ts";
import { selectRows } from "./sql.ts";
import { createTask, getTask } from "./tasks.ts";

/** The instance's archiver (archiving is on unless ARCHIVE_STORAGE=off). */
export function archiverOf(t: TestInstance): Archiver {
  const archiver = t.backend.deps.services.archive.archiver;
  if (!archiver) throw new Error("archiving is on by default, so the archiver must exist");
  return archiver;
}

/** A task that finished on the emulator, its result not yet archived. */
export async function finishedTask(
  t: TestBackend,
  session: string,
  params: Record<string, unknown> = {},
): Promise<Task> {
  const task = await createTask(t, session, params);
  await t.emu.control.clock.advance(60_000);
  const done = await getTask(t, session, task.id);
  if (done.status !== "success" || !done.file_url) throw new Error(`task ${done.status}`);
  return done;
}

/** Requests the backends sent for result files (the emulator serves them under /files/). */
export const fileDownloads = (t: TestBackend, fileUrl: string) =>
  t.platformCalls.filter((c) => c.path === new URL(fileUrl).pathname).length;

/** What the database holds for a task's archive: files by kind, chunks, peaks. */
export async function storedRows(t: TestBackend, taskId: string) {
  const [row] = await selectRows<{ files: string; chunks: string; peaks: string }>(
    t.database.db,
    sql`select
      (select count(*) from archive_files where task_id = ${taskId}) as files,
      (select count(*) from archive_chunks c join archive_files f on f.id = c.file_id
        where f.task_id = ${taskId}) as chunks,
      (select count(*) from archive_peaks where task_id = ${taskId}) as peaks`,
  );
  return { files: Number(row?.files), chunks: Number(row?.chunks), peaks: Number(row?.peaks) };
}

/** The emulator's bytes of a result file. */
export async function originalBytes(t: TestBackend, fileUrl: string): Promise<Uint8Array> {
  return new Uint8Array(await (await t.emu.app.request(fileUrl)).arrayBuffer());
}

/** Byte equality without vitest's element-by-element diff (slow on hundreds of KB). */
export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
