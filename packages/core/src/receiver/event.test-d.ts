// Type tests (vitest's typecheck, under core's tsconfig: strict and exactOptionalPropertyTypes):
// they fail when a receiver's event stops narrowing on `status`.
import { describe, expectTypeOf, it } from "vitest";
import type { TaskError, TaskOutput } from "../schemas/index.ts";
import {
  type WebhookVerificationError,
  constructCallbackEvent,
  createWebhookHandler,
  type CallbackEvent,
  type CallbackEventOf,
  type FailureEvent,
  type SuccessEvent,
} from "./index.ts";
import { createWebhookMiddleware } from "./node.ts";

declare const event: CallbackEvent;

describe("CallbackEvent", () => {
  it("narrows to SuccessEvent on status, whose result link is a string", () => {
    if (event.status === "success") {
      expectTypeOf(event).toEqualTypeOf<SuccessEvent>();
      expectTypeOf(event.output.file_url).toEqualTypeOf<string>();
    }
  });

  it("narrows to FailureEvent, which carries the error as the platform sends it", () => {
    if (event.status === "failure") {
      expectTypeOf(event).toEqualTypeOf<FailureEvent>();
      expectTypeOf(event.output).toEqualTypeOf<TaskOutput | null | undefined>();
      expectTypeOf(event.message).toEqualTypeOf<string | null | undefined>();
      expectTypeOf(event.error).toEqualTypeOf<TaskError | null | undefined>();
    }
  });

  it("narrows in a switch, each case to its status", () => {
    switch (event.status) {
      case "waiting":
      case "in_progress":
      case "cancelled":
        expectTypeOf(event.status).toEqualTypeOf<"waiting" | "in_progress" | "cancelled">();
        break;
      case "success":
        expectTypeOf(event.output.file_url).toBeString();
        break;
      case "failure":
        expectTypeOf(event).toEqualTypeOf<CallbackEventOf<"failure">>();
        break;
      default:
        expectTypeOf(event).toBeNever();
    }
  });

  it("does not give the result link as a string before narrowing", () => {
    // @ts-expect-error: before the status is checked, output may be absent or without a link
    const link: string = event.output?.file_url;
    expectTypeOf(link).toBeString();
  });

  it("refuses the status 'failed', which the platform never sends (its word is failure)", () => {
    // @ts-expect-error: no overlap between the five statuses and "failed"
    expectTypeOf(event.status === "failed").toBeBoolean();
  });
});

describe("receivers", () => {
  it("give one onEvent the union", () => {
    createWebhookHandler({
      secrets: "s",
      onEvent: (received) => {
        expectTypeOf(received).toEqualTypeOf<CallbackEvent>();
      },
    });
  });

  it("give each status's handler its narrowed event", () => {
    createWebhookMiddleware({
      secrets: process.env.WEBHOOK_SECRET,
      onEvent: {
        success(received) {
          expectTypeOf(received.output.file_url).toEqualTypeOf<string>();
        },
        failure(received) {
          expectTypeOf(received).toEqualTypeOf<FailureEvent>();
        },
      },
    });
  });

  it("refuse a handler for a status spec 2.7 does not have", () => {
    createWebhookHandler({
      secrets: "s",
      // @ts-expect-error: "succes" is not a status
      onEvent: { succes: () => undefined },
    });
  });
});

describe("constructCallbackEvent", () => {
  it("returns the narrowing union and throws an error with a code", async () => {
    const body = new Uint8Array();
    const constructed = await constructCallbackEvent({ body, url: "", headers: {}, secrets: "s" });
    expectTypeOf(constructed).toEqualTypeOf<CallbackEvent>();
    expectTypeOf<WebhookVerificationError["code"]>().toBeString();
    expectTypeOf<WebhookVerificationError["status"]>().toBeNumber();
  });
});
