import { describe, expect, it } from "vitest";
import {
  TASK_STATUSES,
  isCancellableStatus,
  isTaskStatus,
  isTerminalStatus,
  mergeStatus,
  statusRank,
  type TaskStatus,
} from "./index.ts";

describe("task statuses (spec 2.6)", () => {
  it("lists exactly the five statuses of the spec", () => {
    expect(TASK_STATUSES).toEqual(["waiting", "in_progress", "success", "failure", "cancelled"]);
  });

  it("recognises a known status and rejects anything else", () => {
    expect(isTaskStatus("success")).toBe(true);
    expect(isTaskStatus("SUCCESS")).toBe(false);
    expect(isTaskStatus(undefined)).toBe(false);
  });

  it("treats success, failure and cancelled as terminal", () => {
    expect(TASK_STATUSES.filter((s) => isTerminalStatus(s))).toEqual([
      "success",
      "failure",
      "cancelled",
    ]);
  });

  it("allows cancel only from waiting and in_progress (spec 3.1)", () => {
    expect(TASK_STATUSES.filter((s) => isCancellableStatus(s))).toEqual(["waiting", "in_progress"]);
  });
});

describe("statusRank", () => {
  it("ranks waiting 0, in_progress 1 and every terminal status 2", () => {
    expect(TASK_STATUSES.map((s) => statusRank(s))).toEqual([0, 1, 2, 2, 2]);
  });

  it("gives an unknown status no rank", () => {
    expect(statusRank("paused")).toBeUndefined();
  });
});

describe("mergeStatus", () => {
  const forward: [TaskStatus, string][] = [
    ["waiting", "in_progress"],
    ["waiting", "success"],
    ["in_progress", "failure"],
    ["in_progress", "cancelled"],
  ];
  it.each(forward)("moves forward from %s to %s", (current, incoming) => {
    expect(mergeStatus(current, incoming)).toEqual({ status: incoming, changed: true });
  });

  it("never moves back from in_progress to waiting", () => {
    expect(mergeStatus("in_progress", "waiting")).toEqual({
      status: "in_progress",
      changed: false,
    });
  });

  it("keeps the first terminal status when another terminal status arrives", () => {
    expect(mergeStatus("success", "failure")).toEqual({ status: "success", changed: false });
    expect(mergeStatus("cancelled", "success")).toEqual({ status: "cancelled", changed: false });
  });

  it("reports a repeated status as unchanged", () => {
    expect(mergeStatus("waiting", "waiting")).toEqual({ status: "waiting", changed: false });
  });

  it("keeps the current status and reports an unknown one instead of throwing", () => {
    expect(mergeStatus("waiting", "paused")).toEqual({
      status: "waiting",
      changed: false,
      unknown: "paused",
    });
  });
});
