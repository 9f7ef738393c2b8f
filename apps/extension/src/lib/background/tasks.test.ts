import { describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import type { Waveform } from "../shared/peaks.ts";
import { backendUrl, snapshotItem } from "../shared/storage.ts";
import { NOTIFICATION_PREFIX } from "./notify.ts";
import { POLL_ALARM } from "./poller.ts";
import { mediaLinkOf } from "./archive.ts";
import { applyTasks, checkActiveTasks } from "./tasks.ts";

const later = (minutes: number) =>
  new Date(Date.parse("2025-01-01T10:00:01.000Z") + minutes * 60_000).toISOString();

describe("badge, notifications and the polling alarm", () => {
  it("counts active tasks on the badge: queued, submitting, waiting and in progress", async () => {
    await signedIn();
    const { ctx } = startTestBackground(fakeBackend());
    await applyTasks(ctx, [
      task({ id: "a", status: "queued" }),
      task({ id: "b", status: "submitting" }),
      task({ id: "c", status: "waiting" }),
      task({ id: "d", status: "in_progress" }),
      task({ id: "e", status: "success" }),
      task({ id: "f", status: "unknown" }),
    ]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe("4");
  });

  it("shows no badge when nothing is active", async () => {
    await signedIn();
    const { ctx } = startTestBackground(fakeBackend());
    await applyTasks(ctx, [task({ status: "failure" })]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe("");
  });

  it("notifies once when a task finishes, even when the same state arrives twice", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    const { ctx } = startTestBackground(fakeBackend());
    const done = task({ status: "success", updated_at: later(3) });
    await applyTasks(ctx, [done]);
    await applyTasks(ctx, [done]);
    const notifications = await fakeBrowser.notifications.getAll();
    expect(Object.keys(notifications)).toEqual([`${NOTIFICATION_PREFIX}t1`]);
    expect(notifications[`${NOTIFICATION_PREFIX}t1`]).toMatchObject({
      title: "lofi piano",
      message: "Your track is ready.",
    });
  });

  it("gives the failure reason in the notification of a failed task", async () => {
    await signedIn({ tasks: [task({ status: "waiting" })] });
    const { ctx } = startTestBackground(fakeBackend());
    await applyTasks(ctx, [
      task({ status: "failure", error: "GPU out of memory", updated_at: later(2) }),
    ]);
    expect(Object.values(await fakeBrowser.notifications.getAll())[0]).toMatchObject({
      message: "Generation failed: GPU out of memory",
    });
  });

  it("never lets a late event move a task back", async () => {
    await signedIn({ tasks: [task({ status: "success", updated_at: later(5) })] });
    const { ctx } = startTestBackground(fakeBackend());
    await applyTasks(ctx, [task({ status: "in_progress", updated_at: later(1) })]);
    expect((await snapshotItem.getValue()).tasks[0]?.status).toBe("success");
  });

  it("keeps the polling alarm while a task is active and removes it when none is", async () => {
    await signedIn();
    const { ctx } = startTestBackground(fakeBackend());
    await applyTasks(ctx, [task({ status: "waiting" })]);
    expect(await fakeBrowser.alarms.get(POLL_ALARM)).toMatchObject({ periodInMinutes: 0.5 });
    await applyTasks(ctx, [task({ status: "cancelled", updated_at: later(1) })]);
    expect(await fakeBrowser.alarms.get(POLL_ALARM)).toBeUndefined();
  });

  it("on the alarm with no view open, re-reads active tasks and notifies the one that ended", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    const backend = fakeBackend({
      "GET /api/tasks/t1": () => json(task({ status: "success", updated_at: later(4) })),
    });
    const { restored } = startTestBackground(backend);
    await restored;
    await fakeBrowser.alarms.onAlarm.trigger({
      name: POLL_ALARM,
      scheduledTime: Date.now(),
      periodInMinutes: 0.5,
    });
    await expect
      .poll(async () => Object.keys(await fakeBrowser.notifications.getAll()))
      .toEqual([`${NOTIFICATION_PREFIX}t1`]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe("");
  });

  it("restores the badge and the alarm from the last known tasks when the background starts", async () => {
    await signedIn({ tasks: [task({ status: "waiting" }), task({ id: "t2", status: "queued" })] });
    const { restored } = startTestBackground(fakeBackend());
    await restored;
    expect(await fakeBrowser.action.getBadgeText({})).toBe("2");
    expect(await fakeBrowser.alarms.get(POLL_ALARM)).toBeDefined();
  });

  it("updates the quota along with the tasks when the alarm checks", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    const backend = fakeBackend({
      "GET /api/tasks/t1": () => json(task({ status: "in_progress" })),
      "GET /api/quota": () =>
        json({ available: 0, max_concurrency: 2, queued: 3, namespace: "demo" }),
    });
    const { ctx } = startTestBackground(backend);
    await checkActiveTasks(ctx);
    expect((await snapshotItem.getValue()).quota).toMatchObject({ available: 0, queued: 3 });
  });
});

describe("quota after a change of the active tasks", () => {
  it("re-reads the quota when a task ends, since a slot was freed", async () => {
    await signedIn({
      tasks: [task({ status: "in_progress" })],
      quota: { available: 1, max_concurrency: 2, queued: 0, namespace: "demo" },
    });
    const { ctx } = startTestBackground(
      fakeBackend({
        "GET /api/quota": () =>
          json({ available: 2, max_concurrency: 2, queued: 0, namespace: "demo" }),
      }),
    );
    await applyTasks(ctx, [task({ status: "success", updated_at: later(3) })]);
    await expect.poll(async () => (await snapshotItem.getValue()).quota?.available).toBe(2);
  });

  it("reads the quota once when several tasks end one after another", async () => {
    await signedIn({
      tasks: ["a", "b", "c", "d"].map((id) => task({ id, status: "in_progress" })),
    });
    const backend = fakeBackend();
    const { ctx } = startTestBackground(backend);
    for (const id of ["a", "b", "c", "d"])
      await applyTasks(ctx, [task({ id, status: "success", updated_at: later(3) })]);
    await ctx.refreshQuota();
    expect(backend.calls("GET", "/api/quota")).toHaveLength(1);
  });
});

describe("deletions in the snapshot", () => {
  it("notes a task deleted on another device, so views drop it from their own pages", async () => {
    await signedIn({ tasks: [task({ status: "success" })] });
    const { ctx } = startTestBackground(fakeBackend());
    await applyTasks(ctx, [
      task({ status: "success", deleted_at: later(1), updated_at: later(1) }),
    ]);
    const stored = await snapshotItem.getValue();
    expect(stored.tasks).toEqual([]);
    expect(stored.deletions).toEqual([{ id: "t1", at: later(1) }]);
  });

  it("forgets the deletion when the task is restored", async () => {
    await signedIn({ deletions: [{ id: "t1", at: later(1) }] });
    const { ctx } = startTestBackground(fakeBackend());
    await applyTasks(ctx, [task({ status: "success", updated_at: later(2) })]);
    expect((await snapshotItem.getValue()).deletions).toEqual([]);
  });
});

describe("a deleted track on this device", () => {
  const waveform: Waveform = { bars: [0.5], duration: 1 };
  const audio = () => new Blob([new Uint8Array([1, 2, 3])], { type: "audio/mpeg" });

  it("keeps neither its audio nor its waveform once the deletion arrives, and leaves the others", async () => {
    await signedIn({
      tasks: [task({ id: "a", status: "success" }), task({ id: "b", status: "success" })],
    });
    const { ctx } = startTestBackground(fakeBackend());
    const backend = (await backendUrl()) ?? "";
    for (const id of ["a", "b"]) {
      await ctx.audioCache.put(backend, id, audio());
      await ctx.peaks.put(backend, id, waveform);
    }
    await applyTasks(ctx, [
      task({ id: "a", status: "success", deleted_at: later(1), updated_at: later(1) }),
    ]);
    expect(await ctx.audioCache.get(backend, "a")).toBeNull();
    expect(await ctx.peaks.get(backend, "a")).toBeNull();
    expect(await ctx.audioCache.get(backend, "b")).not.toBeNull();
    expect(await ctx.peaks.get(backend, "b")).toEqual(waveform);
  });

  it("keeps a track's audio while no deletion is among the rows applied", async () => {
    await signedIn({ tasks: [task({ id: "a", status: "success" })] });
    const { ctx } = startTestBackground(fakeBackend());
    const backend = (await backendUrl()) ?? "";
    await ctx.audioCache.put(backend, "a", audio());
    await applyTasks(ctx, [
      task({ id: "a", status: "success", title: "renamed", updated_at: later(1) }),
    ]);
    expect(await ctx.audioCache.get(backend, "a")).not.toBeNull();
  });

  it("asks for a new media link once the deletion arrives, instead of reusing the one it had", async () => {
    await signedIn({ tasks: [task({ id: "a", status: "success" })] });
    let issued = 0;
    const { ctx } = startTestBackground(
      fakeBackend({
        "POST /api/tasks/a/media-link": () =>
          json({ url: `http://127.0.0.1:8787/media/${++issued}`, expires_at: later(360) }),
      }),
    );
    expect((await mediaLinkOf(ctx, "a", "mp3")).url).toMatch(/\/media\/1$/);
    expect((await mediaLinkOf(ctx, "a", "mp3")).url).toMatch(/\/media\/1$/);
    await applyTasks(ctx, [
      task({ id: "a", status: "success", deleted_at: later(1), updated_at: later(1) }),
    ]);
    expect((await mediaLinkOf(ctx, "a", "mp3")).url).toMatch(/\/media\/2$/);
  });
});
