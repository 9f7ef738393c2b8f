import { setMessages } from "../shared/i18n.ts";
import { PREFERENCES } from "../shared/item-specs.ts";
import { applyLanguage, applyTheme } from "../shared/preferences.ts";
import { readStored, watchStored } from "./stored-value.ts";

/**
 * Applies the stored preferences before a view renders, and keeps them applied: a new theme
 * shows at once, a new language reloads the view (every text is rendered from it).
 */
export async function applyPreferences(reload: () => void): Promise<void> {
  // Read without WXT's storage library (see stored-value.ts).
  const preferences = await readStored(PREFERENCES, (items) => items.preferencesItem).catch(
    () => null,
  );
  if (!preferences) return;
  // A locale that cannot be loaded leaves the browser's language: the view still works.
  await applyLanguage(preferences.language).catch(() => {
    setMessages(null);
  });
  applyTheme(preferences.theme);
  watchStored(PREFERENCES, (next) => {
    applyTheme(next.theme);
    if (next.language !== preferences.language) reload();
  });
}
