import { useEffect, useState } from "preact/hooks";
import { browser } from "wxt/browser";
import { i18n } from "../../lib/shared/i18n.ts";
import { LANGUAGES, type Preferences, THEMES, preferencesItem } from "../../lib/shared/storage.ts";

// Each language is named in itself, whatever language the page is in.
const LANGUAGE_NAMES: Record<Exclude<Preferences["language"], "auto">, string> = {
  en: "English",
  zh_CN: "中文",
};
const THEME_NAMES: Record<Preferences["theme"], () => string> = {
  auto: () => i18n.t("settings.themeAuto"),
  light: () => i18n.t("settings.themeLight"),
  dark: () => i18n.t("settings.themeDark"),
};

/** Language and theme, saved as soon as they change (every open view follows). */
export function PreferencesForm() {
  const [preferences, setPreferences] = useState<Preferences | null>(null);
  useEffect(() => {
    void preferencesItem.getValue().then(setPreferences);
  }, []);
  if (!preferences) return null;
  const save = (next: Preferences) => {
    setPreferences(next);
    void preferencesItem.setValue(next);
  };
  return (
    <div class="stack">
      <div class="field">
        <label for="language">{i18n.t("settings.language")}</label>
        <select
          id="language"
          value={preferences.language}
          onChange={(e) => {
            save({ ...preferences, language: e.currentTarget.value as Preferences["language"] });
          }}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {language === "auto" ? i18n.t("settings.languageAuto") : LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="theme">{i18n.t("settings.theme")}</label>
        <select
          id="theme"
          value={preferences.theme}
          onChange={(e) => {
            save({ ...preferences, theme: e.currentTarget.value as Preferences["theme"] });
          }}
        >
          {THEMES.map((theme) => (
            <option key={theme} value={theme}>
              {THEME_NAMES[theme]()}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** The shortcut that opens the popup, as the browser has it now (the person may change it). */
export function ShortcutNote() {
  const [keys, setKeys] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    // Where the commands API is missing or unimplemented, no shortcut is shown as set.
    const all = (async () => browser.commands.getAll())();
    void all
      .then((all) => {
        const open = all.find(
          (c) => c.name === "_execute_action" || c.name === "_execute_browser_action",
        );
        // An unassigned shortcut is reported as "".
        const keys = open?.shortcut ?? "";
        setKeys(keys === "" ? null : keys);
      })
      .catch(() => {
        setKeys(null);
      });
  }, []);
  if (keys === undefined) return null;
  return (
    <p class="small" data-testid="shortcut">
      {keys ? i18n.t("settings.shortcut", { keys }) : i18n.t("settings.shortcutNone")}{" "}
      <span class="muted">{i18n.t("settings.shortcutHelp")}</span>
    </p>
  );
}
