import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";

export interface MenuItem {
  id: string;
  label: string;
  /** Shown greyed and skipped by Enter (still reached by the arrows, as the pattern says). */
  disabled?: boolean;
  /** Why it is disabled, read after the label. */
  hint?: string;
  danger?: boolean;
  onSelect: () => void;
}

/**
 * The WAI-ARIA menu button: a button that opens a menu of actions (↓ or Enter on it: on the
 * first item; ↑: on the last). Arrow keys, Home and End move between items, Enter or Space
 * chooses, Escape closes and gives the focus back to the button, Tab closes and moves on, a
 * click outside closes. The menu is placed below the button, or above it when the window has
 * no room below (a row near the bottom of the popup).
 */
export function MenuButton(props: {
  /** The button's accessible name (it shows only "⋯"). */
  label: string;
  items: readonly MenuItem[];
  testId?: string;
  /** Also given the button (what a dialog opened from the menu returns the focus to). */
  buttonRef?: { current: HTMLElement | null };
}) {
  const [open, setOpen] = useState(false);
  // Opened with ↑ on the button: the last item takes the focus, else the first.
  const fromEnd = useRef(false);
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  const close = (refocus: boolean) => {
    setOpen(false);
    setPlace(null);
    if (refocus) button.current?.focus();
  };

  // Placed once it has a size: below the button, or above when the window has no room below.
  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return;
    const anchor = button.current.getBoundingClientRect();
    const height = menu.current.offsetHeight;
    const below = anchor.bottom + 4;
    const top = below + height <= window.innerHeight - 4 ? below : anchor.top - 4 - height;
    setPlace({ top: Math.max(4, top), right: Math.max(4, window.innerWidth - anchor.right) });
  }, [open]);

  // The first item (the last from ↑) takes the focus once the menu is placed (a hidden element
  // cannot take it).
  useEffect(() => {
    if (!open || !place) return;
    const list = items();
    list[fromEnd.current ? list.length - 1 : 0]?.focus();
  }, [open, place !== null]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) close(false);
    };
    document.addEventListener("pointerdown", outside, true);
    window.addEventListener("resize", outside);
    return () => {
      document.removeEventListener("pointerdown", outside, true);
      window.removeEventListener("resize", outside);
    };
  }, [open]);

  const onKey = (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    if (event.key === "ArrowDown") go(at + 1);
    else if (event.key === "ArrowUp") go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(list.length - 1);
    else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") close(false);
  };

  const choose = (item: MenuItem) => {
    if (item.disabled) return;
    // The focus goes back to the button first: what the item opens (a dialog) returns it there.
    close(true);
    item.onSelect();
  };

  return (
    <>
      <button
        ref={(element) => {
          button.current = element;
          if (props.buttonRef) props.buttonRef.current = element;
        }}
        type="button"
        class="icon more"
        data-testid={props.testId}
        aria-label={props.label}
        title={props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => {
          fromEnd.current = false;
          if (open) close(false);
          else setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            fromEnd.current = event.key === "ArrowUp";
            setOpen(true);
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open ? (
        <div
          ref={menu}
          class="menu"
          role="menu"
          aria-label={props.label}
          style={
            place ? { top: `${place.top}px`, right: `${place.right}px` } : { visibility: "hidden" }
          }
          onKeyDown={onKey}
        >
          {props.items.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              data-item={item.id}
              class={item.danger ? "danger" : undefined}
              aria-disabled={item.disabled ? true : undefined}
              onClick={() => {
                choose(item);
              }}
            >
              {item.label}
              {item.hint ? <span class="hint"> · {item.hint}</span> : null}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}
