import { describe, expect, it } from "vitest";
import { CLIENT, manualEmulator } from "../helpers/emulator.ts";
import { authorizePath, decide, openConsent } from "../helpers/oauth.ts";

describe("authorization page (spec 4.1, 2.1, 7)", () => {
  it("4.1: renders a consent page naming the application, the signed-in user and the scopes", async () => {
    const emu = manualEmulator();
    const { html } = await openConsent(emu);
    expect(html).toContain("Overture</span> wants to access your account");
    expect(html).toContain("Generate music on the platform from your browser.");
    expect(html).toContain("Demo Listener");
    expect(html).toContain('data-scope="user_info"');
    expect(html).toContain('data-scope="api_key"');
  });

  it("4.1: approving redirects to redirect_uri with a code and the state unchanged", async () => {
    const emu = manualEmulator();
    const res = await decide(emu, await openConsent(emu, { state: "a b/c?=&" }), "approve");
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(CLIENT.redirectUri);
    expect(location.searchParams.get("code")).toMatch(/^code_/);
    expect(location.searchParams.get("state")).toBe("a b/c?=&");
  });

  it("4.1, 7: denying redirects with error=access_denied and the state", async () => {
    const emu = manualEmulator();
    const res = await decide(emu, await openConsent(emu, { state: "s1" }), "deny");
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("s1");
    expect(location.searchParams.has("code")).toBe(false);
  });

  it("2.1, 7: a redirect_uri that differs from the registered one gets an error page and no redirect", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(
      authorizePath({ redirect_uri: `${CLIENT.redirectUri}/other` }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("Redirect address not registered");
  });

  it("2.1: the comparison is exact (a trailing slash is a different address)", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ redirect_uri: `${CLIENT.redirectUri}/` }));
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("4.1: an unknown client_id gets an error page and no redirect", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ client_id: "nope" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("4.1: response_type other than code is sent back as unsupported_response_type", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ response_type: "token", state: "s" }));
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("unsupported_response_type");
    expect(location.searchParams.get("state")).toBe("s");
  });

  it("4.1: a missing response_type is sent back as invalid_request (RFC 6749 4.1.2.1)", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ response_type: "", state: "s" }));
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("s");
  });

  it("5 rule 2: a scope other than user_info and api_key is sent back as invalid_scope", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ scope: "user_info admin" }));
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("invalid_scope");
  });

  it("4.1: scope is required", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath({ scope: "" }));
    expect(new URL(res.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "invalid_scope",
    );
  });

  it("shows the user chosen with the switch (emu_user cookie)", async () => {
    const emu = manualEmulator();
    const { html } = await openConsent(emu, {}, "ada");
    expect(html).toContain('data-testid="signed-in-name">Ada Lovelace');
  });

  it("a consent request id is single use", async () => {
    const emu = manualEmulator();
    const consent = await openConsent(emu);
    expect((await decide(emu, consent, "approve")).status).toBe(303);
    const again = await decide(emu, consent, "approve");
    expect(again.status).toBe(400);
    expect(again.headers.get("location")).toBeNull();
  });

  it("refuses a decision without the browser cookie the page was shown to", async () => {
    const emu = manualEmulator();
    const consent = await openConsent(emu);
    const res = await decide(emu, { ...consent, cookie: "emu_browser=someone-else" }, "approve");
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("refuses a decision posted from a foreign origin (CSRF)", async () => {
    const emu = manualEmulator();
    const consent = await openConsent(emu);
    const res = await decide(emu, consent, "approve", { Origin: "https://evil.example" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("a consent request expires after consentTtlSeconds on the emulator clock", async () => {
    const emu = manualEmulator({ consentTtlSeconds: 60 });
    const consent = await openConsent(emu);
    await emu.control.clock.advance(60_000);
    expect((await decide(emu, consent, "approve")).status).toBe(400);
  });

  it("auto-approve redirects with a code at once (headless demos)", async () => {
    const emu = manualEmulator({ autoApprove: true });
    const res = await emu.app.request(authorizePath({ state: "x" }));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.searchParams.get("code")).toBeTruthy();
    expect(location.searchParams.get("state")).toBe("x");
  });

  it("sends CSP (no scripts, form-action limited to self and http(s) targets for the redirect chain), X-Frame-Options DENY and a Referrer-Policy", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request(authorizePath());
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' https: http:;");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
  });

  it("escapes application fields in the page", async () => {
    const emu = manualEmulator({
      seed: {
        users: [{ id: 1, login: "u", name: "U" }],
        applications: [
          { ...seedApp(), name: "<script>alert(1)</script>", homepage: "javascript:alert(1)" },
        ],
      },
    });
    const { html } = await openConsent(emu);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain('href="javascript:');
  });
});

function seedApp() {
  return {
    name: "App",
    redirect_uri: CLIENT.redirectUri,
    client_id: CLIENT.id,
    client_secret: CLIENT.secret,
  };
}
