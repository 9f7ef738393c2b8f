import { i18n, uiLanguage } from "../shared/i18n.ts";

/**
 * Words about waiting, apart from texts.ts: the sign-in screen needs them on the popup's first
 * screen, which must not load texts.ts (core's music fields come with it).
 */

/** A wait in whole seconds, in words of the browser's language ("1 second", "30 秒钟"). */
export function secondsText(seconds: number): string {
  return new Intl.NumberFormat(uiLanguage(), {
    style: "unit",
    unit: "second",
    unitDisplay: "long",
  }).format(seconds);
}

/** A request refused as `rate_limited`, with how long to wait when the backend said. */
export function rateLimitedText(waitSeconds: number | undefined): string {
  return waitSeconds === undefined
    ? i18n.t("errors.rate_limited")
    : i18n.t("errors.rate_limited_for", { wait: secondsText(waitSeconds) });
}
