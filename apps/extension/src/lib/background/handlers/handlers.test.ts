import { describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { NOW, REDIRECT, signedIn, startTestBackground } from "../../../testing/background.ts";
import { GRANT, SELECTION, USER, fakeBackend, json, task } from "../../../testing/fixtures.ts";
import { mocks } from "../../../testing/setup.ts";
import { send } from "../../shared/messages.ts";
import { backendUrl, snapshotItem } from "../../shared/storage.ts";
import { sessionItem } from "../session-store.ts";

const unauthenticated = () => json({ error: "unauthenticated", message: "gone" }, 401);
const revoked = () => json({ error: "reauthentication_required", message: "revoked" }, 401);

describe("background: sign-in and sign-out", () => {
  it("signs in, keeps the session token in the background and shows who is signed in", async () => {
    startTestBackground(fakeBackend());
    const snapshot = await send("auth/sign-in");
    expect(snapshot).toMatchObject({ auth: "signed_in", user: USER, selection: SELECTION });
    expect(await sessionItem.getValue()).toMatchObject({ token: GRANT.session_token });
    expect(JSON.stringify(await snapshotItem.getValue())).not.toContain(GRANT.session_token);
  });

  it("sends the session token as a bearer header on API calls after sign-in", async () => {
    const backend = fakeBackend();
    startTestBackground(backend);
    await send("auth/sign-in");
    expect(backend.calls("GET", "/api/me")[0]?.headers.get("Authorization")).toBe(
      `Bearer ${GRANT.session_token}`,
    );
  });

  it("keeps the person signed out with the reason when consent is denied", async () => {
    startTestBackground(fakeBackend(), () => Promise.resolve(`${REDIRECT}?error=access_denied`));
    await expect(send("auth/sign-in")).rejects.toMatchObject({ code: "sign_in_denied" });
    expect(await snapshotItem.getValue()).toMatchObject({
      auth: "signed_out",
      signInProblem: "denied",
    });
  });

  it("keeps the person signed out, told to slow down and until when, when the backend rate-limits the sign-in", async () => {
    startTestBackground(
      fakeBackend({
        "POST /auth/token": () =>
          json({ error: "rate_limited", message: "x", retry_after_seconds: 9 }, 429),
      }),
    );
    await expect(send("auth/sign-in")).rejects.toMatchObject({
      code: "rate_limited",
      retryAfterSeconds: 9,
    });
    expect(await snapshotItem.getValue()).toMatchObject({
      auth: "signed_out",
      signInProblem: "rate_limited",
      signInRetryAt: NOW + 9_000,
    });
  });

  it("keeps the person signed out with the reason when the sign-in window is closed", async () => {
    startTestBackground(fakeBackend(), () =>
      Promise.reject(new Error("The user did not approve access.")),
    );
    await expect(send("auth/sign-in")).rejects.toMatchObject({ code: "sign_in_cancelled" });
    expect(await snapshotItem.getValue()).toMatchObject({
      auth: "signed_out",
      signInProblem: "cancelled",
    });
  });

  it("shows the backend as unreachable when sign-in cannot reach it", async () => {
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    await expect(send("auth/sign-in")).rejects.toMatchObject({ code: "backend_unreachable" });
    expect(await snapshotItem.getValue()).toMatchObject({
      auth: "signed_out",
      connectivity: "unreachable",
    });
  });

  it("signs out on the backend, forgets the session and clears the badge", async () => {
    const backend = fakeBackend();
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    startTestBackground(backend);
    await send("state/refresh");
    expect(await fakeBrowser.action.getBadgeText({})).toBe("1");
    const snapshot = await send("auth/sign-out");
    expect(snapshot.auth).toBe("signed_out");
    expect(backend.calls("POST", "/auth/logout")).toHaveLength(1);
    expect(await sessionItem.getValue()).toBeNull();
    expect(await fakeBrowser.action.getBadgeText({})).toBe("");
  });

  it("forgets the music it kept for replay when signing out", async () => {
    await signedIn();
    const { ctx } = startTestBackground(fakeBackend());
    await ctx.audioCache.put("http://127.0.0.1:8787", "t1", new Blob([new Uint8Array(10)]));
    await send("auth/sign-out");
    expect(await ctx.audioCache.get("http://127.0.0.1:8787", "t1")).toBeNull();
  });
});

describe("background: state screens from backend answers", () => {
  it("shows 'session expired' and forgets the token when the backend no longer knows the session", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/me": unauthenticated }));
    expect(await send("state/refresh")).toMatchObject({ auth: "expired", user: USER });
    expect(await sessionItem.getValue()).toBeNull();
  });

  it("shows 'authorization revoked' when the backend asks to sign in again", async () => {
    await signedIn();
    startTestBackground(fakeBackend({ "GET /api/me": revoked }));
    expect(await send("state/refresh")).toMatchObject({ auth: "revoked" });
  });

  it("shows 'authorization revoked' when the grant is reported revoked", async () => {
    await signedIn();
    startTestBackground(
      fakeBackend({
        "GET /api/me": () =>
          json({
            user: USER,
            grant: { status: "revoked", scope: "" },
            session: { id: "s1", expires_at: GRANT.expires_at },
          }),
      }),
    );
    expect(await send("state/refresh")).toMatchObject({ auth: "revoked" });
  });

  it("shows 'session expired' without calling the backend once the session's time is past", async () => {
    await signedIn();
    await sessionItem.setValue({ token: "old", expiresAt: "2024-12-31T00:00:00.000Z", user: USER });
    const backend = fakeBackend();
    startTestBackground(backend);
    expect(await send("state/refresh")).toMatchObject({ auth: "expired" });
    expect(backend.requests).toHaveLength(0);
  });

  it("keeps the last known state and marks the backend unreachable when it does not answer", async () => {
    await signedIn({ tasks: [task()] });
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    expect(await send("state/refresh")).toMatchObject({
      auth: "signed_in",
      connectivity: "unreachable",
      tasks: [task()],
    });
  });
});

