import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.ts";

describe("CLI options", () => {
  it("defaults to 127.0.0.1:4010, demo speed, raw query reading, rotate, no auto-approve", () => {
    expect(parseCliArgs([], {})).toMatchObject({
      host: "127.0.0.1",
      port: 4010,
      apiPort: undefined,
      speed: "demo",
      scale: 1,
      autoApprove: false,
      queryReading: "raw",
      rotation: "rotate",
      profile: "readable",
      basicAuthEncoding: "spec",
    });
  });

  it("reads flags", () => {
    const args = [
      "--port",
      "0",
      "--api-port",
      "4011",
      "--speed",
      "spec",
      "--scale",
      "60",
      "--auto-approve",
      "--query-reading",
      "form-decoded",
      "--rotation",
      "rotate-detect-reuse",
      "--seed",
      "s.json",
      "--failure-rate",
      "0.2",
      "--profile",
      "live",
      "--basic-auth-encoding",
      "either",
      "--backend-url",
      "http://127.0.0.1:9000",
      "--data-dir",
      ".data/emulator",
    ];
    expect(parseCliArgs(args, {})).toMatchObject({
      port: 0,
      apiPort: 4011,
      speed: "spec",
      scale: 60,
      autoApprove: true,
      queryReading: "form-decoded",
      rotation: "rotate-detect-reuse",
      seedFile: "s.json",
      failureRate: 0.2,
      profile: "live",
      basicAuthEncoding: "either",
      backendUrl: "http://127.0.0.1:9000",
      dataDir: ".data/emulator",
    });
  });

  it("reads environment variables, with flags taking precedence", () => {
    const env = {
      PLATFORM_EMULATOR_PORT: "5000",
      PLATFORM_EMULATOR_AUTO_APPROVE: "1",
      PLATFORM_EMULATOR_SPEED: "spec",
      PLATFORM_EMULATOR_STATE_FILE: "/tmp/emu.json",
      PLATFORM_EMULATOR_QUERY_READING: "percent-decoded",
    };
    expect(parseCliArgs(["--port", "6000"], env)).toMatchObject({
      port: 6000,
      autoApprove: true,
      speed: "spec",
      stateFile: "/tmp/emu.json",
      queryReading: "percent-decoded",
    });
  });

  it("lists every invalid value at once", () => {
    expect(() =>
      parseCliArgs(
        [
          "--port",
          "x",
          "--backend-url",
          "ftp://x",
          "--speed",
          "fast",
          "--rotation",
          "sometimes",
          "--profile",
          "prod",
        ],
        {},
      ),
    ).toThrow(/--port[\s\S]*--backend-url[\s\S]*--profile[\s\S]*--speed[\s\S]*--rotation/);
  });

  it("reads flags after the -- that pnpm run passes through (pnpm start -- --port 4317)", () => {
    expect(parseCliArgs(["--", "--port", "4317", "--profile", "live"], {})).toMatchObject({
      port: 4317,
      profile: "live",
    });
  });

  it("reads --quota-retry-after (or PLATFORM_EMULATOR_QUOTA_RETRY_AFTER) as whole seconds; none by default", () => {
    expect(parseCliArgs([], {}).quotaRetryAfter).toBeUndefined();
    expect(parseCliArgs(["--quota-retry-after", "30"], {}).quotaRetryAfter).toBe(30);
    expect(parseCliArgs([], { PLATFORM_EMULATOR_QUOTA_RETRY_AFTER: "0" }).quotaRetryAfter).toBe(0);
  });

  it("refuses a --quota-retry-after that is not a whole number of seconds", () => {
    for (const bad of ["1.5", "soon", "-1"])
      expect(() => parseCliArgs([`--quota-retry-after=${bad}`], {})).toThrow(
        /--quota-retry-after: invalid value/,
      );
  });

  it("reads --timestamp-clock (or PLATFORM_EMULATOR_TIMESTAMP_CLOCK); unset leaves the option's default", () => {
    expect(parseCliArgs([], {}).timestampClock).toBeUndefined();
    expect(parseCliArgs(["--timestamp-clock", "emulator"], {}).timestampClock).toBe("emulator");
    const env = { PLATFORM_EMULATOR_TIMESTAMP_CLOCK: "wall" };
    expect(parseCliArgs([], env).timestampClock).toBe("wall");
  });

  it("refuses a --timestamp-clock other than wall or emulator", () => {
    expect(() => parseCliArgs(["--timestamp-clock", "emulated"], {})).toThrow(
      /--timestamp-clock: expected emulator \| wall, got "emulated"/,
    );
  });

  it("refuses unknown flags", () => {
    expect(() => parseCliArgs(["--colour"], {})).toThrow();
  });
});
