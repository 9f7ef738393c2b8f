import { z } from "@hono/zod-openapi";
import { ARCHIVE_FAILURES, ARCHIVE_STATES } from "./task-states.ts";

/** A task's archived result as the task JSON shows it (null: nothing to archive). */
export const taskArchiveSchema = z
  .object({
    status: z.enum(ARCHIVE_STATES),
    error: z.enum(ARCHIVE_FAILURES).nullable().openapi({
      description: "Why archiving failed (status `failed`), e.g. `archive_quota_exceeded`",
    }),
    audio_url: z.string().nullable().openapi({
      description: "The original file as the platform made it (session bearer), once archived",
    }),
    mp3_url: z.string().nullable().openapi({
      description:
        "The compressed rendition for listening (MP3, ≤ 1 MB per minute), once archived; 404 `not_archived` for a source that is not a readable WAV",
    }),
    peaks_url: z.string().nullable().openapi({ description: "The waveform, once archived" }),
  })
  .openapi("TaskArchive");

export type TaskArchive = z.infer<typeof taskArchiveSchema>;

/**
 * A waveform in the audiowaveform JSON layout (version 2, 8-bit), which waveform players read
 * as is: `data` holds a (min, max) pair per pixel, −128..127, every channel mixed into one.
 */
export const peaksSchema = z
  .object({
    version: z.literal(2),
    channels: z.literal(1),
    sample_rate: z.number().int(),
    samples_per_pixel: z.number().int(),
    bits: z.literal(8),
    length: z.number().int().openapi({ description: "Pixels: half the length of `data`" }),
    duration_seconds: z.number(),
    data: z.array(z.number().int()),
  })
  .openapi("Peaks");

export type PeaksJson = z.infer<typeof peaksSchema>;

/** The user's archive: bytes held, and the operator's limits. */
export const archiveUsageSchema = z
  .object({
    used_bytes: z.number().int(),
    quota_bytes: z.number().int().nullable().openapi({ description: "Null: no limit" }),
    retention_days: z
      .number()
      .nullable()
      .openapi({ description: "Archived results are removed after this; null: kept" }),
  })
  .openapi("ArchiveUsage");

export type ArchiveUsage = z.infer<typeof archiveUsageSchema>;

/** `format` of the audio route: the original as stored (`wav`: only if it is one) or the MP3. */
export const AUDIO_FORMATS = ["original", "wav", "mp3"] as const;

/** A media link: the audio of one task in one format, without a session, until `expires_at`. */
export const mediaLinkSchema = z
  .object({
    url: z.string(),
    expires_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("MediaLink");

export type MediaLink = z.infer<typeof mediaLinkSchema>;
