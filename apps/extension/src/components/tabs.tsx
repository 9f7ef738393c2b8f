import type { ComponentChildren } from "preact";
import { useRef } from "preact/hooks";

export interface TabSpec<T extends string> {
  id: T;
  label: string;
  count?: number;
  /** The tab's accessible name while `count` shows ("Tasks, 1 running"): the badge is only seen. */
  countLabel?: string;
}

/**
 * A WAI-ARIA tablist: one tab stop, arrow keys and Home/End move between tabs, the selected tab
 * labels its panel.
 */
export function Tabs<T extends string>(props: {
  label: string;
  tabs: readonly TabSpec<T>[];
  selected: T;
  onSelect: (id: T) => void;
  children: ComponentChildren;
}) {
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent) => {
    const index = props.tabs.findIndex((tab) => tab.id === props.selected);
    const last = props.tabs.length - 1;
    const next =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    const tab = next === null ? undefined : props.tabs[next];
    if (!tab) return;
    event.preventDefault();
    props.onSelect(tab.id);
    list.current?.querySelector<HTMLElement>(`#tab-${tab.id}`)?.focus();
  };
  return (
    <>
      <div class="tabs" role="tablist" aria-label={props.label} ref={list} onKeyDown={move}>
        {props.tabs.map((tab) => (
          <button
            key={tab.id}
            id={`tab-${tab.id}`}
            class="tab"
            role="tab"
            type="button"
            aria-selected={tab.id === props.selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === props.selected ? 0 : -1}
            aria-label={tab.count ? tab.countLabel : undefined}
            onClick={() => {
              props.onSelect(tab.id);
            }}
          >
            {tab.label}
            {tab.count ? (
              <span class="count" aria-hidden="true">
                {tab.count}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <div
        class="app-main"
        role="tabpanel"
        id={`panel-${props.selected}`}
        aria-labelledby={`tab-${props.selected}`}
      >
        {props.children}
      </div>
    </>
  );
}
