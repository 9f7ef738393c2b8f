import { join } from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The lint rule that keeps the environment in one place (tooling/eslint: restrictEnvAccess).
const ROOT = join(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

async function restrictedIn(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith("no-restricted-") ?? false)
    .map((m) => m.ruleId ?? "");
}

describe("reading the environment", () => {
  // Type-aware linting builds the TypeScript program first (seconds): once, before the tests.
  beforeAll(async () => {
    await eslint.lintText("", { filePath: join(ROOT, "src/env/env.ts") });
  });

  it("is refused in a source file other than env.ts", async () => {
    expect(await restrictedIn("src/index.ts", "export const port = process.env.PORT;\n")).toEqual([
      "no-restricted-properties",
    ]);
  });

  it("is refused through an import of process's env", async () => {
    expect(
      await restrictedIn(
        "src/index.ts",
        'import { env } from "node:process";\nexport const port = env.PORT;\n',
      ),
    ).toEqual(["no-restricted-imports"]);
  });

  it("is allowed in env.ts", async () => {
    expect(await restrictedIn("src/env/env.ts", "export const port = process.env.PORT;\n")).toEqual(
      [],
    );
  });
});
