import { describe, expect, it } from "vitest";
import { OvertureError } from "./errors.ts";
import { type Handlers, MESSAGE_TYPES, isEnvelope, send, serveMessages } from "./messages.ts";
import { EMPTY_SNAPSHOT } from "./snapshot.ts";
import { triggerMessage } from "../../testing/setup.ts";

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const unused = () => Promise.reject(new Error("not used in this test"));
  const all = Object.fromEntries(
    MESSAGE_TYPES.map((type) => [type, unused]),
  ) as unknown as Handlers;
  return { ...all, ...overrides };
}

describe("message map", () => {
  it("delivers a typed request to its handler and returns the handler's answer", async () => {
    serveMessages(
      handlers({
        "tokens/list": ({ namespace }) =>
          Promise.resolve([{ id: 7, name: namespace, usage_scenario: "paid" }]),
      }),
    );
    await expect(send("tokens/list", { namespace: "overture-lab" })).resolves.toEqual([
      { id: 7, name: "overture-lab", usage_scenario: "paid" },
    ]);
  });

  it("sends requests without a payload", async () => {
    serveMessages(handlers({ "state/refresh": () => Promise.resolve(EMPTY_SNAPSHOT) }));
    await expect(send("state/refresh")).resolves.toEqual(EMPTY_SNAPSHOT);
  });

  it("re-throws a handler's failure in the view with its stable code and fields", async () => {
    const fields = [{ field: "duration", code: "range", min: 30, max: 240 }];
    serveMessages(
      handlers({
        "tasks/submit": () =>
          Promise.reject(new OvertureError("invalid_parameters", "refused", { fields })),
      }),
    );
    const failure = await send("tasks/submit", { params: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OvertureError);
    expect(failure).toMatchObject({ code: "invalid_parameters", fields });
  });

  it("reports an unexpected failure as `unexpected` with its message", async () => {
    serveMessages(handlers({ "sessions/list": () => Promise.reject(new Error("boom")) }));
    await expect(send("sessions/list")).rejects.toMatchObject({
      code: "unexpected",
      message: "boom",
    });
  });

  it("leaves messages that are not Overture envelopes to other listeners", async () => {
    serveMessages(handlers());
    const answers = await triggerMessage({ type: "tokens/list" }, () => undefined);
    expect(answers).toEqual([undefined]);
  });

  it("recognises only envelopes of known message types", () => {
    expect(isEnvelope({ overture: 1, type: "tasks/cancel", payload: { id: "t" } })).toBe(true);
    expect(isEnvelope({ overture: 1, type: "tasks/explode", payload: { id: "t" } })).toBe(false);
    expect(isEnvelope({ overture: 2, type: "tasks/cancel", payload: { id: "t" } })).toBe(false);
  });

  it("stops answering after the remover runs", async () => {
    const stop = serveMessages(
      handlers({ "state/refresh": () => Promise.resolve(EMPTY_SNAPSHOT) }),
    );
    stop();
    const envelope = { overture: 1, type: "state/refresh", payload: undefined };
    expect(await triggerMessage(envelope, () => undefined)).toEqual([]);
  });
});
