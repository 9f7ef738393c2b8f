import { fireEvent, render, screen, within } from "@testing-library/preact";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { snapshotItem } from "../lib/shared/storage.ts";
import { signedIn, startTestBackground } from "../testing/background.ts";
import { QUOTA, fakeBackend, json, snapshot, task } from "../testing/fixtures.ts";
import { useLocale } from "../testing/setup.ts";
import { App } from "./app.tsx";

// The signed-in view and its panels are chunks the app imports on first render (issue 16);
// importing them once here keeps the tests' waits about the app, not about transforming modules.
beforeAll(async () => {
  await Promise.all([
    import("./signed-in.tsx"),
    import("./tasks/task-panel.tsx"),
    import("./account/account-panel.tsx"),
  ]);
});

const never = () => new Promise<Response>(() => undefined);

describe("the popup's state screens", () => {
  it("asks a signed-out person to sign in", async () => {
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    expect(
      await screen.findByRole("heading", { name: "Sign in to start making music" }),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign in" })).toBeTruthy();
  });

  it("says so, in Chinese, for a browser in Chinese", async () => {
    await useLocale("zh_CN");
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    expect(await screen.findByRole("heading", { name: "登录后即可开始创作音乐" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "登录" })).toBeTruthy();
  });

  it("explains a denied consent on the sign-in screen", async () => {
    await snapshotItem.setValue(
      snapshot({ auth: "signed_out", user: null, signInProblem: "denied" }),
    );
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    expect((await screen.findByRole("alert")).textContent).toContain(
      "Sign-in was declined on the consent page",
    );
  });

  it("explains a cancelled sign-in on the sign-in screen", async () => {
    await snapshotItem.setValue(
      snapshot({ auth: "signed_out", user: null, signInProblem: "cancelled" }),
    );
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    expect((await screen.findByRole("alert")).textContent).toContain("closed before it finished");
  });

  it("tells where to look after a closed sign-in: the platform's callback registration", async () => {
    await snapshotItem.setValue(
      snapshot({ auth: "signed_out", user: null, signInProblem: "cancelled" }),
    );
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    expect((await screen.findByRole("alert")).textContent).toContain("/oauth/callback");
  });

  it("shows the redirect URL the backend must allow after it refused this browser", async () => {
    fakeBrowser.identity.getRedirectURL = () => "https://abc.chromiumapp.org/";
    await snapshotItem.setValue(
      snapshot({ auth: "signed_out", user: null, signInProblem: "redirect_refused" }),
    );
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("EXTENSION_REDIRECT_URLS");
    expect(screen.getByTestId("refused-redirect").textContent).toBe("https://abc.chromiumapp.org/");
  });

  it("shows the unreachable screen with the backend address and a retry", async () => {
    await snapshotItem.setValue(
      snapshot({ auth: "signed_out", user: null, connectivity: "unreachable" }),
    );
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    render(<App surface="popup" />);
    expect(
      await screen.findByRole("heading", { name: "Can't reach the Overture backend" }),
    ).toBeTruthy();
    expect(await screen.findByText(/http:\/\/127\.0\.0\.1:8787/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("asks to sign in again when the authorization was revoked", async () => {
    await signedIn();
    startTestBackground(
      fakeBackend({
        "GET /api/me": () => json({ error: "reauthentication_required", message: "x" }, 401),
      }),
    );
    render(<App surface="popup" />);
    expect(await screen.findByRole("heading", { name: "Authorization was revoked" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign in again" })).toBeTruthy();
  });

  // The backend answers one 401 for an expired, unknown or signed-out session (its session
  // middleware): the screen must be true of each, a session ended from another device included.
  it("asks to sign in again without claiming the session expired, since it may have been signed out elsewhere", async () => {
    await signedIn();
    startTestBackground(
      fakeBackend({ "GET /api/me": () => json({ error: "unauthenticated", message: "x" }, 401) }),
    );
    render(<App surface="popup" />);
    expect(await screen.findByRole("heading", { name: "Your session has ended" })).toBeTruthy();
    expect(screen.getByText(/signed out from another device or by the backend/)).toBeTruthy();
  });

  it("shows the offline banner and keeps the last known tasks", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    render(<App surface="popup" />);
    expect(await screen.findByText("You're offline")).toBeTruthy();
    fireEvent.click(await screen.findByRole("tab", { name: /Tasks/ }, { timeout: 5_000 }));
    // The Tasks panel is a chunk of its own (issue 16): it shows once read.
    expect(await screen.findByText("lofi piano")).toBeTruthy();
  });
});

describe("the popup's content", () => {
  it("renders the stored state before the backend answers", async () => {
    await signedIn({
      tasks: [task({ status: "in_progress", params: { prompt: "stored track" } })],
    });
    startTestBackground(
      fakeBackend({
        "GET /api/me": never,
        "GET /api/tasks": never,
        "GET /api/selection": never,
        "GET /api/quota": never,
      }),
    );
    render(<App surface="popup" />);
    fireEvent.click(await screen.findByRole("tab", { name: /Tasks/ }, { timeout: 5_000 }));
    expect(await screen.findByText("stored track")).toBeTruthy();
  });

  it("counts active tasks on the Tasks tab, in its accessible name too", async () => {
    await signedIn({ tasks: [task({ status: "waiting" }), task({ id: "t2", status: "success" })] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    const tab = await screen.findByRole("tab", { name: "Tasks, 1 running" });
    expect(tab.querySelector(".count")?.textContent).toBe("1");
  });

  it("names the Tasks tab with its count in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [task({ status: "waiting" }), task({ id: "t2", status: "queued" })] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    expect(await screen.findByRole("tab", { name: "任务，2 个进行中" })).toBeTruthy();
  });

  it("names the Tasks tab plainly when nothing runs", async () => {
    await signedIn({ tasks: [task({ status: "success" })] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    expect(await screen.findByRole("tab", { name: "Tasks" })).toBeTruthy();
  });

  it("says the quota is full and that new tasks wait in the local queue", async () => {
    await signedIn();
    startTestBackground(
      fakeBackend({ "GET /api/quota": () => json({ ...QUOTA, available: 0, queued: 1 }) }),
    );
    render(<App surface="popup" />);
    expect((await screen.findByTestId("quota-full")).textContent).toContain(
      "New tasks wait in the local queue",
    );
    // Once, in the header, with the local queue: the Tasks tab no longer repeats it.
    expect(screen.getByTestId("quota").textContent).toBe("0 of 2 slots free · 1 queued");
    expect(screen.getAllByText(/slots free/)).toHaveLength(1);
  });

  it("moves between tabs with the arrow keys", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    const tablist = await screen.findByRole("tablist");
    const compose = within(tablist).getByRole("tab", { name: "Compose" });
    compose.focus();
    fireEvent.keyDown(compose, { key: "ArrowRight" });
    expect(within(tablist).getByRole("tab", { name: /Tasks/ }).getAttribute("aria-selected")).toBe(
      "true",
    );
    expect(document.activeElement?.id).toBe("tab-tasks");
  });
});

describe("the focus when an action shows another tab", () => {
  it("goes to the Compose tab after a track's “Use these settings”, not to the page", async () => {
    const finished = task({ status: "success", finished_at: "2025-01-01T10:02:00.000Z" });
    await signedIn({ tasks: [finished] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    const more = await screen.findByRole("button", { name: /^More actions/ }, { timeout: 5_000 });
    fireEvent.click(more);
    fireEvent.click(screen.getByRole("menuitem", { name: "Use these settings" }));
    await expect.poll(() => document.activeElement?.id).toBe("tab-compose");
    expect(screen.getByRole("tab", { name: "Compose" }).getAttribute("aria-selected")).toBe("true");
  });
});

/** An event stream that stays open until its request is aborted or `end()` is called. */
function openStream() {
  let close: () => void = () => undefined;
  const route = (request: Request) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("retry: 10\n\n"));
          close = () => {
            controller.close();
          };
          request.signal.addEventListener("abort", () => {
            controller.error(new DOMException("aborted", "AbortError"));
          });
        },
      }),
    );
  return {
    route,
    end: () => {
      close();
    },
  };
}

describe("the connection state in the header", () => {
  const state = () => screen.getByTestId("connection");

  it("says Live while the event stream is open", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/events": openStream().route }));
    render(<App surface="popup" />);
    await screen.findByTestId("connection");
    await expect.poll(() => state().textContent).toBe("Live");
    expect(state().dataset.connection).toBe("live");
  });

  it("says Reconnecting within moments of the backend going away, and keeps the tasks", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    const stream = openStream();
    const backend = fakeBackend({ "GET /api/events": stream.route });
    startTestBackground(backend);
    render(<App surface="popup" />);
    await expect.poll(() => screen.queryByTestId("connection")?.textContent).toBe("Live");
    backend.down();
    stream.end();
    await expect.poll(() => state().textContent).toBe("Reconnecting…");
    expect(screen.getByTestId("connection-lost").textContent).toContain(
      "Lost the connection to the Overture backend",
    );
    fireEvent.click(await screen.findByRole("tab", { name: /Tasks/ }, { timeout: 5_000 }));
    // The Tasks panel is a chunk of its own (issue 16): it shows once read.
    expect(await screen.findByText("lofi piano")).toBeTruthy();
    backend.up();
    await expect.poll(() => state().textContent, { timeout: 5_000 }).toBe("Live");
    expect(screen.queryByTestId("connection-lost")).toBeNull();
  });

  it("says Offline when the browser is offline", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    await signedIn();
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    render(<App surface="popup" />);
    await expect.poll(() => screen.queryByTestId("connection")?.textContent).toBe("Offline");
  });

  it("says Signed out when nobody is signed in", async () => {
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    await expect.poll(() => screen.queryByTestId("connection")?.textContent).toBe("Signed out");
  });

  it("says each state in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn();
    const stream = openStream();
    const backend = fakeBackend({ "GET /api/events": stream.route });
    startTestBackground(backend);
    render(<App surface="popup" />);
    await expect.poll(() => screen.queryByTestId("connection")?.textContent).toBe("实时");
    backend.down();
    stream.end();
    await expect.poll(() => state().textContent).toBe("正在重新连接…");
    expect(screen.getByTestId("connection-lost").textContent).toContain(
      "的连接已断开，正在自动重连",
    );
  });
});

describe("instant open: the last known library first, brought up to date quietly", () => {
  const finished = task({ status: "success", finished_at: "2025-01-01T10:02:00.000Z" });

  it("opens on the library when there are tracks", async () => {
    await signedIn({ tasks: [finished] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    const tasks = await screen.findByRole("tab", { name: "Tasks" }, { timeout: 5_000 });
    expect(tasks.getAttribute("aria-selected")).toBe("true");
  });

  it("opens on the compose form when there are none", async () => {
    await signedIn({ tasks: [] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    const compose = await screen.findByRole("tab", { name: "Compose" }, { timeout: 5_000 });
    expect(compose.getAttribute("aria-selected")).toBe("true");
  });

  it("shows the stored tracks while the backend has not answered, the list marked as updating", async () => {
    await signedIn({ tasks: [finished] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    await screen.findByRole("button", { name: "Play: lofi piano" }, { timeout: 5_000 });
    expect(document.querySelector(".updating")?.hasAttribute("data-active")).toBe(true);
    expect(document.querySelector(".task-list")?.getAttribute("aria-busy")).toBe("true");
  });

  it("shows rows of the final size, not an empty list, while a new device reads its first page", async () => {
    await signedIn({ tasks: [] });
    startTestBackground(fakeBackend({ "GET /api/me": never }));
    render(<App surface="popup" />);
    fireEvent.click(await screen.findByRole("tab", { name: "Tasks" }, { timeout: 5_000 }));
    expect(document.querySelectorAll("li.task.skeleton").length).toBeGreaterThan(0);
    expect(screen.queryByText(/No tasks yet/)).toBeNull();
  });

  it("says the list is empty once the backend answered with nothing", async () => {
    await signedIn({ tasks: [] });
    startTestBackground(fakeBackend());
    render(<App surface="popup" />);
    fireEvent.click(await screen.findByRole("tab", { name: "Tasks" }, { timeout: 5_000 }));
    expect(await screen.findByText(/No tasks yet/)).toBeTruthy();
    expect(document.querySelectorAll("li.task.skeleton")).toHaveLength(0);
  });
});
