import { browser } from "wxt/browser";

// Firefox MV2 calls the toolbar button `browserAction`; MV3 everywhere calls it `action`.
type ActionApi = typeof browser.action;
const action = (): ActionApi => {
  const api = browser as unknown as { action?: ActionApi; browserAction: ActionApi };
  return api.action ?? api.browserAction;
};

/** Shows how many tasks are still active on the toolbar button; nothing when none are. */
export async function showActiveCount(count: number): Promise<void> {
  await action().setBadgeText({ text: count > 0 ? String(count) : "" });
  if (count > 0) await action().setBadgeBackgroundColor({ color: "#5b3cc4" });
}
