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
    });
  });

  it("reads environment variables, with flags taking precedence", () => {
    const env = {
      PLATFORM_EMULATOR_PORT: "5000",
      PLATFORM_EMULATOR_AUTO_APPROVE: "1",
      PLATFORM_EMULATOR_SPEED: "spec",
    };
    expect(parseCliArgs(["--port", "6000"], env)).toMatchObject({
      port: 6000,
      autoApprove: true,
      speed: "spec",
    });
  });

  it("lists every invalid value at once", () => {
    expect(() =>
      parseCliArgs(["--port", "x", "--speed", "fast", "--rotation", "sometimes"], {}),
    ).toThrow(/--port[\s\S]*--speed[\s\S]*--rotation/);
  });

  it("refuses unknown flags", () => {
    expect(() => parseCliArgs(["--colour"], {})).toThrow();
  });
});
