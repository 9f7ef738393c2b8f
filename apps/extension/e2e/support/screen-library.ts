// A library that looks like a person's: several finished tracks, one renamed, one starred, one
// with a seed, and a second take of one, made straight through the backend with the extension's
// own session (as its background would).
import { expect } from "vitest";
import type { Task } from "../../src/lib/shared/types.ts";
import type { ExtensionBrowser } from "./browser.ts";
import type { Stack } from "./stack.ts";

const RAP_LYRICS = "[verse]\n霓虹灯下我把节拍点亮\n城市的夜晚从不睡觉\n[chorus]\n跟着节奏一起摇";
const FOLK_LYRICS = "[verse]\nDown by the river where the willows grow\n[chorus]\nSing it slow";

/** What the library is made of, oldest first. */
export const SCREEN_TRACKS: Record<string, unknown>[] = [
  {
    prompt: "lo-fi hip hop, mellow Rhodes piano, vinyl crackle, soft boom bap drums",
    duration: 30,
  },
  { prompt: "cinematic orchestral, soaring strings, brass swells, epic percussion", duration: 45 },
  {
    prompt: "Chinese rap, hip hop, 808 bass, trap hi-hats",
    lyrics: RAP_LYRICS,
    lora_name: "ACE-Step-v1-chinese-rap-LoRA",
    duration: 30,
  },
  { prompt: "synthwave, retro 80s, driving bass, neon arpeggios", duration: 40 },
  {
    prompt: "acoustic folk, fingerpicked guitar, warm harmonica",
    lyrics: FOLK_LYRICS,
    duration: 35,
  },
  { prompt: "ambient drone, slow evolving pads, rain field recording", duration: 60 },
  { prompt: "jazz trio, brushed drums, walking upright bass, late night piano", duration: 30 },
  { prompt: "bossa nova, nylon guitar, soft shaker", duration: 30, seeds: [1234] },
];

/** The extension's session token, from the background's storage. */
async function sessionToken(browser: ExtensionBrowser): Promise<string> {
  const worker = browser.context.serviceWorkers()[0];
  if (!worker) throw new Error("the extension's service worker is not running");
  return worker.evaluate(async () => {
    const chrome = (
      globalThis as unknown as {
        chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } };
      }
    ).chrome;
    const { session } = await chrome.storage.local.get("session");
    return (session as { token: string }).token;
  });
}

/** Makes the library and waits until every track is archived; answers the ids, newest first. */
export async function makeLibrary(browser: ExtensionBrowser, stack: Stack): Promise<string[]> {
  const token = await sessionToken(browser);
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${stack.backendUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const ids: string[] = [];
  for (const params of SCREEN_TRACKS)
    ids.push((await api<Task>("/api/tasks", { method: "POST", body: JSON.stringify(params) })).id);
  const [lofi, orchestral, , synthwave] = ids;
  await expect
    .poll(
      async () => {
        const { tasks } = await api<{ tasks: Task[] }>("/api/tasks?limit=50");
        return tasks.filter((t) => ids.includes(t.id) && t.status === "success").length;
      },
      { timeout: 180_000, interval: 1_000 },
    )
    .toBe(ids.length);
  ids.push((await api<Task>(`/api/tasks/${lofi ?? ""}/regenerate`, { method: "POST" })).id);
  await api(`/api/tasks/${synthwave ?? ""}`, {
    method: "PATCH",
    body: JSON.stringify({ title: "Night Drive" }),
  });
  await api(`/api/tasks/${orchestral ?? ""}`, {
    method: "PATCH",
    body: JSON.stringify({ favourite: true }),
  });
  await expect
    .poll(
      async () => {
        const { tasks } = await api<{ tasks: Task[] }>("/api/tasks?limit=50");
        return tasks.filter((t) => ids.includes(t.id) && t.archive?.status === "archived").length;
      },
      { timeout: 240_000, interval: 1_000 },
    )
    .toBe(ids.length);
  return ids.reverse();
}

/** The language and theme chosen in the options (every open view follows at once). */
export async function setPreferences(
  browser: ExtensionBrowser,
  preferences: { language: "en" | "zh_CN"; theme: "light" | "dark" },
): Promise<void> {
  const worker = browser.context.serviceWorkers()[0];
  if (!worker) throw new Error("the extension's service worker is not running");
  await worker.evaluate(async (value) => {
    const chrome = (
      globalThis as unknown as {
        chrome: { storage: { local: { set(v: Record<string, unknown>): Promise<void> } } };
      }
    ).chrome;
    await chrome.storage.local.set({ preferences: value });
  }, preferences);
}
