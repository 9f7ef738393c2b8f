// Shared flat config: strict, type-aware rules for every workspace.
// A workspace's eslint.config.js is `export default overture({ tsconfigRootDir: import.meta.dirname })`.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * @param {{ tsconfigRootDir: string, ignores?: string[], browser?: boolean }} options
 */
export function overture({ tsconfigRootDir, ignores = [], browser = false }) {
  return tseslint.config(
    {
      ignores: [
        "dist/**",
        "dist-next-*/**",
        "dist-old-*/**",
        "bench-tmp/**",
        ".output/**",
        ".wxt/**",
        "coverage/**",
        "node_modules/**",
        ...ignores,
      ],
    },
    js.configs.recommended,
    ...tseslint.configs.strictTypeChecked,
    ...tseslint.configs.stylisticTypeChecked,
    {
      languageOptions: {
        globals: browser ? { ...globals.browser } : { ...globals.node },
        parserOptions: { projectService: true, tsconfigRootDir },
      },
      rules: {
        // The two rules this config exists for: no forgotten promises, no async where void is expected.
        "@typescript-eslint/no-floating-promises": "error",
        "@typescript-eslint/no-misused-promises": "error",
        "@typescript-eslint/consistent-type-imports": [
          "error",
          { fixStyle: "inline-type-imports" },
        ],
        "@typescript-eslint/no-unused-vars": [
          "error",
          { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
        ],
        "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
        "@typescript-eslint/no-unnecessary-condition": [
          "error",
          { allowConstantLoopConditions: true },
        ],
        "no-console": "off",
      },
    },
    {
      files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
      ...tseslint.configs.disableTypeChecked,
    },
    prettier,
  );
}

const ENV_MESSAGE =
  "Read the environment only in the app's env.ts (parsed once, with a schema) and pass the values on.";

/**
 * Env in one place (after create-t3-turbo's `restrictEnvAccess`): `process.env` may be read only
 * by an `env.ts`, which parses it with a schema and stops with every problem listed. An app adds
 * this after `overture(...)`; `allow` names files that may still read it, each with its reason in
 * the app's config (tests and benchmarks that set up the processes they start, say).
 *
 * @param {{ allow?: string[] }} [options]
 */
export function restrictEnvAccess({ allow = [] } = {}) {
  return tseslint.config({
    files: ["**/*.ts", "**/*.tsx", "**/*.js", "**/*.mjs"],
    ignores: ["**/env.ts", ...allow],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: ENV_MESSAGE },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "process", importNames: ["env"], message: ENV_MESSAGE },
            { name: "node:process", importNames: ["env"], message: ENV_MESSAGE },
          ],
        },
      ],
    },
  });
}

export default overture;
