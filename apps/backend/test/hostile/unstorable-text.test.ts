import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { setUpTaskUser, type TaskUser } from "../support/tasks.ts";

interface Refusal {
  error: string;
  fields?: { field: string; code: string }[];
}

/**
 * Postgres refuses NUL in `text` and `jsonb` (22P05) and the escape of an unpaired UTF-16
 * surrogate in `jsonb` (22P02). What a user types is refused with a 400 naming the field, before
 * anything is stored or sent to the platform; what the platform says about a user is kept with
 * U+FFFD in place of what cannot be stored (refusing it would make sign-in impossible).
 */
describeEachDriver("text Postgres cannot hold", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  let userName: string | undefined;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      rewritePlatformResponse: async (path, response) => {
        if (userName === undefined || !path.endsWith("/userinfo")) return response;
        const info = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...info, name: userName });
      },
    });
    user = await setUpTaskUser(t);
  });
  afterAll(() => t.close());

  const submit = (params: Record<string, unknown>) =>
    t.request("/api/tasks", {
      method: "POST",
      session: user.session,
      body: JSON.stringify({ prompt: "lofi", duration: 30, ...params }),
    });

  it.each([
    ["prompt", "lofi\u0000piano"],
    ["prompt", "lofi \ud83c"],
    ["lyrics", "[verse]\u0000"],
    ["lyrics", "la \udfb5 la"],
  ])(
    "refuses %s holding %j with 400 naming the field, and stores and submits nothing",
    async (name, value) => {
      const submitsBefore = t.platformCalls.filter((c) => c.path.endsWith("/async/music")).length;
      const response = await submit({ [name]: value });
      expect(response.status).toBe(400);
      const body = (await response.json()) as Refusal;
      expect(body.error).toBe("invalid_parameters");
      expect(body.fields).toEqual([
        expect.objectContaining({ field: name, code: "unstorable_text" }),
      ]);
      const listed = (await (await t.request("/api/tasks", { session: user.session })).json()) as {
        tasks: unknown[];
      };
      expect(listed.tasks).toHaveLength(0);
      expect(t.platformCalls.filter((c) => c.path.endsWith("/async/music")).length).toBe(
        submitsBefore,
      );
    },
  );

  it.each(["de%00mo", "de%ED%A0%80mo"])(
    "refuses a namespace %s in the path with a 400 before it reaches a column",
    async (namespace) => {
      const response = await t.request(`/api/namespaces/${namespace}/webhook-secret`, {
        method: "PUT",
        session: user.session,
        body: JSON.stringify({ secret: "whsec_x" }),
      });
      expect(response.status).toBe(400);
    },
  );

  it.each(["%00", "a%00b", "%ED%A0%80", "a%ED%B0%80b", "%C0%80", "%FF"])(
    "refuses a search q=%s with a 400 naming q, as other bad input",
    async (q) => {
      const response = await t.request(`/api/tasks?q=${q}`, { session: user.session });
      expect(response.status).toBe(400);
      const body = (await response.json()) as Refusal;
      expect(body.error).toBe("invalid_request");
      expect(body.fields).toEqual([expect.objectContaining({ field: "q" })]);
    },
  );

  it("signs in a user whose platform name holds NUL and a lone surrogate, keeping U+FFFD", async () => {
    userName = "Ada\u0000 Lovelace \ud800";
    const signedIn = await t.signIn({ login: "ada" });
    userName = undefined;
    const me = await t.request("/api/me", { session: signedIn.sessionToken });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { name: string } }).user.name).toBe(
      "Ada\ufffd Lovelace \ufffd",
    );
  });
});
