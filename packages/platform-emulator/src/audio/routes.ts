import { Hono } from "hono";
import type { EmulatorContext } from "../context.ts";
import { jsonError } from "../util/http.ts";
import { SAMPLE_RATE, synthesizeMelody } from "./melody.ts";
import { encodeWav } from "./wav.ts";

/**
 * Result files (`output.file_url`, spec 2.6, 8). The id is 24 random bytes, so the URL is the
 * capability, like a signed CDN link. The WAV is synthesised on each download (nothing large is
 * kept in memory). After `fileTtlMs` on the emulator clock the link answers 410 Gone; an id that
 * never existed answers 404.
 */
export function fileRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();
  app.get("/files/:name", (c) => {
    const id = c.req.param("name").replace(/\.wav$/, "");
    const file = ctx.state.files.get(id);
    if (!file) return jsonError(404, "file_not_found", "no such file");
    if (file.expiresAt <= ctx.clock.now())
      return jsonError(410, "file_expired", "the download link has expired");
    const wav = encodeWav(synthesizeMelody(file.prompt, file.seconds), SAMPLE_RATE);
    return c.body(wav.buffer as ArrayBuffer, 200, {
      "Content-Type": "audio/wav",
      "Content-Length": String(wav.byteLength),
      "Content-Disposition": `inline; filename="${file.taskId}.wav"`,
      "Cache-Control": "private, max-age=3600",
    });
  });
  return app;
}
