import { afterEach, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { CLIENT_ID, startTestBackend, type TestBackend } from "../support/harness.ts";

const HOUR = 3_600_000;
/** The emulator's second seeded app: a secret with every character Basic encodings disagree on. */
const SPEC_APP = { id: "overture-local-b64", secret: "emu+local/spec-basic=secret==" };

/** The backend's own redirect back to the extension after the platform's callback. */
async function signInRedirect(t: TestBackend) {
  const started = await t.startSignIn();
  const done = await t.callback(await t.authorize(started.authorizeUrl));
  const url = new URL(done.headers.get("location") ?? "");
  return {
    code: url.searchParams.get("code"),
    error: url.searchParams.get("error"),
    description: url.searchParams.get("error_description") ?? "",
  };
}

const errorLines = (t: TestBackend) =>
  t.logs
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((l) => l.level >= 50);

/**
 * Spec 4.2: `Authorization: Basic base64(client_id:client_secret)`, the values as they are. When
 * the platform refuses the client itself, that is the operator's configuration, and both the log
 * and the extension say which settings to check instead of "try again".
 */
describeEachDriver("the backend's client credentials", (driver) => {
  let t: TestBackend | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("signs in with a secret containing + / = sent as the spec writes Basic (the default)", async () => {
    t = await startTestBackend({
      driver,
      emulator: { basicAuthEncoding: "spec" },
      config: { PLATFORM_CLIENT_ID: SPEC_APP.id, PLATFORM_CLIENT_SECRET: SPEC_APP.secret },
    });
    const redirect = await signInRedirect(t);
    expect(redirect.error).toBeNull();
    expect(redirect.code).toMatch(/^hc_/);
  });

  it("signs in with RFC 6749 form-encoded Basic when PLATFORM_CLIENT_AUTH=basic-rfc6749", async () => {
    t = await startTestBackend({
      driver,
      emulator: { basicAuthEncoding: "rfc6749" },
      config: {
        PLATFORM_CLIENT_ID: SPEC_APP.id,
        PLATFORM_CLIENT_SECRET: SPEC_APP.secret,
        PLATFORM_CLIENT_AUTH: "basic-rfc6749",
      },
    });
    const redirect = await signInRedirect(t);
    expect(redirect.error).toBeNull();
    expect(redirect.code).toMatch(/^hc_/);
  });

  it("reports a refused client at sign-in as the backend's configuration, naming the settings", async () => {
    t = await startTestBackend({ driver, config: { PLATFORM_CLIENT_SECRET: "not-the-secret" } });
    const redirect = await signInRedirect(t);
    expect(redirect.error).toBe("backend_misconfigured");
    expect(redirect.description).toContain("PLATFORM_CLIENT_SECRET");
    expect(redirect.description).not.toMatch(/try again/i);
    const [line] = errorLines(t);
    expect(line?.msg).toContain("PLATFORM_CLIENT_ID");
    expect(line?.msg).toContain("PLATFORM_CLIENT_SECRET");
    expect(line?.msg).toContain("PLATFORM_CLIENT_AUTH");
    expect(t.logs.join("\n")).not.toContain("not-the-secret");
  });

  it("answers a refused client at refresh with backend_misconfigured and keeps the grant", async () => {
    t = await startTestBackend({ driver });
    const user = await t.signIn();
    // The operator's secret no longer matches: the next refresh is refused as invalid_client.
    t.emu.control.updateApplication(CLIENT_ID, { client_secret: "rotated-on-the-platform" });
    await t.emu.control.clock.advance(2 * HOUR);
    const listed = await t.request("/api/namespaces/overture-lab/tokens", {
      session: user.sessionToken,
    });
    expect(listed.status).toBe(502);
    const body = (await listed.json()) as { error: string; message: string };
    expect(body.error).toBe("backend_misconfigured");
    expect(body.message).toContain("PLATFORM_CLIENT_SECRET");
    expect(errorLines(t).some((l) => l.msg.includes("PLATFORM_CLIENT_AUTH"))).toBe(true);
    const me = await t.request("/api/me", { session: user.sessionToken });
    expect(((await me.json()) as { grant: { status: string } }).grant.status).toBe("active");
  });
});
