import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../../../test/support/drivers.ts";
import { startTestBackend, type TestBackend } from "../../../test/support/harness.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../../../test/support/tasks.ts";
import type { TaskDetails } from "../../schemas/library.ts";

describeEachDriver("a task's details when the cost is only in its output", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t);
  });
  afterAll(() => t.close());

  /** The details of a task whose record carried no price and whose output carries `output`. */
  async function detailsWithOutput(output: Record<string, unknown>): Promise<TaskDetails> {
    const task = await createTask(t, user.session);
    await t.database.db.execute(
      sql`update tasks set price = null, output = ${JSON.stringify(output)}::jsonb where id = ${task.id}`,
    );
    const response = await t.request(`/api/tasks/${task.id}/details`, { session: user.session });
    expect(response.status).toBe(200);
    return (await response.json()) as TaskDetails;
  }

  it("shows the price and currency of the output", async () => {
    const details = await detailsWithOutput({ price: 0.12, currency: "CNY" });
    expect(details).toMatchObject({ price: 0.12, currency: "CNY" });
  });

  it("shows a price the output gives as a decimal string as its number", async () => {
    const details = await detailsWithOutput({ price: "0.12", currency: "CNY" });
    expect(details).toMatchObject({ price: 0.12, currency: "CNY" });
  });

  it("shows no price, nor currency, when the output's price string is not a number", async () => {
    const details = await detailsWithOutput({ price: "abc", currency: "CNY" });
    expect(details).toMatchObject({ price: null, currency: null });
  });
});
