import { describe, expect, it } from "vitest";
import { closedPortUrl, startReceiver, type Reply } from "../helpers/receiver.ts";
import { submitId } from "../helpers/tasks.ts";
import { webhookEmulator } from "../helpers/webhooks.ts";

/** Delivers one event to a real 127.0.0.1 receiver and returns the first attempt's log. */
async function firstAttempt(reply: Reply | undefined, timeoutMs = 10_000) {
  const receiver = reply === undefined ? undefined : await startReceiver(() => reply);
  const url = receiver?.url ?? (await closedPortUrl());
  try {
    const { emu } = webhookEmulator({
      fetch: (input, init) => fetch(input, init),
      timing: { waitingMs: 1e9 },
      webhook: { timeoutMs },
    });
    await submitId(emu, undefined, { webhook: `${url}/hook` });
    await emu.control.settle();
    const record = emu.control.listDeliveries()[0];
    return { attempt: record?.attempts[0], record };
  } finally {
    await receiver?.close();
  }
}

describe("delivery logs tell failures apart (spec 6 rules 4–5, 7)", () => {
  it("6 rule 5: a connection refused is logged as a network failure", async () => {
    const { attempt, record } = await firstAttempt(undefined);
    expect(attempt).toMatchObject({ outcome: "network" });
    expect(attempt?.responseStatus).toBeUndefined();
    expect(record?.state).toBe("retry_scheduled");
  });

  it("6 rule 5: a receiver 4xx is logged with its status and a body summary", async () => {
    const { attempt } = await firstAttempt({ status: 401, body: "bad signature" });
    expect(attempt).toMatchObject({
      outcome: "4xx",
      responseStatus: 401,
      bodySummary: "bad signature",
    });
  });

  it("6 rule 5: a receiver 5xx is logged as 5xx", async () => {
    const { attempt } = await firstAttempt({ status: 503, body: "db down" });
    expect(attempt).toMatchObject({ outcome: "5xx", responseStatus: 503, bodySummary: "db down" });
  });

  it("a receiver that does not answer within the per-attempt timeout is logged as a timeout", async () => {
    const { attempt } = await firstAttempt("hang", 150);
    expect(attempt).toMatchObject({ outcome: "timeout" });
    expect(attempt?.error).toContain("150 ms");
  });

  it("a 2xx is logged as success", async () => {
    const { attempt, record } = await firstAttempt({ status: 200, body: "ok" });
    expect(attempt).toMatchObject({ outcome: "success", responseStatus: 200, bodySummary: "ok" });
    expect(record?.state).toBe("succeeded");
  });

  it("6 rule 4: the body summary keeps the first 200 characters", async () => {
    const { attempt } = await firstAttempt({ status: 500, body: "x".repeat(5_000) });
    expect(attempt?.bodySummary).toBe("x".repeat(200));
  });
});
