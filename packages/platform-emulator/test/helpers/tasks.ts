import type { PlatformEmulator } from "../../src/index.ts";
import { bearer, DEMO_TOKEN } from "./emulator.ts";

export function submit(
  emu: PlatformEmulator,
  fields: Record<string, string> = { prompt: "calm piano", duration: "8" },
  options: { token?: string; webhook?: string } = {},
): Promise<Response> | Response {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return emu.app.request("/v1/async/music/generations", {
    method: "POST",
    headers: {
      ...bearer(options.token ?? DEMO_TOKEN),
      // An empty value is sent too: a client that sends the header blank.
      ...(options.webhook !== undefined ? { "X-WebHook": options.webhook } : {}),
    },
    body: form,
  });
}

export async function submitId(
  emu: PlatformEmulator,
  fields?: Record<string, string>,
  options?: { token?: string; webhook?: string },
): Promise<string> {
  const res = await submit(emu, fields, options);
  if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { task_id: string }).task_id;
}

export async function getTask(
  emu: PlatformEmulator,
  id: string,
  token = DEMO_TOKEN,
): Promise<Record<string, unknown> & { status: string }> {
  const res = await emu.app.request(`/api/v1/task/${id}`, { headers: bearer(token) });
  return (await res.json()) as Record<string, unknown> & { status: string };
}
