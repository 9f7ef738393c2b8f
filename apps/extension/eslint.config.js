import { overture, restrictEnvAccess } from "@overture/eslint-config";

export default [
  ...overture({ tsconfigRootDir: import.meta.dirname, browser: true }),
  // The extension reads no environment at run time (WXT inlines what the build knows). Excepted:
  // the browser tests and their config, which find Chromium and the backend to start (CHROMIUM_PATH).
  ...restrictEnvAccess({ allow: ["e2e/**", "bench/**", "vitest.e2e.config.ts"] }),
];
