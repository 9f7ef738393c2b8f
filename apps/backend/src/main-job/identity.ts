/**
 * The extension's fixed identity (manifest `key` → Chrome id; `gecko.id` → Firefox redirect host),
 * so the backend's default allow-list matches the built extension without configuration.
 */
export const EXTENSION_CHROME_ID = "kagljjjecjnbgppkpgkmojciehbjidja";
export const EXTENSION_FIREFOX_REDIRECT_HOST =
  "bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org";

export const EXTENSION_REDIRECT_URLS = [
  `https://${EXTENSION_CHROME_ID}.chromiumapp.org/*`,
  `https://${EXTENSION_FIREFOX_REDIRECT_HOST}/*`,
];
export const EXTENSION_ORIGINS = [`chrome-extension://${EXTENSION_CHROME_ID}`];
