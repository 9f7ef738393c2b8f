/**
 * Shapes of the backend's JSON (apps/backend routes). Views and the background share them; only
 * the background fetches them. Timestamps are ISO strings (the backend's choice); fields the
 * backend may add later are tolerated because nothing here is validated strictly.
 */
export interface User {
  id: number;
  login: string;
  name: string;
  avatar_url: string;
}

/** Backend task states: the platform's five plus the backend's local ones. */
export type TaskState =
  | "queued"
  | "submitting"
  | "rejected"
  | "unknown"
  | "waiting"
  | "in_progress"
  | "success"
  | "failure"
  | "cancelled";

export interface Task {
  id: string;
  status: TaskState;
  namespace: string;
  platform_task_id: string | null;
  params: Record<string, unknown>;
  webhook_expected: boolean;
  output: Record<string, unknown> | null;
  usage_info: Record<string, unknown> | null;
  /** Why the task failed, was rejected or is `unknown`, in words (the backend's). */
  error: string | null;
  unknown_status: string | null;
  file_url: string | null;
  file_expires_at: string | null;
  audio_url: string | null;
  created_at: string;
  submitted_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface TaskPage {
  tasks: Task[];
  next_cursor: string | null;
}

/** `available` and `max_concurrency` are null when the platform did not say. */
export interface Quota {
  available: number | null;
  max_concurrency: number | null;
  queued: number;
  namespace: string;
}

export interface AccessToken {
  id: number;
  name: string;
  usage_scenario: string;
}

export interface Selection {
  namespace: string;
  token_id: number;
  /** Shown when the backend includes it. */
  token_name?: string;
  usage_scenario?: string;
}

export interface Me {
  user: User;
  grant: { status: "active" | "revoked"; scope: string };
  session: { id: string; expires_at: string };
}

/** A signed-in device (a backend session). */
export interface DeviceSession {
  id: string;
  created_at?: string;
  last_used_at?: string | null;
  expires_at?: string;
  user_agent?: string | null;
  current?: boolean;
}

export interface WebhookSecretStatus {
  namespace?: string;
  configured: boolean;
  updated_at: string | null;
  previous_valid_until: string | null;
}

export interface SessionGrant {
  session_token: string;
  token_type: string;
  expires_at: string;
  user: User;
}
