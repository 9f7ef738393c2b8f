// pnpm hooks for the workspace (pnpm-workspace.yaml points `pnpmfile` here). Only packing is
// changed: installs are untouched.
"use strict";

/** The export condition that points workspaces at `src/*.ts`; it means nothing outside. */
const SOURCE_CONDITION = "@overture/source";

/** `exports` without the workspace's source condition, at every depth. */
function withoutSourceCondition(exports) {
  if (typeof exports !== "object" || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

module.exports = {
  hooks: {
    /**
     * The manifest a published package ships (`pnpm pack`, `pnpm publish`): without the source
     * condition, and without devDependencies, which name private `@overture/*@0.0.0` packages
     * no registry has and which an installed package never uses.
     */
    beforePacking(manifest) {
      const packed = { ...manifest, exports: withoutSourceCondition(manifest.exports) };
      if (manifest.exports === undefined) delete packed.exports;
      delete packed.devDependencies;
      return packed;
    },
  },
};
