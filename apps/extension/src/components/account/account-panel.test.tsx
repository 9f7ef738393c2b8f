import { fireEvent, render, screen, within } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, refusal, snapshot } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { AccountPanel } from "./account-panel.tsx";

const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

const sessions = () =>
  json({
    sessions: [
      { id: "s1", created_at: "2025-01-01T10:00:00.000Z", user_agent: CHROME_LINUX, current: true },
      { id: "s2", created_at: "2025-01-01T09:00:00.000Z", user_agent: FIREFOX_WINDOWS },
      { id: "s3", created_at: "2025-01-01T08:00:00.000Z", user_agent: null },
    ],
  });

const describedBy = (element: HTMLElement) =>
  (element.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ");

describe("account: signed-in devices", () => {
  it("names each device by browser and system, and marks this one", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/sessions": sessions }));
    render(<AccountPanel snapshot={snapshot()} />);
    const items = await screen.findAllByTestId("device-name");
    expect(items.map((item) => item.textContent)).toEqual([
      "Chrome 156 on Linux",
      "Firefox 128 on Windows",
      "Unknown browser",
    ]);
    expect(document.querySelector('[data-device-id="s1"]')?.textContent).toContain("This device");
  });

  it("names devices in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/sessions": sessions }));
    render(<AccountPanel snapshot={snapshot()} />);
    const items = await screen.findAllByTestId("device-name");
    expect(items[1]?.textContent).toBe("Windows 上的 Firefox 128");
  });
});

describe("account: signing out asks first", () => {
  it("does not sign out on the first click, and keeps the session when kept", async () => {
    await signedIn();
    const backend = fakeBackend({ "GET /api/sessions": sessions });
    startTestBackground(backend);
    render(<AccountPanel snapshot={snapshot()} />);
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(await screen.findByText("Sign out of Overture in this browser?")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Stay signed in" }));
    expect(screen.queryByText("Sign out of Overture in this browser?")).toBeNull();
    expect(backend.calls("POST", "/auth/logout")).toHaveLength(0);
  });

  it("signs out once confirmed", async () => {
    await signedIn();
    const backend = fakeBackend({ "GET /api/sessions": sessions });
    startTestBackground(backend);
    render(<AccountPanel snapshot={snapshot()} />);
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    const confirm = await screen.findByRole("button", { name: "Yes, sign out" });
    expect(document.activeElement).toBe(confirm);
    fireEvent.click(confirm);
    await expect.poll(() => backend.calls("POST", "/auth/logout").length).toBe(1);
  });

  it("asks in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/sessions": sessions }));
    render(<AccountPanel snapshot={snapshot()} />);
    fireEvent.click(screen.getByRole("button", { name: "退出登录" }));
    expect(await screen.findByText("要在此浏览器中退出 Overture 吗？")).toBeTruthy();
    expect(screen.getByRole("button", { name: "保持登录" })).toBeTruthy();
  });
});

