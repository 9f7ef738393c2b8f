import type { Task } from "../../src/schemas/task.ts";
import type { TestBackend } from "./harness.ts";
import { createTask, getTask } from "./tasks.ts";

/** Creates tasks one after the other, each finished (1 s apart, so their order is known). */
export async function finishedTasks(
  t: TestBackend,
  session: string,
  paramsList: Record<string, unknown>[],
): Promise<Task[]> {
  const done: Task[] = [];
  for (const params of paramsList) {
    const task = await createTask(t, session, params);
    await t.emu.control.clock.advance(60_000);
    const finished = await getTask(t, session, task.id);
    if (finished.status !== "success") throw new Error(`task ${finished.status}`);
    done.push(finished);
    await t.emu.control.clock.advance(1_000);
  }
  return done;
}

/** Every task of a listing, page by page (bounded), with the query given. */
export async function listAll(
  t: TestBackend,
  session: string,
  query: string,
  limit = 2,
): Promise<Task[]> {
  const all: Task[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page += 1) {
    const url = `/api/tasks?limit=${limit}&${query}${cursor ? `&cursor=${cursor}` : ""}`;
    const response = await t.request(url, { session });
    if (response.status !== 200)
      throw new Error(`${url}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { tasks: Task[]; next_cursor: string | null };
    all.push(...body.tasks);
    cursor = body.next_cursor;
    if (!cursor) return all;
  }
  throw new Error("more than 50 pages");
}
