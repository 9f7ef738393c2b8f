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
    { ignores: ["dist/**", ".output/**", ".wxt/**", "coverage/**", "node_modules/**", ...ignores] },
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

export default overture;
