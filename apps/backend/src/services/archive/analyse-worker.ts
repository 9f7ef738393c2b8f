/**
 * The analysis thread's entry: one WAV file in, its peaks and MP3 rendition out. Built as its
 * own file (tsup's `analyse-worker` entry) because a worker thread starts from a file.
 */
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { analyseAudio } from "./analyse.ts";
import type { AnalysisRequest } from "./analysis-thread.ts";

// Background work: on Linux a thread has its own nice value, so the threads that answer
// requests and run the database win the cores first. Elsewhere this call would lower the
// whole process, so it is left out there.
if (process.platform === "linux") setPriority(10);

const { path, size } = workerData as AnalysisRequest;
const analysis = await analyseAudio(path, size);
// Moved, not copied, where a view owns its whole buffer (a small Buffer may share a pool).
const owned = (view: Uint8Array | Int8Array) =>
  view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? [view.buffer] : [];
const transfer = analysis ? [...owned(analysis.rendition), ...owned(analysis.peaks.data)] : [];
parentPort?.postMessage(analysis, transfer as ArrayBuffer[]);
