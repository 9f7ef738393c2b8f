// Test-only: the TypeScript programs the pack test compiles and runs besides the README's, and
// what each program prints.

/** What each of the README's programs prints (its comments say the same). */
export const README_OUTPUTS: Readonly<Record<string, string>> = {
  "fetch-handler.ts": "received e1: success\n200\n",
  "verify.ts": "https://files.example/t2.wav\n401 WEBHOOK_SIGNATURE_MISMATCH\n",
  "music.ts": "true true\nguidance_scale_text: range\ntrue\n",
};

/** The README's programs: those above, and receiver.ts, which serves until stopped. */
export const README_PROGRAMS = [...Object.keys(README_OUTPUTS), "receiver.ts"].sort();

/** A program that narrows a receiver's event on its status, with no cast, and uses the
 * throw-style entry. */
export const NARROWING = `import { WebhookVerificationError, constructCallbackEvent, createWebhookHandler } from "@overture/core/receiver";
import type { CallbackEvent } from "@overture/core/receiver";
import { taskErrorMessage } from "@overture/core/schemas";
import { signWebhook } from "@overture/core/webhook";

export function describeEvent(event: CallbackEvent): string {
  if (event.status === "success") {
    const link: string = event.output.file_url; // narrowed: no cast
    return link;
  }
  if (event.status === "failure") return taskErrorMessage(event) ?? "failed";
  return event.status;
}

createWebhookHandler({
  secrets: process.env.SECRET,
  onEvent: { success: (event) => console.log(event.output.file_url.length) },
});

const secret = "s3cret";
const url = "https://receiver.example/hook?k=1";
const body = JSON.stringify({ event_id: "e", task_id: "t", status: "success", output: { url: "https://f.example/a.wav" } });
const headers = await signWebhook({ secret, url, body });
console.log(describeEvent(await constructCallbackEvent({ body, url, headers, secrets: secret })));
try {
  await constructCallbackEvent({ body, url, headers, secrets: "another" });
} catch (error) {
  if (error instanceof WebhookVerificationError) console.log(error.code, error.status);
}
`;

/** What NARROWING prints. */
export const NARROWING_OUTPUT = "https://f.example/a.wav\nWEBHOOK_SIGNATURE_MISMATCH 401\n";

/** A CommonJS TypeScript program (`.cts`): TypeScript compiles its imports to `require()`. */
export const COMMONJS_PROGRAM = `import { parseCallbackEvent } from "@overture/core/receiver";
const read = parseCallbackEvent({ event_id: "e", task_id: "t", status: "success", output: { url: "u" } });
if (read.ok && "event" in read && read.event.status === "success") console.log(read.event.output.file_url);
`;

/** A program that reads the result link without narrowing: it must not compile. */
export const NOT_NARROWED = `import type { CallbackEvent } from "@overture/core/receiver";
export function link(event: CallbackEvent): string {
  return event.output?.file_url; // not narrowed: may be undefined, null, or absent
}
`;
