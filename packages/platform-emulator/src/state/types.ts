import type { TimerId } from "../clock/clock.ts";

export interface UserRecord {
  id: number;
  login: string;
  name: string;
  avatar_url: string;
}

/** An account (spec 2.8): a user's personal namespace or an organization. */
export interface AccountRecord {
  namespace: string;
  kind: "user" | "organization";
  name: string;
  memberIds: Set<number>;
  webhookSecret: string;
  quota: number;
}

export interface ConsoleTokenRecord {
  id: number;
  namespace: string;
  name: string;
  usage_scenario: "paid" | "trial";
  value: string;
}

export interface AppRecord {
  name: string;
  description: string;
  homepage: string;
  redirect_uri: string;
  client_id: string;
  client_secret: string;
}

/** One approved authorization: a code exchange and everything issued from it. */
export interface GrantRecord {
  id: string;
  userId: number;
  clientId: string;
  scope: string[];
  createdAt: number;
  revokedAt?: number;
  revokedReason?: string;
}

export interface CodeRecord {
  code: string;
  clientId: string;
  redirectUri: string;
  userId: number;
  scope: string[];
  expiresAt: number;
  usedAt?: number;
  grantId?: string;
}

export interface BearerRecord {
  token: string;
  grantId: string;
  expiresAt: number;
  /** Refresh tokens only: set once rotated away (a later use is a reuse). */
  rotatedAt?: number;
}

/** A consent page shown and waiting for Approve or Deny (server-side, single use). */
export interface ConsentRequest {
  id: string;
  browserKey: string;
  clientId: string;
  redirectUri: string;
  scope: string[];
  state: string | undefined;
  userId: number;
  expiresAt: number;
}

export type TaskStatusValue = "waiting" | "in_progress" | "success" | "failure" | "cancelled";
export type ParamValue = string | number | boolean | null;

export interface TaskRecord {
  id: string;
  /** 1-based submission number in this run: picks the variant where a live shape alternates. */
  sequence: number;
  namespace: string;
  consoleTokenId: number;
  status: TaskStatusValue;
  createdAt: number;
  startedAt?: number;
  completedAt?: number;
  parameters: Record<string, ParamValue>;
  output: Record<string, unknown>;
  /**
   * The base URL the result link in `output` was made with. Views swap it for today's, so a
   * restart on another address (a free port, a new public URL) keeps old links working.
   */
  linkBase?: string;
  /** `{}` (readable) or `null` (live) until the task ends. */
  usageInfo: Record<string, unknown> | null;
  /** Live profile: the price of the task in CNY. */
  price?: number;
  /** Live profile: the top-level `message` of a failed task. */
  message?: string;
  webhookUrl?: string;
  /** Decided at submit from the seeded PRNG, so runs repeat. */
  plan: { waitingMs: number; runningMs: number; fails: boolean };
  timer?: TimerId;
}

export interface FileRecord {
  id: string;
  taskId: string;
  prompt: string;
  /** Audio length; the WAV is regenerated from prompt, length and format on each download. */
  seconds: number;
  sampleRate: number;
  channels: 1 | 2;
  /** When the link was issued (the task's completion), emulator ms. */
  issuedAt: number;
  expiresAt: number;
}
