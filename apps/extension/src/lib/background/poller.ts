import { browser } from "wxt/browser";

export const POLL_ALARM = "overture/check-tasks";
/** Chrome's shortest alarm period for a packed extension is 30 s. */
const PERIOD_MINUTES = 0.5;

/** Keeps the polling alarm while some task is active, and removes it when none is. */
export async function schedulePolling(anyActive: boolean): Promise<void> {
  const existing = await browser.alarms.get(POLL_ALARM);
  if (anyActive && !existing) {
    await browser.alarms.create(POLL_ALARM, {
      periodInMinutes: PERIOD_MINUTES,
      delayInMinutes: PERIOD_MINUTES,
    });
  } else if (!anyActive && existing) {
    await browser.alarms.clear(POLL_ALARM);
  }
}
