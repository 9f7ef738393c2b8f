/**
 * The backend's JSON shapes, under the names the extension uses. Declared once, by the backend's
 * route schemas (`@overture/backend/api`); a type-only import, so no view bundle loads anything
 * of the backend. Views and the background share them; only the background fetches them.
 */
import type { Selection as ApiSelection } from "@overture/backend/api";

export type {
  AccessTokenMeta as AccessToken,
  Me,
  MediaLink,
  Peaks,
  Quota,
  SessionSummary as DeviceSession,
  SessionToken as SessionGrant,
  Task,
  TaskDeletion,
  TaskDetails,
  Share,
  ShareExpiry,
  TaskEstimate,
  TaskPage,
  TaskPatch,
  TaskState,
  PublicUser as User,
  WebhookSecretStatus,
} from "@overture/backend/api";

/** The archived renditions a download or a media link can ask for (the backend's `format`). */
export type AudioFormat = "original" | "mp3";

/**
 * The chosen access token as the extension sends and keeps it: the backend's `Selection`, whose
 * display fields come with its answer (a choice being sent, or an older stored one, lacks them).
 */
export type Selection = Pick<ApiSelection, "namespace" | "token_id"> & Partial<ApiSelection>;

/**
 * A webhook delivery the backend refused (`GET /api/webhook-rejections`), with the account it was
 * for. `causes` are core's diagnosis codes (`FORMER_SECRET_MATCHES`, …): the confirmed reason
 * behind a signature mismatch (spec 7), when one was found.
 */
export interface Refusal {
  id: number;
  task_id: string;
  namespace: string;
  /** Core's failure code (`WEBHOOK_SIGNATURE_MISMATCH`, …) or the intake's (`no_secret`, …). */
  reason: string;
  causes: string[];
  /** The backend's own words, shown only when the reason is not one this extension knows. */
  message: string;
  received_at: string;
}

/** What a backend's `/readyz` says: ready to serve, or up but its database not (yet) reachable. */
export interface BackendReadiness {
  status: "ready" | "not_ready";
  database: "ok" | "unreachable";
}
