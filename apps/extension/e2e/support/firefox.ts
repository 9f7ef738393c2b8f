// Real Firefox (Debian's firefox-esr) driven over its remote debugging protocol, the way
// `web-ext run` installs an add-on: WebDriver BiDi refuses moz-extension:// pages, but the
// debugger can install a temporary add-on and evaluate code in its background page, which (MV2)
// reaches every extension page it opens through `browser.extension.getViews()`.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { type Socket, connect } from "node:net";
import { freePort } from "@overture/backend/server";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
];

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

export interface FirefoxAddon {
  id: string;
  /** Runs `body` (an async function body) in the add-on's background page; answers its value. */
  run<T>(body: string): Promise<T>;
}

export interface RunningFirefox {
  install(addonDir: string): Promise<FirefoxAddon>;
  close(): Promise<void>;
}

export async function launchFirefox(path: string): Promise<RunningFirefox> {
  const profile = await mkdtemp(join(tmpdir(), "overture-firefox-"));
  await writeFile(join(profile, "user.js"), PREFS.join("\n"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    path,
    ["-headless", "-no-remote", "-profile", profile, "--start-debugger-server", String(port)],
    { stdio: "ignore" },
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
      return {
        id,
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
