import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../../src/cli/main.ts";
import { envVariables, parseEnv } from "../../src/env/env.ts";

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

/** `NAME=value` lines of an env file (no quotes in ours); `# NAME=` lines are documented, unset. */
function envFile(text: string): { set: Record<string, string>; documented: Set<string> } {
  const set: Record<string, string> = {};
  const documented = new Set<string>();
  for (const line of text.split("\n")) {
    const [, commented, name = "", value = ""] = /^(# )?(\w+)=(.*)$/.exec(line) ?? [];
    if (!name) continue;
    documented.add(name);
    if (!commented) set[name] = value;
  }
  return { set, documented };
}

/** The systemd unit docs/self-hosting.md shows, as `key → values` of its [Service] section. */
function documentedUnit(markdown: string): Map<string, string[]> {
  const [, ini = ""] = /```ini\n([\s\S]*?)```/.exec(markdown) ?? [];
  const service = ini.split(/^\[Service\]$/m)[1]?.split(/^\[/m)[0] ?? "";
  const keys = new Map<string, string[]>();
  for (const line of service.split("\n")) {
    const [, key = "", value = ""] = /^(\w+)=(.*)$/.exec(line.trim()) ?? [];
    if (key) keys.set(key, [...(keys.get(key) ?? []), value]);
  }
  return keys;
}

const seconds = (value: string) => {
  const [, amount = "NaN", unit = "s"] = /^(\d+)(s|m)?$/.exec(value) ?? [];
  return Number(amount) * (unit === "m" ? 60 : 1);
};

const selfHosting = readFileSync(join(ROOT, "docs/self-hosting.md"), "utf8");
const example = envFile(readFileSync(join(ROOT, "apps/backend/.env.example"), "utf8"));
const dockerText = readFileSync(join(ROOT, "apps/backend/Dockerfile"), "utf8");
const dockerfile = dockerStages(dockerText);

/** The `engines.node` the bundle's manifest gets (scripts/bundle.mjs writes it). */
function bundleEngines(): string {
  const script = readFileSync(join(ROOT, "apps/backend/scripts/bundle.mjs"), "utf8");
  return /engines: \{ node: "([^"]+)" \}/.exec(script)?.[1] ?? "";
}
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

  it("installs from the manifests and the lockfile before it copies the sources", () => {
    const copies = build.map((i, at) => ({ ...i, at })).filter((i) => i.keyword === "COPY");
    const everything = copies.find((i) => i.args === ". .")?.at ?? -1;
    const install = build.findIndex(
      (i) => i.keyword === "RUN" && i.args.includes("pnpm install --frozen-lockfile"),
    );
    expect(everything).toBeGreaterThan(install);
    expect(install).toBeGreaterThan(-1);
    const before = copies.filter((i) => i.at < install).flatMap((i) => i.args.split(/\s+/));
    expect(before).toEqual(expect.arrayContaining(["pnpm-lock.yaml", "pnpm-workspace.yaml"]));
    // Every workspace's manifest, or the frozen install refuses the lockfile.
    const workspaces = ["apps", "packages", "tooling"].flatMap((group) =>
      readdirSync(join(ROOT, group), { withFileTypes: true })
        .filter(
          (entry) =>
            entry.isDirectory() && existsSync(join(ROOT, group, entry.name, "package.json")),
        )
        .map((entry) => `${group}/${entry.name}/package.json`),
    );
    expect(workspaces.length).toBeGreaterThan(5);
    expect(before).toEqual(expect.arrayContaining(workspaces));
  });

  it("builds the emulator image from its deployed package, not from the build stage", () => {
    const emulator = dockerfile.get("emulator") ?? [];
    expect(one(emulator, "FROM")).not.toMatch(/^build\b/);
    expect(all(build, "RUN").join(" ")).toMatch(
      /pnpm --filter @overture\/platform-emulator deploy --legacy --prod \/out\/platform-emulator/,
    );
    expect(all(emulator, "COPY")).toEqual(["--from=build /out/platform-emulator /app"]);
  });

  it("runs every stage on one Node line, one the folder's engines name", () => {
    const image = /ARG NODE_IMAGE=(\S+)/.exec(dockerText)?.[1] ?? "";
    const [, major = ""] = /^node:(\d+)-/.exec(image) ?? [];
    for (const [name, stage] of dockerfile)
      expect(one(stage, "FROM"), name).toMatch(/^\$\{NODE_IMAGE\}/);
    expect(bundleEngines()).toContain(`^${major}.`);
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

  it("passes every variable of .env to the backend, under the container's own HOST, PORT and DATABASE_URL", () => {
    expect(backend.env_file).toEqual([{ path: ".env", required: false }]);
    // `.env` copied from .env.example, with a real key: what the backend's process gets.
    const key = `k1:${Buffer.alloc(32, 2).toString("base64")}`;
    const dotEnvFile: Record<string, string> = {
      ...example.set,
      TOKEN_ENCRYPTION_KEYS: key,
      ARCHIVE_ALLOWED_HOSTS: "files.example.com:8443",
    };
    const fromEnvironment = Object.fromEntries(
      Object.entries(environment).map(([name, value]) => [
        name,
        interpolate(String(value), dotEnvFile),
      ]),
    );
    const container = { ...dotEnvFile, ...fromEnvironment };
    const reaching = Object.keys(dotEnvFile).filter((name) => KNOWN.has(name));
    expect(reaching).toEqual(
      expect.arrayContaining(["ARCHIVE_ALLOWED_HOSTS", "ARCHIVE_QUOTA_MB", "SESSION_TTL_DAYS"]),
    );
    for (const name of reaching)
      expect(container[name], name).toBe(fromEnvironment[name] ?? dotEnvFile[name]);
    const config = parseEnv(container);
    expect(config.host).toBe("0.0.0.0");
    expect(config.port).toBe(8787);
    expect(config.database).toMatchObject({ driver: "pg" });
    expect(container.ARCHIVE_ALLOWED_HOSTS).toBe("files.example.com:8443");
    expect(container.NODE_ENV).toBe("production");
  });

  it("documents in .env.example every variable it reads from .env", () => {
    const text = JSON.stringify(compose.services);
    const read = [...text.matchAll(/\$\{(\w+)/g)].map((m) => m[1] ?? "");
    expect(read).toContain("POSTGRES_PASSWORD");
    expect(read.filter((name) => !example.documented.has(name))).toEqual([]);
  });

  it("gives the backend as long to stop as the documented systemd unit", () => {
    const unit = documentedUnit(selfHosting);
    const budget = seconds(unit.get("TimeoutStopSec")?.[0] ?? "");
    expect(budget).toBeGreaterThanOrEqual(30);
    expect(seconds(String(backend.stop_grace_period))).toBe(budget);
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
    const args = (emulator.command as (string | number)[]).map((a) =>
      interpolate(String(a), dotEnv),
    );
    const arg = (name: string) => args[args.indexOf(name) + 1];
    const config = parseEnv(resolved());
    expect(config.platform.baseUrl).toBe(`http://127.0.0.1:${arg("--port")}`);
    expect(arg("--backend-url")).toBe(config.publicUrl);
    expect(emulator.network_mode).toBe("service:backend");
    expect(backend.ports).toContain(`127.0.0.1:${arg("--port")}:${arg("--port")}`);
  });

  it("makes the emulator's result links ones the backend downloads: its --public-url is PLATFORM_BASE_URL", () => {
    const emulator = compose.services.emulator ?? {};
    const args = (emulator.command as (string | number)[]).map((a) =>
      interpolate(String(a), dotEnv),
    );
    const publicUrl = args[args.indexOf("--public-url") + 1] ?? "";
    expect(args).toContain("--public-url");
    // The archiver fetches result links only on PLATFORM_BASE_URL's origin (or an allowed host);
    // the emulator in the backend's network namespace is reached there.
    expect(new URL(publicUrl).origin).toBe(new URL(parseEnv(resolved()).platform.baseUrl).origin);
    expect(new URL(publicUrl).hostname).not.toBe("0.0.0.0");
  });

  it("sends the emulator's redirects and webhooks to the backend's PUBLIC_URL, whatever it is", () => {
    const emulator = compose.services.emulator ?? {};
    for (const publicUrl of ["http://127.0.0.1:8787", "https://overture.example.com"]) {
      const env = { ...dotEnv, PUBLIC_URL: publicUrl };
      const args = (emulator.command as (string | number)[]).map((a) =>
        interpolate(String(a), env),
      );
      const config = parseEnv(
        Object.fromEntries(
          Object.entries(environment).map(([name, value]) => [
            name,
            interpolate(String(value), env),
          ]),
        ),
      );
      expect(args[args.indexOf("--backend-url") + 1]).toBe(config.publicUrl);
      expect(config.publicUrl).toBe(publicUrl);
    }
  });
});

describe("the systemd unit of docs/self-hosting.md", () => {
  const unit = documentedUnit(selfHosting);

  it("runs commands the folder knows", async () => {
    for (const key of ["ExecStartPre", "ExecStart"]) {
      const [bin, ...args] = (unit.get(key)?.[0] ?? "").split(" ");
      expect(bin).toMatch(/\/bin\/overture-backend$/);
      expect(await knownCommand(args), key).toBe(true);
    }
  });

  it("leaves the archiver a writable temporary folder under ProtectSystem=strict", () => {
    expect(unit.get("ProtectSystem")).toEqual(["strict"]);
    const privateTmp = unit.get("PrivateTmp")?.[0] === "true";
    const tmpWritable = (unit.get("ReadWritePaths") ?? []).some((paths) =>
      paths.split(/\s+/).includes("/tmp"),
    );
    expect(privateTmp || tmpWritable).toBe(true);
  });

  it("is given an environment file whose documented lines carry no comment after the value", () => {
    // systemd's EnvironmentFile= keeps `# …` after a value as part of it.
    const step4 = selfHosting.split("## 4. Configure")[1]?.split("## 5.")[0] ?? "";
    const block = [...step4.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((m) => m[1] ?? "")
      .find((text) => text.includes("PUBLIC_URL="));
    const settings = (block ?? "").split("\n").filter((line) => /^\w+=/.test(line));
    expect(settings.length).toBeGreaterThan(10);
    expect(settings.filter((line) => /\s#/.test(line))).toEqual([]);
  });
});

describe("docs/self-hosting.md, followed literally", () => {
  const section = (from: string, to: string) => selfHosting.split(from)[1]?.split(to)[0] ?? "";
  const shBlocks = (text: string) =>
    [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");

  it("sets TRUST_PROXY=true only once a proxy is in front, not in step 4's example", () => {
    const step4 = section("## 4. Configure", "## 5.");
    const block = shBlocks(step4).find((text) => text.includes("PUBLIC_URL=")) ?? "";
    expect(block).toMatch(/^TRUST_PROXY=false$/m);
    expect(section("## 6. HTTPS", "## 7.")).toContain("TRUST_PROXY=true");
  });

  it("gives the settings file to the service's user to read, and runs the commands as that user", () => {
    const step4 = section("## 4. Configure", "## 5.");
    const [, mode = "", group = ""] =
      /install -m (\d+) -o root -g (\w+) \S+ \/etc\/overture-backend\.env/.exec(step4) ?? [];
    expect(mode).toBe("640");
    expect(documentedUnit(selfHosting).get("User")).toEqual([group]);
    // Sourcing it in a shell needs read access the operator's own user lacks (and expands `$`).
    expect(selfHosting).not.toMatch(/\. \/etc\/overture-backend\.env/);
    expect(section("## 5. Check", "## 6.")).toMatch(
      /sudo -u overture .*--env-file=\/etc\/overture-backend\.env/,
    );
  });

  it("restores a backup with a command that works into the existing database and a new one", () => {
    const restores = [...selfHosting.matchAll(/`(pg_restore [^`]+)`/g)].map((m) => m[1] ?? "");
    expect(restores.length).toBeGreaterThan(0);
    for (const command of restores)
      if (command.includes("--clean")) expect(command).toContain("--if-exists");
    expect(selfHosting).toMatch(/stop every\s+instance first/i);
  });

  it("leaves HOST and PGLITE_DATA_DIR unset in .env.example, so `docker run --env-file` keeps the image's", () => {
    const runtime = dockerfile.get("backend") ?? [];
    const image = Object.fromEntries(
      [...one(runtime, "ENV").matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1] ?? "", m[2] ?? ""]),
    );
    // --env-file wins over the image's ENV, as `docker run` applies them.
    const key = `k1:${Buffer.alloc(32, 3).toString("base64")}`;
    const config = parseEnv({ ...image, ...example.set, TOKEN_ENCRYPTION_KEYS: key });
    expect(config.host).toBe("0.0.0.0");
    expect(config.database).toEqual({ driver: "pglite", dataDir: "/data/pglite" });
    const volume = JSON.parse(one(runtime, "VOLUME")) as string[];
    expect(volume.some((folder) => "/data/pglite".startsWith(`${folder}/`))).toBe(true);
  });

  it("leaves a .env with a working key of its own after section 10's commands, run once or twice", () => {
    const dir = mkdtempSync(join(tmpdir(), "overture-dotenv-"));
    try {
      mkdirSync(join(dir, "apps/backend"), { recursive: true });
      copyFileSync(join(ROOT, "apps/backend/.env.example"), join(dir, "apps/backend/.env.example"));
      const step10 = section("## 10. Containers", "## 11.");
      const script = shBlocks(step10)
        .flatMap((block) => block.split("\n"))
        .filter((line) => /\.env\b/.test(line) && !/^\s*docker /.test(line))
        .join("\n");
      expect(script).toContain("cp apps/backend/.env.example .env");
      const run = () => execFileSync("sh", ["-ec", script], { cwd: dir });
      run();
      const first = envFile(readFileSync(join(dir, ".env"), "utf8")).set;
      expect(parseEnv(first).encryptionKeys).toHaveLength(1);
      run();
      const second = envFile(readFileSync(join(dir, ".env"), "utf8")).set;
      expect(second.TOKEN_ENCRYPTION_KEYS).toBe(first.TOKEN_ENCRYPTION_KEYS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
