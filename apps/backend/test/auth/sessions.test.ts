import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";

const DAY = 86_400_000;

interface SessionItem {
  id: string;
  user_agent: string | null;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  current: boolean;
}

describeEachDriver("sessions", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(() => t.close());

  const me = (session: string) => t.request("/api/me", { session });
  const sessionsOf = async (session: string) =>
    ((await (await t.request("/api/sessions", { session })).json()) as { sessions: SessionItem[] })
      .sessions;

  it("refuses /api routes without a session token", async () => {
    const response = await t.request("/api/me");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthenticated" });
  });

  it("refuses an unknown session token", async () => {
    expect((await me("ovs_not-a-real-token")).status).toBe(401);
  });

  it("describes the caller's session on /api/me", async () => {
    const user = await t.signIn();
    const body = (await (await me(user.sessionToken)).json()) as {
      session: { id: string; expires_at: string };
    };
    expect(body.session.expires_at).toBe(user.expiresAt);
    expect(body.session.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("slides the expiry forward while the session is used", async () => {
    const user = await t.signIn();
    await t.emu.control.clock.advance(20 * DAY);
    expect((await me(user.sessionToken)).status).toBe(200);
    await t.emu.control.clock.advance(20 * DAY);
    // 40 days after sign-in, past the 30-day TTL, but used 20 days ago.
    const body = (await (await me(user.sessionToken)).json()) as {
      session: { expires_at: string };
    };
    expect(new Date(body.session.expires_at).getTime()).toBe(t.clock.now() + t.config.sessionTtlMs);
  });

  it("ends a session left unused past its TTL", async () => {
    const user = await t.signIn();
    await t.emu.control.clock.advance(t.config.sessionTtlMs + 1);
    expect((await me(user.sessionToken)).status).toBe(401);
  });

  it("logs out the calling session only", async () => {
    const first = await t.signIn();
    const second = await t.signIn();
    expect(
      (await t.request("/auth/logout", { method: "POST", session: first.sessionToken })).status,
    ).toBe(204);
    expect((await me(first.sessionToken)).status).toBe(401);
    expect((await me(second.sessionToken)).status).toBe(200);
  });

  it("lists the user's devices and marks the current one", async () => {
    const phone = await t.signIn({ login: "ada", userAgent: "Firefox/140" });
    const laptop = await t.signIn({ login: "ada", userAgent: "Chrome/139" });
    const list = await sessionsOf(laptop.sessionToken);
    const mine = list.filter(
      (s) => s.user_agent === "Firefox/140" || s.user_agent === "Chrome/139",
    );
    expect(mine).toHaveLength(2);
    expect(list.find((s) => s.current)?.user_agent).toBe("Chrome/139");
    expect(phone.userId).toBe(laptop.userId);
  });

  it("does not list another user's sessions", async () => {
    await t.signIn({ login: "ada", userAgent: "Ada's browser" });
    const demo = await t.signIn({ userAgent: "Demo's browser" });
    const list = await sessionsOf(demo.sessionToken);
    expect(list.some((s) => s.user_agent === "Ada's browser")).toBe(false);
  });

  it("revokes another device, effective on its next request", async () => {
    const other = await t.signIn({ userAgent: "old laptop" });
    const current = await t.signIn();
    expect((await me(other.sessionToken)).status).toBe(200);
    const target = (await sessionsOf(current.sessionToken)).find(
      (s) => s.user_agent === "old laptop",
    );
    const response = await t.request(`/api/sessions/${target?.id ?? ""}`, {
      method: "DELETE",
      session: current.sessionToken,
    });
    expect(response.status).toBe(204);
    expect((await me(other.sessionToken)).status).toBe(401);
  });

  it("answers 404 for another user's session id", async () => {
    const ada = await t.signIn({ login: "ada" });
    const demo = await t.signIn();
    const adaSession = (await sessionsOf(ada.sessionToken)).find((s) => s.current);
    const response = await t.request(`/api/sessions/${adaSession?.id ?? ""}`, {
      method: "DELETE",
      session: demo.sessionToken,
    });
    expect(response.status).toBe(404);
    expect((await me(ada.sessionToken)).status).toBe(200);
  });

  it("answers 404 for a malformed session id", async () => {
    const demo = await t.signIn();
    const response = await t.request("/api/sessions/not-a-uuid", {
      method: "DELETE",
      session: demo.sessionToken,
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "session_not_found" });
  });
});
