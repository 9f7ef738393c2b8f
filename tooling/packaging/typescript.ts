// Test-only: compiles programs in a scratch project as a TypeScript consumer would, with the
// packages installed from their tarballs.
import { mkdir, realpath, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand, type CommandResult } from "./command.ts";

/** The part of a scratch project (pack.ts) that compiling in it uses: its folder and a writer. */
interface ProjectFolder {
  readonly dir: string;
  write(name: string, content: string): Promise<void>;
}

/**
 * The TypeScript settings a consumer may compile with, by name: Node's two ESM resolutions and
 * a bundler's. Every one is checked with `strict` and `exactOptionalPropertyTypes`.
 */
export const MODULE_SETTINGS = {
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  node16: { module: "node16", moduleResolution: "node16" },
  bundler: { module: "preserve", moduleResolution: "bundler" },
} as const;

export type ModuleSetting = keyof typeof MODULE_SETTINGS;

/**
 * Gives the scratch project the `@types/node` of `packageDir` (a link to it), so TypeScript
 * programs that import `node:*` compile there without another install.
 */
export async function linkNodeTypes(project: ProjectFolder, packageDir: URL): Promise<void> {
  const source = await realpath(fileURLToPath(new URL("node_modules/@types/node", packageDir)));
  await mkdir(join(project.dir, "node_modules/@types"), { recursive: true });
  await rm(join(project.dir, "node_modules/@types/node"), { recursive: true, force: true });
  await symlink(source, join(project.dir, "node_modules/@types/node"), "dir");
}

/**
 * Compiles `files` of the scratch project as a consumer would, with the strictest settings a
 * consumer is likely to have (`strict`, `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`,
 * and by default the shipped declarations checked too, `skipLibCheck: false`) and one of
 * {@link MODULE_SETTINGS}. `emit` writes JavaScript to `out/` (for `nodenext` only, which Node
 * runs as it is); otherwise nothing is written. `tsc` is the path of TypeScript's `bin/tsc`.
 */
export async function compileTypeScript(
  project: ProjectFolder,
  files: readonly string[],
  options: { tsc: string; setting: ModuleSetting; emit?: boolean; skipLibCheck?: boolean },
): Promise<CommandResult> {
  const config = {
    compilerOptions: {
      ...MODULE_SETTINGS[options.setting],
      target: "es2022",
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: options.skipLibCheck ?? false,
      types: ["node"],
      ...(options.emit ? { outDir: "out", rootDir: "." } : { noEmit: true }),
    },
    files,
  };
  const name = `tsconfig.${options.setting}${options.emit ? ".emit" : ""}.json`;
  await project.write(name, JSON.stringify(config, null, 2));
  return runCommand(process.execPath, [options.tsc, "-p", name], { cwd: project.dir });
}
