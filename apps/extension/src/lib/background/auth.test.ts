import { describe, expect, it, vi } from "vitest";
import { GRANT, fakeBackend } from "../../testing/fixtures.ts";
import { createApi } from "./api.ts";
import { type IdentityApi, signIn } from "./auth.ts";

const REDIRECT = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";
const PAIR = { verifier: "v".repeat(43), challenge: "c".repeat(43) };

function identity(answer: (url: string) => Promise<string | undefined>) {
  const launchWebAuthFlow = vi.fn((details: { url: string }) => answer(details.url));
  const fake: IdentityApi = { getRedirectURL: () => REDIRECT, launchWebAuthFlow };
  return { fake, launchWebAuthFlow };
}

function deps(backend: ReturnType<typeof fakeBackend>, id: IdentityApi) {
  return {
    api: createApi({ baseUrl: "http://127.0.0.1:8787", fetch: backend.fetch }),
    identity: id,
    createPkcePair: () => Promise.resolve(PAIR),
  };
}

describe("sign-in in the background", () => {
  it("opens the backend's /auth/start with the redirect URL and the S256 PKCE challenge", async () => {
    const backend = fakeBackend();
    const { fake, launchWebAuthFlow } = identity(() => Promise.resolve(`${REDIRECT}?code=handoff`));
    await signIn(deps(backend, fake));
    const url = new URL(launchWebAuthFlow.mock.calls[0]?.[0].url ?? "");
    expect(`${url.origin}${url.pathname}`).toBe("http://127.0.0.1:8787/auth/start");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      redirect_uri: REDIRECT,
      code_challenge: PAIR.challenge,
      code_challenge_method: "S256",
    });
    expect(launchWebAuthFlow.mock.calls[0]?.[0]).toMatchObject({ interactive: true });
  });

  it("exchanges the hand-off code with the PKCE verifier and answers the session", async () => {
    const backend = fakeBackend();
    const { fake } = identity(() => Promise.resolve(`${REDIRECT}?code=handoff-123`));
    await expect(signIn(deps(backend, fake))).resolves.toEqual(GRANT);
    const [exchange] = backend.calls("POST", "/auth/token");
    expect(await exchange?.json()).toEqual({ code: "handoff-123", code_verifier: PAIR.verifier });
  });

  it("reports a refused consent as sign_in_denied and exchanges nothing", async () => {
    const backend = fakeBackend();
    const { fake } = identity(() => Promise.resolve(`${REDIRECT}?error=access_denied`));
    await expect(signIn(deps(backend, fake))).rejects.toMatchObject({ code: "sign_in_denied" });
    expect(backend.calls("POST", "/auth/token")).toHaveLength(0);
  });

  it("asks the backend about this browser's redirect URL before opening any window", async () => {
    const backend = fakeBackend({
      "GET /auth/check": () =>
        Response.json({ redirect_allowed: true, callback_url: "http://b/oauth/callback" }),
    });
    const { fake, launchWebAuthFlow } = identity(() => Promise.resolve(`${REDIRECT}?code=h`));
    await signIn(deps(backend, fake));
    const [check] = backend.calls("GET", "/auth/check");
    expect(new URL(check?.url ?? "").searchParams.get("redirect_uri")).toBe(REDIRECT);
    expect(launchWebAuthFlow).toHaveBeenCalledTimes(1);
  });

  it("reports a redirect URL the backend refuses as sign_in_redirect_refused, with no window", async () => {
    const backend = fakeBackend({
      "GET /auth/check": () =>
        Response.json({ redirect_allowed: false, callback_url: "http://b/oauth/callback" }),
    });
    const { fake, launchWebAuthFlow } = identity(() => Promise.resolve(`${REDIRECT}?code=h`));
    await expect(signIn(deps(backend, fake))).rejects.toMatchObject({
      code: "sign_in_redirect_refused",
    });
    expect(launchWebAuthFlow).not.toHaveBeenCalled();
  });

  it("opens the window anyway when the backend is too old to answer the check", async () => {
    const backend = fakeBackend(); // no /auth/check route: 404
    const { fake, launchWebAuthFlow } = identity(() => Promise.resolve(`${REDIRECT}?code=h`));
    await expect(signIn(deps(backend, fake))).resolves.toEqual(GRANT);
    expect(launchWebAuthFlow).toHaveBeenCalledTimes(1);
  });

  it("reports a closed sign-in window as sign_in_cancelled", async () => {
    const { fake } = identity(() => Promise.reject(new Error("The user did not approve access.")));
    await expect(signIn(deps(fakeBackend(), fake))).rejects.toMatchObject({
      code: "sign_in_cancelled",
    });
  });

  it("reports a sign-in page that did not load as sign_in_failed", async () => {
    const { fake } = identity(() =>
      Promise.reject(new Error("Authorization page could not be loaded.")),
    );
    await expect(signIn(deps(fakeBackend(), fake))).rejects.toMatchObject({
      code: "sign_in_failed",
    });
  });

  it("reports another error from the backend as sign_in_failed", async () => {
    const { fake } = identity(() => Promise.resolve(`${REDIRECT}?error=invalid_request`));
    await expect(signIn(deps(fakeBackend(), fake))).rejects.toMatchObject({
      code: "sign_in_failed",
    });
  });

  it("reports the backend's refused client credentials as backend_misconfigured, with its words", async () => {
    const description = "The backend is misconfigured: check PLATFORM_CLIENT_SECRET.";
    const query = new URLSearchParams({
      error: "backend_misconfigured",
      error_description: description,
    });
    const { fake } = identity(() => Promise.resolve(`${REDIRECT}?${query.toString()}`));
    await expect(signIn(deps(fakeBackend(), fake))).rejects.toMatchObject({
      code: "backend_misconfigured",
      message: description,
    });
  });

  it("refuses a redirect to another address than its own", async () => {
    const { fake } = identity(() => Promise.resolve("https://evil.example/?code=x"));
    await expect(signIn(deps(fakeBackend(), fake))).rejects.toMatchObject({
      code: "sign_in_cancelled",
    });
  });

  it("says the backend is unreachable without opening a window when it does not answer", async () => {
    const backend = fakeBackend();
    backend.down();
    const { fake, launchWebAuthFlow } = identity(() => Promise.resolve(`${REDIRECT}?code=x`));
    await expect(signIn(deps(backend, fake))).rejects.toMatchObject({
      code: "backend_unreachable",
    });
    expect(launchWebAuthFlow).not.toHaveBeenCalled();
  });

  it("says offline rather than unreachable when the browser is offline", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const backend = fakeBackend();
    backend.down();
    const { fake } = identity(() => Promise.resolve(`${REDIRECT}?code=x`));
    await expect(signIn(deps(backend, fake))).rejects.toMatchObject({ code: "offline" });
  });

  it("reports a refused hand-off code as sign_in_failed", async () => {
    const backend = fakeBackend({
      "POST /auth/token": () =>
        new Response(JSON.stringify({ error: "invalid_grant", message: "used" }), { status: 400 }),
    });
    const { fake } = identity(() => Promise.resolve(`${REDIRECT}?code=x`));
    await expect(signIn(deps(backend, fake))).rejects.toMatchObject({
      code: "sign_in_failed",
      status: 400,
    });
  });
});
