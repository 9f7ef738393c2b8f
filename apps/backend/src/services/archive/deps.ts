import type { Config } from "../../env/env.ts";
import type { RecordDeps } from "../tasks/record.ts";

/**
 * What the archive wing uses besides the task record (which it is handed apart): the database,
 * the clock, the log and the settings.
 */
export type ArchiveDeps = Pick<RecordDeps, "db" | "clock" | "logger"> & { config: Config };
