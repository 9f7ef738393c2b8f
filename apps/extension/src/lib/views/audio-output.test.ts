import { afterEach, beforeEach, expect, it, vi } from "vitest";

// A fresh module each time: the warm-up happens once per view (module).
const load = async () => (await import("./audio-output.ts")).warmAudioOutput;
let asked: string[];

beforeEach(() => {
  vi.resetModules();
  asked = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
});

it("asks for the default output device once per view", async () => {
  vi.stubGlobal(
    "Audio",
    class {
      setSinkId(id: string) {
        asked.push(id);
        return Promise.resolve();
      }
    },
  );
  const warm = await load();
  warm();
  warm();
  expect(asked).toEqual(["default"]);
});

it("does nothing, and throws nothing, where the browser has no setSinkId or refuses it", async () => {
  vi.stubGlobal("Audio", function Audio() {
    return {};
  });
  expect(await load()).not.toThrow();
  vi.resetModules();
  vi.stubGlobal(
    "Audio",
    class {
      setSinkId() {
        return Promise.reject(new DOMException("no such device", "NotFoundError"));
      }
    },
  );
  const warm = await load();
  expect(warm).not.toThrow();
  await new Promise((resolve) => setTimeout(resolve, 0));
});
