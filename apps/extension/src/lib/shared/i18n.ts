import { i18n as browserI18n } from "#i18n";
import { browser } from "wxt/browser";
import { type Lookup, type Messages, chromeGetMessage } from "./chrome-messages.ts";

export type { Messages };

/**
 * The extension's messages. By default they come from the browser (`i18n.getMessage`, in the
 * browser's language); when the person picks a language in the options, the views and the
 * background load that locale's `messages.json` and read from it instead.
 */

let chosen: { lookup: Lookup; language: string } | null = null;

const NAMED = /\{([A-Za-z0-9_]+)\}/g;

/** The same arguments as WXT's `i18n.t` (a count, positional or named substitutions). */
function translate(lookup: Lookup, key: string, args: unknown[]): string {
  let positional: string[] | undefined;
  let named: Record<string, unknown> | undefined;
  for (const arg of args) {
    if (typeof arg === "number") positional ??= [String(arg)];
    else if (Array.isArray(arg)) positional = arg.map(String);
    else if (arg && typeof arg === "object") named = arg as Record<string, unknown>;
  }
  const message = lookup(key.replaceAll(".", "_"), positional);
  if (!named) return message;
  const values = named;
  return message.replace(NAMED, (match, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : match,
  );
}

export const i18n = {
  t: ((key: string, ...args: unknown[]) =>
    chosen
      ? translate(chosen.lookup, key, args)
      : (browserI18n.t as (k: string, ...a: unknown[]) => string)(
          key,
          ...args,
        )) as typeof browserI18n.t,
};

/** The language the messages are in, as a BCP 47 tag (for `lang` and `Intl`). */
export function uiLanguage(): string {
  return chosen?.language ?? browser.i18n.getUILanguage();
}

/** Reads messages from `messages` from now on (`null`: the browser's again). */
export function setMessages(messages: Messages | null, language = "en"): void {
  chosen = messages ? { lookup: chromeGetMessage(messages), language } : null;
}

/** Loads a locale shipped in the extension (`_locales/<locale>/messages.json`). */
export async function loadShippedMessages(locale: string): Promise<Messages> {
  // `_locales` is written by the i18n module at build time, so WXT's typed paths do not list it.
  const url = (browser.runtime.getURL as (path: string) => string)(
    `/_locales/${locale}/messages.json`,
  );
  const response = await fetch(url);
  if (!response.ok) throw new Error(`no messages for ${locale}`);
  return (await response.json()) as Messages;
}
