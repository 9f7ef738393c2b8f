import type { Clock } from "../../lib/clock.ts";
import type { Vault } from "../../lib/vault.ts";
import type { AUDIO_FORMATS } from "../../schemas/archive.ts";

export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** Long enough to listen to a track (and seek back) several times; short enough to not matter when copied. */
export const MEDIA_LINK_TTL_MS = 6 * 3_600_000;
const CONTEXT = "media-link";

interface Claims {
  userId: number;
  taskId: string;
  format: AudioFormat;
  expiresAt: number;
}

/**
 * Links an `<audio>` element can load without the session bearer: the task, format, owner and
 * expiry sealed by the token vault (AES-GCM, so neither readable nor alterable; keys rotate with
 * TOKEN_ENCRYPTION_KEYS). Nothing is stored: a link works on every instance until it expires,
 * and serves the archive only while the task is still its owner's.
 */
export function createMediaLinks(deps: { vault: Vault; clock: Clock; publicUrl: string }) {
  return {
    issue(userId: number, taskId: string, format: AudioFormat): { url: string; expiresAt: Date } {
      const expiresAt = deps.clock.now() + MEDIA_LINK_TTL_MS;
      const claims: Claims = { userId, taskId, format, expiresAt };
      const token = deps.vault.seal(JSON.stringify(claims), CONTEXT);
      return { url: `${deps.publicUrl}/media/${token}`, expiresAt: new Date(expiresAt) };
    },

    /** The link's claims, or undefined when it was altered, has expired or no key opens it. */
    read(token: string): Claims | undefined {
      let claims: Claims;
      try {
        claims = JSON.parse(deps.vault.open(token, CONTEXT)) as Claims;
      } catch {
        return undefined;
      }
      return claims.expiresAt > deps.clock.now() ? claims : undefined;
    },
  };
}

export type MediaLinks = ReturnType<typeof createMediaLinks>;
