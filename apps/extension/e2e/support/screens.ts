// Reviewing a screen as a person sees it: text cut off or pushed past the edge, and what axe-core
// finds, on the page as it is now. Used by screens.e2e.test.ts for every screen, language and theme.
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
/** axe-core's browser build, injected into the page (its Playwright wrapper needs Node 22). */
export const AXE_PATH = require.resolve("axe-core/axe.min.js");

export interface ScreenProblem {
  kind: "overflow" | "clipped" | "no-full-text";
  where: string;
  text: string;
}

/**
 * What does not fit: the page scrolling sideways; text cut by a box without an ellipsis (a
 * button's label, an input's placeholder or value wider than the field); text cut with an
 * ellipsis that offers no way to read it whole (no `title` on it or an ancestor, no accessible
 * name that holds it).
 */
export function findLayoutProblems(page: Page): Promise<ScreenProblem[]> {
  return page.evaluate(() => {
    const problems: {
      kind: "overflow" | "clipped" | "no-full-text";
      where: string;
      text: string;
    }[] = [];
    const where = (element: Element) => {
      const id = element.id ? `#${element.id}` : "";
      const classes = [...element.classList].map((c) => `.${c}`).join("");
      const test = element.getAttribute("data-testid");
      return `${element.tagName.toLowerCase()}${id}${classes}${test ? `[data-testid=${test}]` : ""}`;
    };
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
      // The innermost elements that reach past the right edge: where the width comes from.
      const past = [...document.querySelectorAll("body *")].filter(
        (element) =>
          element.getBoundingClientRect().right > root.clientWidth + 1 &&
          ![...element.children].some(
            (child) => child.getBoundingClientRect().right > root.clientWidth + 1,
          ),
      );
      problems.push({
        kind: "overflow",
        where: past.slice(0, 3).map(where).join(", ") || "page",
        text: `${root.scrollWidth} > ${root.clientWidth}`,
      });
    }
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden";
    };
    const canvas = document.createElement("canvas").getContext("2d");
    for (const field of document.querySelectorAll<HTMLInputElement>("input, textarea")) {
      if (!visible(field) || !canvas) continue;
      const style = getComputedStyle(field);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const shown = field.value || field.placeholder;
      const room =
        field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (
        field.type !== "checkbox" &&
        field.type !== "radio" &&
        field.tagName === "INPUT" &&
        !field.readOnly
      )
        if (shown && canvas.measureText(shown).width > room + 1)
          problems.push({ kind: "clipped", where: where(field), text: shown });
    }
    for (const element of document.querySelectorAll<HTMLElement>("body *")) {
      if (!visible(element) || (element.children.length > 0 && !element.matches("button")))
        continue;
      // Hidden on purpose: words for screen readers only.
      if (element.closest(".visually-hidden")) continue;
      const text = element.textContent.trim();
      if (!text) continue;
      const style = getComputedStyle(element);
      const cut = element.scrollWidth > element.clientWidth + 1 && style.overflowX !== "visible";
      if (!cut) continue;
      if (style.textOverflow !== "ellipsis") {
        problems.push({ kind: "clipped", where: where(element), text });
        continue;
      }
      const whole = element.closest("[title]")?.getAttribute("title") ?? "";
      const named = element.closest("[aria-label]")?.getAttribute("aria-label") ?? "";
      if (!whole.includes(text) && !named.includes(text))
        problems.push({ kind: "no-full-text", where: where(element), text });
    }
    return problems;
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's violations on the page as it is now (every rule, every impact). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    interface Result {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[] }[];
      }[];
    }
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<Result> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((node) => node.target.map(String).join(" ")),
    }));
  });
}
