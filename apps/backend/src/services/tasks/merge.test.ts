import { describe, expect, it } from "vitest";
import {
  costOf,
  FILE_TTL_MS,
  mergeReport,
  type MergeContext,
  type PlatformReport,
} from "./merge.ts";
import type { TaskRow } from "../../db/schema/index.ts";

const NOW = Date.UTC(2030, 0, 1);
const ctx: MergeContext = {
  now: NOW,
  schedule: { expectedDurationMs: 600_000, random: () => 0.5 },
  archive: false,
  fileTtlMs: FILE_TTL_MS,
};

function row(overrides: Partial<TaskRow> = {}): TaskRow {
  const created = new Date(NOW - 30_000);
  return {
    id: "00000000-0000-4000-8000-000000000001",
    userId: 1001,
    namespace: "demo",
    tokenId: 1,
    status: "waiting",
    platformTaskId: "task_1",
    webhookKeyHash: null,
    webhookExpected: true,
    params: {},
    title: "lofi",
    favourite: false,
    deletedAt: null,
    output: null,
    usageInfo: null,
    price: null,
    currency: null,
    error: null,
    unknownStatus: null,
    fileUrl: null,
    fileExpiresAt: null,
    archiveStatus: null,
    archiveError: null,
    archiveAttempts: 0,
    archiveNextAt: null,
    archiveClaim: null,
    cancelRequestedAt: null,
    submitStartedAt: null,
    createdAt: created,
    submittedAt: created,
    finishedAt: null,
    updatedAt: created,
    lastEventAt: null,
    nextPollAt: new Date(NOW + 60_000),
    pollCount: 0,
    pollErrors: 0,
    ...overrides,
  };
}

const report = (status: string, extra: Partial<PlatformReport> = {}): PlatformReport => ({
  taskId: row().id,
  source: "webhook",
  platformTaskId: "task_1",
  status,
  ...extra,
});

function merged(current: TaskRow, incoming: PlatformReport) {
  const result = mergeReport(current, incoming, ctx);
  if (result.kind !== "merged") throw new Error(`expected a merge, got ${result.kind}`);
  return result;
}

describe("mergeReport", () => {
  it("moves a task forward and marks the change", () => {
    const result = merged(row(), report("in_progress"));
    expect(result.row.status).toBe("in_progress");
    expect(result.changed).toBe(true);
    expect(result.becameTerminal).toBe(false);
    expect(result.row.updatedAt.getTime()).toBe(NOW);
  });

  it("keeps success, its output and its finish time when an in_progress report arrives late", () => {
    const done = merged(row(), report("success", { output: { file_url: "https://x/a.wav" } })).row;
    const late = merged(done, report("in_progress", { output: { progress: 50 } }));
    expect(late.row.status).toBe("success");
    expect(late.row.output).toEqual({ file_url: "https://x/a.wav" });
    expect(late.changed).toBe(false);
  });

  it("records the result link with an estimated expiry 24 h after completion", () => {
    const completedAt = NOW - 5_000;
    const result = merged(
      row(),
      report("success", { output: { file_url: "https://x/a.wav" }, completedAt }),
    );
    expect(result.row.fileUrl).toBe("https://x/a.wav");
    expect(result.row.fileExpiresAt?.getTime()).toBe(completedAt + FILE_TTL_MS);
    expect(result.row.finishedAt?.getTime()).toBe(NOW);
    expect(result.row.nextPollAt).toBeNull();
    expect(result.becameTerminal).toBe(true);
  });

  it("records the result link a live output names output.url", () => {
    const result = merged(row(), report("success", { output: { url: "https://x/b.wav" } }));
    expect(result.row.fileUrl).toBe("https://x/b.wav");
    expect(result.row.fileExpiresAt).not.toBeNull();
  });

  it("takes a pre-signed link's expiry from its own query (7 days live), not the 24 h estimate", () => {
    const link =
      "https://x/a.wav?X-Amz-Date=20260101T000000Z&X-Amz-Expires=604800&X-Amz-Signature=ab";
    const result = merged(row(), report("success", { output: { url: link } }));
    expect(result.row.fileExpiresAt?.getTime()).toBe(Date.UTC(2026, 0, 8));
  });

  it("marks a successful result for archiving when archiving is on", () => {
    const result = mergeReport(
      row(),
      report("success", { output: { file_url: "https://x/a.wav" } }),
      { ...ctx, archive: true },
    );
    expect(result.kind === "merged" && result.row.archiveStatus).toBe("pending");
  });

  it("stores an unknown status without applying it", () => {
    const result = merged(row(), report("paused"));
    expect(result.row.status).toBe("waiting");
    expect(result.row.unknownStatus).toBe("paused");
    expect(result.changed).toBe(true);
  });

  it("keeps the failure message of a failed task", () => {
    const result = merged(
      row({ status: "in_progress" }),
      report("failure", { error: "model crashed" }),
    );
    expect(result.row).toMatchObject({ status: "failure", error: "model crashed" });
  });

  it("refuses a report naming another platform task", () => {
    expect(mergeReport(row(), report("success", { platformTaskId: "task_2" }), ctx).kind).toBe(
      "task_mismatch",
    );
  });

  it("adopts the platform id and status of a task whose submit answer was lost", () => {
    const result = merged(
      row({ status: "unknown", platformTaskId: null, error: "maybe" }),
      report("in_progress"),
    );
    expect(result.row).toMatchObject({
      status: "in_progress",
      platformTaskId: "task_1",
      error: null,
    });
  });

  it("never moves a rejected task", () => {
    const result = merged(row({ status: "rejected", platformTaskId: null }), report("success"));
    expect(result.row.status).toBe("rejected");
  });

  it("reports a repeated status as no change", () => {
    expect(merged(row(), report("waiting")).changed).toBe(false);
  });

  it("counts a poll and clears poll errors", () => {
    const result = merged(
      row({ pollCount: 2, pollErrors: 3 }),
      report("waiting", { source: "poll", polled: true }),
    );
    expect(result.row).toMatchObject({ pollCount: 3, pollErrors: 0 });
  });
});

describe("costOf", () => {
  const record = { task_id: "task_1", status: "success", price: 0.12, currency: "CNY" };

  it("keeps the price and currency of a task record", () => {
    expect(costOf(record)).toEqual({ price: 0.12, currency: "CNY" });
  });

  it("keeps a price sent as a decimal string as its number", () => {
    expect(costOf({ ...record, price: "0.12" })).toEqual({ price: 0.12, currency: "CNY" });
  });

  it("drops a price string that is not a decimal number, keeping the currency", () => {
    expect(costOf({ ...record, price: "abc" })).toEqual({ currency: "CNY" });
  });
});
