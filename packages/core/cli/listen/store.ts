import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { ListenError } from "./backend.ts";

/**
 * Where `overture-webhooks listen` keeps what it needs next time: the session token of each
 * backend (a secret: the file is readable by its owner only, 0600, in a 0700 folder, as `gh`
 * keeps `hosts.yml`), each backend's channel, the last event id received, and the last delivery
 * of each channel for `--replay`.
 */
export function defaultConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.OVERTURE_CONFIG_DIR) return env.OVERTURE_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, "overture");
  if (process.platform === "win32" && env.APPDATA) return join(env.APPDATA, "overture");
  return join(homedir(), ".config", "overture");
}

/** A channel as this machine knows it. */
export interface StoredChannel {
  /** The URL is shown by the backend only when the channel is created. */
  url: string | null;
  /** Where its stream resumes (Last-Event-ID). */
  last_event_id?: string;
}

/** What is kept per backend (keyed by its origin). */
export interface StoredBackend {
  session_token?: string;
  login?: string;
  /** The channel `listen` uses when `--channel` is not given. */
  default_channel?: string;
  channels?: Record<string, StoredChannel>;
}

interface StoredFile {
  backends: Record<string, StoredBackend>;
}

const FILE = "webhooks-cli.json";

export class ConfigStore {
  constructor(readonly dir: string) {}

  get path(): string {
    return join(this.dir, FILE);
  }

  async backend(origin: string): Promise<StoredBackend> {
    return (await this.read()).backends[origin] ?? {};
  }

  /** Changes one backend's entry (read, change, write: one process uses the file at a time). */
  async update(origin: string, change: (entry: StoredBackend) => void): Promise<void> {
    const file = await this.read();
    const entry = file.backends[origin] ?? {};
    change(entry);
    file.backends[origin] = entry;
    await this.write(FILE, `${JSON.stringify(file, null, 2)}\n`);
  }

  /** The last delivery received on a channel (its JSON as the stream sent it), or null. */
  async lastDelivery(channelId: string): Promise<string | null> {
    try {
      return await readFile(join(this.dir, "deliveries", `${safeName(channelId)}.json`), "utf8");
    } catch {
      return null;
    }
  }

  async saveLastDelivery(channelId: string, json: string): Promise<void> {
    await this.write(join("deliveries", `${safeName(channelId)}.json`), json);
  }

  private async read(): Promise<StoredFile> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch {
      return { backends: {} };
    }
    try {
      const parsed = JSON.parse(text) as Partial<StoredFile> | null;
      return { backends: parsed?.backends ?? {} };
    } catch {
      throw new ListenError(
        `${this.path} is not the JSON this command writes: delete it, and the next run signs in again`,
      );
    }
  }

  /** Writes aside then renames, created 0600 (and made so if it existed with a looser mode). */
  private async write(relative: string, text: string): Promise<void> {
    const target = join(this.dir, relative);
    await mkdir(join(target, ".."), { recursive: true, mode: 0o700 });
    const aside = `${target}.${process.pid}.tmp`;
    try {
      await writeFile(aside, text, { mode: 0o600 });
      await chmod(aside, 0o600);
      await rename(aside, target);
    } catch (error) {
      await rm(aside, { force: true });
      const reason = error instanceof Error ? error.message : String(error);
      throw new ListenError(`cannot write ${target}: ${reason}`);
    }
  }
}

/** A channel id as a file name: ids are UUIDs, anything else is reduced to safe characters. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
}
