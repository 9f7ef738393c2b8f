import type { Hook } from "@hono/zod-openapi";
import { musicFieldErrors } from "@overture/core/schemas";
import type { Env } from "hono";
import type { SessionContext } from "../services/auth/sessions.ts";
import { INVALID_REQUEST } from "../schemas/error-codes.ts";
import { invalidParameters } from "../services/tasks/music-params.ts";

/** Hono context variables shared by every router. */
export interface AppEnv extends Env {
  Variables: {
    requestId: string;
    /** Set by the session middleware on `/api/*` and `/auth/logout`. */
    session: SessionContext;
  };
}

/**
 * Turns a failed request validation into one 400 body listing every field problem: for music
 * parameters (core's `musicParamsSchema`), `invalid_parameters` with core's field errors, as
 * `validateMusicParams` gives them; for anything else `invalid_request`.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  const music = musicFieldErrors(result.error);
  if (music.length > 0) throw invalidParameters(music);
  const fields = result.error.issues.map((issue) => ({
    field: issue.path.join(".") || result.target,
    message: issue.message,
  }));
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join("; ");
  return c.json(
    { error: INVALID_REQUEST, message: `Invalid ${result.target}: ${summary}`, fields },
    400,
  );
};
