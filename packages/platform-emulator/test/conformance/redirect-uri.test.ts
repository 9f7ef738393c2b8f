import { describe, expect, it } from "vitest";
import { DEFAULT_SEED, seedFor } from "../../src/index.ts";
import { CLIENT, json, manualEmulator } from "../helpers/emulator.ts";
import { authorizePath, signIn } from "../helpers/oauth.ts";

const OTHER = "http://127.0.0.1:9999/oauth/callback";

describe("a redirect_uri that is not the registered one (spec 2.1, 7), and seeding it for any port", () => {
  it("the error page names the address asked for, the registered one, and what to change", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ redirect_uri: OTHER }));
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    const page = await res.text();
    expect(page).toContain(OTHER);
    expect(page).toContain(CLIENT.redirectUri);
    expect(page).toMatch(/register[\s\S]*or[\s\S]*backend/i);
  });

  it("a caller that asks for JSON gets invalid_request naming both addresses, not a redirect", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ redirect_uri: OTHER }), {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await json(res)).toEqual({
      error: "invalid_request",
      error_description: expect.stringContaining(OTHER) as string,
      redirect_uri: OTHER,
      registered_redirect_uri: CLIENT.redirectUri,
    });
  });

  it("seedFor({ backendUrl }) registers every application's redirect_uri and homepage at that backend", () => {
    const seed = seedFor({ backendUrl: "http://127.0.0.1:9999/" });
    expect(seed.applications?.map((a) => [a.redirect_uri, a.homepage])).toEqual(
      DEFAULT_SEED.applications.map(() => [OTHER, "http://127.0.0.1:9999"]),
    );
    expect(seed.users).toEqual(DEFAULT_SEED.users);
  });

  it("seedFor takes another callback path and another base seed", () => {
    const seed = seedFor({
      backendUrl: "https://b.example",
      callbackPath: "/cb",
      seed: {
        users: [{ id: 1, login: "u", name: "U" }],
        applications: [DEFAULT_SEED.applications[0]],
      },
    });
    expect(seed.applications?.[0]?.redirect_uri).toBe("https://b.example/cb");
    expect(seed.users).toHaveLength(1);
  });

  it("sign-in works for a backend on another port once seeded with seedFor", async () => {
    const emu = manualEmulator({ seed: seedFor({ backendUrl: "http://127.0.0.1:9999" }) });
    const tokens = await signIn(emu, { redirectUri: OTHER });
    expect(tokens.token_type).toBe("Bearer");
  });

  it("control.updateApplication moves the registered redirect_uri without a reset", async () => {
    const emu = manualEmulator();
    const before = await signIn(emu);
    emu.control.updateApplication(CLIENT.id, { redirect_uri: OTHER });
    expect((await emu.app.request(authorizePath({ redirect_uri: OTHER }))).status).toBe(200);
    expect((await emu.app.request(authorizePath())).status).toBe(400);
    const info = await emu.app.request("/api/open/v1/userinfo", {
      headers: { Authorization: `Bearer ${before.access_token}` },
    });
    expect(info.status).toBe(200);
  });

  it("PATCH /__emulator/applications/:client_id does the same; a bad URL or client is refused", async () => {
    const emu = manualEmulator();
    const patch = (id: string, body: unknown) =>
      emu.app.request(`/__emulator/applications/${id}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await patch(CLIENT.id, { redirect_uri: OTHER });
    expect(await json(ok)).toMatchObject({ client_id: CLIENT.id, redirect_uri: OTHER });
    expect((await patch(CLIENT.id, { redirect_uri: "not a url" })).status).toBe(400);
    expect((await patch("nope", { redirect_uri: OTHER })).status).toBe(404);
  });
});
