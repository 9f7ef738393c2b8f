/**
 * Gets the browser's audio output ready while a track's media link is on its way. The first
 * sound after the browser started waits for it (its audio service and output device are
 * opened on first use: 150–400 ms measured in Chromium, on top of loading the track); asking
 * for the default output device starts that early. Nothing is fetched and nothing plays. Once
 * per view; where the browser has no `setSinkId` (or refuses the name) it does nothing.
 */
let asked = false;

export function warmAudioOutput(): void {
  if (asked || typeof Audio === "undefined") return;
  asked = true;
  const element = new Audio() as Partial<Pick<HTMLAudioElement, "setSinkId">>;
  // "default" is Chromium's name for the default device; an element already on "" would
  // answer at once without opening anything.
  void element.setSinkId?.("default").catch(() => undefined);
}
