import { afterAll, beforeAll, expect, it } from "vitest";
import type { TaskDeletion, TaskDetails, TaskEstimate } from "../../src/api.ts";
import type { Task } from "../../src/schemas/task.ts";
import { archiverOf, storedRows } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { finishedTasks, listAll } from "../support/library.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

describeEachDriver("the library: search, filters, sorting, paging and track actions", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  let done: Task[];
  const titles = (list: Task[]) => list.map((task) => task.title);
  const at = (i: number): Task => {
    const task = done[i];
    if (!task) throw new Error(`no task ${i}`);
    return task;
  };
  const patch = (id: string, body: unknown) =>
    t.request(`/api/tasks/${id}`, {
      method: "PATCH",
      session: user.session,
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { maxAudioSeconds: 5 } });
    user = await setUpTaskUser(t, { webhookSecret: true });
    done = await finishedTasks(t, user.session, [
      { prompt: "Rainy lofi piano\nwith vinyl crackle" },
      { prompt: "epic orchestral battle", lyrics: "[verse]\nneon city lights" },
      { prompt: "Bossa nova at dawn", duration: 60, infer_steps: 40 },
      { prompt: "LOFI beats to study to" },
      { prompt: "100% pure noise" },
    ]);
  });
  afterAll(() => t.close());

  it("titles a task with the first line of its prompt", () => {
    expect(titles(done)).toEqual([
      "Rainy lofi piano",
      "epic orchestral battle",
      "Bossa nova at dawn",
      "LOFI beats to study to",
      "100% pure noise",
    ]);
    expect(done[0]).toMatchObject({ favourite: false, deleted_at: null });
  });

  it("pages every sort by keyset without gaps or repeats", async () => {
    const newest = await listAll(t, user.session, "sort=newest");
    expect(titles(newest)).toEqual(titles(done).reverse());
    expect(titles(await listAll(t, user.session, "sort=oldest"))).toEqual(titles(done));
    expect(titles(await listAll(t, user.session, "sort=title", 3))).toEqual([
      "100% pure noise",
      "Bossa nova at dawn",
      "epic orchestral battle",
      "LOFI beats to study to",
      "Rainy lofi piano",
    ]);
  });

  it("refuses a cursor of another sort, or a made-up one", async () => {
    const first = await t.request("/api/tasks?limit=1&sort=title", { session: user.session });
    const { next_cursor } = (await first.json()) as { next_cursor: string };
    const other = await t.request(`/api/tasks?limit=1&sort=newest&cursor=${next_cursor}`, {
      session: user.session,
    });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: "invalid_cursor" });
    const madeUp = await t.request("/api/tasks?cursor=bm9wZQ", { session: user.session });
    expect(madeUp.status).toBe(400);
    expect((await t.request("/api/tasks?sort=size", { session: user.session })).status).toBe(400);
  });

  const UUID = "3f1c2a52-6e0a-4d4b-9b8e-2f6c8d7e9a10";
  const DATE = "2024-02-01T10:00:00.000Z";
  it.each([
    ["newest", "a number for a date", "1", UUID],
    ["newest", "a day February does not have", "2024-02-30T00:00:00.000Z", UUID],
    ["oldest", "the last date JavaScript holds", "+275760-09-13T00:00:00.000Z", UUID],
    ["newest", "year 0, which Postgres has not", "0000-01-01T00:00:00.000Z", UUID],
    ["newest", "a date without its time", "2024-02-01", UUID],
    ["newest", "36 dashes for the id", DATE, "-".repeat(36)],
    ["oldest", "an id with a letter past f", DATE, "3f1c2a52-6e0a-4d4b-9b8e-2f6c8d7e9a1g"],
    ["title", "a title key holding NUL", "night\u0000drive", UUID],
    ["title", "a title key holding a lone surrogate", "night \ud800 drive", UUID],
    ["title", "a title key longer than any title", "x".repeat(5_000), UUID],
  ])(
    "refuses a tampered %s cursor holding %s (400 invalid_cursor)",
    async (sort, _what, key, id) => {
      const cursor = Buffer.from(JSON.stringify([sort, key, id])).toString("base64url");
      const response = await t.request(`/api/tasks?sort=${sort}&cursor=${cursor}`, {
        session: user.session,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_cursor" });
    },
  );

  it("accepts a cursor built the way the API builds one (the valid case of the above)", async () => {
    for (const [sort, key] of [
      ["newest", DATE],
      ["title", "night drive"],
    ]) {
      const cursor = Buffer.from(JSON.stringify([sort, key, UUID])).toString("base64url");
      const response = await t.request(`/api/tasks?sort=${sort}&cursor=${cursor}`, {
        session: user.session,
      });
      expect(response.status).toBe(200);
    }
  });

  it("searches title, prompt and lyrics case-insensitively, % and _ literally", async () => {
    expect(titles(await listAll(t, user.session, "sort=oldest&q=lofi"))).toEqual([
      "Rainy lofi piano",
      "LOFI beats to study to",
    ]);
    // In the prompt only (its second line), and in the lyrics only.
    expect(titles(await listAll(t, user.session, "q=VINYL"))).toEqual(["Rainy lofi piano"]);
    expect(titles(await listAll(t, user.session, "q=neon%20city"))).toEqual([
      "epic orchestral battle",
    ]);
    expect(titles(await listAll(t, user.session, "q=100%25"))).toEqual(["100% pure noise"]);
    expect(titles(await listAll(t, user.session, "q=0%25%20p"))).toEqual(["100% pure noise"]);
    expect(await listAll(t, user.session, "q=_")).toEqual([]);
  });

  it("renames and favourites a track, and filters by favourite and status", async () => {
    const [rainy, epic] = done as [Task, Task];
    const renamed = await patch(rainy.id, { title: "  Night rain  " });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ title: "Night rain", favourite: false });
    expect((await patch(epic.id, { favourite: true })).status).toBe(200);
    expect(titles(await listAll(t, user.session, "favourite=true"))).toEqual([
      "epic orchestral battle",
    ]);
    expect(await listAll(t, user.session, "favourite=false")).toHaveLength(4);
    expect(titles(await listAll(t, user.session, "q=night"))).toEqual(["Night rain"]);
    expect(await listAll(t, user.session, "status=failure")).toEqual([]);
    expect(await listAll(t, user.session, "status=success")).toHaveLength(5);
  });

  it("refuses a title that cannot be stored, is empty or too long, naming the field", async () => {
    const id = at(0).id;
    for (const title of ["bad\u0000title", "lone \ud800 surrogate", "   ", "x".repeat(201)]) {
      const refused = await patch(id, { title });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error: string; fields: { field: string }[] };
      expect(body.error).toBe("invalid_request");
      expect(body.fields.map((f) => f.field)).toEqual(["title"]);
    }
    expect((await patch(id, { owner: 7 })).status).toBe(400);
    expect((await patch(id, { favourite: "yes" })).status).toBe(400);
    expect((await getTask(t, user.session, id)).title).toBe("Night rain");
    const other = await t.signIn({ login: "ada" });
    const theirs = await t.request(`/api/tasks/${id}`, {
      method: "PATCH",
      session: other.sessionToken,
      body: JSON.stringify({ title: "mine" }),
    });
    expect(theirs.status).toBe(404);
  });

  it("shows the details: parameters, lyrics, durations, timings, platform id", async () => {
    const epic = at(1);
    await archiverOf(t).runOnce();
    const response = await t.request(`/api/tasks/${epic.id}/details`, { session: user.session });
    expect(response.status).toBe(200);
    const details = (await response.json()) as TaskDetails;
    expect(details.task.platform_task_id).toBe(epic.platform_task_id);
    expect(details.task.params).toMatchObject({ prompt: "epic orchestral battle", duration: 30 });
    expect(details).toMatchObject({
      prompt: "epic orchestral battle",
      lyrics: "[verse]\nneon city lights",
      requested_duration_seconds: 30,
      price: null,
      currency: null,
    });
    expect(details.actual_duration_seconds).toBeCloseTo(5, 3);
    expect(details.timings.total_seconds).toBeGreaterThan(0);
    expect(details.timings.generation_seconds).toBeLessThanOrEqual(
      details.timings.total_seconds ?? 0,
    );
  });

  it("estimates from the user's similar past tasks, and says 1–10 minutes without history", async () => {
    const running = await createTask(t, user.session, { prompt: "another lofi" });
    const estimate = (await (
      await t.request(`/api/tasks/${running.id}/estimate`, { session: user.session })
    ).json()) as TaskEstimate;
    // Four of the five finished tasks are 30 s at 60 steps; the bossa nova is not similar.
    expect(estimate.based_on).toBe(4);
    expect(estimate.typical_seconds).toBeGreaterThan(0);
    expect(estimate.low_seconds).toBeLessThanOrEqual(estimate.high_seconds);
    expect(estimate.remaining_high_seconds).toBeLessThanOrEqual(estimate.high_seconds);
    expect(estimate.summary).toMatch(/from your last 4 similar tasks/);
    await t.emu.control.clock.advance(60_000);

    const fresh = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    const first = await createTask(t, fresh.session);
    const none = (await (
      await t.request(`/api/tasks/${first.id}/estimate`, { session: fresh.session })
    ).json()) as TaskEstimate;
    expect(none).toMatchObject({
      based_on: 0,
      typical_seconds: null,
      low_seconds: 60,
      high_seconds: 600,
      summary: "usually 1–10 minutes",
    });
    await t.emu.control.clock.advance(60_000);
  });

  it("regenerates: the same parameters as a new task, with new seeds", async () => {
    const seeded = await createTask(t, user.session, { prompt: "seeded", seeds: "7,8" });
    await t.emu.control.clock.advance(60_000);
    const response = await t.request(`/api/tasks/${seeded.id}/regenerate`, {
      method: "POST",
      session: user.session,
    });
    expect(response.status).toBe(201);
    const again = (await response.json()) as Task;
    expect(again.id).not.toBe(seeded.id);
    expect(again.title).toBe("seeded");
    const { seeds, ...rest } = again.params;
    const { seeds: oldSeeds, ...oldRest } = seeded.params;
    expect(rest).toEqual(oldRest);
    expect(oldSeeds).toEqual([7, 8]);
    expect(seeds).toHaveLength(2);
    expect(seeds).not.toEqual([7, 8]);
    await t.emu.control.clock.advance(60_000);
  });

  it("refuses to delete a running task", async () => {
    const running = await createTask(t, user.session);
    const refused = await t.request(`/api/tasks/${running.id}`, {
      method: "DELETE",
      session: user.session,
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "task_active" });
    await t.emu.control.clock.advance(60_000);
  });

  it("does not archive a deleted track, and archives it once restored", async () => {
    const task = await createTask(t, user.session, { prompt: "deleted before archiving" });
    await t.emu.control.clock.advance(60_000);
    expect((await getTask(t, user.session, task.id)).archive?.status).toBe("pending");
    const remove = await t.request(`/api/tasks/${task.id}`, {
      method: "DELETE",
      session: user.session,
    });
    expect(remove.status).toBe(200);
    await archiverOf(t).runOnce();
    expect(await storedRows(t, task.id)).toEqual({ files: 0, chunks: 0, peaks: 0 });
    await t.request(`/api/tasks/${task.id}/restore`, { method: "POST", session: user.session });
    await archiverOf(t).runOnce();
    expect((await getTask(t, user.session, task.id)).archive?.status).toBe("archived");
  });

  it("answers 410 to restoring a task that is not deleted, as the API document says", async () => {
    const id = at(2).id;
    const response = await t.request(`/api/tasks/${id}/restore`, {
      method: "POST",
      session: user.session,
    });
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({ error: "undo_expired" });
    const document = (await (await t.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(document.paths["/api/tasks/{id}/restore"]?.post?.responses).toHaveProperty("410");
    expect((await getTask(t, user.session, id)).deleted_at).toBeNull();
  });

  it("deletes a track, undoes it within the window, then purges it and its archive", async () => {
    const id = at(1).id;
    const purge = t.backend.deps.services.taskPurge;
    const remove = () => t.request(`/api/tasks/${id}`, { method: "DELETE", session: user.session });
    const restore = () =>
      t.request(`/api/tasks/${id}/restore`, { method: "POST", session: user.session });
    expect(await storedRows(t, id)).toEqual({ files: 2, chunks: 5, peaks: 1 }); // 64 KiB chunks

    const deleted = await remove();
    expect(deleted.status).toBe(200);
    const body = (await deleted.json()) as TaskDeletion;
    expect(Date.parse(body.undo_until) - t.clock.now()).toBe(10_000);
    expect((await t.request(`/api/tasks/${id}`, { session: user.session })).status).toBe(404);
    expect((await t.request(`/api/tasks/${id}/audio`, { session: user.session })).status).toBe(404);
    expect((await listAll(t, user.session, "")).map((task) => task.id)).not.toContain(id);

    const restored = await restore();
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ id, deleted_at: null });
    expect((await t.request(`/api/tasks/${id}/audio`, { session: user.session })).status).toBe(200);

    expect((await remove()).status).toBe(200);
    await t.emu.control.clock.advance(9_000);
    expect(await purge.runOnce()).toBe(0);
    await t.emu.control.clock.advance(1_000);
    const late = await restore();
    expect(late.status).toBe(410);
    expect(await late.json()).toMatchObject({ error: "undo_expired" });
    expect(await purge.runOnce()).toBe(1);
    expect(await storedRows(t, id)).toEqual({ files: 0, chunks: 0, peaks: 0 });
    expect((await restore()).status).toBe(404);
  });
});

describeEachDriver("task details on the live platform's answers", (driver) => {
  let t: TestBackend;
  let user: TaskUser;

  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { profile: "live", maxAudioSeconds: 1 } });
    // No webhook secret: the task is polled, and the polled record carries the cost.
    user = await setUpTaskUser(t);
  });
  afterAll(() => t.close());

  it("shows the price and currency the platform's task record carries", async () => {
    const task = await createTask(t, user.session, { prompt: "priced", duration: 40 });
    for (
      let i = 0;
      i < 20 && (await getTask(t, user.session, task.id)).status !== "success";
      i += 1
    ) {
      await t.emu.control.clock.advance(30_000);
      await t.backend.deps.services.reconciler.runOnce();
    }
    const response = await t.request(`/api/tasks/${task.id}/details`, { session: user.session });
    const details = (await response.json()) as TaskDetails;
    expect(details.task.status).toBe("success");
    expect(details.currency).toBe("CNY");
    expect(details.price).toBeGreaterThan(0);
    expect(details.requested_duration_seconds).toBe(40);
    // Not on the task itself: the cost is a detail.
    expect(details.task).not.toHaveProperty("price");
  });
});
