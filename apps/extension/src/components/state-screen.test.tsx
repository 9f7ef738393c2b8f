import { render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { snapshotItem } from "../lib/shared/storage.ts";
import { startTestBackground } from "../testing/background.ts";
import { fakeBackend, snapshot } from "../testing/fixtures.ts";
import { useLocale } from "../testing/setup.ts";
import { App } from "./app.tsx";
import { StateScreen } from "./state-screen.tsx";

/** The sign-in screen after a sign-in refused as rate-limited, `wait` ms before it may retry. */
async function rateLimited(wait: number | null) {
  await snapshotItem.setValue(
    snapshot({
      auth: "signed_out",
      user: null,
      signInProblem: "rate_limited",
      signInRetryAt: wait === null ? null : Date.now() + wait,
    }),
  );
  startTestBackground(fakeBackend());
  render(<App surface="popup" />);
  return (await screen.findByRole("alert")).textContent;
}

describe("the sign-in screen after a rate-limited sign-in", () => {
  it("says how many seconds to wait, in the words compose uses", async () => {
    expect(await rateLimited(30_000)).toBe(
      "Too many requests from this address. Try again in 30 seconds.",
    );
  });

  it("says how many seconds to wait in Chinese", async () => {
    await useLocale("zh_CN");
    expect(await rateLimited(9_000)).toBe("来自该地址的请求过多，请在9秒钟后再试。");
  });

  it("counts what is left of the wait when it shows, and nothing once it has passed", () => {
    const { rerender } = render(
      <StateScreen screen="signed_out" problem="rate_limited" retryAt={Date.now() + 1_500} />,
    );
    expect(screen.getByRole("alert").textContent).toBe(
      "Too many requests from this address. Try again in 2 seconds.",
    );
    rerender(
      <StateScreen screen="signed_out" problem="rate_limited" retryAt={Date.now() - 1_000} />,
    );
    expect(screen.getByRole("alert").textContent).toBe(
      "Too many requests from this address. Wait a little, then try again.",
    );
  });

  it("keeps the general words when the backend gave no wait", async () => {
    expect(await rateLimited(null)).toBe(
      "Too many requests from this address. Wait a little, then try again.",
    );
  });
});
