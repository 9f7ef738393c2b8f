import { describe, expect, it } from "vitest";
import { parseCallbackEvent } from "./event.ts";

const base = { event_id: "e1", task_id: "t1" };
const LINK = "https://files.example/t1.wav?X-Amz-Expires=604800";

describe("parseCallbackEvent", () => {
  it("reads a success with its result link in output.file_url", () => {
    const read = parseCallbackEvent({ ...base, status: "success", output: { file_url: LINK } });
    expect(read).toEqual({
      ok: true,
      event: { ...base, status: "success", output: { file_url: LINK } },
    });
  });

  it("puts a success's output.url into output.file_url and keeps url as sent (live outputs)", () => {
    const read = parseCallbackEvent({ ...base, status: "success", output: { url: LINK } });
    expect(read).toEqual({
      ok: true,
      event: { ...base, status: "success", output: { url: LINK, file_url: LINK } },
    });
  });

  it("refuses a success without a result link, saying where it belongs", () => {
    const read = parseCallbackEvent({ ...base, status: "success", output: { title: "x" } });
    expect(read).toMatchObject({ ok: false, code: "WEBHOOK_EVENT_INVALID" });
    expect(!read.ok && read.message).toContain("output.file_url or output.url");
  });

  it("refuses a success with no output at all", () => {
    expect(parseCallbackEvent({ ...base, status: "success" })).toMatchObject({ ok: false });
  });

  it("reads a failure with its error as sent: an object, a string, a top-level message", () => {
    const shapes = [
      { output: { error: { code: 500, message: "Service Temporarily Unavailable" } } },
      { output: { error: "nsfw" } },
      { message: "Blocked" },
    ];
    for (const shape of shapes) {
      expect(parseCallbackEvent({ ...base, status: "failure", ...shape })).toEqual({
        ok: true,
        event: { ...base, status: "failure", ...shape },
      });
    }
  });

  it("reads waiting, in_progress and cancelled without an output", () => {
    for (const status of ["waiting", "in_progress", "cancelled"]) {
      expect(parseCallbackEvent({ ...base, status })).toEqual({
        ok: true,
        event: { ...base, status },
      });
    }
  });

  it("hands back a status the spec does not list as unknownStatus, never as a typed event", () => {
    expect(parseCallbackEvent({ ...base, status: "failed" })).toEqual({
      ok: true,
      unknownStatus: { ...base, status: "failed" },
    });
  });

  it("refuses a body without an event_id, naming it", () => {
    const read = parseCallbackEvent({ task_id: "t1", status: "waiting" });
    expect(read).toMatchObject({ ok: false, code: "WEBHOOK_EVENT_INVALID" });
    expect(!read.ok && read.message).toContain("event_id");
  });

  it("reads an empty usage_info (spec 2.6, 2.7: object or empty) as null, and numeric strings as numbers", () => {
    const output = { file_url: LINK };
    const read0 = parseCallbackEvent({ ...base, status: "success", output, usage_info: "" });
    expect(read0).toEqual({
      ok: true,
      event: { ...base, status: "success", output, usage_info: null },
    });
    const numeric = { unit: "seconds", quantity: "6", prompt_tokens: "0" };
    const read = parseCallbackEvent({ ...base, status: "failure", usage_info: numeric });
    expect(read.ok && "event" in read && read.event.usage_info).toEqual({
      unit: "seconds",
      quantity: 6,
      prompt_tokens: 0,
    });
  });

  it("refuses a usage_info field of the wrong type, naming the field", () => {
    const usage_info = { quantity: "a lot" };
    const read = parseCallbackEvent({ ...base, status: "waiting", usage_info });
    expect(!read.ok && read.message).toContain("check usage_info.quantity");
  });

  it("keeps fields it does not know", () => {
    const read = parseCallbackEvent({ ...base, status: "waiting", queue_position: 3 });
    expect(read.ok && "event" in read && read.event).toMatchObject({ queue_position: 3 });
  });
});
