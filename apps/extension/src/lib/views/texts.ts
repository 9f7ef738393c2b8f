import { i18n, uiLanguage } from "../shared/i18n.ts";
import { MUSIC_FIELDS, type MusicParams } from "@overture/core/music";
import { type ErrorCode, OvertureError } from "../shared/errors.ts";
import type { TaskState } from "../shared/types.ts";
import { describeUserAgent } from "./user-agent.ts";
import { rateLimitedText } from "./wait-text.ts";

export { secondsText } from "./wait-text.ts";

/**
 * Localised texts built from codes: field labels, field errors (from core's error codes, never
 * its English messages), status names and error sentences.
 */
export function fieldLabel(name: keyof MusicParams): string {
  return i18n.t(`fields.${name}`);
}

/** "A, B and C" in the browser's language (Chinese joins with 、). */
export function listOf(items: readonly string[]): string {
  return new Intl.ListFormat(uiLanguage(), { type: "conjunction" }).format(items);
}

/** A number with the browser language's digit grouping ("16,000"). */
export function numberText(value: number): string {
  return new Intl.NumberFormat(uiLanguage()).format(value);
}

/** A refused field in the person's language, by core's `MusicFieldError.code`. */
export function fieldErrorText(error: {
  field: string;
  code: string;
  min?: number;
  max?: number;
}): string {
  const spec = (MUSIC_FIELDS as Partial<Record<string, (typeof MUSIC_FIELDS)[keyof MusicParams]>>)[
    error.field
  ];
  switch (error.code) {
    case "required":
      return i18n.t("fieldError.required");
    case "range":
      return i18n.t("fieldError.range", {
        min: error.min ?? spec?.min ?? "",
        max: error.max ?? spec?.max ?? "",
      });
    case "option":
      return i18n.t("fieldError.option");
    case "length":
      return i18n.t("fieldError.length", { max: error.max ?? spec?.maxLength ?? "" });
    case "unknown_field":
      return i18n.t("fieldError.unknown", { field: error.field });
    case "unstorable_text":
      return i18n.t("fieldError.unstorable");
    default:
      if (spec?.kind === "integer") return i18n.t("fieldError.wholeNumber");
      if (spec?.kind === "number") return i18n.t("fieldError.number");
      if (spec?.kind === "boolean") return i18n.t("fieldError.boolean");
      return i18n.t("fieldError.text");
  }
}

export function statusText(status: TaskState): string {
  return i18n.t(`status.${status}`);
}

/** A failure in the person's language: by code, with the raw message only when unexpected. */
export function errorText(error: unknown): string {
  const code: ErrorCode = error instanceof OvertureError ? error.code : "unexpected";
  if (code === "unexpected") {
    const message = error instanceof Error ? error.message : String(error);
    return i18n.t("errors.unexpected", { message });
  }
  if (code === "rate_limited")
    return rateLimitedText(error instanceof OvertureError ? error.retryAfterSeconds : undefined);
  return i18n.t(`errors.${code}`);
}

/** A signed-in device in words: "Chrome 156 on Linux", "A browser on Linux", "Unknown browser". */
export function deviceName(userAgent: string | null | undefined): string {
  const { browser, version, os } = describeUserAgent(userAgent);
  if (!browser)
    return os ? i18n.t("account.deviceSomeBrowserOn", { os }) : i18n.t("account.deviceUnknown");
  const named = version ? `${browser} ${version}` : browser;
  return os ? i18n.t("account.deviceOn", { browser: named, os }) : named;
}
