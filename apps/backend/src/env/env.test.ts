import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.ts";

const key = Buffer.alloc(32, 7).toString("base64");
const valid = {
  PLATFORM_BASE_URL: "http://127.0.0.1:4010",
  PLATFORM_CLIENT_ID: "overture-local",
  PLATFORM_CLIENT_SECRET: "s3cret",
  TOKEN_ENCRYPTION_KEYS: `k1:${key}`,
};

function problems(env: Record<string, string | undefined>): string[] {
  try {
    parseEnv(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe("parseEnv", () => {
  it("accepts the minimal configuration and fills documented defaults", () => {
    const config = parseEnv(valid);
    expect(config.port).toBe(8787);
    expect(config.platform.apiUrl).toBe("http://127.0.0.1:4010");
    expect(config.platform.clientAuth).toBe("basic");
    expect(config.database).toEqual({ driver: "pglite", dataDir: ".data/pglite" });
    expect(config.webhook.toleranceMs).toBe(300_000);
  });

  it("defaults PUBLIC_URL to where it listens: PORT, and HOST unless that is a wildcard", () => {
    const publicUrl = (env: Record<string, string>) => parseEnv({ ...valid, ...env }).publicUrl;
    expect(publicUrl({})).toBe("http://127.0.0.1:8787");
    expect(publicUrl({ PORT: "18797" })).toBe("http://127.0.0.1:18797");
    expect(publicUrl({ HOST: "0.0.0.0", PORT: "18797" })).toBe("http://127.0.0.1:18797");
    expect(publicUrl({ HOST: "::" })).toBe("http://127.0.0.1:8787");
    expect(publicUrl({ HOST: "192.0.2.10" })).toBe("http://192.0.2.10:8787");
    expect(publicUrl({ HOST: "::1" })).toBe("http://[::1]:8787");
    expect(publicUrl({ PORT: "18797", PUBLIC_URL: "https://overture.example.com/" })).toBe(
      "https://overture.example.com",
    );
  });

  it("accepts RFC 6749 Basic client authentication for servers that form-decode the credentials", () => {
    expect(parseEnv({ ...valid, PLATFORM_CLIENT_AUTH: "basic-rfc6749" }).platform.clientAuth).toBe(
      "basic-rfc6749",
    );
    expect(problems({ ...valid, PLATFORM_CLIENT_AUTH: "rfc" })).toHaveLength(1);
  });

  it("uses node-postgres when DATABASE_URL is set", () => {
    expect(parseEnv({ ...valid, DATABASE_URL: "postgres://u@h/db" }).database).toEqual({
      driver: "pg",
      url: "postgres://u@h/db",
    });
  });

  it.each([
    ["postgres://overture:a/b+c=@db:5432/overture", "a password with / unencoded"],
    ["postgres://overture:ab#cd@db/overture", "a password with # unencoded"],
    ["postgres://db:99999/overture", "a port out of range"],
    ["postgres://[::1/overture", "a broken IPv6 address"],
  ])("names DATABASE_URL %j (%s) as a problem, without echoing it", (url) => {
    const found = problems({ ...valid, DATABASE_URL: url });
    expect(found).toEqual([expect.stringMatching(/^DATABASE_URL: is not a valid URL/)]);
    expect(found.join("\n")).not.toContain(url.slice("postgres://".length, 20));
  });

  it("accepts a DATABASE_URL whose password is percent-encoded, or with no host (a local socket)", () => {
    for (const url of ["postgres://overture:a%2Fb%2Bc%3D@db:5432/overture", "postgres:///overture"])
      expect(parseEnv({ ...valid, DATABASE_URL: url }).database).toEqual({ driver: "pg", url });
  });

  it("reads an empty value as unset (compose's `${NAME:-}`), so its default applies", () => {
    const config = parseEnv({ ...valid, PLATFORM_API_URL: "", METRICS_TOKEN: "", PORT: "" });
    expect(config.platform.apiUrl).toBe("http://127.0.0.1:4010");
    expect(config.metricsToken).toBeUndefined();
    expect(config.port).toBe(8787);
    expect(problems({ ...valid, PLATFORM_CLIENT_SECRET: "" })).toEqual([
      "PLATFORM_CLIENT_SECRET: is required",
    ]);
  });

  it("lists every problem at once, not just the first", () => {
    const found = problems({ PLATFORM_BASE_URL: "ftp://x", PORT: "http" });
    expect(found.map((p) => p.split(":")[0])).toEqual(
      expect.arrayContaining([
        "PORT",
        "PLATFORM_BASE_URL",
        "PLATFORM_CLIENT_ID",
        "PLATFORM_CLIENT_SECRET",
        "TOKEN_ENCRYPTION_KEYS",
      ]),
    );
  });

  it("refuses an encryption key that is not 32 bytes of base64", () => {
    expect(problems({ ...valid, TOKEN_ENCRYPTION_KEYS: "k1:c2hvcnQ=" })).toEqual([
      expect.stringMatching(/^TOKEN_ENCRYPTION_KEYS: each entry must be/),
    ]);
  });

  it.each([
    ["k1:x", "a key of one character"],
    [`k1:${key.slice(1)}`, "a key with a character missing"],
    [`k1:${key.slice(0, -2)}`, "a key with its padding cut"],
    [`k1:${key}A`, "a key with a character too many"],
  ])("names TOKEN_ENCRYPTION_KEYS for %j (%s), listed with the other problems", (keys) => {
    expect(problems({ ...valid, PORT: "eighty", TOKEN_ENCRYPTION_KEYS: keys })).toEqual([
      "PORT: must be a port number 1–65535",
      expect.stringMatching(/^TOKEN_ENCRYPTION_KEYS: each entry must be/),
    ]);
  });

  it("accepts a key without its base64 padding", () => {
    expect(
      parseEnv({ ...valid, TOKEN_ENCRYPTION_KEYS: `k1:${key.replace(/=$/, "")}` }),
    ).toBeDefined();
  });

  it("keeps every encryption key, the first one current", () => {
    const other = Buffer.alloc(32, 9).toString("base64");
    expect(
      parseEnv({ ...valid, TOKEN_ENCRYPTION_KEYS: `k2:${other},k1:${key}` }).encryptionKeys.map(
        (k) => k.id,
      ),
    ).toEqual(["k2", "k1"]);
  });

  it("refuses an extension redirect URL that is not https", () => {
    expect(
      problems({ ...valid, EXTENSION_REDIRECT_URLS: "http://abc.chromiumapp.org/" }),
    ).toHaveLength(1);
  });

  it("archives into Postgres by default, with a 2 GiB quota per user and no retention limit", () => {
    expect(parseEnv({ ...valid, DATABASE_URL: "postgres://db/overture" }).archive).toMatchObject({
      storage: "postgres",
      dir: undefined,
      quotaBytes: 2048 * 1024 * 1024,
      retentionMs: null,
    });
  });

  it("archives into a folder beside the data folder by default on PGlite", () => {
    expect(parseEnv(valid).archive).toMatchObject({
      storage: "folder",
      dir: ".data/pglite-archive",
    });
    expect(parseEnv({ ...valid, PGLITE_DATA_DIR: "/data/pglite/" }).archive).toMatchObject({
      storage: "folder",
      dir: "/data/pglite-archive",
    });
  });

  it("archives into PGlite itself when asked, still reading the default folder", () => {
    expect(parseEnv({ ...valid, ARCHIVE_STORAGE: "postgres" }).archive).toMatchObject({
      storage: "postgres",
      dir: ".data/pglite-archive",
    });
  });

  it("archives into ARCHIVE_DIR when only the folder is set, as earlier releases did", () => {
    expect(parseEnv({ ...valid, ARCHIVE_DIR: "/srv/archive" }).archive).toMatchObject({
      storage: "folder",
      dir: "/srv/archive",
    });
  });

  it("refuses ARCHIVE_STORAGE=folder without ARCHIVE_DIR on Postgres", () => {
    const onPostgres = { ...valid, DATABASE_URL: "postgres://db/overture" };
    expect(problems({ ...onPostgres, ARCHIVE_STORAGE: "folder" })).toEqual([
      expect.stringMatching(/^ARCHIVE_DIR: is required when ARCHIVE_STORAGE=folder/),
    ]);
  });

  it("reads a quota of 0 as no limit and retention in days", () => {
    expect(
      parseEnv({ ...valid, ARCHIVE_QUOTA_MB: "0", ARCHIVE_RETENTION_DAYS: "30" }).archive,
    ).toMatchObject({ quotaBytes: null, retentionMs: 30 * 86_400_000 });
  });

  it("reads ARCHIVE_ALLOWED_HOSTS as host names with optional ports", () => {
    expect(
      parseEnv({ ...valid, ARCHIVE_ALLOWED_HOSTS: "cdn.example.com, files.example.com:8443" })
        .archive.allowedHosts,
    ).toEqual([{ hostname: "cdn.example.com" }, { hostname: "files.example.com", port: 8443 }]);
  });

  it("refuses an ARCHIVE_ALLOWED_HOSTS entry that is a URL, naming its position only", () => {
    const found = problems({
      ...valid,
      ARCHIVE_ALLOWED_HOSTS: "cdn.example.com,https://user:hunter2@files.example.com",
    });
    expect(found).toEqual([
      expect.stringMatching(/^ARCHIVE_ALLOWED_HOSTS: entry 2 must be a host name/),
    ]);
    expect(found.join("\n")).not.toContain("hunter2");
  });

  it("never echoes the client secret in a problem", () => {
    const found = problems({ ...valid, PLATFORM_CLIENT_SECRET: "", PORT: "x" });
    expect(found.join("\n")).not.toContain("s3cret");
  });

  it("refuses a metrics token shorter than 16 characters, without echoing it", () => {
    expect(parseEnv({ ...valid, METRICS_TOKEN: "k".repeat(16) }).metricsToken).toBe("k".repeat(16));
    const found = problems({ ...valid, METRICS_TOKEN: "k".repeat(15) });
    expect(found).toEqual([
      expect.stringMatching(/^METRICS_TOKEN: must be at least 16 characters/),
    ]);
    expect(found.join("\n")).not.toContain("kkk");
  });

  it("refuses a metrics token that cannot be sent as a bearer token", () => {
    expect(problems({ ...valid, METRICS_TOKEN: "correct horse battery staple" })).toEqual([
      expect.stringMatching(/^METRICS_TOKEN: must be a bearer token/),
    ]);
  });

  it("allows 16 live streams per user for an hour each unless configured", () => {
    expect(parseEnv(valid).sse).toEqual({ maxPerUser: 16, maxLifetimeMs: 3_600_000 });
    expect(
      parseEnv({ ...valid, SSE_MAX_STREAMS_PER_USER: "4", SSE_MAX_STREAM_SECONDS: "600" }).sse,
    ).toEqual({ maxPerUser: 4, maxLifetimeMs: 600_000 });
  });

  it("refuses a live stream lifetime under a minute", () => {
    expect(problems({ ...valid, SSE_MAX_STREAM_SECONDS: "59" })).toEqual([
      expect.stringMatching(/^SSE_MAX_STREAM_SECONDS: must be at least 60/),
    ]);
  });
  it("explains a PORT that is not a number as a port number, not a parse error", () => {
    expect(problems({ ...valid, PORT: "abc" })).toEqual(["PORT: must be a port number 1–65535"]);
    expect(problems({ ...valid, PORT: "70000" })).toEqual(["PORT: must be a port number 1–65535"]);
  });

  it("says a number setting must be a whole number rather than quoting NaN", () => {
    expect(problems({ ...valid, SESSION_TTL_DAYS: "thirty" })).toEqual([
      "SESSION_TTL_DAYS: must be a whole number, at least 1",
    ]);
  });

  it("says every missing required variable is required, in the same words", () => {
    const found = problems({});
    for (const name of [
      "PLATFORM_BASE_URL",
      "PLATFORM_CLIENT_ID",
      "PLATFORM_CLIENT_SECRET",
      "TOKEN_ENCRYPTION_KEYS",
    ])
      expect(found).toContainEqual(expect.stringMatching(new RegExp(`^${name}: is required`)));
  });
});
