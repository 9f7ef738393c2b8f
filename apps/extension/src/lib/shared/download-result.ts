/**
 * How a result download ended, as the background watched it through `downloads.onChanged` (a
 * started download can still fail: Chrome marks a 404 or an expired signed link as an
 * interrupted download, `SERVER_BAD_CONTENT` / `SERVER_FORBIDDEN`, after `download()` resolved).
 */
export type DownloadResult =
  | {
      state: "complete";
      /** The platform's link, or the backend's archived copy. */
      source: "platform" | "archive";
      /** The platform's link was tried first and did not serve the file. */
      platformLinkFailed: boolean;
    }
  /** Cancelled in the browser's download bar: nothing to report. */
  | { state: "cancelled" }
  | {
      state: "failed";
      /**
       * `link_expired`: the server refused the file (an expired or missing link) and there is no
       * archived copy; `network`: the connection failed; `file`: it could not be saved here.
       */
      problem: DownloadProblem;
      /** The browser's interrupt reason (`SERVER_BAD_CONTENT`, `NETWORK_FAILED`, …). */
      reason: string;
    };

export type DownloadProblem = "link_expired" | "network" | "file" | "other";

/** What an interrupt reason says about the download (Chrome's and Firefox's shared names). */
export function problemOf(reason: string): DownloadProblem | "cancelled" {
  if (reason === "USER_CANCELED" || reason === "USER_SHUTDOWN") return "cancelled";
  if (reason === "SERVER_UNREACHABLE" || reason.startsWith("NETWORK_")) return "network";
  if (reason.startsWith("SERVER_")) return "link_expired";
  if (reason.startsWith("FILE_")) return "file";
  return "other";
}

/** A running download: bytes so far, and the size when the server told it. */
export interface DownloadProgress {
  received: number;
  total: number | null;
}
