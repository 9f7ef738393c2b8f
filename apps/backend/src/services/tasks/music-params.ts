import { validateMusicParams, type MusicFieldError, type MusicParams } from "@overture/core/music";
import { ApiError } from "../../lib/errors.ts";
import { INVALID_PARAMETERS } from "../../schemas/error-codes.ts";

/**
 * Refused music parameters as the API answers them: 400 `invalid_parameters`, with one entry in
 * `fields` per refused field, as core's `validateMusicParams` reports it (the extension's compose
 * form shows each beside its control).
 */
export function invalidParameters(errors: readonly MusicFieldError[]): ApiError {
  const message = `Invalid music parameters: ${errors.map((e) => e.message).join("; ")}`;
  return new ApiError(400, INVALID_PARAMETERS, message, { fields: errors });
}

/** `input` as valid music parameters (spec 4.6), defaults filled in; else {@link invalidParameters}. */
export function musicParams(input: unknown): MusicParams {
  const validation = validateMusicParams(input);
  if (!validation.ok) throw invalidParameters(validation.errors);
  return validation.value;
}
