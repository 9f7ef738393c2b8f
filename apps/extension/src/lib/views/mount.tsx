import type { ComponentChild } from "preact";
import { render } from "preact";
import "../../components/theme.css";
import { uiLanguage } from "../shared/i18n.ts";
import { applyPreferences } from "./apply-preferences.ts";
import { type Items, provideItems } from "./stored-value.ts";

/**
 * Renders a view into `#app` once the person's language and theme apply (a storage read, and for
 * a chosen language its messages file from the extension itself), the document language set.
 * `items`: how the page reaches storage.ts (see `provideItems`).
 */
export function mount(
  view: ComponentChild,
  options: { items: () => Promise<Items>; bodyClass?: string },
): void {
  provideItems(options.items);
  if (options.bodyClass) document.body.classList.add(options.bodyClass);
  void applyPreferences(() => {
    location.reload();
  }).finally(() => {
    document.documentElement.lang = uiLanguage();
    const root = document.getElementById("app");
    if (root) render(view, root);
  });
}
