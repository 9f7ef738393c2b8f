import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

const PREFIX = "overture-archive-";
/** `overture-archive-<pid>@<host>-XXXXXX`: who made a scratch folder, so a start can tell stale ones. */
const OWNED = /^overture-archive-(\d+)@(.+)-[^-]{6}$/;

/** Where downloads go: the folder store's `.partial` folder, or the system's temporary folder. */
export function scratchRoot(workDir: string | undefined): string {
  return workDir ?? tmpdir();
}

/** A fresh scratch folder for one download, named after this process. */
export async function makeScratch(workDir: string | undefined): Promise<string> {
  const root = scratchRoot(workDir);
  if (workDir) await mkdir(workDir, { recursive: true });
  return mkdtemp(join(root, `${PREFIX}${process.pid}@${hostname()}-`));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the scratch folders a killed archiver left (a SIGKILL gives it no time to): those of
 * a process of this host that is gone, and any older than `maxAgeMs` (another host's, or an older
 * version's unnamed ones: a working archiver touches its folder at each lease renewal, so one
 * older than the lease has no archiver writing there). Returns how many went; a folder that
 * cannot be read is nothing to clean.
 */
export async function removeStaleScratch(
  workDir: string | undefined,
  maxAgeMs: number,
  now = Date.now(),
): Promise<number> {
  const root = scratchRoot(workDir);
  const names = await readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const path = join(root, name);
    const owner = OWNED.exec(name);
    const gone = owner !== null && owner[2] === hostname() && !alive(Number(owner[1]));
    const old = await stat(path).then(
      (s) => now - s.mtimeMs > maxAgeMs,
      () => false,
    );
    if (!gone && !old) continue;
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
