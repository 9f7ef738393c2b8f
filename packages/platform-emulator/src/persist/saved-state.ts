import type { EmulatorClock } from "../clock/clock.ts";
import type { EmulatorSeed } from "../seed/schema.ts";
import type { EmulatorState } from "../state/store.ts";
import type {
  AppRecord,
  BearerRecord,
  CodeRecord,
  ConsentRequest,
  FileRecord,
  GrantRecord,
  TaskRecord,
} from "../state/types.ts";
import type { TaskEngine } from "../tasks/engine.ts";
import type { WebhookEngine } from "../webhooks/engine.ts";
import type { DeliveryRecord } from "../webhooks/types.ts";

export const STATE_VERSION = 1;

/** Everything a restart needs, as plain JSON (timers are re-armed from the stored deadlines). */
export interface SavedState {
  version: typeof STATE_VERSION;
  /** Wall time of the save, to let a real clock move on by the time the emulator was stopped. */
  savedAt: number;
  /** Emulator time at the save. */
  clockNow: number;
  /** The seed in effect (the options' or the last `control.seed()`). */
  seed: EmulatorSeed;
  /** The proxy-token (and result-link) key, base64: tokens minted before stay valid. */
  key: string;
  /** Console settings changed at runtime: webhook secrets, quotas, applications. */
  accounts: { namespace: string; webhookSecret: string; quota: number }[];
  applications: AppRecord[];
  grants: GrantRecord[];
  codes: CodeRecord[];
  accessTokens: BearerRecord[];
  refreshTokens: BearerRecord[];
  consentRequests: ConsentRequest[];
  tasks: Omit<TaskRecord, "timer">[];
  taskCount: number;
  /** Numbers the lifecycle PRNG had drawn. */
  randomDraws: number;
  files: FileRecord[];
  deliveries: Omit<DeliveryRecord, "timer">[];
}

export interface Parts {
  state: EmulatorState;
  clock: EmulatorClock;
  tasks: TaskEngine;
  webhooks: WebhookEngine;
  key: Uint8Array;
}

export function saveState({ state, clock, tasks, webhooks, key }: Parts): SavedState {
  const withoutTimer = <T extends { timer?: unknown }>({ timer: _timer, ...rest }: T) => rest;
  return {
    version: STATE_VERSION,
    savedAt: Date.now(),
    clockNow: clock.now(),
    seed: state.seed,
    key: Buffer.from(key).toString("base64"),
    accounts: [...state.accounts.values()].map(({ namespace, webhookSecret, quota }) => ({
      namespace,
      webhookSecret,
      quota,
    })),
    applications: [...state.apps.values()],
    grants: [...state.grants.values()],
    codes: [...state.codes.values()],
    accessTokens: [...state.accessTokens.values()],
    refreshTokens: [...state.refreshTokens.values()],
    consentRequests: [...state.consentRequests.values()],
    tasks: [...state.tasks.values()].map(withoutTimer),
    taskCount: state.taskCount,
    randomDraws: tasks.draws(),
    files: [...state.files.values()],
    deliveries: webhooks.list().map(withoutTimer),
  };
}

/**
 * Puts saved records back into a state freshly loaded from `seed`. Runtime records (grants,
 * tokens, codes, consent requests, tasks, files) come back as they were. For console settings
 * the seed passed now wins where it changed since the save, and the saved value stays where it
 * did not: a main job restarted on another port re-registers its redirect_uri, while a webhook
 * secret reset in the console survives a restart with the same seed.
 */
export function loadSavedState(state: EmulatorState, saved: SavedState, seed: EmulatorSeed): void {
  const before = saved.seed;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const a of saved.accounts) {
    const account = state.accounts.get(a.namespace);
    if (!account) continue;
    if (same(seed.webhookSecrets[a.namespace], before.webhookSecrets[a.namespace]))
      account.webhookSecret = a.webhookSecret;
    const quota = (s: EmulatorSeed) => s.quotas[a.namespace] ?? s.defaultQuota;
    if (quota(seed) === quota(before)) account.quota = a.quota;
  }
  for (const app of saved.applications) {
    const now = seed.applications.find((x) => x.client_id === app.client_id);
    const then = before.applications.find((x) => x.client_id === app.client_id);
    if (now && same(now, then)) state.apps.set(app.client_id, { ...app });
  }
  const fill = <T>(map: Map<string, T>, list: T[], key: (t: T) => string) => {
    for (const item of list) map.set(key(item), item);
  };
  fill(state.grants, saved.grants, (g) => g.id);
  fill(state.codes, saved.codes, (c) => c.code);
  fill(state.accessTokens, saved.accessTokens, (t) => t.token);
  fill(state.refreshTokens, saved.refreshTokens, (t) => t.token);
  fill(state.consentRequests, saved.consentRequests, (r) => r.id);
  fill(state.tasks, saved.tasks, (t) => t.id);
  fill(state.files, saved.files, (f) => f.id);
  state.taskCount = saved.taskCount;
}
