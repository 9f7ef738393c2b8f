import { afterAll, beforeAll, expect, it } from "vitest";
import type { Peaks, Share, ShareList } from "../../src/api.ts";
import type { Task } from "../../src/schemas/task.ts";
import { archiverOf, sameBytes } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { finishedTasks } from "../support/library.ts";
import { setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const PROMPT = "secret prompt words";
const LYRICS = "[verse]\nprivate <lyrics> & more";

describeEachDriver("share links: create, list, revoke, expire, and the public page", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  let task: Task;
  const share = async (body?: unknown, id = task.id) => {
    const response = await t.request(`/api/tasks/${id}/shares`, {
      method: "POST",
      session: user.session,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Share };
  };
  const publicPath = (created: Share) => new URL(created.url ?? "").pathname;

  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { maxAudioSeconds: 5 } });
    user = await setUpTaskUser(t, { webhookSecret: true });
    [task] = (await finishedTasks(t, user.session, [{ prompt: PROMPT, lyrics: LYRICS }])) as [Task];
  });
  afterAll(() => t.close());

  it("shares only an archived result", async () => {
    const early = await share();
    expect(early.status).toBe(404);
    expect(early.body).toMatchObject({ error: "not_archived" });
    expect(await archiverOf(t).runOnce()).toBe(1);
    await t.request(`/api/tasks/${task.id}`, {
      method: "PATCH",
      session: user.session,
      body: JSON.stringify({ title: "Night <b>drive</b>" }),
    });
  });

  it("creates a link that expires in 7 days by default, shown once, listed without its URL", async () => {
    const created = await share();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      task_id: task.id,
      include_text: false,
      status: "active",
      revoked_at: null,
    });
    expect(created.body.url).toMatch(new RegExp(`^${t.config.publicUrl}/s/[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(created.body.expires_at ?? "") - t.clock.now()).toBe(7 * 86_400_000);
    await t.emu.control.clock.advance(1_000);
    const never = await share({ expires_in: "never" });
    expect(never.body.expires_at).toBeNull();
    const listed = (await (
      await t.request(`/api/tasks/${task.id}/shares`, { session: user.session })
    ).json()) as ShareList;
    expect(listed.shares.map((s) => s.id)).toEqual([never.body.id, created.body.id]);
    expect(listed.shares.every((s) => s.url === null)).toBe(true);
    expect((await share({ expires_in: "2d" })).status).toBe(400);
  });

  it("serves a page with the title, waveform, player and download, and nothing else", async () => {
    const created = await share();
    const page = await t.request(publicPath(created.body));
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("media-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const text = await page.text();
    expect(text).toContain("Night &lt;b&gt;drive&lt;/b&gt;");
    expect(text).toMatch(/<path d="M0\.5 [\d.]+V[\d.]+/);
    expect(text).toContain(
      `<audio controls preload="metadata" src="${publicPath(created.body)}/audio">`,
    );
    expect(text).toContain(`href="${publicPath(created.body)}/audio?download=1"`);
    expect(text).not.toContain("<script");
    for (const hidden of [
      "secret prompt",
      "private",
      task.id,
      task.platform_task_id ?? "-",
      new URL(task.file_url ?? "").host,
      user.namespace,
      String(user.userId),
    ])
      expect(text).not.toContain(hidden);
  });

  it("streams the MP3 with ranges and downloads it under the title, revealing no ids", async () => {
    const path = publicPath((await share()).body);
    const whole = await t.request(`${path}/audio`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mpeg");
    expect(whole.headers.get("content-disposition")).toBe("inline");
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const part = await t.request(`${path}/audio`, { headers: { Range: "bytes=10-99" } });
    expect(part.status).toBe(206);
    expect(sameBytes(new Uint8Array(await part.arrayBuffer()), bytes.slice(10, 100))).toBe(true);
    const download = await t.request(`${path}/audio?download=1`, {
      headers: { Range: "bytes=0-0" },
    });
    expect(download.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Night _b_drive__b_\.mp3"/,
    );
    const mine = await t.request(`/api/tasks/${task.id}/audio?format=mp3`, {
      session: user.session,
    });
    expect(sameBytes(new Uint8Array(await mine.arrayBuffer()), bytes)).toBe(true);
    for (const [, value] of [...whole.headers, ...download.headers]) {
      expect(value).not.toContain(task.id);
    }
    const peaks = await t.request(`${path}/peaks`);
    expect(peaks.status).toBe(200);
    expect(Object.keys((await peaks.json()) as Peaks).sort()).toEqual([
      "bits",
      "channels",
      "data",
      "duration_seconds",
      "length",
      "sample_rate",
      "samples_per_pixel",
      "version",
    ]);
  });

  it("shows the prompt and lyrics only when the owner chose to, escaped", async () => {
    const path = publicPath((await share({ include_text: true })).body);
    const text = await (await t.request(path)).text();
    expect(text).toContain(PROMPT);
    expect(text).toContain("private &lt;lyrics&gt; &amp; more");
  });

  it("names a never-renamed track neutrally unless the prompt is shown: its title is the prompt's first line", async () => {
    const [unnamed] = (await finishedTasks(t, user.session, [
      { prompt: "hidden first line\nsecond line", lyrics: "" },
    ])) as [Task];
    expect(await archiverOf(t).runOnce()).toBe(1);
    expect(unnamed.title).toBe("hidden first line");
    const plain = publicPath((await share({}, unnamed.id)).body);
    const page = await (await t.request(plain)).text();
    expect(page).toContain("<h1>Shared track</h1>");
    expect(page).not.toContain("hidden first line");
    const download = await t.request(`${plain}/audio?download=1`, {
      headers: { Range: "bytes=0-0" },
    });
    expect(download.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Shared track\.mp3"/,
    );
    const withText = publicPath((await share({ include_text: true }, unnamed.id)).body);
    expect(await (await t.request(withText)).text()).toContain("<h1>hidden first line</h1>");
  });

  it("speaks Chinese to a visitor whose browser prefers it, English otherwise", async () => {
    const path = publicPath((await share({ include_text: true })).body);
    const page = async (acceptLanguage: string) => {
      const response = await t.request(path, { headers: { "Accept-Language": acceptLanguage } });
      expect(response.headers.get("vary")).toMatch(/accept-language/i);
      return response.text();
    };
    const zh = await page("zh-CN,zh;q=0.9,en;q=0.8");
    expect(zh).toContain('<html lang="zh-CN">');
    expect(zh).toContain("下载 MP3");
    expect(zh).toContain("<h2>提示词</h2>");
    const en = await page("en-US,en;q=0.9,zh;q=0.5");
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("Download MP3");
  });

  it("tells a Chinese-speaking visitor in Chinese that a link is gone", async () => {
    const created = (await share()).body;
    await t.request(`/api/shares/${created.id}`, { method: "DELETE", session: user.session });
    const gone = await t.request(publicPath(created), { headers: { "Accept-Language": "zh-CN" } });
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain("此分享链接已被撤销或已过期。");
  });

  it("answers 410 once revoked, for the page, the audio and the peaks", async () => {
    const created = (await share()).body;
    const path = publicPath(created);
    const revoked = await t.request(`/api/shares/${created.id}`, {
      method: "DELETE",
      session: user.session,
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ status: "revoked" });
    const page = await t.request(path, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(410);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    for (const sub of ["/audio", "/peaks"]) {
      const gone = await t.request(`${path}${sub}`);
      expect(gone.status).toBe(410);
      expect(await gone.json()).toMatchObject({ error: "share_gone" });
    }
  });

  it("answers 410 once expired, and 404 for a token never issued", async () => {
    const path = publicPath((await share({ expires_in: "1d" })).body);
    expect((await t.request(path)).status).toBe(200);
    await t.emu.control.clock.advance(86_400_000);
    expect((await t.request(path)).status).toBe(410);
    expect((await t.request(`${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`)).status).toBe(
      404,
    );
    const unknown = await t.request("/s/nope/audio");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "share_not_found" });
  });

  it("lets nobody else list, create or revoke the owner's links", async () => {
    const created = (await share()).body;
    const other = await t.signIn({ login: "ada" });
    const asOther = (path: string, method = "GET") =>
      t.request(path, { method, session: other.sessionToken });
    expect((await asOther(`/api/tasks/${task.id}/shares`)).status).toBe(404);
    expect((await asOther(`/api/tasks/${task.id}/shares`, "POST")).status).toBe(404);
    const revoke = await asOther(`/api/shares/${created.id}`, "DELETE");
    expect(revoke.status).toBe(404);
    expect(await revoke.json()).toMatchObject({ error: "share_not_found" });
    expect((await t.request(publicPath(created))).status).toBe(200);
  });

  it("limits requests per address with 429 and Retry-After", async () => {
    const ip = "203.0.113.70";
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await t.request("/s/nope", { ip })).status);
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(404));
    expect(statuses[60]).toBe(429);
    expect((await t.request("/s/nope", { ip: "203.0.113.71" })).status).toBe(404);
  });

  it("ends every link of a deleted track for good: the undo restores the track, not its links", async () => {
    const created = (await share()).body;
    const path = publicPath(created);
    expect((await t.request(path)).status).toBe(200);
    await t.request(`/api/tasks/${task.id}`, { method: "DELETE", session: user.session });
    expect((await t.request(path)).status).toBe(404);
    const restored = await t.request(`/api/tasks/${task.id}/restore`, {
      method: "POST",
      session: user.session,
    });
    expect(restored.status).toBe(200);
    for (const what of ["", "/audio", "/peaks"])
      expect((await t.request(`${path}${what}`)).status, what).toBe(410);
    const listed = (await (
      await t.request(`/api/tasks/${task.id}/shares`, { session: user.session })
    ).json()) as ShareList;
    expect(listed.shares.find((s) => s.id === created.id)).toMatchObject({ status: "revoked" });
    expect(listed.shares.every((s) => s.status !== "active")).toBe(true);
    // A link made after the undo is a new one, and works.
    expect((await t.request(publicPath((await share()).body))).status).toBe(200);
  });
});
