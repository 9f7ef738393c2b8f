// Test-only: the published signature vectors (test-vectors/webhook-signatures.json), typed, for
// every test that runs them. Production code never imports this file.
import vectorFile from "../../test-vectors/webhook-signatures.json" with { type: "json" };
import type { QueryReading, WebhookBodyCode, WebhookFailureCode } from "./index.ts";

/** One case of the vectors (format: test-vectors/README.md). */
export interface VectorCase {
  id: string;
  description: string;
  secrets: string[];
  url: string;
  /** The body's text, present when its bytes are UTF-8. */
  body?: string;
  /** The exact body bytes. */
  body_base64: string;
  headers: Record<string, string>;
  now: number;
  tolerance_ms: number;
  expected: {
    ok: boolean;
    code?: WebhookFailureCode;
    secret_index?: number;
    reading?: QueryReading;
    skew_ms?: number;
    canonical_raw: string;
    canonical_form_decoded: string;
    canonical_percent_decoded: string;
    signing_text?: string;
    signature?: string;
    body_reading?: "json" | WebhookBodyCode;
  };
}

export const vectorCases = (vectorFile as unknown as { cases: VectorCase[] }).cases;

/** The exact body bytes of a case. */
export const bodyBytes = (vector: VectorCase): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(vector.body_base64), (c) => c.charCodeAt(0));
