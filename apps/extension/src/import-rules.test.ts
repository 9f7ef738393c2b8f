// @vitest-environment node
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ESLint, type Linter } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The lint rule that keeps the folders honest (eslint.config.js `folderRules`), run on source
 * text as if it were a file of each folder. Only these rules, without type information: the
 * whole type-aware configuration takes half a minute to start, and `pnpm lint` runs it anyway.
 */
const ROOT = join(import.meta.dirname, "..");
let eslint: ESLint;

beforeAll(async () => {
  const config = (await import(pathToFileURL(join(ROOT, "eslint.config.js")).href)) as {
    default: Linter.Config[];
    folderRules: Linter.Config[];
  };
  // typescript-eslint's parser and plugin, as the shared configuration registers them.
  const typescript = config.default.find((c) => c.plugins?.["@typescript-eslint"]);
  eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts", "**/*.tsx"],
        languageOptions: { ...(typescript?.languageOptions ?? {}), parserOptions: {} },
        plugins: typescript?.plugins ?? {},
      },
      ...config.folderRules,
    ],
  });
});

/** The folder rule's complaints about `code` as the file `path`. */
async function complaints(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? "parse"}: ${m.message}`);
}

const RULE = "@typescript-eslint/no-restricted-imports";
const use = (specifier: string) => `import { x } from "${specifier}";\nexport const y = x;\n`;

describe("who may import which folder", () => {
  it("lets a view import lib/shared and lib/views", async () => {
    expect(
      await complaints("src/components/tasks/row.tsx", use("../../lib/shared/errors.ts")),
    ).toEqual([]);
    expect(
      await complaints("src/components/tasks/row.tsx", use("../../lib/views/hooks.ts")),
    ).toEqual([]);
  });

  it("refuses a view that imports the background's code, from any depth", async () => {
    for (const [file, specifier] of [
      ["src/components/tasks/row.tsx", "../../lib/background/api.ts"],
      ["src/lib/views/hooks.ts", "../background/session-store.ts"],
      ["src/entrypoints/popup/app.tsx", "../../lib/background/http.ts"],
    ] as const) {
      const found = await complaints(file, use(specifier));
      expect(found, file).toHaveLength(1);
      expect(found[0]).toContain(`${RULE}: '${specifier}'`);
    }
  });

  it("refuses a type-only import of the background's code in a view too", async () => {
    const code = 'import type { Api } from "../../lib/background/api.ts";\nexport type A = Api;\n';
    expect(await complaints("src/components/app.tsx", code)).toHaveLength(1);
  });

  it("lets the background import lib/shared and its own folder", async () => {
    expect(await complaints("src/lib/background/live.ts", use("../shared/messages.ts"))).toEqual(
      [],
    );
    expect(await complaints("src/lib/background/live.ts", use("./sse.ts"))).toEqual([]);
    expect(
      await complaints("src/entrypoints/background.ts", use("../lib/background/index.ts")),
    ).toEqual([]);
  });

  it("refuses the background a view's code or Preact", async () => {
    expect(await complaints("src/lib/background/live.ts", use("../views/texts.ts"))).toHaveLength(
      1,
    );
    expect(
      await complaints("src/lib/background/live.ts", use("../../components/app.tsx")),
    ).toHaveLength(1);
    expect(await complaints("src/lib/background/live.ts", use("preact/hooks"))).toHaveLength(1);
  });

  it("keeps lib/shared free of either side", async () => {
    expect(await complaints("src/lib/shared/format.ts", use("./i18n.ts"))).toEqual([]);
    expect(await complaints("src/lib/shared/format.ts", use("../background/api.ts"))).toHaveLength(
      1,
    );
    expect(await complaints("src/lib/shared/format.ts", use("../views/texts.ts"))).toHaveLength(1);
  });

  it("leaves test helpers and other folders to themselves", async () => {
    expect(
      await complaints("src/testing/background.ts", use("../lib/background/index.ts")),
    ).toEqual([]);
    expect(
      await complaints("src/components/app.test.tsx", use("../testing/background.ts")),
    ).toEqual([]);
  });
});
