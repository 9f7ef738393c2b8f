import { CHROME_PUBLIC_KEY, GECKO_ID } from "../shared/extension-identity.ts";
import { STORE_MODE } from "../shared/flavour.ts";

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Chrome's extension id: the first 128 bits of SHA-256 of the public key, as letters a–p. */
export async function chromeExtensionId(publicKeyBase64 = CHROME_PUBLIC_KEY): Promise<string> {
  const der = Uint8Array.from(atob(publicKeyBase64), (c) => c.charCodeAt(0));
  const digest = hex(await crypto.subtle.digest("SHA-256", der)).slice(0, 32);
  return digest.replace(/[0-9a-f]/g, (d) => String.fromCharCode(97 + parseInt(d, 16)));
}

/** Chrome's `identity.getRedirectURL()`: `https://<id>.chromiumapp.org/`. */
export async function chromeRedirectUrl(): Promise<string> {
  return `https://${await chromeExtensionId()}.chromiumapp.org/`;
}

/** Firefox's `identity.getRedirectURL()`: `https://<SHA-1 of the add-on id>.extensions.allizom.org/`. */
export async function firefoxRedirectUrl(geckoId = GECKO_ID): Promise<string> {
  const digest = hex(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(geckoId)));
  return `https://${digest}.extensions.allizom.org/`;
}

export interface RedirectUrls {
  /** Null in a store build seen from Firefox: the store gives the Chrome build its own id. */
  chrome: string | null;
  firefox: string;
  /** Which of the two this browser reports itself (`identity.getRedirectURL()`). */
  current: "chrome" | "firefox" | null;
}

/**
 * Both redirect URLs the backend must allow; this browser's comes from the browser itself. The
 * other one is computed from the fixed identity: always right for Firefox (the add-on id is
 * fixed), for Chrome only in development builds (the manifest `key`; `store` says otherwise).
 */
export async function redirectUrls(
  getRedirectURL: () => string,
  store = import.meta.env.MODE === STORE_MODE,
): Promise<RedirectUrls> {
  const own = getRedirectURL();
  const [pinned, firefox] = await Promise.all([chromeRedirectUrl(), firefoxRedirectUrl()]);
  const chrome = store ? null : pinned;
  if (own.endsWith(".chromiumapp.org/")) return { chrome: own, firefox, current: "chrome" };
  if (own.endsWith(".extensions.allizom.org/")) return { chrome, firefox: own, current: "firefox" };
  return { chrome, firefox, current: null };
}
