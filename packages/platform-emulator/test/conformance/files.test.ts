import { describe, expect, it } from "vitest";
import { manualEmulator } from "../helpers/emulator.ts";
import { getTask, submitId } from "../helpers/tasks.ts";

async function fileUrl(emu: ReturnType<typeof manualEmulator>, fields: Record<string, string>) {
  const id = await submitId(emu, fields);
  await emu.control.clock.advance(5_000);
  const url = (await getTask(emu, id)).output as { file_url: string };
  return new URL(url.file_url).pathname;
}

function wavInfo(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
  return {
    riff: text(0),
    wave: text(8),
    format: view.getUint16(20, true),
    channels: view.getUint16(22, true),
    rate: view.getUint32(24, true),
    bits: view.getUint16(34, true),
    dataBytes: view.getUint32(40, true),
  };
}

describe("result files (spec 2.6, 8)", () => {
  it("2.6: output.file_url serves a 16-bit mono PCM WAV of the requested duration", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(await fileUrl(emu, { prompt: "sea", duration: "4" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const info = wavInfo(bytes);
    expect(info).toMatchObject({
      riff: "RIFF",
      wave: "WAVE",
      format: 1,
      channels: 1,
      rate: 22_050,
      bits: 16,
    });
    expect(info.dataBytes).toBe(4 * 22_050 * 2);
    expect(bytes.length).toBe(44 + info.dataBytes);
  });

  it.each([60, 90, 120, 150, 180, 210, 240])(
    "a %i s request gives a WAV of exactly that length",
    async (seconds) => {
      const emu = manualEmulator();
      const path = await fileUrl(emu, { prompt: "long", duration: String(seconds) });
      const res = await emu.app.request(path, { headers: { Range: "bytes=0-43" } });
      const info = wavInfo(new Uint8Array(await res.arrayBuffer()));
      expect(info.dataBytes).toBe(seconds * 22_050 * 2);
      expect(res.headers.get("content-range")).toBe(`bytes 0-43/${44 + info.dataBytes}`);
    },
  );

  it("a cap set with maxAudioSeconds shows in the task: duration, requested_duration and a notice", async () => {
    const emu = manualEmulator({ maxAudioSeconds: 10 });
    const id = await submitId(emu, { prompt: "long", duration: "60" });
    await emu.control.clock.advance(5_000);
    const { output } = await getTask(emu, id);
    expect(output).toMatchObject({
      duration: 10,
      requested_duration: 60,
      notice: expect.stringContaining("capped at 10 s") as string,
    });
    const res = await emu.app.request(new URL((output as { file_url: string }).file_url).pathname);
    expect(wavInfo(new Uint8Array(await res.arrayBuffer())).dataBytes).toBe(10 * 22_050 * 2);
  });

  it("serves one byte range with 206 and Content-Range, equal to that slice of the whole file", async () => {
    const emu = manualEmulator();
    const path = await fileUrl(emu, { prompt: "ranges", duration: "3" });
    const whole = new Uint8Array(await (await emu.app.request(path)).arrayBuffer());
    const res = await emu.app.request(path, { headers: { Range: "bytes=1000-70999" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 1000-70999/${whole.length}`);
    expect(res.headers.get("content-length")).toBe("70000");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(whole.subarray(1000, 71000));
  });

  it("a range past the end is 416 with the size; a stale If-Range gets the whole file", async () => {
    const emu = manualEmulator();
    const path = await fileUrl(emu, { prompt: "ranges", duration: "1" });
    const size = 44 + 22_050 * 2;
    const past = await emu.app.request(path, { headers: { Range: `bytes=${size}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${size}`);
    const stale = await emu.app.request(path, {
      headers: { Range: "bytes=0-9", "If-Range": '"another-version"' },
    });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("accept-ranges")).toBe("bytes");
  });

  it("the studio format (live profile default) is 48 kHz stereo: 240 s is 46 MB like ACE-Step's", async () => {
    const emu = manualEmulator({ audioFormat: "studio" });
    const path = await fileUrl(emu, { prompt: "long", duration: "240" });
    const res = await emu.app.request(path, { headers: { Range: "bytes=0-43" } });
    const info = wavInfo(new Uint8Array(await res.arrayBuffer()));
    expect(info).toMatchObject({ channels: 2, rate: 48_000, dataBytes: 240 * 48_000 * 4 });
    expect(res.headers.get("content-range")).toBe("bytes 0-43/46080044");
  });

  it("synthesises the same audio for the same prompt and different audio for another", async () => {
    const emu = manualEmulator({
      seed: {
        users: [{ id: 1, login: "u", name: "U" }],
        accessTokens: [
          {
            id: 1,
            namespace: "u",
            name: "t",
            usage_scenario: "paid",
            token: "emu-demo-studio-paid-0001",
          },
        ],
        defaultQuota: 9,
      },
    });
    const bytes = async (prompt: string) =>
      new Uint8Array(
        await (await emu.app.request(await fileUrl(emu, { prompt, duration: "2" }))).arrayBuffer(),
      );
    const a = await bytes("jazz trio");
    expect(Buffer.compare(a, await bytes("jazz trio"))).toBe(0);
    expect(Buffer.compare(a, await bytes("death metal"))).not.toBe(0);
    expect(a.subarray(44).some((b) => b !== 0)).toBe(true);
  });

  it("8: the link expires after 24 h on the emulator clock (410 Gone)", async () => {
    const emu = manualEmulator();
    const path = await fileUrl(emu, { prompt: "x", duration: "1" });
    await emu.control.clock.advance(24 * 3_600_000 - 1);
    expect((await emu.app.request(path)).status).toBe(200);
    await emu.control.clock.advance(1);
    expect((await emu.app.request(path)).status).toBe(410);
  });

  it("an unknown file id is 404", async () => {
    const emu = manualEmulator();
    expect((await emu.app.request("/files/nope.wav")).status).toBe(404);
  });
});