describe("background: tasks", () => {
  it("refuses to submit before an access token is chosen", async () => {
    await signedIn({ selection: null });
    startTestBackground(fakeBackend());
    await expect(send("tasks/submit", { params: { prompt: "x" } })).rejects.toMatchObject({
      code: "no_selection",
    });
  });

  it("adds a submitted task to the list and counts it on the badge", async () => {
    await signedIn();
    const backend = fakeBackend({
      "POST /api/tasks": () => json(task({ id: "new", status: "queued" }), 201),
    });
    startTestBackground(backend);
    await send("tasks/submit", { params: { prompt: "lofi" } });
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["new"]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe("1");
    expect(await backend.calls("POST", "/api/tasks")[0]?.json()).toEqual({ prompt: "lofi" });
  });

  it("reports the backend's refused fields on submit", async () => {
    await signedIn();
    const fields = [
      {
        field: "duration",
        code: "range",
        min: 30,
        max: 240,
        message: "duration must be between 30 and 240.",
      },
    ];
    startTestBackground(
      fakeBackend({
        "POST /api/tasks": () => json({ error: "invalid_parameters", message: "bad", fields }, 400),
      }),
    );
    await expect(send("tasks/submit", { params: { duration: 5 } })).rejects.toMatchObject({
      code: "invalid_parameters",
      fields,
    });
  });

  it("applies a cancelled task at once", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    startTestBackground(
      fakeBackend({
        "POST /api/tasks/t1/cancel": () =>
          json(task({ status: "cancelled", updated_at: "2025-01-01T10:02:00.000Z" })),
      }),
    );
    await send("tasks/cancel", { id: "t1" });
    expect((await snapshotItem.getValue()).tasks[0]?.status).toBe("cancelled");
    expect(await fakeBrowser.action.getBadgeText({})).toBe("");
  });
});

