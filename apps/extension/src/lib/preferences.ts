import { setMessages, loadShippedMessages } from "./i18n.ts";
import { type Preferences, preferencesItem } from "./storage.ts";

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

/**
 * Applies the stored preferences before a view renders, and keeps them applied: a new theme
 * shows at once, a new language reloads the view (every text is rendered from it).
 */
export async function applyPreferences(reload: () => void): Promise<void> {
  const preferences = await preferencesItem.getValue().catch(() => null);
  if (!preferences) return;
  // A locale that cannot be loaded leaves the browser's language: the view still works.
  await applyLanguage(preferences.language).catch(() => {
    setMessages(null);
  });
  applyTheme(preferences.theme);
  preferencesItem.watch((next) => {
    applyTheme(next.theme);
    if (next.language !== preferences.language) reload();
  });
}
