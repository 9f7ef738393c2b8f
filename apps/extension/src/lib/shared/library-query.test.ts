import { describe, expect, it } from "vitest";
import { task } from "../../testing/fixtures.ts";
import {
  DEFAULT_LIBRARY_QUERY,
  isDefaultQuery,
  listParams,
  matchesQuery,
} from "./library-query.ts";

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

describe("matching a task against a library query, as the backend would", () => {
  const song = task({
    status: "success",
    title: "Night Drive",
    params: { prompt: "Synthwave, neon", lyrics: "city lights" },
  });
  const query = (q: string, filter = DEFAULT_LIBRARY_QUERY.filter) => ({
    ...DEFAULT_LIBRARY_QUERY,
    q,
    filter,
  });

  it("finds the text in the title, the prompt or the lyrics, in any case", () => {
    expect(matchesQuery(song, query("night"))).toBe(true);
    expect(matchesQuery(song, query("SYNTHWAVE"))).toBe(true);
    expect(matchesQuery(song, query(" city "))).toBe(true);
  });

  it("does not match text found nowhere", () => {
    expect(matchesQuery(song, query("rain"))).toBe(false);
  });

  it("matches the status filter's group only", () => {
    expect(matchesQuery(song, query("", "success"))).toBe(true);
    expect(matchesQuery(song, query("", "active"))).toBe(false);
  });

  it("matches the favourites filter only when starred", () => {
    expect(matchesQuery(song, query("", "favourites"))).toBe(false);
    expect(matchesQuery({ ...song, favourite: true }, query("", "favourites"))).toBe(true);
  });

  it("never matches a deleted task", () => {
    expect(matchesQuery({ ...song, deleted_at: song.updated_at }, query(""))).toBe(false);
  });
});
