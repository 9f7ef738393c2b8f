import { setMessages, loadShippedMessages } from "./i18n.ts";
import type { Preferences } from "./item-specs.ts";

const LANGUAGE_TAG: Record<Exclude<Preferences["language"], "auto">, string> = {
  en: "en",
  zh_CN: "zh-CN",
};

/** Speaks the chosen language from now on ("auto": the browser's). */
export async function applyLanguage(language: Preferences["language"]): Promise<void> {
  if (language === "auto") {
    setMessages(null);
    return;
  }
  setMessages(await loadShippedMessages(language), LANGUAGE_TAG[language]);
}

/** Shows the chosen theme ("auto": the browser's light or dark preference). */
export function applyTheme(theme: Preferences["theme"]): void {
  const root = document.documentElement;
  if (theme === "auto") delete root.dataset.theme;
  else root.dataset.theme = theme;
}
