// Real Firefox (Debian's firefox-esr) driven over its remote debugging protocol, the way
// `web-ext run` installs an add-on: WebDriver BiDi refuses moz-extension:// pages, but the
// debugger can install a temporary add-on and evaluate code in its background page, which (MV2)
// reaches every extension page it opens through `browser.extension.getViews()`.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { type Socket, connect } from "node:net";
import { freePort } from "@overture/backend/server";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { GECKO_ID } from "../../src/lib/shared/extension-identity.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** The development build (127.0.0.1 granted at install) and the store build. */
export const FIREFOX_BUILDS = {
  dev: resolve(ROOT, ".output/firefox-mv2"),
  store: resolve(ROOT, ".output/firefox-mv2-store"),
} as const;

/** Builds the Firefox add-on as it ships (see global-setup.ts for why NODE_ENV is set). */
export async function buildFirefox(mode: keyof typeof FIREFOX_BUILDS): Promise<string> {
  const store = mode === "store" ? ["--mode", "store"] : [];
  await promisify(execFile)(
    resolve(ROOT, "node_modules/.bin/wxt"),
    ["build", "-b", "firefox", ...store],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  return FIREFOX_BUILDS[mode];
}

/**
 * The add-on's internal UUID, pinned by a pref: Firefox picks a random one per profile, and the
 * backend's CORS allow-list (EXTENSION_ORIGINS) needs its moz-extension:// origin in advance.
 */
export const FIREFOX_EXTENSION_UUID = "0f0e4a9c-5d1b-4c2e-9a7f-3b8e6d2c1a40";
export const FIREFOX_ORIGIN = `moz-extension://${FIREFOX_EXTENSION_UUID}`;

/** Firefox's path, or why the Firefox test cannot run. */
export function findFirefox(): { path: string } | { missing: string } {
  const path = process.env.OVERTURE_FIREFOX_PATH ?? "/usr/bin/firefox-esr";
  return existsSync(path)
    ? { path }
    : {
        missing: `no Firefox at ${path} (apt-get install -y firefox-esr, or set OVERTURE_FIREFOX_PATH)`,
      };
}

type Packet = Record<string, unknown> & { from?: string; type?: string; error?: string };

const PREFS = [
  'user_pref("devtools.debugger.remote-enabled", true);',
  'user_pref("devtools.chrome.enabled", true);',
  'user_pref("devtools.debugger.prompt-connection", false);',
  'user_pref("browser.shell.checkDefaultBrowser", false);',
  'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
  'user_pref("browser.startup.homepage_override.mstone", "ignore");',
  'user_pref("app.update.enabled", false);',
  'user_pref("network.proxy.type", 0);',
  `user_pref("extensions.webextensions.uuids", ${JSON.stringify(JSON.stringify({ [GECKO_ID]: FIREFOX_EXTENSION_UUID }))});`,
  // Play is clicked by script, which is no user gesture: let media play without one.
  'user_pref("media.autoplay.default", 0);',
  'user_pref("media.autoplay.blocking_policy", 0);',
  // A machine without a sound card (CI, containers): Firefox plays into ALSA's null device (below)
  // instead of failing every play with "OnMediaSinkAudioError".
  'user_pref("media.cubeb.backend", "alsa");',
];

/** The system's ALSA configuration, with a default device that drops what it is given. */
const SILENT_ALSA = `</usr/share/alsa/alsa.conf>
pcm.!default { type null }
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The debugger connection: length-prefixed JSON packets, answered per actor in order. */
class Connection {
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<string, ((packet: Packet) => void)[]>();
  private readonly listeners: ((packet: Packet) => void)[] = [];

  constructor(private readonly socket: Socket) {
    socket.on("data", (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      for (;;) {
        const colon = this.buffer.indexOf(":");
        if (colon < 0) return;
        const length = Number(this.buffer.subarray(0, colon).toString());
        if (this.buffer.length < colon + 1 + length) return;
        const packet = JSON.parse(
          this.buffer.subarray(colon + 1, colon + 1 + length).toString(),
        ) as Packet;
        this.buffer = this.buffer.subarray(colon + 1 + length);
        this.dispatch(packet);
      }
    });
  }

  private dispatch(packet: Packet): void {
    for (const listener of this.listeners) listener(packet);
    // Events carry a `type`; replies (and the root's greeting) do not.
    if (packet.type && !packet.error) return;
    const queue = this.pending.get(packet.from ?? "");
    queue?.shift()?.(packet);
  }

  on(listener: (packet: Packet) => void): void {
    this.listeners.push(listener);
  }

  /** The next reply from `actor` (the root's greeting too). */
  reply(actor: string): Promise<Packet> {
    return new Promise((resolve) => {
      const queue = this.pending.get(actor) ?? [];
      queue.push(resolve);
      this.pending.set(actor, queue);
    });
  }

  async request(to: string, type: string, extra: Record<string, unknown> = {}): Promise<Packet> {
    const answer = this.reply(to);
    const text = JSON.stringify({ to, type, ...extra });
    this.socket.write(`${Buffer.byteLength(text)}:${text}`);
    const packet = await answer;
    if (packet.error) throw new Error(`${type}: ${packet.error} ${String(packet.message)}`);
    return packet;
  }
}

/** An extension page open in a tab, read through the background page. */
export interface FirefoxPage {
  /**
   * Answers `read` (the source of a function of the page's window, maybe async), or null while
   * the page is not there yet.
   */
  read<T>(read: string): Promise<T | null>;
  /** Reads until `read` answers something truthy; throws after `timeoutMs`. */
  waitFor<T>(read: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export interface FirefoxAddon {
  id: string;
  /** Runs `body` (an async function body) in the add-on's background page; answers its value. */
  run<T>(body: string): Promise<T>;
  /** Opens one of the add-on's pages in a tab. */
  open(page: string): Promise<FirefoxPage>;
}

export interface RunningFirefox {
  install(addonDir: string): Promise<FirefoxAddon>;
  close(): Promise<void>;
}

export async function launchFirefox(path: string): Promise<RunningFirefox> {
  const profile = await mkdtemp(join(tmpdir(), "overture-firefox-"));
  await writeFile(join(profile, "user.js"), PREFS.join("\n"));
  await writeFile(join(profile, "asound.conf"), SILENT_ALSA);
  const port = await freePort();
  const child: ChildProcess = spawn(
    path,
    ["-headless", "-no-remote", "-profile", profile, "--start-debugger-server", String(port)],
    { stdio: "ignore", env: { ...process.env, ALSA_CONFIG_PATH: join(profile, "asound.conf") } },
  );
  let socket: Socket | null = null;
  for (let attempt = 0; attempt < 150 && !socket; attempt++) {
    socket = await new Promise<Socket | null>((resolve) => {
      const s = connect(port, "127.0.0.1", () => {
        resolve(s);
      });
      s.once("error", () => {
        resolve(null);
      });
    });
    if (!socket) await sleep(200);
  }
  if (!socket) {
    child.kill();
    throw new Error("Firefox's debugger server did not open");
  }
  const connection = new Connection(socket);
  await connection.reply("root");
  const root = await connection.request("root", "getRoot");

  // Evaluation answers arrive as events; keep them by id until asked for.
  const results = new Map<string, Packet>();
  const waiting = new Map<string, (packet: Packet) => void>();
  connection.on((packet) => {
    if (packet.type !== "evaluationResult") return;
    const id = String(packet.resultID);
    const resolve = waiting.get(id);
    if (resolve) {
      waiting.delete(id);
      resolve(packet);
    } else results.set(id, packet);
  });

  return {
    async install(addonDir) {
      const installed = await connection.request(
        String(root.addonsActor),
        "installTemporaryAddon",
        {
          addonPath: addonDir,
        },
      );
      const id = (installed.addon as { id: string }).id;
      const { addons } = (await connection.request("root", "listAddons")) as unknown as {
        addons: { id: string; actor: string }[];
      };
      const descriptor = addons.find((addon) => addon.id === id);
      if (!descriptor) throw new Error(`add-on ${id} is not listed`);
      const watcher = await connection.request(descriptor.actor, "getWatcher");
      const targets: { url: string; consoleActor: string }[] = [];
      connection.on((packet) => {
        if (packet.type === "target-available-form")
          targets.push(packet.target as { url: string; consoleActor: string });
      });
      await connection.request(String(watcher.actor), "watchTargets", { targetType: "frame" });
      let background: { consoleActor: string } | undefined;
      for (let attempt = 0; attempt < 100 && !background; attempt++) {
        background = targets.find((t) => t.url.endsWith("/_generated_background_page.html"));
        if (!background) await sleep(100);
      }
      if (!background) throw new Error("the add-on's background page did not start");
      const console = background.consoleActor;
      const evaluate = async (text: string): Promise<unknown> => {
        const started = await connection.request(console, "evaluateJSAsync", { text });
        const id = String(started.resultID);
        const packet =
          results.get(id) ??
          (await new Promise<Packet>((resolve) => {
            waiting.set(id, resolve);
          }));
        results.delete(id);
        if (packet.exceptionMessage) throw new Error(JSON.stringify(packet.exceptionMessage));
        return packet.result;
      };
      const addon: FirefoxAddon = {
        id,
        async open(page) {
          const tabId = await addon.run<number>(
            `return (await browser.tabs.create({ url: "/${page}" })).id;`,
          );
          const read = <T>(fn: string) =>
            addon.run<T | null>(
              `const view = browser.extension.getViews({ type: "tab", tabId: ${tabId} })[0];
              return view ? await (${fn})(view) : null;`,
            );
          return {
            read,
            async waitFor<T>(fn: string, timeoutMs = 15_000) {
              const deadline = Date.now() + timeoutMs;
              for (;;) {
                const value = await read<T>(fn);
                if (value) return value;
                if (Date.now() > deadline)
                  throw new Error(`${page}: nothing came of ${fn} within ${timeoutMs} ms`);
                await sleep(100);
              }
            },
            async close() {
              await addon.run(`await browser.tabs.remove(${tabId});`);
            },
          };
        },
        async run<T>(body: string): Promise<T> {
          // The debugger answers a promise as an object: the value is left on the page instead.
          await evaluate(
            `globalThis.__overtureOut = undefined; (async () => { ${body} })().then(` +
              `(value) => { globalThis.__overtureOut = JSON.stringify({ value }); },` +
              `(error) => { globalThis.__overtureOut = JSON.stringify({ error: String(error) }); });`,
          );
          for (let attempt = 0; attempt < 200; attempt++) {
            const out = await evaluate("globalThis.__overtureOut");
            if (typeof out === "string") {
              const parsed = JSON.parse(out) as { value?: T; error?: string };
              if (parsed.error !== undefined) throw new Error(parsed.error);
              return parsed.value as T;
            }
            await sleep(100);
          }
          throw new Error("the background page did not answer");
        },
      };
      return addon;
    },
    async close() {
      socket.destroy();
      child.kill();
      await new Promise((resolve) => {
        if (child.exitCode !== null) resolve(undefined);
        else child.once("exit", resolve);
      });
      await rm(profile, { recursive: true, force: true });
    },
  };
}
