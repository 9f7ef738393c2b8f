import type { ComponentChild } from "preact";
import { render } from "preact";
import { browser } from "wxt/browser";
import "../components/theme.css";

/** Renders a view into `#app` with the document language set to the browser's. */
export function mount(view: ComponentChild, bodyClass?: string): void {
  document.documentElement.lang = browser.i18n.getUILanguage();
  if (bodyClass) document.body.classList.add(bodyClass);
  const root = document.getElementById("app");
  if (root) render(view, root);
}
