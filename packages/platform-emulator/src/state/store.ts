import { initialsAvatar } from "../seed/avatar.ts";
import type { EmulatorSeed } from "../seed/schema.ts";
import type {
  AccountRecord,
  AppRecord,
  BearerRecord,
  CodeRecord,
  ConsentRequest,
  ConsoleTokenRecord,
  FileRecord,
  GrantRecord,
  TaskRecord,
  UserRecord,
} from "./types.ts";

/** Everything the emulator knows, in memory. `load` replaces it all (reset and seed). */
export class EmulatorState {
  users = new Map<number, UserRecord>();
  accounts = new Map<string, AccountRecord>();
  consoleTokens = new Map<number, ConsoleTokenRecord>();
  apps = new Map<string, AppRecord>();
  grants = new Map<string, GrantRecord>();
  codes = new Map<string, CodeRecord>();
  accessTokens = new Map<string, BearerRecord>();
  refreshTokens = new Map<string, BearerRecord>();
  consentRequests = new Map<string, ConsentRequest>();
  tasks = new Map<string, TaskRecord>();
  files = new Map<string, FileRecord>();
  /** The seed this state was loaded from (what `reset()` goes back to). */
  seed!: EmulatorSeed;
  /** Tasks submitted since the last load (numbers each task: `TaskRecord.sequence`). */
  taskCount = 0;

  constructor(seed: EmulatorSeed) {
    this.load(seed);
  }

  load(seed: EmulatorSeed): void {
    for (const map of [
      this.users,
      this.accounts,
      this.consoleTokens,
      this.apps,
      this.grants,
      this.codes,
      this.accessTokens,
      this.refreshTokens,
      this.consentRequests,
      this.tasks,
      this.files,
    ])
      map.clear();
    this.taskCount = 0;
    this.seed = seed;
    const account = (namespace: string, kind: AccountRecord["kind"], name: string) => ({
      namespace,
      kind,
      name,
      memberIds: new Set<number>(),
      webhookSecret: seed.webhookSecrets[namespace] ?? "",
      quota: seed.quotas[namespace] ?? seed.defaultQuota,
    });
    for (const u of seed.users) {
      this.users.set(u.id, { ...u, avatar_url: u.avatar_url ?? initialsAvatar(u.name) });
      const personal = account(u.login, "user", u.name);
      personal.memberIds.add(u.id);
      this.accounts.set(u.login, personal);
    }
    for (const org of seed.organizations) {
      const acc = account(org.namespace, "organization", org.name ?? org.namespace);
      for (const login of org.members) {
        const user = this.userByLogin(login);
        if (user) acc.memberIds.add(user.id);
      }
      this.accounts.set(org.namespace, acc);
    }
    for (const t of seed.accessTokens) {
      const { token, ...meta } = t;
      this.consoleTokens.set(t.id, { ...meta, value: token });
    }
    for (const app of seed.applications) this.apps.set(app.client_id, { ...app });
  }

  userByLogin(login: string): UserRecord | undefined {
    return [...this.users.values()].find((u) => u.login === login);
  }

  consoleTokenByValue(value: string): ConsoleTokenRecord | undefined {
    return [...this.consoleTokens.values()].find((t) => t.value === value);
  }

  /** Tasks counted against an account's quota (spec 8: `waiting` plus `in_progress`). */
  activeTaskCount(namespace: string): number {
    let n = 0;
    for (const t of this.tasks.values())
      if (t.namespace === namespace && (t.status === "waiting" || t.status === "in_progress")) n++;
    return n;
  }
}
