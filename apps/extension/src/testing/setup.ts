// Test-only setup (vitest.config.ts): a fresh fake browser per test, the English locale by
// default, and fakes for the APIs @webext-core/fake-browser leaves unimplemented.
import { cleanup } from "@testing-library/preact";
import { type Mock, afterEach, beforeEach, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { chromeGetMessage, type Locale, loadLocale } from "./locales.ts";
import { installDownloads } from "./downloads.ts";
import { installPorts } from "./ports.ts";
import { forgetWaveforms } from "../lib/views/use-waveform.ts";
import { provideItems } from "../lib/views/stored-value.ts";

// What each page's entry does (mount.tsx): a value that needs migrating is read through
// storage.ts. A fresh fake storage holds values WXT wrote without their version record.
provideItems(() => import("../lib/shared/storage.ts"));

/** The fakes of this test, for assertions (recreated before each test). */
export const mocks = {} as {
  download: Mock;
  request: Mock;
  contains: Mock;
  /** The outcomes of the next downloads (`"complete"` or Chrome's interrupt reason), in order. */
  downloadsEnd: (...outcomes: string[]) => void;
  /** What the browser reports of a download left `"running"`. */
  downloadProgress: { bytesReceived: number; totalBytes: number };
  /** Ends the download left `"running"`. */
  finishDownload: (outcome?: string) => void;
};

type Trigger = (
  message: unknown,
  sender: object,
  sendResponse: (reply: unknown) => void,
) => Promise<unknown[]>;

/** Delivers a runtime message as Chrome does, with a `sendResponse` (the fake's types omit it). */
export function triggerMessage(
  message: unknown,
  sendResponse: (reply: unknown) => void,
): Promise<unknown[]> {
  const event = fakeBrowser.runtime.onMessage as unknown as { trigger: Trigger };
  return event.trigger(message, {}, sendResponse);
}

/** Switches the fake browser's language (call before rendering). */
export async function useLocale(locale: Locale): Promise<void> {
  const messages = await loadLocale(locale);
  fakeBrowser.i18n.getMessage = chromeGetMessage(messages);
  fakeBrowser.i18n.getUILanguage = () => locale.replace("_", "-");
}

beforeEach(async () => {
  fakeBrowser.reset();
  await useLocale("en");
  // Like Chrome: the listener answers through sendResponse and returns true.
  const sendMessage = (message: unknown) =>
    new Promise<unknown>((resolve) => {
      void triggerMessage(message, resolve);
    });
  fakeBrowser.runtime.sendMessage = sendMessage;
  mocks.contains = vi.fn(() => Promise.resolve(true));
  mocks.request = vi.fn(() => Promise.resolve(true));
  const downloads = installDownloads();
  mocks.download = downloads.download;
  mocks.downloadsEnd = downloads.willEnd;
  mocks.downloadProgress = downloads.progress;
  mocks.finishDownload = downloads.finish;
  fakeBrowser.permissions.contains = mocks.contains;
  fakeBrowser.permissions.request = mocks.request;
  installPorts();
  // The fake answers undefined (not a promise) until a window has focus.
  fakeBrowser.windows.getCurrent = (() =>
    Promise.resolve({ id: 1, focused: true })) as unknown as typeof fakeBrowser.windows.getCurrent;
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  forgetWaveforms();
});
