import { overture, restrictEnvAccess } from "@overture/eslint-config";

export default [
  ...overture({ tsconfigRootDir: import.meta.dirname }),
  // The environment is parsed by the schemas in src/env.ts. Excepted, each for its reason:
  ...restrictEnvAccess({
    allow: [
      // The two entries hand process.env to those schemas (the main job also to the backend's
      // parseEnv, for the backend it starts); nothing else reads it.
      "src/main-job.ts",
      "src/demo.ts",
      // Tests set up the processes they start.
      "test/**",
      "**/*.test.ts",
    ],
  }),
];
