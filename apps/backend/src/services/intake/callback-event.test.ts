import { callbackEventSchema } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import { readCallbackEvent } from "./callback-event.ts";

const event = {
  event_id: "evt_1",
  task_id: "ptask_1",
  status: "success",
  output: { file_url: "https://cdn.test/a.mp3", duration: 60, params: { prompt: "lofi" } },
  usage_info: { unit: "second", quantity: 60, prompt_tokens: 0, completion_tokens: 0 },
  extra: true,
};

/** What the schema makes of `json`, in readCallbackEvent's terms. */
function bySchema(json: unknown) {
  const parsed = callbackEventSchema.safeParse(json);
  return parsed.success
    ? { ok: true, event: parsed.data }
    : { ok: false, fields: parsed.error.issues.map((i) => i.path.join(".") || "body").join(", ") };
}

describe("readCallbackEvent", () => {
  it("reads a plain event as the schema does, unknown fields kept", () => {
    expect(readCallbackEvent(event)).toEqual({ ok: true, event });
    expect(readCallbackEvent(event)).toEqual(bySchema(event));
  });

  it("reads an event without output and usage as the schema does", () => {
    const bare = { event_id: "e", task_id: "t", status: "in_progress" };
    expect(readCallbackEvent(bare)).toEqual(bySchema(bare));
    const nulls = { ...bare, output: null, usage_info: null };
    expect(readCallbackEvent(nulls)).toEqual(bySchema(nulls));
  });

  it("converts a quantity given as a numeric string, as the schema does", () => {
    const stringy = { ...event, usage_info: { quantity: "60.5" } };
    expect(readCallbackEvent(stringy)).toEqual({
      ok: true,
      event: { ...event, usage_info: { quantity: 60.5 } },
    });
  });

  it("reads an error object in the output as the schema does", () => {
    const failed = {
      ...event,
      status: "failed",
      output: { error: { code: "nsfw", message: "no" } },
    };
    expect(readCallbackEvent(failed)).toEqual(bySchema(failed));
    expect(readCallbackEvent(failed).ok).toBe(true);
  });

  it.each([
    ["an empty event_id", { ...event, event_id: "" }, "event_id"],
    ["a missing task_id", { ...event, task_id: undefined }, "task_id"],
    ["a numeric status", { ...event, status: 2 }, "status"],
    ["an output that is a string", { ...event, output: "done" }, "output"],
    ["a file_url that is a number", { ...event, output: { file_url: 1 } }, "output.file_url"],
    [
      "a quantity that is not a number",
      { ...event, usage_info: { quantity: "a lot" } },
      "usage_info.quantity",
    ],
    ["a unit that is a number", { ...event, usage_info: { unit: 1 } }, "usage_info.unit"],
    ["an array", [event], "body"],
    ["null", null, "body"],
  ])("refuses %s, naming the field as the schema does", (_, json, field) => {
    const read = readCallbackEvent(json);
    expect(read).toEqual(bySchema(json));
    expect(read).toMatchObject({ ok: false, fields: expect.stringContaining(field) as string });
  });
});
