import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Task as TaskJson } from "../../src/schemas/task.ts";
import { describePg } from "../support/drivers.ts";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/harness.ts";
import {
  deliveriesPending,
  platformFinished,
  printLedger,
  readLedger,
  expectBalanced,
} from "../support/ledger.ts";
import { SPREAD_TIMING, waitFor } from "../support/live.ts";
import { selectRows } from "../support/sql.ts";
import { collectTaskIds } from "../support/sse.ts";
import { setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const HOUR = 3_600_000;
const TASKS_PER_USER = 12;

/**
 * N backend instances on one Postgres database, each with its own connection pool and LISTEN
 * connection, behind a "load balancer": requests, webhook deliveries (every one duplicated, so
 * copies race on different instances) and reconciler rounds are spread over all of them at once.
 * The emulator refuses a reused refresh token by revoking the grant, so a double refresh fails
 * loudly.
 */
for (const count of [2, 3]) {
  describePg(`${count} backend instances on one Postgres under concurrent load`, () => {
    let t: TestBackend;
    let instances: TestInstance[];
    let users: (TaskUser & { login: string })[];
    beforeAll(async () => {
      t = await startTestBackend({
        driver: "pg",
        balanceWebhooks: true,
        emulator: { timing: SPREAD_TIMING, refreshTokenRotation: "rotate-detect-reuse" },
      });
      instances = [t];
      while (instances.length < count) instances.push(await t.openSecondInstance());
      const demo = await setUpTaskUser(t, { webhookSecret: true });
      const ada = await setUpTaskUser(t, {
        login: "ada",
        namespace: "overture-lab",
        webhookSecret: true,
      });
      users = [
        { ...demo, login: "demo" },
        { ...ada, login: "ada" },
      ];
      for (const user of users) t.emu.control.setQuota(user.namespace, 1_000);
    });
    afterAll(() => t.close());

    const at = (i: number) => instances[i % instances.length] ?? t;
    const eventIds = async (userId: number, after: number) =>
      (
        await selectRows<{ id: string }>(
          t.database.db,
          sql`select id::text from task_events where user_id = ${userId} and id > ${after} order by task_events.id`,
        )
      ).map((r) => Number(r.id));

    it("stores each event once and sends each live client each of its events once", async () => {
      // One live stream per user on every instance.
      const streams = await Promise.all(
        instances.flatMap((instance) =>
          users.map(async (user) => ({
            user,
            stream: collectTaskIds(
              await instance.request("/api/events", { session: user.session }),
            ),
          })),
        ),
      );
      await waitFor(
        "every stream to be ready",
        () => streams.every((s) => s.stream.readyId !== undefined),
        5_000,
        10,
      );

      t.emu.control.faults.webhooks = { duplicate: true };
      const created: TaskJson[] = (
        await Promise.all(
          Array.from({ length: TASKS_PER_USER * users.length }, async (_, i) => {
            const user = users[i % users.length] ?? users[0];
            const response = await at(i).request("/api/tasks", {
              method: "POST",
              session: user?.session ?? "",
              body: JSON.stringify({ prompt: `instances ${i}`, duration: 30 }),
            });
            expect(response.status).toBe(201);
            return (await response.json()) as TaskJson;
          }),
        )
      ).flat();
      // A create answers once its own instance's drain is done; another instance's drain may
      // have claimed the row and submitted it, so the platform ids are read afterwards.
      const rows = await selectRows<{ id: string; platform_task_id: string | null }>(
        t.database.db,
        sql`select id::text, platform_task_id from tasks where id in ${created.map((c) => c.id)}`,
      );
      const platformIds = rows.map((row) => row.platform_task_id ?? "");
      expect(platformIds.every((id) => id.startsWith("task_"))).toBe(true);
      expect(new Set(platformIds).size).toBe(created.length);
      expect(
        t.emu.control.listTasks().filter((task) => platformIds.includes(task.task_id)),
      ).toHaveLength(created.length);

      for (let round = 0; ; round += 1) {
        expect(round, "tasks did not settle").toBeLessThan(60);
        if (
          platformFinished(t.emu.control, platformIds) &&
          deliveriesPending(t.emu.control, platformIds) === 0
        )
          break;
        await t.emu.control.clock.advance(5_000);
        await Promise.all(instances.map((i) => i.backend.deps.services.reconciler.runOnce()));
      }
      t.emu.control.faults.webhooks = {};

      const ledger = await readLedger(t.emu.control, t.database.db, platformIds);
      printLedger(`${count} instances`, ledger, { tasks: created.length });
      expectBalanced(ledger);
      expect(ledger.answers["200"] ?? 0).toBe(2 * ledger.sent);
      for (const task of created) {
        const [row] = await selectRows<{ status: string }>(
          t.database.db,
          sql`select status from tasks where id = ${task.id}`,
        );
        const platformId = rows.find((r) => r.id === task.id)?.platform_task_id ?? "";
        expect(row?.status).toBe(t.emu.control.getTask(platformId)?.status);
      }

      for (const { user, stream } of streams) {
        const expected = await eventIds(user.userId, stream.readyId ?? 0);
        await waitFor(
          `the ${user.login} stream to receive every event`,
          () => stream.ids.length >= expected.length,
          10_000,
          20,
        );
        await stream.close();
        expect(stream.ids).toEqual(expected);
      }
      console.log(
        `[sse] ${count} instances: ${streams.length} streams, ${streams.reduce((n, s) => n + s.stream.ids.length, 0)} frames, each event once per stream`,
      );
    });

    it("refreshes each grant once and mints each proxy token once per expiry, whichever instance asks", async () => {
      const refreshes = () => t.platformCalls.filter((c) => c.grantType === "refresh_token").length;
      const mints = (path: string) => t.platformCalls.filter((c) => c.path === path).length;
      const mintPaths = ["/api/open/v1/demo/tokens/101", "/api/open/v1/overture-lab/tokens/201"];
      for (let expiry = 1; expiry <= 2; expiry += 1) {
        // Past both lifetimes: the OAuth access token (7200 s) and the proxy tokens (1800 s).
        await t.emu.control.clock.advance(2 * HOUR);
        const beforeRefreshes = refreshes();
        const beforeMints = mintPaths.map(mints);
        const responses = await Promise.all(
          Array.from({ length: 8 * instances.length }, (_, i) =>
            at(i).request(
              i % 2 === 0
                ? "/api/quota"
                : `/api/namespaces/${users[(i >> 1) % 2]?.namespace ?? ""}/tokens`,
              {
                session: users[(i >> 1) % 2]?.session ?? "",
              },
            ),
          ),
        );
        expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
        console.log(
          `[credentials] ${count} instances, expiry ${expiry}: ${responses.length} concurrent calls, ${refreshes() - beforeRefreshes} refreshes, ${mintPaths.map((p, i) => mints(p) - (beforeMints[i] ?? 0)).join("+")} mints`,
        );
        expect(refreshes()).toBe(beforeRefreshes + users.length);
        expect(mintPaths.map(mints)).toEqual(beforeMints.map((n) => n + 1));
      }
    });
  });
}
