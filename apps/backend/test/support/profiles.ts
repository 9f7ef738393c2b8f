import type { ProfileName } from "@overture/platform-emulator";
import { describe } from "vitest";
import type { DriverName } from "./databases.ts";
import { describeEachDriver } from "./drivers.ts";

/**
 * The emulator's response profiles: `readable` (its defaults) and `live` (shaped as the live
 * platform answers, docs/platform-facts.md: 32-character task ids, ms timestamps, `output.url`
 * beside `output.file_url`, both failure shapes, signed 7-day links, 429 with a message).
 */
export const EMULATOR_PROFILES: readonly ProfileName[] = ["readable", "live"];

/**
 * Declares a suite once per emulator profile and database driver. Meant for the few flows whose
 * point is the platform's response shapes; the rest of the suite runs on the readable profile.
 */
export function describeEachProfile(
  name: string,
  suite: (profile: ProfileName, driver: DriverName) => void,
): void {
  for (const profile of EMULATOR_PROFILES) {
    describe(`${name} (${profile} profile)`, () => {
      describeEachDriver(name, (driver) => {
        suite(profile, driver);
      });
    });
  }
}
