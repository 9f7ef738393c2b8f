// Test-only: the real locale files, served through a fake `browser.i18n.getMessage` so tests
// render exactly what a browser in that language shows.
import { join } from "node:path";
import { generateChromeMessages, parseMessagesFile } from "@wxt-dev/i18n/build";

export type Locale = "en" | "zh_CN";

const cache = new Map<Locale, Record<string, { message: string }>>();

export async function loadLocale(locale: Locale): Promise<Record<string, { message: string }>> {
  let messages = cache.get(locale);
  if (!messages) {
    // Vitest runs from the package folder (vitest.config.ts).
    const file = join(process.cwd(), "src/locales", `${locale}.yml`);
    messages = generateChromeMessages(await parseMessagesFile(file));
    cache.set(locale, messages);
  }
  return messages;
}

export { chromeGetMessage } from "../lib/shared/chrome-messages.ts";
