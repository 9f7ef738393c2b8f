import { balanceSchema } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import { bearer, DEMO_TOKEN, json, LAB_TOKEN, manualEmulator } from "../helpers/emulator.ts";
import { getTask, submitId } from "../helpers/tasks.ts";

type Emulator = ReturnType<typeof manualEmulator>;
const balance = async (emu: Emulator, token = DEMO_TOKEN) =>
  json(await emu.app.request("/v1/tokens/packages/balance", { headers: bearer(token) }));
/** Demo speed: a task waits 1 s and runs 3–6 s of the emulator clock. */
const finish = (emu: Emulator) => emu.control.clock.advance(10_000);

describe("routes the live platform serves beyond the spec (docs/platform-facts.md)", () => {
  it("balance: a new account has its whole credit, in the live shape", async () => {
    const body = await balance(manualEmulator());
    expect(balanceSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ total_amount: 100, used_amount: 0, balance: 100 });
    expect(body.details).toEqual([
      { ident: "serverless-api", name: "Serverless API", amount: 100, balance: 100 },
    ]);
  });

  it("balance: a finished task uses its price (0.01 CNY per requested second)", async () => {
    const emu = manualEmulator();
    await submitId(emu, { prompt: "rain", duration: "30" });
    await finish(emu);
    expect(await balance(emu)).toMatchObject({ used_amount: 0.3, balance: 99.7 });
  });

  it("balance: a cancelled task costs nothing, and each account sees its own", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu, { prompt: "rain", duration: "30" });
    await emu.app.request(`/v1/task/${id}/cancel`, { method: "POST", headers: bearer(DEMO_TOKEN) });
    await submitId(emu, { prompt: "snow", duration: "60" }, { token: LAB_TOKEN });
    await finish(emu);
    expect(await balance(emu)).toMatchObject({ used_amount: 0, balance: 100 });
    expect(await balance(emu, LAB_TOKEN)).toMatchObject({ used_amount: 0.6, balance: 99.4 });
  });

  it("balance: the live profile charges the price its task records show", async () => {
    const emu = manualEmulator({ profile: "live" });
    const id = await submitId(emu, { prompt: "rain", duration: "45" });
    await finish(emu);
    const task = await getTask(emu, id);
    expect(task.status).toBe("success");
    expect(await balance(emu)).toMatchObject({ used_amount: task.price });
  });

  it("balance: refuses a missing token with 401", async () => {
    const res = await manualEmulator().app.request("/v1/tokens/packages/balance");
    expect(res.status).toBe(401);
  });

  it("GET /v1/task/{id}/get answers the task record, as GET /v1/task/{id} does", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    const get = (path: string) => emu.app.request(path, { headers: bearer(DEMO_TOKEN) });
    const record = await json(await get(`/v1/task/${id}`));
    expect(await json(await get(`/v1/task/${id}/get`))).toEqual(record);
    expect(record).toMatchObject({ task_id: id, parameters: { prompt: "calm piano" } });
  });

  it("POST /v1/task/{id}/cancel cancels, as POST /api/v1/task/{id}/cancel does", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    const res = await emu.app.request(`/v1/task/${id}/cancel`, {
      method: "POST",
      headers: bearer(DEMO_TOKEN),
    });
    expect(res.status).toBe(200);
    expect((await getTask(emu, id)).status).toBe("cancelled");
  });

  it("the relay routes find a task only for tokens of its account (404 otherwise)", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    const other = { headers: bearer(LAB_TOKEN) };
    expect((await emu.app.request(`/v1/task/${id}/get`, other)).status).toBe(404);
    const cancel = await emu.app.request(`/v1/task/${id}/cancel`, { method: "POST", ...other });
    expect(cancel.status).toBe(404);
    expect((await getTask(emu, id)).status).toBe("waiting");
  });
});
