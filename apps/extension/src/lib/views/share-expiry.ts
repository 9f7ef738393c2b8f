import type { ShareExpiry } from "../shared/types.ts";

/**
 * How long a share link lives (the backend's `SHARE_EXPIRIES`), spelled out here so a view
 * bundle loads nothing of the backend's package at run time; the check keeps them in step.
 */
export const SHARE_EXPIRY_CHOICES = [
  "1d",
  "7d",
  "30d",
  "never",
] as const satisfies readonly ShareExpiry[];
type Unlisted = Exclude<ShareExpiry, (typeof SHARE_EXPIRY_CHOICES)[number]>;
export const EVERY_EXPIRY_LISTED: [Unlisted] extends [never] ? true : never = true;
