// Test-only: the downloads API as the browser runs it. `download()` answers an id at once; the
// outcome arrives later through `onChanged`, as in Chrome and Firefox (a 404 shows up as an
// interrupted download with SERVER_BAD_CONTENT, not as a rejected call).
import { vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { fakeEvent } from "./ports.ts";

interface Delta {
  id: number;
  state?: { current?: string; previous?: string };
  error?: { current?: string };
}

export function installDownloads() {
  const onChanged = fakeEvent<[Delta]>();
  const outcomes: string[] = [];
  let nextId = 0;
  const download = vi.fn((_options: unknown) => {
    const id = ++nextId;
    const outcome = outcomes.shift() ?? "complete";
    setTimeout(() => {
      onChanged.trigger(
        outcome === "complete"
          ? { id, state: { previous: "in_progress", current: "complete" } }
          : {
              id,
              state: { previous: "in_progress", current: "interrupted" },
              error: { current: outcome },
            },
      );
    }, 0);
    return Promise.resolve(id);
  });
  const downloads = fakeBrowser.downloads as unknown as Record<string, unknown>;
  downloads.download = download;
  downloads.onChanged = onChanged;
  return {
    download,
    /**
     * The outcomes of the next downloads, in order: `"complete"` or the interrupt reason Chrome
     * reports (`SERVER_BAD_CONTENT`, `USER_CANCELED`…); after them every download completes.
     */
    willEnd: (...next: string[]) => outcomes.push(...next),
  };
}
