import { describe, expect, it } from "vitest";
import { memoryCacheStorage } from "../../testing/cache-storage.ts";
import { createAudioCache } from "./audio-cache.ts";

const BACKEND = "http://127.0.0.1:8787";
const audio = (size: number, fill = 1) =>
  new Blob([new Uint8Array(size).fill(fill)], { type: "audio/mpeg" });

describe("the audio cache", () => {
  it("gives back the bytes and type it kept", async () => {
    const cache = createAudioCache(memoryCacheStorage(), 1_000);
    expect(await cache.put(BACKEND, "t1", audio(300, 5))).toBe(true);
    const hit = await cache.get(BACKEND, "t1");
    expect(hit?.mime).toBe("audio/mpeg");
    expect([...(hit?.bytes ?? [])]).toEqual(new Array(300).fill(5));
  });

  it("forgets one track and keeps the others", async () => {
    const storage = memoryCacheStorage();
    const cache = createAudioCache(storage, 1_000);
    await cache.put(BACKEND, "t1", audio(100));
    await cache.put(BACKEND, "t2", audio(200));
    await cache.delete(BACKEND, "t1");
    expect(await cache.get(BACKEND, "t1")).toBeNull();
    expect(await cache.get(BACKEND, "t2")).not.toBeNull();
    expect(storage.bytesStored()).toBe(200);
  });

  it("keeps each backend's tracks apart", async () => {
    const cache = createAudioCache(memoryCacheStorage(), 1_000);
    await cache.put(BACKEND, "t1", audio(10));
    expect(await cache.get("https://overture.example", "t1")).toBeNull();
  });

  it("evicts the tracks stored first when a new one does not fit", async () => {
    const storage = memoryCacheStorage();
    const cache = createAudioCache(storage, 1_000);
    await cache.put(BACKEND, "old", audio(400));
    await cache.put(BACKEND, "middle", audio(400));
    await cache.put(BACKEND, "new", audio(400));
    expect(await cache.get(BACKEND, "old")).toBeNull();
    expect(await cache.get(BACKEND, "middle")).not.toBeNull();
    expect(await cache.get(BACKEND, "new")).not.toBeNull();
    expect(storage.bytesStored()).toBe(800);
  });

  it("stays within its bound when tracks arrive together", async () => {
    const storage = memoryCacheStorage();
    const cache = createAudioCache(storage, 1_000);
    await Promise.all(["a", "b", "c", "d"].map((id) => cache.put(BACKEND, id, audio(400))));
    expect(storage.bytesStored()).toBe(800);
  });

  it("does not keep a track larger than the whole bound", async () => {
    const storage = memoryCacheStorage();
    const cache = createAudioCache(storage, 1_000);
    await cache.put(BACKEND, "small", audio(100));
    expect(await cache.put(BACKEND, "huge", audio(1_001))).toBe(false);
    expect(await cache.get(BACKEND, "small")).not.toBeNull();
  });

  it("forgets everything when cleared", async () => {
    const cache = createAudioCache(memoryCacheStorage(), 1_000);
    await cache.put(BACKEND, "t1", audio(10));
    await cache.clear();
    expect(await cache.get(BACKEND, "t1")).toBeNull();
  });

  it("keeps nothing where the Cache API is missing", async () => {
    const cache = createAudioCache(null);
    expect(await cache.put(BACKEND, "t1", audio(10))).toBe(false);
    expect(await cache.get(BACKEND, "t1")).toBeNull();
  });
});
