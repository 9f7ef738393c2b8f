/**
 * Memory and CPU of result downloads over real HTTP: one 240 s studio WAV (48 kHz stereo, 46 MB),
 * then 8 at once. The emulator and the client share this process, so the numbers include both;
 * the client counts bytes and keeps none. Run: pnpm --filter @overture/platform-emulator bench
 */
import { startPlatformEmulator } from "../src/server.ts";

const TOKEN = { Authorization: "Bearer emu-demo-studio-paid-0001" };
const MB = 1_000_000;

const emu = await startPlatformEmulator({
  port: 0,
  clock: "manual",
  audioFormat: "studio",
  timing: { waitingMs: 1, runningMs: 1 },
});
emu.control.setQuota("demo", 100);

async function fileUrl(prompt: string): Promise<string> {
  const form = new FormData();
  form.append("prompt", prompt);
  form.append("duration", "240");
  const res = await fetch(`${emu.url}/v1/async/music/generations`, {
    method: "POST",
    headers: TOKEN,
    body: form,
  });
  const { task_id } = (await res.json()) as { task_id: string };
  await emu.control.clock.advance(10);
  const task = await fetch(`${emu.url}/api/v1/task/${task_id}`, { headers: TOKEN });
  return ((await task.json()) as { output: { file_url: string } }).output.file_url;
}

async function drain(url: string): Promise<number> {
  const res = await fetch(url);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return bytes;
}

async function measure(label: string, urls: string[]): Promise<void> {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 5);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const sizes = await Promise.all(urls.map(drain));
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  const total = sizes.reduce((a, b) => a + b, 0);
  console.log(
    `${label}: ${urls.length} × ${((sizes[0] ?? 0) / MB).toFixed(1)} MB = ${(total / MB).toFixed(1)} MB in ${wall.toFixed(0)} ms wall, ` +
      `CPU user ${(used.user / 1000).toFixed(0)} ms + system ${(used.system / 1000).toFixed(0)} ms; ` +
      `peak RSS +${((peakRss - base.rss) / MB).toFixed(1)} MB (${(peakRss / MB).toFixed(0)} MB), ` +
      `peak heap +${((peakHeap - base.heapUsed) / MB).toFixed(1)} MB`,
  );
}

const one = await fileUrl("bench one");
await measure("first download (phrase synthesised)", [one]);
await measure("second download (phrase cached)", [one]);
const eight = await Promise.all(Array.from({ length: 8 }, (_, i) => fileUrl(`bench ${i}`)));
await measure("eight different files at once", eight);
await emu.close();
