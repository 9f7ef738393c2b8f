import { overture, restrictEnvAccess } from "@overture/eslint-config";

export default [
  ...overture({ tsconfigRootDir: import.meta.dirname }),
  // The environment is read by src/env/env.ts alone. Excepted, each for its reason:
  ...restrictEnvAccess({
    allow: [
      // Tests and benchmarks set up the processes and databases they start (TEST_DATABASE_URL,
      // a child backend's environment); they are not the app reading its configuration.
      "test/**",
      "bench/**",
      "**/*.test.ts",
    ],
  }),
];
