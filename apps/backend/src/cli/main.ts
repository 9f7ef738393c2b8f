import { parseArgs, type ParseArgsConfig } from "node:util";
// Inlined by the bundler, so the bundle reports the version it was built from.
import backendPackage from "../../package.json" with { type: "json" };
import type { Config } from "../env/env.ts";
import { checkConfig } from "./check-config.ts";
import { type CliIo, CommandFailed, configOrReport, EXIT, processIo } from "./io.ts";
import { migrate, prune, reseal } from "./maintenance.ts";
import { sessionsCommand } from "./sessions.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface Command {
  summary: string;
  usage: string;
  /** Besides `--help`, which every command has. */
  options?: Options;
  /** Runs with a parsed configuration; a bad one is reported and the command does not run. */
  run?(context: {
    config: Config;
    io: CliIo;
    values: Values;
    positionals: string[];
  }): Promise<number>;
  /** A problem with the command line, reported before the configuration is read. */
  validate?(values: Values, positionals: string[]): string | undefined;
  /** Reads the configuration itself (check-config reports a bad one instead of stopping). */
  standalone?(io: CliIo): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: "Migrate the database, then serve HTTP and run the background workers",
    usage: `overture-backend serve

Applies pending migrations (instances starting together take turns under an advisory lock),
listens on HOST:PORT and stops gracefully on SIGTERM or SIGINT. Configured by the environment.`,
    run: async ({ config }) => {
      const { serve } = await import("./serve.ts");
      await serve(config);
      return EXIT.ok;
    },
  },
  migrate: {
    summary: "Apply pending database migrations and exit (a release step)",
    usage: `overture-backend migrate

Applies the migrations shipped with this version to DATABASE_URL (or the PGlite folder,
creating it when missing), says how many it applied (0: already up to date) and exits.
\`serve\` migrates too; running this first makes a failed migration fail the release,
not the start of every instance.`,
    run: ({ config, io }) => migrate(config, io),
  },
  "check-config": {
    summary: "Report every configuration problem and whether the database and platform answer",
    usage: `overture-backend check-config

Parses the environment and lists every problem at once, then probes the database and
PLATFORM_BASE_URL (and PLATFORM_API_URL). The platform's token endpoint is asked to exchange
a made-up code: refusing the client (HTTP 401, invalid_client) means PLATFORM_CLIENT_ID,
PLATFORM_CLIENT_SECRET or PLATFORM_CLIENT_AUTH is wrong; refusing only the code means the
credentials were accepted. Opens no PGlite folder.

Exits 0 when everything passes, 2 when the configuration is wrong, 1 when it parses but the
database or the platform check fails.`,
    standalone: (io) => checkConfig(io),
  },
  reseal: {
    summary: "Re-encrypt stored tokens and secrets under the current key now",
    usage: `overture-backend reseal

After a key rotation (TOKEN_ENCRYPTION_KEYS=<new>,<old>), re-encrypts every value sealed with an
older key under the first one, so the old key can be dropped. Running instances do the same
when they start and hourly; this does it now. Exits 1 if some value opens with no listed key.
On PGlite, stop the server first (the command refuses a folder a server holds).`,
    run: ({ config, io }) => reseal(config, io),
  },
  prune: {
    summary: "Delete rows past their retention age (RETENTION_*) now",
    usage: `overture-backend prune

Deletes webhook events, task events and webhook rejections older than their RETENTION_* age,
and sign-in attempts and hand-off codes expired for longer than RETENTION_EXPIRED_SIGN_IN_HOURS,
in batches. Running instances do the same every RETENTION_INTERVAL_MINUTES.
On PGlite, stop the server first (the command refuses a folder a server holds).`,
    run: ({ config, io }) => prune(config, io),
  },
  sessions: {
    summary: "List or revoke a user's sessions (signed-in devices)",
    usage: `overture-backend sessions list --user <platform user id | login>
overture-backend sessions revoke --user <id | login> (--session <session id> | --all)

A revoked session is refused on its next request by every instance, and its live-event streams
end at once. Revoking a session that is unknown or already revoked changes nothing, says why
and exits 0, as \`--all\` does for a user with no live session.
On PGlite, stop the server first (the command refuses a folder a server holds).`,
    options: {
      user: { type: "string" },
      session: { type: "string" },
      all: { type: "boolean", default: false },
    },
    validate: (values, positionals) => {
      const [action] = positionals;
      const session = typeof values.session === "string" ? values.session : undefined;
      return action !== "list" && action !== "revoke"
        ? "say `list` or `revoke`"
        : typeof values.user !== "string" || !values.user
          ? "--user is required"
          : action === "revoke" && (session === undefined) === (values.all !== true)
            ? "revoke needs --session <id> or --all (one of them)"
            : session !== undefined && !UUID.test(session)
              ? "--session must be a session id (a UUID, as `sessions list` shows)"
              : undefined;
    },
    run: async ({ config, io, values, positionals }) => {
      const [action] = positionals;
      const user = typeof values.user === "string" ? values.user : "";
      const session = typeof values.session === "string" ? values.session : undefined;
      const all = values.all === true;
      return sessionsCommand(config, io, {
        action: action === "list" ? "list" : "revoke",
        user,
        session,
        all,
      });
    },
  },
};

class UsageError extends Error {}

const HELP_OPTION: Options = { help: { type: "boolean", short: "h", default: false } };

export function mainUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    "Usage: overture-backend <command> [options]",
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    "",
    "Every command reads its configuration from the environment (docs/self-hosting.md).",
    "`overture-backend <command> --help` tells more; `overture-backend --version` the version.",
  ].join("\n");
}

/** Runs the command line `argv` (without node and the script); resolves to the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    if (name === undefined) io.err(mainUsage());
    else io.out(mainUsage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    io.out(backendPackage.version);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(`Unknown command ${JSON.stringify(name)}.\n\n${mainUsage()}`);
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...HELP_OPTION, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(command.usage);
      return EXIT.ok;
    }
    if (name !== "sessions" && positionals.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const problem = command.validate?.(values, positionals);
    if (problem) throw new UsageError(problem);
    if (command.standalone) return await command.standalone(io);
    const config = configOrReport(io);
    if (!config) return EXIT.usage;
    return (await command.run?.({ config, io, values, positionals })) ?? EXIT.ok;
  } catch (error) {
    if (error instanceof CommandFailed) {
      io.err(`${name}: ${error.message}`);
      return EXIT.failed;
    }
    const usage = error instanceof UsageError || isParseArgsError(error);
    if (!usage) throw error;
    io.err(`${name}: ${(error as Error).message}\n\n${command.usage}`);
    return EXIT.usage;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}
