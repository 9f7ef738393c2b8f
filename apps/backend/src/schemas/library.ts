import { z } from "@hono/zod-openapi";
import { isoTime, isStorableText } from "./common.ts";
import { TITLE_MAX_LENGTH } from "./task-states.ts";
import { taskSchema } from "./task.ts";

export { LIBRARY_SORTS, TITLE_MAX_LENGTH, type LibrarySort } from "./task-states.ts";

/** `PATCH /api/tasks/{id}`: rename and/or (un)favourite. */
export const taskPatchSchema = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1, "A title cannot be empty.")
      .refine((t) => Array.from(t).length <= TITLE_MAX_LENGTH, {
        message: `A title has at most ${TITLE_MAX_LENGTH} characters.`,
      })
      .refine(isStorableText, {
        message: "A title cannot contain NUL or unpaired surrogate characters.",
      })
      .optional(),
    favourite: z.boolean().optional(),
  })
  .openapi("TaskPatch");

export type TaskPatch = z.infer<typeof taskPatchSchema>;

/** The answer to `DELETE /api/tasks/{id}`: gone from the library, restorable until `undo_until`. */
export const taskDeletionSchema = z
  .object({
    task: taskSchema,
    undo_until: isoTime.openapi({
      description:
        "Until then `POST /api/tasks/{id}/restore` brings it back; after it the task and its archived audio are purged",
    }),
  })
  .openapi("TaskDeletion");

export type TaskDeletion = z.infer<typeof taskDeletionSchema>;

const seconds = (description: string) => z.number().nullable().openapi({ description });

/** Everything known about one task, for the details view. */
export const taskDetailsSchema = z
  .object({
    task: taskSchema,
    prompt: z.string(),
    lyrics: z.string(),
    requested_duration_seconds: seconds("`params.duration`"),
    actual_duration_seconds: seconds(
      "The archived audio's length, else the platform's `usage_info` seconds; null until known",
    ),
    timings: z.object({
      waiting_seconds: seconds("From creation (or queueing) to the platform accepting it"),
      generation_seconds: seconds("From submission to the end"),
      total_seconds: seconds("From creation to the end"),
    }),
    price: z.number().nullable().openapi({ description: "When the platform reported one" }),
    currency: z.string().nullable().openapi({ description: "With `price`, e.g. `CNY`" }),
  })
  .openapi("TaskDetails");

export type TaskDetails = z.infer<typeof taskDetailsSchema>;

/** How long a task is likely to take, from the user's own finished tasks of similar settings. */
export const taskEstimateSchema = z
  .object({
    based_on: z.number().int().openapi({
      description:
        "How many of the user's finished tasks of similar duration and steps it comes from; 0: none, the range is the platform's usual 1–10 minutes",
    }),
    typical_seconds: seconds("The median generation time; null without history"),
    low_seconds: z.number().openapi({ description: "Fast end of the range (10th percentile)" }),
    high_seconds: z.number().openapi({ description: "Slow end of the range (90th percentile)" }),
    remaining_low_seconds: z
      .number()
      .openapi({ description: "Time left at the fast end; 0 once final" }),
    remaining_high_seconds: z
      .number()
      .openapi({ description: "Time left at the slow end; 0 once final" }),
    summary: z.string().openapi({ example: "usually 1–10 minutes" }),
  })
  .openapi("TaskEstimate");

export type TaskEstimate = z.infer<typeof taskEstimateSchema>;
