import { describe, expect, it } from "vitest";
import { DEFAULT_LIBRARY_QUERY, isDefaultQuery, listParams } from "./library-query.ts";

describe("library queries", () => {
  it("treats only an empty search of everything, newest first, as the live list", () => {
    expect(isDefaultQuery(DEFAULT_LIBRARY_QUERY)).toBe(true);
    expect(isDefaultQuery({ ...DEFAULT_LIBRARY_QUERY, q: "  " })).toBe(true);
    expect(isDefaultQuery({ ...DEFAULT_LIBRARY_QUERY, q: "rain" })).toBe(false);
    expect(isDefaultQuery({ ...DEFAULT_LIBRARY_QUERY, sort: "title" })).toBe(false);
    expect(isDefaultQuery({ ...DEFAULT_LIBRARY_QUERY, filter: "favourites" })).toBe(false);
  });

  it("turns a query into the list endpoint's parameters", () => {
    expect(listParams({ q: " rain ", filter: "favourites", sort: "title" }, "c1")).toEqual({
      q: "rain",
      favourite: "true",
      sort: "title",
      cursor: "c1",
    });
    expect(listParams({ q: "", filter: "failed", sort: "oldest" })).toEqual({
      sort: "oldest",
      status: "failure,rejected,cancelled,unknown",
    });
    expect(listParams({ q: "", filter: "active", sort: "newest" })).toEqual({
      sort: "newest",
      status: "queued,submitting,waiting,in_progress",
    });
  });
});
