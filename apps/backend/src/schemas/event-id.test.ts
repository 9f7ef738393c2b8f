import { describe, expect, it } from "vitest";
import { eventIdSchema, parseEventId } from "./event-id.ts";

describe("event ids", () => {
  it("reads an id past 2^53 exactly", () => {
    expect(parseEventId("9007199254740993")).toBe(9007199254740993n);
  });

  it("reads Postgres' largest bigint and refuses one past it", () => {
    expect(parseEventId("9223372036854775807")).toBe(9223372036854775807n);
    expect(parseEventId("9223372036854775808")).toBeUndefined();
  });

  it("reads 0, the position of an empty log", () => {
    expect(parseEventId("0")).toBe(0n);
  });

  it("refuses a leading zero, a sign and other text: the server never sends them", () => {
    for (const text of ["007", "-1", "+1", "1e3", " 1", "", "abc"])
      expect(parseEventId(text)).toBeUndefined();
  });

  it("accepts in the API exactly what it reads", () => {
    for (const text of ["0", "9223372036854775807", "9223372036854775808", "007"])
      expect(eventIdSchema.safeParse(text).success).toBe(parseEventId(text) !== undefined);
  });
});
