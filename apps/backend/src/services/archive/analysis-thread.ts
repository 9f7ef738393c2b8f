import { Worker } from "node:worker_threads";
import type { Analysis } from "./analyse.ts";

export interface AnalysisRequest {
  path: string;
  size: number;
}

/**
 * Analyses a downloaded WAV (analyse.ts) on a worker thread of its own: 240 s of audio is
 * seconds of CPU for the peaks and the MP3, which on the main thread would delay every request,
 * webhook and live event meanwhile. Resolves like `analyseAudio`; rejects when the analysis fails
 * or `stop` aborts (the thread is terminated then).
 */
export async function analyseInThread(
  request: AnalysisRequest,
  stop: AbortSignal,
): Promise<Analysis | undefined> {
  stop.throwIfAborted();
  const worker = startWorker(request);
  return await new Promise<Analysis | undefined>((resolve, reject) => {
    const abort = () => {
      void worker.terminate();
      reject(stop.reason as Error);
    };
    stop.addEventListener("abort", abort, { once: true });
    const settle = () => {
      stop.removeEventListener("abort", abort);
    };
    worker.once("message", (analysis: Analysis | undefined) => {
      settle();
      resolve(analysis && withBuffer(analysis));
    });
    worker.once("error", (error) => {
      settle();
      reject(error);
    });
    worker.once("exit", (code) => {
      settle();
      reject(new Error(`the analysis thread exited with code ${code} before answering`));
    });
  });
}

/** A Buffer crosses threads as a plain Uint8Array: make it a Buffer again, without a copy. */
function withBuffer(analysis: Analysis): Analysis {
  const { rendition } = analysis;
  const buffer = Buffer.from(rendition.buffer, rendition.byteOffset, rendition.byteLength);
  return { ...analysis, rendition: buffer };
}

/**
 * Built (tsup), the thread's entry is `analyse-worker.js` beside this code's chunk. Run from
 * source (tests, `tsx`), it is the TypeScript file, which a new thread can only load through
 * tsx's `tsImport` (Node 20 applies neither a `--import` loader nor a registered hook to a
 * worker's imports).
 */
function startWorker(request: AnalysisRequest): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  if (!fromSource)
    return new Worker(new URL("./analyse-worker.js", import.meta.url), { workerData: request });
  const entry = new URL("./analyse-worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(boot, { eval: true, workerData: request });
}
