import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  CLIENT_ID,
  startTestBackend,
  type TestBackend,
  type TestInstance,
} from "../support/harness.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const HOUR = 3_600_000;

/**
 * Credentials failing in the middle of a task's life. Tasks here are reported by polling alone
 * (no webhook secret), so every step needs a working proxy token, and through it the grant.
 */
describeEachDriver("credentials revoked or rotated mid-task", (driver) => {
  let t: TestBackend;
  let sibling: TestInstance;
  // Proxy tokens the "platform" has revoked: task requests carrying one answer 401.
  const revoked = new Set<string>();
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      emulator: {
        refreshTokenRotation: "rotate-detect-reuse",
        timing: { waitingMs: 20_000, runningMs: 60_000 },
      },
      rewritePlatformResponse: (path, response, request) => {
        const bearer = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
        if (!path.startsWith("/api/open/") && revoked.has(bearer))
          return Response.json({ error: "invalid_token", message: "revoked" }, { status: 401 });
        return response;
      },
    });
    sibling = await t.openSecondInstance();
  });
  afterAll(() => t.close());

  const detailCalls = (namespace: string, tokenId: number) =>
    t.platformCalls.filter((c) => c.path === `/api/open/v1/${namespace}/tokens/${tokenId}`).length;
  const refreshes = () => t.platformCalls.filter((c) => c.grantType === "refresh_token").length;
  const selected = { namespace: "overture-lab", tokenId: 201 };

  async function pollUntilFinished(instance: TestInstance, user: TaskUser, taskId: string) {
    for (let round = 0; round < 40; round += 1) {
      const task = await getTask(instance, user.session, taskId);
      if (["success", "failure", "cancelled"].includes(task.status)) return task;
      await t.emu.control.clock.advance(10_000);
      await instance.backend.deps.services.reconciler.runOnce();
    }
    throw new Error("the task did not finish");
  }

  it("re-mints once when the platform revokes the proxy token mid-task, and the task finishes", async () => {
    const user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    const task = await createTask(t, user.session);
    const proxy = t.backend.deps.services.proxyTokens;
    const current = await proxy.get(user.userId, selected.namespace, selected.tokenId);
    revoked.add(current);
    const mints = detailCalls(selected.namespace, selected.tokenId);
    const unauthorized = () => t.platformCalls.filter((c) => c.status === 401).length;
    const refusals = unauthorized();

    const done = await pollUntilFinished(t, user, task.id);
    expect(done.status).toBe(t.emu.control.getTask(task.platform_task_id ?? "")?.status);
    expect(detailCalls(selected.namespace, selected.tokenId)).toBe(mints + 1);
    expect(await proxy.get(user.userId, selected.namespace, selected.tokenId)).not.toBe(current);
    expect(unauthorized()).toBe(refusals + 1);
  });

  it("asks for a new sign-in when the user revokes the app mid-task, and carries on after it", async () => {
    const user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    const task = await createTask(t, user.session);
    t.emu.control.revokeAuthorization({ clientId: CLIENT_ID, userId: user.userId });
    await t.emu.control.clock.advance(10_000);
    await t.backend.deps.services.reconciler.runOnce();

    const me = (await (await t.request("/api/me", { session: user.session })).json()) as {
      grant: { status: string };
    };
    expect(me.grant.status).toBe("revoked");
    const refused = await t.request("/api/namespaces/overture-lab/tokens", {
      session: user.session,
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "reauthentication_required" });
    // A revoked grant costs the platform nothing more: later rounds do not call it.
    const calls = t.platformCalls.length;
    await t.emu.control.clock.advance(60_000);
    await t.backend.deps.services.reconciler.runOnce();
    expect(t.platformCalls.length).toBe(calls);
    expect((await getTask(t, user.session, task.id)).status).not.toBe("success");

    // Signing in again replaces the grant; the task is followed to its end.
    const again = await t.signIn({ login: "ada" });
    const done = await pollUntilFinished(t, { ...user, session: again.sessionToken }, task.id);
    expect(done.status).toBe(t.emu.control.getTask(task.platform_task_id ?? "")?.status);
  });

  it("uses the tokens a sibling instance rotated instead of redeeming the old refresh token", async () => {
    const user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    const task = await createTask(t, user.session);
    // Both the OAuth access token and the proxy token expire. The sibling's reconciler and this
    // instance's API need the grant at the same moment: one refresh, and the loser reads the
    // winner's rotated tokens (with reuse detection on, redeeming the old refresh token again
    // would revoke the grant).
    await t.emu.control.clock.advance(2 * HOUR);
    const before = refreshes();
    const [polled, listed] = await Promise.all([
      sibling.backend.deps.services.reconciler.runOnce(),
      t.request("/api/namespaces/overture-lab/tokens", { session: user.session }),
    ]);
    expect(polled).toBeGreaterThanOrEqual(1);
    expect(listed.status).toBe(200);
    expect(refreshes()).toBe(before + 1);
    const done = await pollUntilFinished(t, user, task.id);
    expect(done.status).toBe(t.emu.control.getTask(task.platform_task_id ?? "")?.status);
    const me = (await (await t.request("/api/me", { session: user.session })).json()) as {
      grant: { status: string };
    };
    expect(me.grant.status).toBe("active");
  });
});
