import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { backendUrl } from "../../lib/shared/storage.ts";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, rejection, task } from "../../testing/fixtures.ts";
import { mocks } from "../../testing/setup.ts";
import { OptionsApp } from "./app.tsx";

function formOf(element: HTMLElement): HTMLFormElement {
  const form = element.closest("form");
  if (!form) throw new Error("not in a form");
  return form;
}

const CHROME = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";
/** The demo account's secret status: set at 10:00. */
const secretSet = () =>
  json({
    namespace: "demo",
    configured: true,
    updated_at: "2025-01-01T10:00:00.000Z",
    previous_valid_until: null,
  });
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
    expect(await backendUrl()).toBe("https://overture.example");
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
    expect(await backendUrl()).toBe("http://127.0.0.1:8787");
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

  it("asks before removing the webhook secret", async () => {
    fakeBrowser.identity.getRedirectURL = () => CHROME;
    await signedIn();
    const backend = fakeBackend({
      "GET /api/namespaces/demo/webhook-secret": secretSet,
      "DELETE /api/namespaces/demo/webhook-secret": () => new Response(null, { status: 204 }),
    });
    startTestBackground(backend);
    render(<OptionsApp />);
    fireEvent.click(await screen.findByRole("button", { name: "Remove secret" }));
    expect(
      await screen.findByText(
        "Remove the secret? Callbacks for this account will be refused and tasks followed by polling only.",
      ),
    ).toBeTruthy();
    expect(backend.calls("DELETE", "/api/namespaces/demo/webhook-secret")).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Yes, remove it" }));
    await expect
      .poll(() => backend.calls("DELETE", "/api/namespaces/demo/webhook-secret").length)
      .toBe(1);
  });

  it("says refused deliveries and their cause instead of 'Live callbacks are on'", async () => {
    fakeBrowser.identity.getRedirectURL = () => CHROME;
    await signedIn({ tasks: [task({ id: "t1" })] });
    startTestBackground(
      fakeBackend({
        "GET /api/namespaces/demo/webhook-secret": secretSet,
        "GET /api/webhook-rejections": () =>
          json({
            rejections: [
              rejection({
                id: 2,
                received_at: "2025-01-01T10:03:00.000Z",
                diagnoses: [{ code: "FORMER_SECRET_MATCHES", message: "x" }],
              }),
              rejection({ id: 1, received_at: "2025-01-01T10:02:00.000Z" }),
            ],
            next_cursor: null,
          }),
      }),
    );
    render(<OptionsApp />);
    const status = await screen.findByTestId("webhook-status");
    await expect
      .poll(() => status.textContent)
      .toContain(
        "Callbacks for this account are being refused: the platform still signs with the secret you had before; copy the secret the console shows now (or reset it there) and save it.",
      );
    expect(status.textContent).not.toContain("Live callbacks are on.");
    expect(status.textContent).toContain("Refused deliveries since the secret was saved: 2");
    expect(status.className).toContain("bad");
  });
});
