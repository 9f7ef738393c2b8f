import { type DraftValue, composeDraftItem } from "./storage.ts";

const isDraftValue = (value: unknown): value is DraftValue =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/**
 * "Use these settings": the task's parameters become the compose form's draft, which the form
 * reads when it opens. Fields the task did not send go back to their defaults there.
 */
export async function composeFrom(params: Record<string, unknown>): Promise<void> {
  const values: Record<string, DraftValue> = {};
  for (const [name, value] of Object.entries(params)) if (isDraftValue(value)) values[name] = value;
  await composeDraftItem.setValue({ values, preset: null });
}
