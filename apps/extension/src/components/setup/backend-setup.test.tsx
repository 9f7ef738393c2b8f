import { fireEvent, render, screen } from "@testing-library/preact";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { backendUrl, backendUrlItem } from "../../lib/shared/storage.ts";
import { REDIRECT, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json } from "../../testing/fixtures.ts";
import { mocks, useLocale } from "../../testing/setup.ts";
import { App } from "../app.tsx";

const BACKEND = "https://overture.example";
/** Every request of the test, to any host (the fake backend answers all of them). */
const hosts = (backend: ReturnType<typeof fakeBackend>) =>
  backend.requests.map((r) => new URL(r.url).origin);

beforeEach(() => {
  // A store build: no default backend.
  vi.stubEnv("MODE", "store");
  fakeBrowser.identity.getRedirectURL = () => REDIRECT;
});

async function testAddress(text: string) {
  const input = await screen.findByLabelText<HTMLInputElement>("Backend address");
  fireEvent.input(input, { target: { value: text } });
  fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
}

describe("first run of a store build", () => {
  it("asks for the backend's address instead of reaching any default", async () => {
    const backend = fakeBackend();
    startTestBackground(backend);
    render(<App surface="popup" />);
    expect(
      await screen.findByRole("heading", { name: "Connect Overture to your backend" }),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull();
    expect(await backendUrl()).toBeNull();
    expect(hosts(backend)).toEqual([]);
  });

  it("tests the connection after asking for the host permission", async () => {
    const backend = fakeBackend();
    startTestBackground(backend);
    render(<App surface="popup" />);
    await testAddress(`${BACKEND}/some/path`);
    expect((await screen.findByTestId("setup-result")).textContent).toBe(
      `The backend at ${BACKEND} is ready.`,
    );
    expect(mocks.request).toHaveBeenCalledWith({ origins: [`${BACKEND}/*`] });
    expect(backend.calls("GET", "/readyz").map((r) => r.url)).toEqual([`${BACKEND}/readyz`]);
    // Tested, not saved yet.
    expect(await backendUrl()).toBeNull();
  });

  it("shows this browser's exact redirect URL and origin, and copies them as settings", async () => {
    startTestBackground(fakeBackend());
    const writeText = vi.fn(() => Promise.resolve());
    vi.spyOn(navigator, "clipboard", "get").mockReturnValue({ writeText } as unknown as Clipboard);
    render(<App surface="popup" />);
    expect((await screen.findByTestId("allow-redirect")).textContent).toBe(REDIRECT);
    expect(screen.getByTestId("allow-origin").textContent).toBe(location.origin);
    fireEvent.click(screen.getByRole("button", { name: "Copy settings" }));
    expect(writeText).toHaveBeenCalledWith(
      `EXTENSION_REDIRECT_URLS=${REDIRECT}\nEXTENSION_ORIGINS=${location.origin}\n`,
    );
    expect(await screen.findByText("Copied")).toBeTruthy();
  });

  it("saves the tested address on Continue and moves on to sign-in", async () => {
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    await testAddress(BACKEND);
    fireEvent.click(await screen.findByRole("button", { name: "Continue" }));
    expect(
      await screen.findByRole("heading", { name: "Sign in to start making music" }),
    ).toBeTruthy();
    expect(await backendUrlItem.getValue()).toBe(BACKEND);
  });

  it("says the backend's database is not ready, and still lets the person continue", async () => {
    startTestBackground(
      fakeBackend({
        "GET /readyz": () =>
          json({ status: "not_ready", database: "unreachable", migrations: "applied" }, 503),
      }),
    );
    render(<App surface="popup" />);
    await testAddress(BACKEND);
    expect((await screen.findByTestId("setup-result")).textContent).toContain(
      "its database is not ready yet",
    );
    expect(screen.getByRole("button", { name: "Continue" })).toBeTruthy();
  });

  it("says when no Overture backend answers at the address", async () => {
    startTestBackground(
      fakeBackend({ "GET /readyz": () => new Response("nope", { status: 404 }) }),
    );
    render(<App surface="popup" />);
    await testAddress(BACKEND);
    expect((await screen.findByRole("alert")).textContent).toBe(
      `No Overture backend answers at ${BACKEND}.`,
    );
    expect(screen.queryByRole("button", { name: "Continue" })).toBeNull();
  });

  it("says when the backend cannot be reached", async () => {
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    render(<App surface="popup" />);
    await testAddress(BACKEND);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The backend could not be reached.",
    );
  });

  it("tests nothing when the permission is refused", async () => {
    const backend = fakeBackend();
    startTestBackground(backend);
    fakeBrowser.permissions.request = vi.fn(() => Promise.resolve(false));
    render(<App surface="popup" />);
    await testAddress(BACKEND);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Permission to reach that address was not granted.",
    );
    expect(hosts(backend)).toEqual([]);
  });

  it("refuses an address that is not http(s)", async () => {
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    await testAddress("ftp://overture.example");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Enter an address that starts with http:// or https://.",
    );
    expect(mocks.request).not.toHaveBeenCalled();
  });

  it("asks in Chinese for a browser in Chinese", async () => {
    await useLocale("zh_CN");
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    expect(await screen.findByRole("heading", { name: "将 Overture 连接到你的后端" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "测试连接" })).toBeTruthy();
  });

  it("is skipped by development builds, which default to the local stack", async () => {
    vi.unstubAllEnvs();
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    expect(
      await screen.findByRole("heading", { name: "Sign in to start making music" }),
    ).toBeTruthy();
    expect(await backendUrl()).toBe("http://127.0.0.1:8787");
  });
});
