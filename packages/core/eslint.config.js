import { overture } from "@overture/eslint-config";

export default [
  ...overture({ tsconfigRootDir: import.meta.dirname, browser: true }),
  {
    // core runs unchanged in the browser, the backend and the emulator: Web APIs only.
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts", "src/**/*.test-d.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: ["node:*", "fs", "crypto", "http", "https", "buffer"] },
      ],
      "no-restricted-globals": ["error", "Buffer", "process", "require", "__dirname"],
    },
  },
];
