import { describe, expect, it } from "vitest";
import {
  callbackEventSchema,
  submitResponseSchema,
  taskErrorMessage,
  taskResultUrl,
  signedLinkExpiresAt,
  taskOutputSchema,
  taskSchema,
  usageInfoSchema,
} from "./index.ts";

describe("usageInfoSchema (spec 2.6)", () => {
  it("parses the usage fields of the spec", () => {
    const usage = {
      unit: "second",
      quantity: 60,
      prompt_tokens: 12,
      completion_tokens: 0,
      resolution: null,
    };
    expect(usageInfoSchema.parse(usage)).toEqual(usage);
  });

  it("accepts an empty object", () => {
    expect(usageInfoSchema.parse({})).toEqual({});
  });

  it("accepts null", () => {
    expect(usageInfoSchema.parse(null)).toBeNull();
  });

  it("reads an empty string (the spec's 'may be empty') as null", () => {
    expect(usageInfoSchema.parse("")).toBeNull();
  });

  it("reads a quantity given as a numeric string as a number", () => {
    expect(usageInfoSchema.parse({ quantity: "60.5" })).toEqual({ quantity: 60.5 });
  });
});

describe("taskOutputSchema (spec 2.6)", () => {
  it("parses the music result address", () => {
    expect(taskOutputSchema.parse({ file_url: "https://cdn.test/a.mp3" })).toEqual({
      file_url: "https://cdn.test/a.mp3",
    });
  });

  it("accepts error as a string", () => {
    expect(taskOutputSchema.parse({ error: "GPU out of memory" }).error).toBe("GPU out of memory");
  });

  it("accepts error as an object with code and message", () => {
    expect(taskOutputSchema.parse({ error: { code: "nsfw", message: "Blocked" } }).error).toEqual({
      code: "nsfw",
      message: "Blocked",
    });
  });

  it("keeps result fields beyond file_url", () => {
    expect(taskOutputSchema.parse({ file_url: "u", duration: 61.2 })).toMatchObject({
      duration: 61.2,
    });
  });
});

describe("submitResponseSchema (spec 4.6)", () => {
  it("parses task_id and urls.get", () => {
    const body = { task_id: "t1", urls: { get: "http://api.test/api/v1/task/t1" } };
    expect(submitResponseSchema.parse(body)).toEqual(body);
  });

  it("keeps urls.cancel and other fields", () => {
    const body = { task_id: "t1", urls: { get: "g", cancel: "c" }, status: "waiting" };
    expect(submitResponseSchema.parse(body)).toEqual(body);
  });

  it("rejects a response without task_id", () => {
    expect(submitResponseSchema.safeParse({ urls: { get: "g" } }).success).toBe(false);
  });
});

