/** Identities and addresses the test harness uses (the project's seeded demo values). */
export const PUBLIC_URL = "http://backend.test";
export const PLATFORM_BASE_URL = "http://127.0.0.1:4010";
export const CHROME_REDIRECT = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";
export const FIREFOX_REDIRECT =
  "https://bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org/";
export const CHROME_ORIGIN = "chrome-extension://kagljjjecjnbgppkpgkmojciehbjidja";
export const FIREFOX_ORIGIN = "moz-extension://0f1c3a52-6e0a-4d4b-9b8e-2f6c8d7e9a10";
export const CLIENT_ID = "overture-local";
export const CLIENT_SECRET = "overture-local-secret-change-me";
