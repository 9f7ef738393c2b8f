import { describe, expect, it } from "vitest";
import { refusal, task } from "../../testing/fixtures.ts";
import { currentRefusals, refusalFor, refusalSentence } from "./refusals.ts";

describe("which refusals concern a task", () => {
  const account = [refusal({ id: 2, task_id: "other" })];

  it("shows a task its own refusal", () => {
    const own = refusal({ id: 3, task_id: "t1" });
    expect(refusalFor(task({ status: "success" }), [own, ...account])).toBe(own);
  });

  it("warns an active task that waits for callbacks in a refused account", () => {
    expect(refusalFor(task({ status: "in_progress", webhook_expected: true }), account)?.id).toBe(
      2,
    );
  });

  it("leaves alone a task that expects no callbacks", () => {
    expect(refusalFor(task({ status: "in_progress", webhook_expected: false }), account)).toBe(
      undefined,
    );
  });

  it("leaves alone a finished task with no refusal of its own", () => {
    expect(refusalFor(task({ status: "success", webhook_expected: true }), account)).toBe(
      undefined,
    );
  });
});

describe("current refusals of an account", () => {
  const secret = { configured: true, updated_at: "2025-01-01T10:00:00.000Z" };

  it("drops refusals of other accounts and from before the secret was saved", () => {
    const kept = refusal({ id: 3, received_at: "2025-01-01T10:01:00.000Z" });
    const list = [
      kept,
      refusal({ id: 2, namespace: "acme", received_at: "2025-01-01T10:01:00.000Z" }),
      refusal({ id: 1, received_at: "2025-01-01T09:59:00.000Z" }),
    ];
    expect(currentRefusals(list, "demo", secret)).toEqual([kept]);
  });

  it("has none without a secret", () => {
    expect(currentRefusals([refusal()], "demo", { configured: false, updated_at: null })).toEqual(
      [],
    );
  });
});

describe("refusals in words", () => {
  it("sends the person to Settings only when the secret is the cause", () => {
    expect(refusalSentence(refusal({ reason: "WEBHOOK_TIMESTAMP_OUT_OF_RANGE" }))).toBe(
      "Callbacks for this account are being refused: the callbacks' timestamps are too far from the backend's clock; check the server's time. Progress is followed by polling meanwhile.",
    );
  });

  it("falls back to the backend's words for a reason it does not know", () => {
    expect(refusalSentence(refusal({ reason: "something_new", message: "new reason" }))).toBe(
      "Callbacks for this account are being refused: new reason. Progress is followed by polling meanwhile.",
    );
  });
});
