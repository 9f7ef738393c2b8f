import type { Linter } from "eslint";

export interface OvertureLintOptions {
  /** Folder of the workspace's tsconfig.json: `import.meta.dirname`. */
  tsconfigRootDir: string;
  /** Extra ignore globs. */
  ignores?: string[];
  /** Browser globals instead of Node's. */
  browser?: boolean;
}

/** Strict, type-aware flat config shared by every workspace. */
export declare function overture(options: OvertureLintOptions): Linter.Config[];
export interface RestrictEnvAccessOptions {
  /** Globs of files that may still read `process.env` (give each one's reason beside it). */
  allow?: string[];
}

/** Forbids `process.env` outside `env.ts` (after create-t3-turbo's `restrictEnvAccess`). */
export declare function restrictEnvAccess(options?: RestrictEnvAccessOptions): Linter.Config[];
export default overture;