describe("taskSchema (spec 2.6, 4.7)", () => {
  const real = {
    task_id: "t1",
    status: "success",
    created_at: 1_700_000_000_000,
    started_at: 1_700_000_001_000,
    completed_at: 1_700_000_061_000,
    urls: {
      get: "http://api.test/api/v1/task/t1",
      cancel: "http://api.test/api/v1/task/t1/cancel",
    },
    output: { file_url: "https://cdn.test/t1.mp3", format: "mp3" },
    usage_info: { unit: "second", quantity: 60 },
    params: { prompt: "lofi" },
  };

  it("parses a richer real-world task body and keeps every field", () => {
    expect(taskSchema.parse(real)).toEqual(real);
  });

  it("parses a body with only a status", () => {
    expect(taskSchema.parse({ status: "waiting" })).toEqual({ status: "waiting" });
  });

  it("keeps an unknown status instead of rejecting it", () => {
    expect(taskSchema.parse({ ...real, status: "paused" }).status).toBe("paused");
  });

  it("accepts null output and started_at while the task waits", () => {
    expect(
      taskSchema.parse({ task_id: "t1", status: "waiting", output: null, started_at: null }),
    ).toMatchObject({ output: null, started_at: null });
  });

  it("accepts an empty usage_info", () => {
    expect(taskSchema.parse({ status: "success", usage_info: {} }).usage_info).toEqual({});
  });

  it("accepts a failure with output.error as an object", () => {
    const failed = { status: "failure", output: { error: { code: "E1", message: "boom" } } };
    expect(taskSchema.parse(failed)).toEqual(failed);
  });

  it("reads timestamps given as numeric strings as numbers", () => {
    expect(taskSchema.parse({ status: "success", completed_at: "1700000061000" })).toEqual({
      status: "success",
      completed_at: 1_700_000_061_000,
    });
  });

  it("reads timestamps given in seconds (10 digits) as ms, as some endpoint may send them", () => {
    const inSeconds = { ...real, created_at: 1_700_000_000, completed_at: "1700000061" };
    expect(taskSchema.parse(inSeconds)).toMatchObject({
      created_at: 1_700_000_000_000,
      started_at: 1_700_000_001_000,
      completed_at: 1_700_000_061_000,
    });
  });

  it("parses the live task record: ids of 32 characters, status failure, price and currency", () => {
    const live = {
      task_id: "SBOMLX0YXU8SVJQXY6CNWVJ7OJAND5TK",
      status: "failure",
      created_at: 1_787_474_128_023,
      started_at: 1_787_474_129_000,
      completed_at: 1_787_474_190_000,
      output: { error: { code: 500, message: "Service Temporarily Unavailable" } },
      urls: {
        get: "https://ai.gitee.com/api/v1/task/SBOMLX0YXU8SVJQXY6CNWVJ7OJAND5TK",
        cancel: "https://ai.gitee.com/api/v1/task/SBOMLX0YXU8SVJQXY6CNWVJ7OJAND5TK/cancel",
      },
      price: 0.12,
      currency: "CNY",
      usage_info: null,
    };
    expect(taskSchema.parse(live)).toEqual(live);
    expect(taskErrorMessage(taskSchema.parse(live))).toBe("Service Temporarily Unavailable (500)");
  });

  it("rejects a body without status", () => {
    expect(taskSchema.safeParse({ task_id: "t1" }).success).toBe(false);
  });

  it("rejects a status that is not a string", () => {
    expect(taskSchema.safeParse({ status: 2 }).success).toBe(false);
  });
});

describe("callbackEventSchema (spec 2.7)", () => {
  const event = {
    event_id: "e1",
    task_id: "t1",
    status: "success",
    output: { file_url: "u" },
    usage_info: {},
  };

  it("parses the callback body of the spec", () => {
    expect(callbackEventSchema.parse(event)).toEqual(event);
  });

  it("keeps fields the spec does not list", () => {
    expect(callbackEventSchema.parse({ ...event, completed_at: 1 })).toMatchObject({
      completed_at: 1,
    });
  });

  it("parses the platform's documented callback example, with usage_info null as well", () => {
    const documented = {
      event_id: "7f2a278fad9c4300b4f114aaf30b84b6",
      task_id: "SBOMLX0YXU8SVJQXY6CNWVJ7OJAND5TK",
      status: "success",
      output: { file_url: "https://cdn.test/a.wav?X-Amz-Expires=604800" },
      usage_info: {
        unit: "seconds",
        quantity: 6,
        prompt_tokens: 0,
        completion_tokens: 0,
        resolution: null,
      },
    };
    expect(callbackEventSchema.parse(documented)).toEqual(documented);
    const withoutUsage = { ...documented, usage_info: null };
    expect(callbackEventSchema.parse(withoutUsage)).toEqual(withoutUsage);
  });

  it("rejects an event without event_id", () => {
    const { event_id: _, ...rest } = event;
    expect(callbackEventSchema.safeParse(rest).success).toBe(false);
  });
});

