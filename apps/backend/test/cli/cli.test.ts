import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.ts";
import { openDatabase } from "../../src/db/open.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { describePg } from "../support/drivers.ts";
import { startTestBackend, testEnv, type TestBackend } from "../support/harness.ts";
import { freePort } from "../support/live.ts";

const COMMANDS = ["serve", "migrate", "check-config", "reseal", "prune", "sessions"];

/** Runs the command in-process with `env` as its whole environment; what it printed and its code. */
async function run(argv: string[], env: Record<string, string> = testEnv()) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await runCli(argv, io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("overture-backend, the command line", () => {
  it("lists every command, and explains each with --help", async () => {
    const main = await run(["--help"]);
    expect(main.code).toBe(0);
    for (const name of COMMANDS) {
      expect(main.out).toContain(`  ${name} `);
      const help = await run([name, "--help"]);
      expect(help.code, name).toBe(0);
      expect(help.out, name).toContain(`overture-backend ${name}`);
    }
  });

  it("prints the package's version for --version and version (exit 0)", async () => {
    const { version } = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"),
    ) as { version: string };
    for (const argv of [["--version"], ["version"]])
      expect(await run(argv)).toMatchObject({ code: 0, out: version });
  });

  it("refuses an unknown command, option or argument with the usage (exit 2)", async () => {
    const refusals: [string[], string][] = [
      [[], "Usage"],
      [["serv"], '"serv"'],
      [["prune", "--dry-run"], "--dry-run"],
      [["migrate", "now"], '"now"'],
      [["sessions", "revoke", "--user", "demo"], "--session <id> or --all"],
      [["sessions", "revoke", "--user", "demo", "--session", "x' or 1=1"], "UUID"],
    ];
    for (const [argv, why] of refusals) {
      const result = await run(argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.err, argv.join(" ")).toContain(why);
    }
  });

  it("reports a wrong command line before a wrong configuration", async () => {
    const result = await run(["sessions"], testEnv({ PORT: "eighty" }));
    expect(result.code).toBe(2);
    expect(result.err).toContain("say `list` or `revoke`");
    expect(result.err).not.toContain("PORT:");
  });

  it("lists every configuration problem at once and does not run (exit 2)", async () => {
    const env = testEnv({ PORT: "eighty", TOKEN_ENCRYPTION_KEYS: "nope" });
    const result = await run(["prune"], env);
    expect(result.code).toBe(2);
    expect(result.err).toContain("PORT:");
    expect(result.err).toContain("TOKEN_ENCRYPTION_KEYS:");
    // The key's value is never echoed back.
    expect(result.err).not.toContain("nope");
  });

  it.each(["k1:x", `k1:${"A".repeat(42)}=`])(
    "refuses TOKEN_ENCRYPTION_KEYS=%s as a configuration problem in every command, listed with the others (exit 2)",
    async (keys) => {
      const env = testEnv({ PORT: "eighty", TOKEN_ENCRYPTION_KEYS: keys });
      for (const argv of [["serve"], ["migrate"], ["reseal"], ["prune"], ["check-config"]]) {
        const result = await run(argv, env);
        const printed = `${result.out}\n${result.err}`;
        expect(result.code, argv[0]).toBe(2);
        expect(printed, argv[0]).toContain("PORT:");
        expect(printed, argv[0]).toMatch(/TOKEN_ENCRYPTION_KEYS: each entry must be/);
        expect(printed, argv[0]).not.toContain(keys);
      }
    },
  );

  it("refuses a DATABASE_URL that is not a URL in check-config and serve, naming it (exit 2)", async () => {
    const env = testEnv({ DATABASE_URL: "postgres://overture:s3cr/t@127.0.0.1:5432/overture" });
    for (const argv of [["check-config"], ["serve"]]) {
      const result = await run(argv, env);
      const printed = `${result.out}\n${result.err}`;
      expect(printed, argv[0]).toMatch(/DATABASE_URL: is not a valid URL/);
      expect(printed, argv[0]).not.toContain("s3cr");
      expect(result.code, argv[0]).toBe(2);
    }
  });

  it("stops `node dist/index.js` (src/index.ts) on a wrong configuration with exit 2 too", () => {
    const child = spawnSync(process.execPath, ["--import", "tsx", "src/index.ts"], {
      cwd: join(import.meta.dirname, "../.."),
      env: { PATH: process.env.PATH, ...testEnv({ TOKEN_ENCRYPTION_KEYS: "k1:x" }) },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).toMatch(/TOKEN_ENCRYPTION_KEYS: each entry must be/);
    expect(child.status).toBe(2);
  });
});

describe("overture-backend check-config", () => {
  let platform: Server;
  let platformUrl: string;
  beforeAll(async () => {
    platform = createServer((_, res) => res.writeHead(404).end());
    await new Promise<void>((done) => platform.listen(0, "127.0.0.1", done));
    const address = platform.address();
    platformUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(
    () =>
      new Promise<void>((done) => {
        platform.close(() => {
          done();
        });
      }),
  );

  it("fails a PLATFORM_BASE_URL with no token endpoint (HTTP 404), naming the variable (exit 1)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "overture-check-"));
    try {
      const env = testEnv({ PLATFORM_BASE_URL: platformUrl, PGLITE_DATA_DIR: join(dir, "db") });
      const result = await run(["check-config"], env);
      expect(result.out).toContain("configuration: ✓");
      expect(result.out).toContain(
        `platform ${platformUrl}: ✗ answers, but has no token endpoint at /api/open/oauth/token (HTTP 404): check PLATFORM_BASE_URL`,
      );
      expect(result.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 when the configuration is wrong, whatever the probes find", async () => {
    const env = testEnv({ PLATFORM_API_URL: platformUrl, SESSION_TTL_DAYS: "-1" });
    const result = await run(["check-config"], env);
    expect(result.out).toContain("configuration: 1 problem(s)");
    expect(result.code).toBe(2);
  });

  it("reports every problem, and still probes what parsed: a platform that does not answer", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const env = testEnv({
      PLATFORM_BASE_URL: closed,
      PLATFORM_API_URL: platformUrl,
      SESSION_TTL_DAYS: "-1",
      EXTENSION_ORIGINS: "https://example.com",
    });
    const result = await run(["check-config"], env);
    expect(result.out).toContain("2 problem(s)");
    expect(result.out).toContain("SESSION_TTL_DAYS");
    expect(result.out).toContain("EXTENSION_ORIGINS");
    expect(result.out).toMatch(new RegExp(`platform ${closed}: ✗ does not answer: .*ECONNREFUSED`));
    expect(result.out).toContain(`platform ${platformUrl}: ✓ reachable (HTTP 404 at its root`);
  });
});

describePg("overture-backend on a Postgres database", () => {
  let t: TestBackend;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startTestBackend({ driver: "pg" });
    env = testEnv({
      DATABASE_URL: t.databaseUrl ?? "",
      TOKEN_ENCRYPTION_KEYS: `t1:${t.config.encryptionKeys[0]?.key ?? ""}`,
      PLATFORM_BASE_URL: `http://127.0.0.1:${await freePort()}`,
      LOG_LEVEL: "silent",
    });
  });
  afterAll(() => t.close());

  it("check-config: the database answers; a wrong one does not", async () => {
    expect((await run(["check-config"], env)).out).toContain(
      "database: ✓ Postgres answers; every migration applied",
    );
    const wrong = { ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/x` };
    expect((await run(["check-config"], wrong)).out).toContain(
      "database: ✗ Postgres does not answer",
    );
  });

  it("check-config counts the migrations a new database lacks", async () => {
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    const name = `overture_cli_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    try {
      const url = new URL(t.databaseUrl ?? "");
      url.pathname = `/${name}`;
      const result = await run(["check-config"], { ...env, DATABASE_URL: url.toString() });
      expect(result.out).toMatch(
        /database: ✓ Postgres answers; [1-9]\d* migration\(s\) of this version pending/,
      );
    } finally {
      const cleanup = new pg.Client({ connectionString: t.databaseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    }
  });

  it("migrate, prune and reseal run and exit 0", async () => {
    expect(await run(["migrate"], env)).toMatchObject({
      code: 0,
      out: "migrations: none pending, the database is up to date (pg)",
    });
    const pruned = await run(["prune"], env);
    expect(pruned.code).toBe(0);
    expect(pruned.out).toContain("task_events: 0 deleted");
    expect(pruned.out).toContain("archived results: 0 removed");
    expect(await run(["reseal"], env)).toMatchObject({ code: 0, out: "re-sealed under key t1: 0" });
  });

  it("sessions: lists a user's sessions by login or id, revokes one, then all", async () => {
    const first = await t.signIn({ userAgent: "first device" });
    await t.signIn({ userAgent: "second device" });
    expect((await t.request("/api/me", { session: first.sessionToken })).status).toBe(200);
    const listed = await run(["sessions", "list", "--user", first.login], env);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`2 live session(s) of ${first.login} (${first.userId})`);
    expect(listed.out).toContain("first device");
    const ids = [...listed.out.matchAll(/^([0-9a-f-]{36}) /gm)].map((m) => m[1] ?? "");
    expect(ids).toHaveLength(2);

    const one = await run(
      ["sessions", "revoke", "--user", String(first.userId), "--session", ids[0] ?? ""],
      env,
    );
    expect(one.code).toBe(0);
    expect(one.out).toContain("revoked 1 session(s)");

    const all = await run(["sessions", "revoke", "--user", first.login, "--all"], env);
    expect(all.out).toContain("revoked 1 session(s)");
    const me = await t.request("/api/me", { session: first.sessionToken });
    expect(me.status).toBe(401);
    expect((await run(["sessions", "list", "--user", first.login], env)).out).toContain(
      "0 live session(s)",
    );
    expect(await run(["sessions", "list", "--user", "nobody"], env)).toMatchObject({ code: 1 });
  });

  it("sessions revoke of an already revoked session says so and exits 0, as --all with none does", async () => {
    const user = await t.signIn();
    const listed = await run(["sessions", "list", "--user", user.login], env);
    const [id = ""] = [...listed.out.matchAll(/^([0-9a-f-]{36}) /gm)].map((m) => m[1] ?? "");
    await run(["sessions", "revoke", "--user", user.login, "--session", id], env);
    const again = await run(["sessions", "revoke", "--user", user.login, "--session", id], env);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(new RegExp(`note: session ${id} was already revoked at \\d{4}-`));
  });

  it("sessions revoke of an unknown session says the user has no such session and exits 0", async () => {
    const user = await t.signIn();
    const unknown = "00000000-0000-4000-8000-000000000000";
    const result = await run(
      ["sessions", "revoke", "--user", user.login, "--session", unknown],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.out).toContain(`note: the user has no session ${unknown}`);
  });
});

describe("overture-backend on an embedded PGlite folder", () => {
  const dir = mkdtempSync(join(tmpdir(), "overture-cli-pglite-"));
  const env = testEnv({ PGLITE_DATA_DIR: join(dir, "db"), LOG_LEVEL: "silent" });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("migrates a new folder, then prunes it and lists and revokes sessions in it", async () => {
    expect((await run(["migrate"], env)).code).toBe(0);
    // A user with one session, written while no command holds the folder.
    const database = await openDatabase({ driver: "pglite", dataDir: join(dir, "db") });
    await database.db.execute(
      sql`insert into users (id, login, name, avatar_url) values (7, 'grace', 'Grace', '')`,
    );
    await database.db.execute(
      sql`insert into sessions (token_hash, user_id, expires_at)
          values ('h', 7, now() + interval '1 day')`,
    );
    await database.close();

    expect((await run(["prune"], env)).code).toBe(0);
    expect((await run(["sessions", "list", "--user", "grace"], env)).out).toContain(
      "1 live session(s) of grace (7)",
    );
    const revoked = await run(["sessions", "revoke", "--user", "7", "--all"], env);
    expect(revoked.out).toContain("revoked 1 session(s) of grace (7)");
    expect((await run(["sessions", "list", "--user", "grace"], env)).out).toContain(
      "0 live session(s)",
    );
  }, 60_000);

  it("migrate says how many migrations it applied, and none once up to date", async () => {
    const journal = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../drizzle/meta/_journal.json"), "utf8"),
    ) as { entries: unknown[] };
    const fresh = testEnv({ PGLITE_DATA_DIR: join(dir, "fresh"), LOG_LEVEL: "silent" });
    expect(await run(["migrate"], fresh)).toMatchObject({
      code: 0,
      out: `migrations: applied ${journal.entries.length} (pglite)`,
    });
    expect(await run(["migrate"], fresh)).toMatchObject({
      code: 0,
      out: "migrations: none pending, the database is up to date (pglite)",
    });
  }, 60_000);
});
