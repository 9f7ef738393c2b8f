/**
 * The extension's fixed identity. The backend's default allow-list of redirect URLs is built from
 * these, so they must never change: the Chrome id is derived from `CHROME_PUBLIC_KEY` and the
 * Firefox redirect host from `GECKO_ID`.
 */
export const CHROME_PUBLIC_KEY =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA0Dh+0xCnBhAFkuGU4Z6pmWwrTIebisjvDrPkHKUcv8OmoIMC1ySedmfkc2ImclLigLH573VOCkstn2+RkY5cOk/4Yzm8mVFN2fZywauO8tmkAjeCKjzQDi4CCrpvt8aegLKAoW5vZbnnnt11PZtOn9O2vd+I6e2yoLw302aPTJZqPdjFUAwt5VmDCbv0aH93XN22F4YbwRA+LLDVZ2nKPl6QZRJeerGoVI7sosPPv27rQhfjQPOBv58ZFJFGkkUN0B053uJuBU/yMtPlqbl5aaF4WJKfV5rtllzVOrekPzRW35u69Tt9Kk7Ef30BoMngacEgg37DHYJirD9lXPWptwIDAQAB";

/** Firefox add-on id (`browser_specific_settings.gecko.id`). */
export const GECKO_ID = "overture@overture.dev";

/**
 * The Chrome extension id `CHROME_PUBLIC_KEY` gives: the first 32 hex digits of the SHA-256 of
 * the key's DER bytes, each digit written as a letter a–p (checked by extension-identity.test.ts).
 */
export const CHROME_EXTENSION_ID = "kagljjjecjnbgppkpgkmojciehbjidja";

/** Firefox's `identity.getRedirectURL()` host for `GECKO_ID`: the SHA-1 hex of the id. */
export const FIREFOX_REDIRECT_HOST =
  "bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org";

/** What a backend must allow for this extension: its redirect URLs and its Chrome origin. */
export const EXTENSION_REDIRECT_URLS = [
  `https://${CHROME_EXTENSION_ID}.chromiumapp.org/*`,
  `https://${FIREFOX_REDIRECT_HOST}/*`,
] as const;
export const EXTENSION_ORIGINS = [`chrome-extension://${CHROME_EXTENSION_ID}`] as const;

/** The main job's backend; the person can change it in the options page. */
export const DEFAULT_BACKEND_URL = "http://127.0.0.1:8787";