describe("account: revoking a device asks first, as signing out does", () => {
  const revoking = () =>
    fakeBackend({
      "GET /api/sessions": sessions,
      "DELETE /api/sessions/s1": () => new Response(null, { status: 204 }),
      "DELETE /api/sessions/s2": () => new Response(null, { status: 204 }),
    });
  /** The panel, signed in, over a backend that lets both sessions be revoked. */
  const openRevoking = async () => {
    await signedIn();
    const backend = revoking();
    startTestBackground(backend);
    render(<AccountPanel snapshot={snapshot()} />);
    return backend;
  };
  const device = async (id: string) => {
    await screen.findAllByTestId("device-name");
    const item = document.querySelector<HTMLElement>(`[data-device-id="${id}"]`);
    if (!item) throw new Error(`no device ${id}`);
    return within(item);
  };

  it("does not revoke this device on the first click, and keeps it when kept", async () => {
    const backend = await openRevoking();
    const here = await device("s1");
    fireEvent.click(here.getByRole("button", { name: /^Revoke/ }));
    const question = here.getByRole("group", {
      name: "Revoke this device? Overture signs out in this browser.",
    });
    fireEvent.click(within(question).getByRole("button", { name: "Keep it" }));
    expect(here.queryByRole("group")).toBeNull();
    expect(backend.calls("DELETE", "/api/sessions/s1")).toHaveLength(0);
  });

  it("revokes this device once confirmed", async () => {
    const backend = await openRevoking();
    const here = await device("s1");
    fireEvent.click(here.getByRole("button", { name: /^Revoke/ }));
    const confirm = here.getByRole("button", { name: "Yes, revoke" });
    expect(document.activeElement).toBe(confirm);
    fireEvent.click(confirm);
    await expect.poll(() => backend.calls("DELETE", "/api/sessions/s1").length).toBe(1);
  });

  it("asks before revoking another device too, naming it", async () => {
    const backend = await openRevoking();
    const other = await device("s2");
    fireEvent.click(other.getByRole("button", { name: "Revoke: Firefox 128 on Windows" }));
    expect(backend.calls("DELETE", "/api/sessions/s2")).toHaveLength(0);
    other.getByRole("group", { name: "Revoke Firefox 128 on Windows? It is signed out there." });
    fireEvent.click(other.getByRole("button", { name: "Yes, revoke" }));
    await expect.poll(() => backend.calls("DELETE", "/api/sessions/s2").length).toBe(1);
  });

  it("asks in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn();
    startTestBackground(revoking());
    render(<AccountPanel snapshot={snapshot()} />);
    const here = await device("s1");
    fireEvent.click(here.getByRole("button", { name: /^撤销/ }));
    expect(
      here.getByRole("group", { name: "要撤销当前设备吗？Overture 将在此浏览器中退出登录。" }),
    ).toBeTruthy();
    expect(here.getByRole("button", { name: "确认撤销" })).toBeTruthy();
    expect(here.getByRole("button", { name: "保留" })).toBeTruthy();
  });
});

describe("account: the organisation namespace", () => {
  it("explains where to find an organisation's namespace, next to the field", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/sessions": sessions }));
    render(<AccountPanel snapshot={snapshot()} />);
    fireEvent.click(screen.getByRole("radio", { name: "Organisation" }));
    const input = screen.getByRole("textbox", { name: "Organisation namespace" });
    expect(describedBy(input)).toBe(
      "Find it in the platform console: Workbench → Settings → your organisation. The namespace is the short name in the organisation's address (URL) and on its profile page. Your personal namespace is your login, demo.",
    );
  });

  it("explains it in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/sessions": sessions }));
    render(<AccountPanel snapshot={snapshot()} />);
    fireEvent.click(screen.getByRole("radio", { name: "组织" }));
    const input = screen.getByRole("textbox", { name: "组织命名空间" });
    expect(describedBy(input)).toContain("工作台 → 设置");
    expect(describedBy(input)).toContain("demo");
  });
});

describe("account: live callbacks", () => {
  it("says callbacks are on while none is refused", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/sessions": sessions }));
    render(<AccountPanel snapshot={snapshot({ webhookConfigured: true })} />);
    expect(screen.getByTestId("live-mode").textContent).toBe(
      "Live callbacks are on (a webhook secret is set).",
    );
  });

  it("says callbacks are refused, and why, instead of 'on'", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/sessions": sessions }));
    render(
      <AccountPanel
        snapshot={snapshot({
          webhookConfigured: true,
          webhookRefusals: [refusal({ causes: ["SECRET_WHITESPACE"] })],
        })}
      />,
    );
    expect(screen.getByTestId("live-mode").textContent).toBe(
      "Callbacks for this account are being refused: the secret entered in Overture has spaces or line breaks around it; enter it again without them. Progress is followed by polling meanwhile. Fix the secret in Settings.",
    );
  });
});
