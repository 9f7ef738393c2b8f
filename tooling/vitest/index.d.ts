import type { ViteUserConfig } from "vitest/config";

/** Shared vitest defaults: test file globs, CI JSON report, timeouts. */
export declare const testDefaults: NonNullable<ViteUserConfig["test"]>;
