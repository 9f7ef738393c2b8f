import type { ViteUserConfig } from "vitest/config";

/** Shared vitest defaults: test file globs, CI JSON report, timeouts. */
export declare const testDefaults: NonNullable<ViteUserConfig["test"]>;

/** Vite resolve options that load workspace packages' source (`@overture/source` condition). */
export declare const workspaceSource: {
  resolve: { conditions: string[] };
  ssr: { resolve: { conditions: string[] } };
};