describe("taskErrorMessage", () => {
  it("returns output.error given as a string", () => {
    expect(taskErrorMessage({ output: { error: "out of memory" } })).toBe("out of memory");
  });

  it("returns message and code of output.error given as an object", () => {
    expect(taskErrorMessage({ output: { error: { code: "nsfw", message: "Blocked" } } })).toBe(
      "Blocked (nsfw)",
    );
  });

  it("returns the code alone when the error object has no message", () => {
    expect(taskErrorMessage({ output: { error: { code: 500 } } })).toBe("500");
  });

  it("falls back to the task's top-level error", () => {
    expect(taskErrorMessage({ output: {}, error: "timeout" })).toBe("timeout");
  });

  it("reads a top-level string error with a message as a code and its text (the official samples' pair)", () => {
    const failed = { output: {}, error: "QUOTA_EXCEEDED", message: "Quota used up" };
    expect(taskErrorMessage(failed)).toBe("Quota used up (QUOTA_EXCEEDED)");
  });

  it("returns undefined when the task carries no error", () => {
    expect(taskErrorMessage({ output: { file_url: "u" } })).toBeUndefined();
  });

  it("ignores a blank error string", () => {
    expect(taskErrorMessage({ output: { error: "  " } })).toBeUndefined();
  });

  it("falls back to the task's top-level message, as some live failures carry it", () => {
    expect(taskErrorMessage({ output: {}, message: "Service Temporarily Unavailable" })).toBe(
      "Service Temporarily Unavailable",
    );
    expect(taskErrorMessage({ output: { error: "oom" }, message: "other" })).toBe("oom");
  });
});

describe("taskResultUrl", () => {
  it("returns output.file_url", () => {
    expect(taskResultUrl({ output: { file_url: "https://f/a.wav" } })).toBe("https://f/a.wav");
  });

  it("returns output.url when the output names the link that way (seen live)", () => {
    expect(taskResultUrl({ output: { url: "https://f/b.wav" } })).toBe("https://f/b.wav");
  });

  it("prefers file_url when both are present", () => {
    expect(taskResultUrl({ output: { file_url: "https://f/a", url: "https://f/b" } })).toBe(
      "https://f/a",
    );
  });

  it("returns undefined without a link, for a blank one, a non-string or no output", () => {
    expect(taskResultUrl({ output: {} })).toBeUndefined();
    expect(taskResultUrl({ output: { file_url: " ", url: 7 } })).toBeUndefined();
    expect(taskResultUrl({ output: null })).toBeUndefined();
  });

  it("keeps output.url through the task schema", () => {
    const task = taskSchema.parse({ status: "success", output: { url: "https://f/b.wav" } });
    expect(taskResultUrl(task)).toBe("https://f/b.wav");
  });
});

describe("signedLinkExpiresAt", () => {
  const link = (query: string) => `https://s3.example/out/a.wav?${query}`;
  const signed =
    "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T120000Z&X-Amz-Expires=604800";

  it("adds X-Amz-Expires seconds to X-Amz-Date", () => {
    expect(signedLinkExpiresAt(link(signed))).toBe(Date.UTC(2026, 0, 8, 12));
  });

  it("reads the X-Goog- pair the same way", () => {
    expect(signedLinkExpiresAt(link("X-Goog-Date=20260101T120000Z&X-Goog-Expires=3600"))).toBe(
      Date.UTC(2026, 0, 1, 13),
    );
  });

  it("returns undefined for a link that is not pre-signed, or signed without a usable pair", () => {
    expect(signedLinkExpiresAt("https://f.example/a.wav")).toBeUndefined();
    expect(signedLinkExpiresAt(link("X-Amz-Expires=604800"))).toBeUndefined();
    expect(signedLinkExpiresAt(link("X-Amz-Date=2026-01-01&X-Amz-Expires=60"))).toBeUndefined();
    expect(
      signedLinkExpiresAt(link("X-Amz-Date=20260101T120000Z&X-Amz-Expires=-5")),
    ).toBeUndefined();
    expect(signedLinkExpiresAt("not a url")).toBeUndefined();
  });
});
