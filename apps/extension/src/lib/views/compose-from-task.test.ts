import { describe, expect, it } from "vitest";
import { composeFrom } from "./compose-from-task.ts";
import { composeDraftItem } from "../shared/storage.ts";

describe("using a task's settings in the compose form", () => {
  it("keeps the task's seeds, as the text the seeds box holds", async () => {
    await composeFrom({ prompt: "seeded", seeds: [7, 8] });
    expect((await composeDraftItem.getValue()).values).toEqual({ prompt: "seeded", seeds: "7, 8" });
  });

  it("leaves out a value no form control can hold", async () => {
    await composeFrom({ prompt: "odd", extra: { nested: true }, list: ["a"] });
    expect((await composeDraftItem.getValue()).values).toEqual({ prompt: "odd" });
  });
});
