import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/**
 * Paths pino replaces with "[redacted]" wherever they appear in a log object. Code also never
 * logs full callback or OAuth URLs (their queries carry codes, state and webhook keys): log
 * `path` fields, not `url` fields.
 */
export const REDACTED_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "headers.cookie",
  "*.headers.cookie",
  "access_token",
  "*.access_token",
  "refresh_token",
  "*.refresh_token",
  "proxy_access_token",
  "*.proxy_access_token",
  "client_secret",
  "*.client_secret",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "code_verifier",
  "*.code_verifier",
  "state",
  "*.state",
];

/** A JSON logger with secrets redacted. Tests pass a destination to capture and scan the output. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "overture-backend" },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
