import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { i18n } from "../lib/shared/i18n.ts";

/**
 * A modal sheet over the view (a native `<dialog>`): the details of a track, sharing it, asking
 * before a delete. The browser keeps the focus inside and closes it on Escape; `onClose` then
 * gives the focus back to whatever opened it (`returnTo`), since the menu item that did is gone.
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
