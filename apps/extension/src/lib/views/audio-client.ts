import { browser } from "wxt/browser";
import { AUDIO_PORT, type AudioMessage, base64ToBytes } from "../shared/audio-transfer.ts";
import { OvertureError, isErrorCode } from "../shared/errors.ts";

/** Asks the background for a result's audio and rebuilds it as a Blob (see audio-transfer.ts). */
export function loadAudio(taskId: string): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const port = browser.runtime.connect({ name: AUDIO_PORT });
    const parts: Uint8Array<ArrayBuffer>[] = [];
    let mime = "audio/wav";
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      port.disconnect();
    };
    port.onMessage.addListener((raw: unknown) => {
      const message = raw as AudioMessage;
      if (message.kind === "start") mime = message.mime;
      else if (message.kind === "chunk") parts.push(base64ToBytes(message.data));
      else if (message.kind === "end")
        finish(() => {
          resolve(new Blob(parts, { type: mime }));
        });
      else {
        const code = isErrorCode(message.code) ? message.code : "unexpected";
        finish(() => {
          reject(new OvertureError(code, message.message));
        });
      }
    });
    port.onDisconnect.addListener(() => {
      finish(() => {
        reject(new OvertureError("unexpected", "The audio transfer was interrupted."));
      });
    });
    port.postMessage({ id: taskId });
  });
}

/** Decodes audio bytes with Web Audio (no playback: an offline context needs no output device). */
export async function decodeChannels(blob: Blob): Promise<Float32Array[]> {
  const context = new OfflineAudioContext(1, 1, 44_100);
  const buffer = await context.decodeAudioData(await blob.arrayBuffer());
  return Array.from({ length: buffer.numberOfChannels }, (_, i) => buffer.getChannelData(i));
}
