import { resolve } from "node:path";
import { z } from "zod";

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/**
 * The main job's own settings, read once (the backend's are built from them, see stack.ts).
 * Port 0 means "any free port". Every other backend variable in the environment (LOG_LEVEL,
 * rate limits, …) passes through to the backend's own schema.
 */
export const mainJobEnvSchema = z.object({
  PORT: port(8787),
  EMULATOR_PORT: port(4010),
  OVERTURE_DATA_DIR: z.string().min(1).default(".data"),
  LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("warn"),
  // `live`: answers shaped as the live platform's, and results as large as real ones (48 kHz stereo).
  EMULATOR_PROFILE: z.enum(["readable", "live"]).default("readable"),
});

export interface MainJobEnv {
  backendPort: number;
  emulatorPort: number;
  dataDir: string;
  logLevel: string;
  emulatorProfile?: "readable" | "live";
}

export function parseMainJobEnv(env: Record<string, string | undefined>): MainJobEnv {
  const parsed = mainJobEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  - ${issue.path.join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid main job settings:\n${lines.join("\n")}`);
  }
  const value = parsed.data;
  return {
    backendPort: value.PORT,
    emulatorPort: value.EMULATOR_PORT,
    dataDir: resolve(value.OVERTURE_DATA_DIR),
    logLevel: value.LOG_LEVEL,
    emulatorProfile: value.EMULATOR_PROFILE,
  };
}

/**
 * The headless demo's settings: where the audio goes, and where the running main job is — by
 * default read from the addresses it wrote to its data folder, so any ports work.
 */
export const demoEnvSchema = z.object({
  OVERTURE_DATA_DIR: z.string().min(1).default(".data"),
  OVERTURE_BACKEND_URL: z.url().optional(),
  OVERTURE_PLATFORM_URL: z.url().optional(),
  OVERTURE_DEMO_OUT: z.string().min(1).default("demo-output"),
});
