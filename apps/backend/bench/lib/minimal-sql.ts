/**
 * The minimal durable transaction of one webhook event, shared by the Node-pool reference and
 * pgbench so both run the very same SQL: store the event once, move its task. No HTTP, no
 * verification, no merge, no task event. Task `t` is found by its unique platform id.
 */
export const MINIMAL_INSERT =
  "insert into webhook_events (event_id, task_id, status, signed_at) " +
  "select $1, id, 'in_progress', 0 from tasks where platform_task_id = $2 " +
  "on conflict (event_id) do nothing";
export const MINIMAL_UPDATE =
  "update tasks set status = 'in_progress', updated_at = now() where platform_task_id = $1";

/** The same transaction as a pgbench script (event ids are random: ON CONFLICT absorbs repeats). */
export function pgbenchScript(run: string, tasks: number): string {
  return [
    `\\set t random(0, ${tasks - 1})`,
    "\\set n random(1, 1000000000000)",
    "begin;",
    MINIMAL_INSERT.replace("$1", `'evt_${run}_' || :client_id || '_' || :n`).replace(
      "$2",
      "'ptask_' || :t",
    ) + ";",
    MINIMAL_UPDATE.replace("$1", "'ptask_' || :t") + ";",
    "end;",
    "",
  ].join("\n");
}
