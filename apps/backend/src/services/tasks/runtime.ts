import type { Config } from "../../env/env.ts";
import type { RecordDeps, TaskRecord } from "./record.ts";

export { isTaskId } from "./record.ts";

/**
 * The task record with the base dependencies beside it: the shape the archive wing and the purge
 * were written against, kept for them alone until they take the record and their dependencies
 * apart like the other wings (new code takes a `TaskRecord` and names what else it uses).
 */
export type TaskRuntime = TaskRecord & { deps: RuntimeDeps };

type RuntimeDeps = Pick<RecordDeps, "db" | "clock" | "logger"> & { config: Config };

/** The record with `deps` beside it, for the archive wing and the purge (see {@link TaskRuntime}). */
export function withDeps(record: TaskRecord, deps: RuntimeDeps): TaskRuntime {
  return { ...record, deps };
}
