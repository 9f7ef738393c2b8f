import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../../src/cli/main.ts";
import { envVariables, parseEnv } from "../../src/env.ts";

/**
 * No container engine runs here: these read the Dockerfile and compose.yaml and check that what
 * they run — the folder, the command, the environment, the ports — is what the bundle test runs
 * and what env.ts accepts.
 */
const ROOT = join(import.meta.dirname, "../../../..");
const KNOWN = new Set(Object.keys(envVariables.shape));

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions by stage name (continuation lines joined, comments dropped). */
function dockerStages(text: string): Map<string, Instruction[]> {
  const stages = new Map<string, Instruction[]>();
  let current: Instruction[] = [];
  const joined = text.replace(/\\\n/g, " ").split("\n");
  for (const line of joined.map((l) => l.trim())) {
    if (!line || line.startsWith("#")) continue;
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === "FROM") {
      current = [];
      stages.set(/\sAS\s+(\S+)/i.exec(args)?.[1] ?? `#${stages.size}`, current);
    }
    current.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

const all = (stage: Instruction[], keyword: string) =>
  stage.filter((i) => i.keyword === keyword).map((i) => i.args);
const one = (stage: Instruction[], keyword: string) => all(stage, keyword).at(-1) ?? "";

/** `${NAME}`, `${NAME:-default}` and `${NAME:?message}` as compose reads them from `.env`. */
function interpolate(value: string, dotEnv: Record<string, string>): string {
  return value.replace(
    /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_: string, name: string, op: string | undefined, rest: string | undefined): string => {
      const set = dotEnv[name];
      if (set) return set;
      if (op === "?") throw new Error(`${name}: ${rest ?? ""}`);
      return op === "-" ? (rest ?? "") : "";
    },
  );
}

async function knownCommand(argv: string[]): Promise<boolean> {
  const io = { env: {}, out: () => undefined, err: () => undefined };
  return (await runCli([...argv, "--help"], io)) === 0;
}

const dockerfile = dockerStages(readFileSync(join(ROOT, "apps/backend/Dockerfile"), "utf8"));
const compose = parse(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as {
  services: Record<string, Record<string, unknown>>;
  volumes: Record<string, unknown>;
};

describe("the Dockerfile", () => {
  const build = dockerfile.get("build") ?? [];
  const runtime = dockerfile.get("backend") ?? [];

  it("builds the folder with the tested command and runs it as the final stage", () => {
    expect([...dockerfile.keys()].at(-1)).toBe("backend");
    expect(all(build, "RUN").join(" ")).toContain("pnpm bundle:backend /out/overture-backend");
    expect(all(runtime, "COPY")).toContain("--from=build /out/overture-backend /app");
    expect(JSON.parse(one(runtime, "ENTRYPOINT"))).toEqual(["/app/bin/overture-backend"]);
  });

  it("starts a command the folder knows", async () => {
    const cmd = JSON.parse(one(runtime, "CMD")) as string[];
    expect(cmd).toEqual(["serve"]);
    expect(await knownCommand(cmd)).toBe(true);
  });

  it("runs as a user other than root, and checks health on /readyz", () => {
    const user = one(runtime, "USER");
    expect(user).not.toMatch(/^(root|0)?$/);
    const order = runtime.map((i) => i.keyword);
    expect(order.lastIndexOf("USER")).toBeLessThan(order.indexOf("ENTRYPOINT"));
    expect(one(runtime, "HEALTHCHECK")).toMatch(/CMD .*\/readyz/);
  });

  it("sets only variables env.ts knows, and exposes the port it listens on", () => {
    const env = Object.fromEntries(
      [...one(runtime, "ENV").matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1] ?? "", m[2] ?? ""]),
    );
    expect(Object.keys(env).filter((name) => !KNOWN.has(name))).toEqual([]);
    expect(env.HOST).toBe("0.0.0.0");
    expect(one(runtime, "EXPOSE")).toBe(env.PORT);
  });
});

describe("compose.yaml", () => {
  const backend = compose.services.backend ?? {};
  // YAML gives numbers for unquoted digits; compose passes every value as text.
  const environment = backend.environment as Record<string, string | number>;
  // A `.env` with only the one variable compose insists on.
  const dotEnv = { TOKEN_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString("base64")}` };
  const resolved = () =>
    Object.fromEntries(
      Object.entries(environment).map(([name, value]) => [
        name,
        interpolate(String(value), dotEnv),
      ]),
    );

  it("builds the backend stage of the Dockerfile and runs a command it knows", async () => {
    expect(backend.build).toMatchObject({
      dockerfile: "apps/backend/Dockerfile",
      target: "backend",
    });
    expect(await knownCommand(backend.command as string[])).toBe(true);
  });

  it("sets only variables env.ts knows, and they parse with nothing but the key in .env", () => {
    expect(Object.keys(environment).filter((name) => !KNOWN.has(name))).toEqual([]);
    const config = parseEnv(resolved());
    expect(config.database).toEqual({
      driver: "pg",
      url: "postgres://overture:overture@postgres:5432/overture",
    });
    expect(config.host).toBe("0.0.0.0");
    expect(backend.ports).toContain(`127.0.0.1:${config.port}:${config.port}`);
  });

  it("refuses to start without an encryption key", () => {
    expect(() => interpolate(String(environment.TOKEN_ENCRYPTION_KEYS), {})).toThrow(
      /TOKEN_ENCRYPTION_KEYS: set TOKEN_ENCRYPTION_KEYS=/,
    );
  });

  it("keeps Postgres data in a named volume, with the user and database the backend uses", () => {
    const postgres = compose.services.postgres ?? {};
    const [volume] = (postgres.volumes as string[])[0]?.split(":") ?? [];
    expect((postgres.volumes as string[])[0]).toMatch(/:\/var\/lib\/postgresql\/data$/);
    expect(Object.keys(compose.volumes)).toContain(volume);
    const env = postgres.environment as Record<string, string>;
    const url = new URL(resolved().DATABASE_URL ?? "");
    expect(url.username).toBe(env.POSTGRES_USER);
    expect(url.pathname).toBe(`/${env.POSTGRES_DB}`);
    expect(interpolate(env.POSTGRES_PASSWORD ?? "", {})).toBe(url.password);
  });

  it("has an emulator profile the backend's default platform settings point at", () => {
    const emulator = compose.services.emulator ?? {};
    expect(emulator.profiles).toEqual(["emulator"]);
    expect(emulator.build).toMatchObject({
      dockerfile: "apps/backend/Dockerfile",
      target: "emulator",
    });
    expect(dockerfile.has("emulator")).toBe(true);
    const args = emulator.command as string[];
    const arg = (name: string) => args[args.indexOf(name) + 1];
    const config = parseEnv(resolved());
    expect(config.platform.baseUrl).toBe(`http://127.0.0.1:${arg("--port")}`);
    expect(arg("--backend-url")).toBe(config.publicUrl);
    expect(emulator.network_mode).toBe("service:backend");
    expect(backend.ports).toContain(`127.0.0.1:${arg("--port")}:${arg("--port")}`);
  });
});
