import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { backendUrlItem } from "../../lib/storage.ts";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json } from "../../testing/fixtures.ts";
import { mocks } from "../../testing/setup.ts";
import { OptionsApp } from "./app.tsx";

function formOf(element: HTMLElement): HTMLFormElement {
  const form = element.closest("form");
  if (!form) throw new Error("not in a form");
  return form;
}

const CHROME = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";
const FIREFOX = "https://bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org/";

describe("settings page", () => {
  it("shows the exact redirect URLs to allow, for Chrome and Firefox", async () => {
    fakeBrowser.identity.getRedirectURL = () => CHROME;
    startTestBackground(fakeBackend());
    render(<OptionsApp />);
    expect((await screen.findByTestId("redirect-chrome")).textContent).toBe(CHROME);
    expect(screen.getByTestId("redirect-firefox").textContent).toBe(FIREFOX);
    expect(screen.getByText("(this browser)")).toBeTruthy();
  });

  it("asks for the new backend's host permission before switching to it", async () => {
    fakeBrowser.identity.getRedirectURL = () => CHROME;
    startTestBackground(fakeBackend());
    render(<OptionsApp />);
    const input = await screen.findByLabelText<HTMLInputElement>("Backend address");
    await expect.poll(() => input.value).toBe("http://127.0.0.1:8787");
    fireEvent.input(input, { target: { value: "https://overture.example/x" } });
    fireEvent.submit(formOf(input));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(mocks.request).toHaveBeenCalledWith({
      origins: ["https://overture.example/*"],
    });
    expect(await backendUrlItem.getValue()).toBe("https://overture.example");
  });

  it("keeps the old backend when the permission is refused", async () => {
    fakeBrowser.identity.getRedirectURL = () => CHROME;
    startTestBackground(fakeBackend());
    fakeBrowser.permissions.request = vi.fn(() => Promise.resolve(false));
    render(<OptionsApp />);
    const input = await screen.findByLabelText<HTMLInputElement>("Backend address");
    fireEvent.input(input, { target: { value: "https://overture.example" } });
    fireEvent.submit(formOf(input));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Permission to reach that address was not granted.",
    );
    expect(await backendUrlItem.getValue()).toBe("http://127.0.0.1:8787");
  });

  it("sends a webhook secret once, empties the field and says live callbacks are on", async () => {
    fakeBrowser.identity.getRedirectURL = () => CHROME;
    await signedIn();
    const configured = {
      namespace: "demo",
      configured: true,
      updated_at: "2025-01-01T10:00:00.000Z",
      previous_valid_until: null,
    };
    let stored = false;
    const backend = fakeBackend({
      "PUT /api/namespaces/demo/webhook-secret": () => {
        stored = true;
        return new Response(null, { status: 204 });
      },
      "GET /api/namespaces/demo/webhook-secret": () =>
        json(stored ? configured : { ...configured, configured: false, updated_at: null }),
    });
    startTestBackground(backend);
    render(<OptionsApp />);
    expect((await screen.findByTestId("webhook-status")).textContent).toBe(
      "No secret set. Tasks are followed by polling only.",
    );
    const secret = screen.getByLabelText<HTMLInputElement>("New secret");
    fireEvent.input(secret, { target: { value: "whsec-123" } });
    fireEvent.submit(formOf(secret));
    await expect
      .poll(() => screen.getByTestId("webhook-status").textContent)
      .toContain("Live callbacks are on.");
    expect(secret.value).toBe("");
    expect(secret.type).toBe("password");
    expect(await backend.calls("PUT", "/api/namespaces/demo/webhook-secret")[0]?.json()).toEqual({
      secret: "whsec-123",
    });
  });
});
