import { createHmac, timingSafeEqual } from "node:crypto";
import type { ResolvedOptions } from "../options.ts";
import type { FileRecord } from "../state/types.ts";

/** Result links (`output.file_url`): a plain path, or a signed object-storage-style URL (live). */
export interface FileLinks {
  url(file: FileRecord): string;
  /** Whether a request's query carries this file's signature (always true for plain links). */
  signatureValid(file: FileRecord, query: URLSearchParams): boolean;
}

/**
 * The live platform's result links are signed object-storage URLs valid 604 800 s
 * (docs/platform-facts.md).
 * The emulator imitates an S3-style pre-signed URL: `X-Amz-Date` (issue time), `X-Amz-Expires`
 * (seconds) and `X-Amz-Signature`, an HMAC over the file id and those two values, so a client
 * that drops or rewrites the query gets the 403 real storage would give.
 */
export function createFileLinks(options: ResolvedOptions, key: Uint8Array): FileLinks {
  const sign = (id: string, date: string, expires: string) =>
    createHmac("sha256", key).update(`file-link\n${id}\n${date}\n${expires}`).digest("hex");
  const path = (file: FileRecord) => `${options.baseUrl}/files/${file.id}.wav`;
  return {
    url(file) {
      if (!options.shape.signedFileUrls) return path(file);
      const date = amzDate(file.issuedAt);
      const expires = String(Math.round((file.expiresAt - file.issuedAt) / 1000));
      const query = new URLSearchParams({
        "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
        "X-Amz-Date": date,
        "X-Amz-Expires": expires,
        "X-Amz-SignedHeaders": "host",
        "X-Amz-Signature": sign(file.id, date, expires),
      });
      return `${path(file)}?${query.toString()}`;
    },
    signatureValid(file, query) {
      if (!options.shape.signedFileUrls) return true;
      const given = query.get("X-Amz-Signature") ?? "";
      const expected = sign(
        file.id,
        query.get("X-Amz-Date") ?? "",
        query.get("X-Amz-Expires") ?? "",
      );
      return (
        given.length === expected.length &&
        timingSafeEqual(Buffer.from(given), Buffer.from(expected))
      );
    },
  };
}

/** `YYYYMMDDTHHMMSSZ`, the timestamp format of pre-signed URLs. */
function amzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}
