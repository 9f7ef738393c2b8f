import { browser } from "wxt/browser";

interface SidePanelApi {
  open(options: { windowId: number }): Promise<void>;
}
interface SidebarActionApi {
  open(): Promise<void>;
}

/** Whether this browser has a side panel the popup can open (Chrome's sidePanel, Firefox's sidebar). */
export function canOpenSidePanel(): boolean {
  const api = browser as unknown as { sidePanel?: SidePanelApi; sidebarAction?: SidebarActionApi };
  return Boolean(api.sidePanel ?? api.sidebarAction);
}

/**
 * Opens the side panel from a click (both browsers require a user gesture, so the window id is
 * read before the click, not awaited inside it).
 */
export function openSidePanel(windowId: number | undefined): Promise<void> {
  const api = browser as unknown as { sidePanel?: SidePanelApi; sidebarAction?: SidebarActionApi };
  if (api.sidebarAction) return api.sidebarAction.open();
  if (api.sidePanel && windowId !== undefined) return api.sidePanel.open({ windowId });
  return Promise.resolve();
}
