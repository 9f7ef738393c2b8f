import { z } from "zod";

/**
 * The console resources the emulator starts with. Container keys are camelCase like the other
 * options; each resource uses the spec's field names (2.1, 2.3, 2.4) so a seed file reads like
 * the console it stands in for.
 */
const userSchema = z.object({
  id: z.number().int().positive(),
  login: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "a login is a namespace: letters, digits, _ . -"),
  name: z.string().min(1),
  /** Omit to get an SVG initials avatar as a data: URL (no network needed). */
  avatar_url: z.string().optional(),
});

const organizationSchema = z.object({
  namespace: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/),
  name: z.string().optional(),
  /** Logins of the members. */
  members: z.array(z.string()).default([]),
});

const accessTokenSchema = z.object({
  id: z.number().int().positive(),
  namespace: z.string(),
  name: z.string().min(1),
  usage_scenario: z.enum(["paid", "trial"]),
  /** The raw token value, as the console would show it once at creation. */
  token: z.string().min(8),
});

const applicationSchema = z.object({
  name: z.string().min(1),
  description: z.string().default(""),
  homepage: z.string().default(""),
  redirect_uri: z.url(),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});

/**
 * The zod schema of a seed: users, organizations, access tokens, applications, webhook secrets
 * and quotas, with the cross-checks (unique ids, known namespaces). {@link parseSeed} applies it
 * with readable errors; use the schema itself to validate a seed file in your own tooling.
 *
 * @example
 * ```ts
 * const result = seedSchema.safeParse(JSON.parse(await readFile("seed.json", "utf8")));
 * if (!result.success) console.error(result.error.issues);
 * ```
 */
export const seedSchema = z
  .object({
    users: z.array(userSchema).min(1),
    organizations: z.array(organizationSchema).default([]),
    accessTokens: z.array(accessTokenSchema).default([]),
    applications: z.array(applicationSchema).default([]),
    /** Webhook secret per account namespace; empty (the spec's default) when absent. */
    webhookSecrets: z.record(z.string(), z.string()).default({}),
    /** Concurrency quota per account namespace; `defaultQuota` when absent. */
    quotas: z.record(z.string(), z.number().int().min(0)).default({}),
    defaultQuota: z.number().int().min(0).default(2),
  })
  .superRefine((seed, ctx) => {
    const issue = (message: string) => {
      ctx.addIssue({ code: "custom", message });
    };
    const logins = new Set(seed.users.map((u) => u.login));
    const namespaces = new Set([...logins, ...seed.organizations.map((o) => o.namespace)]);
    duplicates(seed.users.map((u) => u.id)).forEach((d) => {
      issue(`duplicate user id ${d}`);
    });
    duplicates([...logins, ...seed.organizations.map((o) => o.namespace)]).forEach((d) => {
      issue(`namespace "${d}" is used twice`);
    });
    if (logins.size !== seed.users.length) issue("duplicate user login");
    for (const org of seed.organizations)
      for (const m of org.members)
        if (!logins.has(m)) issue(`organization ${org.namespace}: unknown member "${m}"`);
    for (const t of seed.accessTokens)
      if (!namespaces.has(t.namespace))
        issue(`access token ${t.id}: unknown namespace "${t.namespace}"`);
    duplicates(seed.accessTokens.map((t) => t.id)).forEach((d) => {
      issue(`duplicate token id ${d}`);
    });
    duplicates(seed.accessTokens.map((t) => t.token)).forEach(() => {
      issue("duplicate token value");
    });
    duplicates(seed.applications.map((a) => a.client_id)).forEach((d) => {
      issue(`duplicate client_id ${d}`);
    });
    for (const ns of [...Object.keys(seed.webhookSecrets), ...Object.keys(seed.quotas)])
      if (!namespaces.has(ns)) issue(`unknown namespace "${ns}" in webhookSecrets/quotas`);
  });

/** A seed as written by hand or in a JSON file (defaults not yet applied). */
export type EmulatorSeedInput = z.input<typeof seedSchema>;
/** A validated seed with defaults applied. */
export type EmulatorSeed = z.output<typeof seedSchema>;

/** Validates a seed; throws an Error listing every problem. */
export function parseSeed(input: unknown): EmulatorSeed {
  const result = seedSchema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `- ${i.path.join(".") || "seed"}: ${i.message}`);
  throw new Error(`invalid emulator seed:\n${lines.join("\n")}`);
}

function duplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}
