import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { i18n } from "../lib/shared/i18n.ts";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), ' +
  'select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** What Tab can reach inside `root`: not what a closed `<details>` hides (its summary stays). */
function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => {
    const folded = element.parentElement?.closest("details:not([open])");
    return !folded || (element.tagName === "SUMMARY" && element.parentElement === folded);
  });
}

/**
 * Tab from the last control to the first and Shift+Tab from the first to the last. A modal
 * `<dialog>` makes the page behind inert, but Chromium still lets Tab leave the last control
 * for the browser's own toolbar, and the popup closes or loses its place when it does.
 */
function keepFocusInside(event: KeyboardEvent, root: HTMLElement) {
  if (event.key !== "Tab") return;
  const inside = tabbables(root);
  const first = inside[0];
  const last = inside.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  const wrapsBack = event.shiftKey && (active === first || active === root);
  const wrapsOn = !event.shiftKey && active === last;
  if (!wrapsBack && !wrapsOn) return;
  event.preventDefault();
  (wrapsBack ? last : first).focus();
}

/**
 * A modal sheet over the view (a native `<dialog>`): the details of a track, sharing it, asking
 * before a delete. The browser keeps the page behind inert and closes the sheet on Escape; Tab
 * wraps around inside it (`keepFocusInside`); `onClose` then gives the focus back to whatever
 * opened it (`returnTo`), since the menu item that did is gone.
 */
export function Sheet(props: {
  title: string;
  onClose: () => void;
  returnTo?: { current: HTMLElement | null };
  testId?: string;
  children: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useRef(`sheet-${Math.random().toString(36).slice(2)}`).current;
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    const back = props.returnTo?.current;
    return () => {
      if (element?.open) element.close();
      // After the sheet left the page: the opener gets the focus back.
      setTimeout(() => back?.focus(), 0);
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="sheet"
      aria-labelledby={titleId}
      data-testid={props.testId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
      onKeyDown={(event) => {
        if (dialog.current) keepFocusInside(event, dialog.current);
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog box itself, outside its content) closes it.
        if (event.target === dialog.current) props.onClose();
      }}
    >
      <div class="sheet-body">
        <header class="sheet-head">
          <h2 id={titleId}>{props.title}</h2>
          <button
            type="button"
            class="icon"
            aria-label={i18n.t("sheet.close")}
            title={i18n.t("sheet.close")}
            onClick={props.onClose}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </header>
        {props.children}
      </div>
    </dialog>
  );
}
