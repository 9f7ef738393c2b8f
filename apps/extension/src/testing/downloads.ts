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
  /** The download left running (outcome `"running"`), ended by `finish()`. */
  let held: number | null = null;
  const progress = { bytesReceived: 0, totalBytes: 0 };
  const end = (id: number, outcome: string) => {
    onChanged.trigger(
      outcome === "complete"
        ? { id, state: { previous: "in_progress", current: "complete" } }
        : {
            id,
            state: { previous: "in_progress", current: "interrupted" },
            error: { current: outcome },
          },
    );
  };
  const download = vi.fn((_options: unknown) => {
    const id = ++nextId;
    const outcome = outcomes.shift() ?? "complete";
    if (outcome === "running") {
      held = id;
      return Promise.resolve(id);
    }
    setTimeout(() => {
      end(id, outcome);
    }, 0);
    return Promise.resolve(id);
  });
  const downloads = fakeBrowser.downloads as unknown as Record<string, unknown>;
  downloads.download = download;
  downloads.onChanged = onChanged;
  downloads.search = vi.fn((query: { id?: number }) =>
    Promise.resolve([{ id: query.id, state: "in_progress", ...progress }]),
  );
  return {
    download,
    /** What `search()` reports for a running download. */
    progress,
    /** Ends the download left running with `outcome` (`"complete"` or an interrupt reason). */
    finish: (outcome = "complete") => {
      if (held !== null) end(held, outcome);
      held = null;
    },
    /**
     * The outcomes of the next downloads, in order: `"complete"`, the interrupt reason Chrome
     * reports (`SERVER_BAD_CONTENT`, `USER_CANCELED`…) or `"running"` (until `finish()`); after
     * them every download completes.
     */
    willEnd: (...next: string[]) => outcomes.push(...next),
  };
}
