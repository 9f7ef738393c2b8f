import { describe } from "vitest";
import { postgresUnavailableReason, type DriverName } from "./databases.ts";

// Top-level await: decided once per test file, before suites are collected.
const pgSkipReason = await postgresUnavailableReason();
if (pgSkipReason) console.warn(`[overture] skipping Postgres variants: ${pgSkipReason}`);

/**
 * Declares a suite once per database driver. The pg variant is reported as skipped (with the
 * reason in its name) when no Postgres is reachable and CI did not demand one.
 */
export function describeEachDriver(name: string, suite: (driver: DriverName) => void): void {
  describe(`${name} [pglite]`, () => {
    suite("pglite");
  });
  if (pgSkipReason)
    describe.skip(`${name} [pg] — skipped: ${pgSkipReason}`, () => {
      suite("pg");
    });
  else
    describe(`${name} [pg]`, () => {
      suite("pg");
    });
}

/** Declares a suite that needs the pg driver (a real server), skipped with the reason otherwise. */
export function describePg(name: string, suite: () => void): void {
  if (pgSkipReason) describe.skip(`${name} — skipped: ${pgSkipReason}`, suite);
  else describe(name, suite);
}
