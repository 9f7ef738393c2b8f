import type { Handlers, MessageType } from "../../shared/messages.ts";
import { mediaLinkOf, waveformOf } from "../archive.ts";
import type { Context } from "../context.ts";
import { downloadProgress, downloadResult } from "../downloads.ts";
import type { LiveHub } from "../live.ts";
import {
  clearWebhookSecret,
  listTokens,
  setSelection,
  setWebhookSecret,
  webhookRefusals,
  webhookStatus,
} from "./account.ts";
import type { Handler, HandlerScope } from "./context.ts";
import { checkBackend, setBackendUrl } from "./settings.ts";
import { listSessions, refreshState, revokeSession, signIn, signOut } from "./session.ts";
import {
  cancelTask,
  createShare,
  deleteTask,
  estimateTask,
  listShares,
  moreTasks,
  regenerateTask,
  restoreTask,
  revokeShare,
  searchTasks,
  submitTask,
  taskDetails,
  updateTask,
} from "./tasks.ts";

/** Each message of the map (`shared/messages.ts`) and the named function that answers it. */
const BY_MESSAGE: { [K in MessageType]: Handler<K> } = {
  "state/refresh": refreshState,
  "auth/sign-in": signIn,
  "auth/sign-out": signOut,
  "sessions/list": listSessions,
  "sessions/revoke": revokeSession,
  "tokens/list": listTokens,
  "selection/set": setSelection,
  "tasks/submit": submitTask,
  "tasks/cancel": cancelTask,
  "tasks/more": moreTasks,
  "tasks/search": searchTasks,
  "tasks/update": updateTask,
  "tasks/delete": deleteTask,
  "tasks/restore": restoreTask,
  "tasks/details": taskDetails,
  "tasks/regenerate": regenerateTask,
  "tasks/estimate": estimateTask,
  "shares/create": createShare,
  "shares/list": listShares,
  "shares/revoke": revokeShare,
  "webhook/status": webhookStatus,
  "webhook/set": setWebhookSecret,
  "webhook/clear": clearWebhookSecret,
  "webhook/refusals": webhookRefusals,
  "settings/backend-url": setBackendUrl,
  "backend/check": checkBackend,
  "audio/download": ({ ctx }, { id, format }) => downloadResult(ctx, id, format),
  "audio/download-progress": (_scope, { id }) => Promise.resolve(downloadProgress(id)),
  "audio/peaks": ({ ctx }, { id }) => waveformOf(ctx, id),
  "audio/media-link": ({ ctx }, { id, format }) => mediaLinkOf(ctx, id, format),
};

/** The background's side of the message map, each handler given the context and the stream. */
export function createHandlers(ctx: Context, live: LiveHub): Handlers {
  const scope: HandlerScope = { ctx, live };
  const bind = <K extends MessageType>(type: K) => {
    const handler = BY_MESSAGE[type];
    return (request: Parameters<Handler<K>>[1]) => handler(scope, request);
  };
  return Object.fromEntries(
    (Object.keys(BY_MESSAGE) as MessageType[]).map((type) => [type, bind(type)]),
  ) as unknown as Handlers;
}
