import { type DraftValue, composeDraftItem } from "../shared/storage.ts";

const isDraftValue = (value: unknown): value is DraftValue =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** A list of numbers (a task's `seeds`) as the comma-separated text its box holds. */
const isNumberList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "number");

/**
 * "Use these settings": the task's parameters become the compose form's draft, which the form
 * reads when it opens. Fields the task did not send go back to their defaults there; its seeds
 * stay, so that the same settings can make the same track again.
 */
export async function composeFrom(params: Record<string, unknown>): Promise<void> {
  const values: Record<string, DraftValue> = {};
  for (const [name, value] of Object.entries(params)) {
    if (isDraftValue(value)) values[name] = value;
    else if (isNumberList(value)) values[name] = value.join(", ");
  }
  await composeDraftItem.setValue({ values, preset: null });
}
