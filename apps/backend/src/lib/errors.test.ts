import { PlatformError } from "@overture/core/errors";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError, isDatabaseUnavailable } from "./errors.ts";

const socketError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe("isDatabaseUnavailable", () => {
  it.each(["ECONNREFUSED", "ECONNRESET", "57P01"])(
    "takes a driver error %s, also down a cause chain, for a database outage (the valid case)",
    (code) => {
      expect(isDatabaseUnavailable(socketError(code))).toBe(true);
      expect(isDatabaseUnavailable(new Error("Failed query", { cause: socketError(code) }))).toBe(
        true,
      );
      expect(isDatabaseUnavailable(new DatabaseUnavailableError("down"))).toBe(true);
    },
  );

  it.each(["ECONNREFUSED", "ECONNRESET"])(
    "does not take a platform error whose cause is a socket %s for a database outage",
    (code) => {
      const fetchFailed = new TypeError("fetch failed", { cause: socketError(code) });
      const platform = new PlatformError("PLATFORM_NETWORK_ERROR", "No response", {
        cause: fetchFailed,
      });
      expect(isDatabaseUnavailable(platform)).toBe(false);
      expect(isDatabaseUnavailable(new Error("while submitting", { cause: platform }))).toBe(false);
    },
  );
});