describe("background: devices, settings and downloads", () => {
  it("lists the signed-in devices", async () => {
    await signedIn();
    const sessions = [
      { id: "s1", current: true },
      { id: "s2", current: false },
    ];
    startTestBackground(fakeBackend({ "GET /api/sessions": () => json({ sessions }) }));
    expect(await send("sessions/list")).toEqual(sessions);
  });

  it("keeps this device signed in when another device is revoked", async () => {
    await signedIn();
    const backend = fakeBackend({
      "DELETE /api/sessions/s2": () => new Response(null, { status: 204 }),
      "GET /api/sessions": () => json({ sessions: [{ id: "s1", current: true }] }),
    });
    startTestBackground(backend);
    expect(await send("sessions/revoke", { id: "s2" })).toEqual([{ id: "s1", current: true }]);
    expect(await sessionItem.getValue()).not.toBeNull();
  });

  it("signs out here when this device's session is revoked", async () => {
    await signedIn();
    startTestBackground(
      fakeBackend({ "DELETE /api/sessions/s1": () => new Response(null, { status: 204 }) }),
    );
    expect(await send("sessions/revoke", { id: "s1" })).toEqual([]);
    expect(await sessionItem.getValue()).toBeNull();
  });

  it("refuses a backend address whose host permission was not granted", async () => {
    startTestBackground(fakeBackend());
    fakeBrowser.permissions.contains = () => Promise.resolve(false);
    await expect(
      send("settings/backend-url", { url: "https://overture.example/path" }),
    ).rejects.toMatchObject({ code: "permission_denied" });
    expect(await backendUrl()).toBe("http://127.0.0.1:8787");
  });

  it("switches to a new backend by its origin and ends the old session", async () => {
    await signedIn();
    startTestBackground(fakeBackend());
    await send("settings/backend-url", { url: "https://overture.example/some/path" });
    expect(await backendUrl()).toBe("https://overture.example");
    expect(await sessionItem.getValue()).toBeNull();
  });

  it("downloads a result from the platform link while it is valid", async () => {
    await signedIn({
      tasks: [
        task({
          status: "success",
          file_url: "http://127.0.0.1:4010/files/abc.wav",
          file_expires_at: "2025-01-02T10:00:00.000Z",
        }),
      ],
    });
    startTestBackground(fakeBackend());
    await send("audio/download", { id: "t1", format: "original" });
    expect(mocks.download).toHaveBeenCalledWith({
      url: "http://127.0.0.1:4010/files/abc.wav",
      filename: "lofi piano.wav",
    });
  });

  it("downloads the archived copy with the session bearer once the platform link expired", async () => {
    const audio = "http://127.0.0.1:8787/api/tasks/t1/audio";
    await signedIn({
      tasks: [
        task({
          status: "success",
          file_url: "http://x/files/a.wav",
          file_expires_at: "2025-01-01T00:00:00.000Z",
          audio_url: audio,
        }),
      ],
    });
    startTestBackground(fakeBackend());
    await send("audio/download", { id: "t1", format: "original" });
    expect(mocks.download).toHaveBeenCalledWith({
      url: audio,
      filename: "lofi piano.wav",
      headers: [{ name: "Authorization", value: `Bearer ${GRANT.session_token}` }],
    });
  });
});

describe("background: revoked authorization seen through any call", () => {
  it("shows 'authorization revoked' when the quota call reports it during a refresh", async () => {
    await signedIn();
    startTestBackground(
      fakeBackend({
        "GET /api/quota": () => json({ error: "reauthentication_required", message: "x" }, 401),
      }),
    );
    expect(await send("state/refresh")).toMatchObject({ auth: "revoked" });
  });

  it("keeps the rest of a refresh when the quota alone is unavailable", async () => {
    await signedIn();
    startTestBackground(
      fakeBackend({
        "GET /api/quota": () => json({ error: "platform_unavailable", message: "x" }, 503),
      }),
    );
    expect(await send("state/refresh")).toMatchObject({
      auth: "signed_in",
      connectivity: "online",
    });
  });
});

describe("background: signed out", () => {
  it("checks that the backend answers, so the sign-in screen can say when it does not", async () => {
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    expect(await send("state/refresh")).toMatchObject({
      auth: "signed_out",
      connectivity: "unreachable",
    });
  });

  it("clears the unreachable state once the backend answers again", async () => {
    await snapshotItem.setValue({
      ...(await snapshotItem.getValue()),
      connectivity: "unreachable",
    });
    startTestBackground(fakeBackend());
    expect(await send("state/refresh")).toMatchObject({
      auth: "signed_out",
      connectivity: "online",
    });
  });
});
