#!/usr/bin/env node
/**
 * `pnpm bundle:backend <folder>` (from the repository root): builds the backend and writes a
 * folder that runs with Node alone — no pnpm, no repository:
 *
 *   <folder>/bin/overture-backend   the command (serve, migrate, check-config, …)
 *   <folder>/dist/                  the backend, bundled by tsup with its dependencies
 *   <folder>/drizzle/               the SQL migrations `migrate` and `serve` apply
 *   <folder>/node_modules/@electric-sql/pglite   the one dependency kept out of the bundle: it
 *                                   loads its WebAssembly and data files from next to its module
 *
 * Copy the folder anywhere (a container image, a server) and run `bin/overture-backend serve`.
 * Bundled rather than `pnpm deploy`ed: the bundle starts ~3x faster (tsup.config.ts) and the
 * folder holds ~30 MB, nearly all of it PGlite.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const BACKEND = fileURLToPath(new URL("..", import.meta.url));
const ROOT = resolve(BACKEND, "../..");

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** A refusal of the command line (the target folder): printed as one line, no stack trace. */
export class BundleRefused extends Error {}

/**
 * Writes the self-contained backend into `target` (which must not exist or be empty). The bundle
 * is built straight into it, so the package's own `dist/` (and whatever reads it) is untouched.
 */
export function bundleBackend(target) {
  const out = resolve(target);
  if (existsSync(out) && readdirSync(out).length > 0)
    throw new BundleRefused(`${out} exists and is not empty: give a new folder`);
  // The workspace packages the backend inlines (@overture/core) are bundled from their build.
  execFileSync(
    "pnpm",
    [
      "exec",
      "turbo",
      "run",
      "build",
      "--filter=@overture/backend^...",
      "--output-logs=errors-only",
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
  );
  execFileSync("pnpm", ["exec", "tsup", "--out-dir", join(out, "dist"), "--silent"], {
    cwd: BACKEND,
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (const part of ["drizzle", "bin"])
    cpSync(join(BACKEND, part), join(out, part), { recursive: true });
  cpSync(join(BACKEND, ".env.example"), join(out, ".env.example"));

  const pglite = realpathSync(join(BACKEND, "node_modules/@electric-sql/pglite"));
  const pglitePackage = readJson(join(pglite, "package.json"));
  if (Object.keys(pglitePackage.dependencies ?? {}).length > 0)
    throw new Error("@electric-sql/pglite now has dependencies: copy them into the bundle too");
  cpSync(pglite, join(out, "node_modules/@electric-sql/pglite"), {
    recursive: true,
    dereference: true,
  });

  const backendPackage = readJson(join(BACKEND, "package.json"));
  const manifest = {
    name: "overture-backend",
    version: backendPackage.version,
    private: true,
    description: backendPackage.description,
    type: "module",
    bin: { "overture-backend": "bin/overture-backend" },
    // The Node lines test/bundle/bundle.test.ts has passed on (20 here; 22, 24 and 26 run by
    // hand); the Dockerfile's image is the newest of them.
    engines: { node: "^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0" },
    dependencies: { "@electric-sql/pglite": pglitePackage.version },
  };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return out;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [target] = process.argv.slice(2);
  if (!target || target.startsWith("-")) {
    process.stderr.write("Usage: pnpm bundle:backend <folder>   (a new or empty folder)\n");
    process.exit(2);
  }
  let out;
  try {
    out = bundleBackend(target);
  } catch (error) {
    if (!(error instanceof BundleRefused)) throw error;
    process.stderr.write(`bundle:backend: ${error.message}\n`);
    process.exit(2);
  }
  process.stdout.write(
    `Backend written to ${out}\nRun: ${join(out, "bin/overture-backend")} serve\n`,
  );
}
