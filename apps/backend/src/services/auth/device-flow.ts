import { randomInt } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import { deviceAuthorizations } from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";
import { newOpaqueToken, sha256Hex } from "../../lib/secrets.ts";
import { storableText } from "../../lib/storable.ts";
import type { SessionService } from "./sessions.ts";
import type { SignInService } from "./sign-in.ts";
import type { UserRow, UserService } from "./users.ts";

/** A device code lives this long (RFC 8628 `expires_in`): long enough to find a browser. */
export const DEVICE_CODE_TTL_MS = 10 * 60_000;
/** The polling interval handed out (RFC 8628 `interval`, seconds); `slow_down` adds 5. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

/**
 * RFC 8628 §6.1: consonants only (no words, no 0/O or 1/I look-alikes), case-insensitive. Eight
 * of them are 20^8 ≈ 2.6·10^10 codes (34.6 bits); with the code-entry limits (`/device`: per
 * address, and for everyone at once) a guesser gets a few hundred tries in a code's lifetime.
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;

/** A user code as typed: any case, with or without its dash and spaces; null if it cannot be one. */
export function normalizeUserCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const char of code) if (!USER_CODE_ALPHABET.includes(char)) return null;
  return code;
}

/** `BCDFGHJK` → `BCDF-GHJK`, as the terminal shows it. */
const displayed = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

function newUserCode(): string {
  let code = "";
  // randomInt draws from the CSPRNG without modulo bias.
  for (let i = 0; i < USER_CODE_LENGTH; i += 1)
    code += USER_CODE_ALPHABET.charAt(randomInt(USER_CODE_ALPHABET.length));
  return code;
}

/** What a device's poll learns (RFC 8628 §3.5), or its session once approved. */
export type PollResult =
  | { outcome: "authorization_pending" | "slow_down" | "expired_token" | "access_denied" }
  | { outcome: "invalid_grant" }
  | {
      outcome: "approved";
      session: { token: string; id: string; expiresAt: Date };
      user: UserRow;
    };

/** A pending device whose person came back from the platform's sign-in. */
export interface DeviceSignIn {
  deviceCodeHash: string;
  userAgent: string | null;
  createdAt: Date;
}

export interface DeviceFlowDeps {
  db: AppDatabase;
  clock: Clock;
}

/**
 * The device authorization grant (RFC 8628) that signs the `overture-webhooks` command in, as
 * `gh auth login` does: the device gets a device code to poll with and a short user code to show;
 * the person enters the user code on `/device`, signs in on the platform exactly as the
 * extension's sign-in does (sign-in.ts, the backend's own callback), and approves on a form whose
 * one-time token only that page carries. Every code is random, short-lived and stored as SHA-256.
 */
export function createDeviceFlowService(
  deps: DeviceFlowDeps,
  services: { signIn: SignInService; sessions: SessionService; users: UserService },
) {
  const { db, clock } = deps;

  return {
    /** Deletes device sign-ins that expired a lifetime ago (a poller gets `expired_token` until then). */
    async pruneExpired(): Promise<void> {
      const cutoff = new Date(clock.now() - DEVICE_CODE_TTL_MS);
      await db.delete(deviceAuthorizations).where(lt(deviceAuthorizations.expiresAt, cutoff));
    },

    /** RFC 8628 §3.1–3.2: a new device code and user code. */
    start(userAgent: string | null) {
      return startDeviceSignIn(deps, userAgent);
    },

    /**
     * RFC 8628 §3.4–3.5. A poll sooner than the interval answers `slow_down` and lengthens the
     * interval by 5 s. An approved device gets its session once: the row is consumed.
     */
    async poll(deviceCode: string, userAgent: string | null): Promise<PollResult> {
      const now = clock.now();
      const outcome = await pollDeviceRow(db, deviceCode, now);
      if (outcome.outcome !== "approved") return outcome;
      const user = await services.users.get(outcome.userId);
      if (!user) return { outcome: "invalid_grant" };
      const session = await services.sessions.create(outcome.userId, outcome.agent ?? userAgent);
      return { outcome: "approved", session, user };
    },

    /**
     * The person typed `userCode` on `/device`: the platform's authorization URL to send them
     * to, or null when no pending, unexpired sign-in has that code.
     */
    async beginVerification(userCode: string): Promise<string | null> {
      const code = normalizeUserCode(userCode);
      if (!code) return null;
      const state = newOpaqueToken("st");
      const [row] = await db
        .update(deviceAuthorizations)
        .set({ stateHash: sha256Hex(state), confirmHash: null })
        .where(
          and(
            eq(deviceAuthorizations.userCodeHash, sha256Hex(code)),
            eq(deviceAuthorizations.status, "pending"),
            liveAt(clock.now()),
          ),
        )
        .returning({ hash: deviceAuthorizations.deviceCodeHash });
      return row ? services.signIn.authorizeUrl(state) : null;
    },

    /** The platform's redirect came back with `state`: the device it belongs to, once. */
    consumeState(state: string): Promise<DeviceSignIn | null> {
      return consumeDeviceState(deps, state);
    },

    /** The person signed in as `userId`: the one-time token of their confirmation form. */
    async signedIn(device: DeviceSignIn, userId: number): Promise<string> {
      const confirm = newOpaqueToken("dcf");
      await db
        .update(deviceAuthorizations)
        .set({ userId, confirmHash: sha256Hex(confirm) })
        .where(eq(deviceAuthorizations.deviceCodeHash, device.deviceCodeHash));
      return confirm;
    },

    /** Refused on the platform's page: the device's next poll says `access_denied`. */
    async deny(device: DeviceSignIn): Promise<void> {
      await db
        .update(deviceAuthorizations)
        .set({ status: "denied" })
        .where(eq(deviceAuthorizations.deviceCodeHash, device.deviceCodeHash));
    },

    /** The confirmation form's answer; false when its token is unknown, used or expired. */
    decide(confirm: string, approve: boolean): Promise<boolean> {
      return decideDevice(deps, confirm, approve);
    },
  };
}

/** Device sign-ins not expired at `now` (epoch ms). */
const liveAt = (now: number) => gt(deviceAuthorizations.expiresAt, new Date(now));

const byDeviceCode = (deviceCode: string) =>
  eq(deviceAuthorizations.deviceCodeHash, sha256Hex(deviceCode));

/**
 * Reads and updates the device sign-in of a poll under its row lock: consumed once approved,
 * its interval lengthened by a poll sooner than it.
 */
function pollDeviceRow(db: AppDatabase, deviceCode: string, now: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(deviceAuthorizations)
      .where(byDeviceCode(deviceCode))
      .for("update");
    if (!row) return { outcome: "invalid_grant" } as const;
    if (row.expiresAt.getTime() <= now) return { outcome: "expired_token" } as const;
    if (row.status === "denied") return { outcome: "access_denied" } as const;
    if (row.status === "approved" && row.userId !== null) {
      await tx.delete(deviceAuthorizations).where(byDeviceCode(deviceCode));
      return { outcome: "approved", userId: row.userId, agent: row.userAgent } as const;
    }
    const early =
      row.lastPolledAt !== null && now - row.lastPolledAt.getTime() < row.intervalSeconds * 1000;
    await tx
      .update(deviceAuthorizations)
      .set({
        lastPolledAt: new Date(now),
        intervalSeconds: early ? row.intervalSeconds + 5 : row.intervalSeconds,
      })
      .where(byDeviceCode(deviceCode));
    return { outcome: early ? "slow_down" : "authorization_pending" } as const;
  });
}

/** RFC 8628 §3.1–3.2: stores a new device sign-in; its device code and user code. */
async function startDeviceSignIn(
  deps: Pick<DeviceFlowDeps, "db" | "clock">,
  userAgent: string | null,
) {
  const now = deps.clock.now();
  const deviceCode = newOpaqueToken("dc");
  // A clash with a live code is possible in principle: the unique constraint refuses it and
  // a new code is drawn.
  for (let attempt = 0; ; attempt += 1) {
    const userCode = newUserCode();
    const inserted = await deps.db
      .insert(deviceAuthorizations)
      .values({
        deviceCodeHash: sha256Hex(deviceCode),
        userCodeHash: sha256Hex(userCode),
        status: "pending",
        userAgent: userAgent === null ? null : storableText(userAgent.slice(0, 300)),
        intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
        expiresAt: new Date(now + DEVICE_CODE_TTL_MS),
        createdAt: new Date(now),
      })
      .onConflictDoNothing()
      .returning({ hash: deviceAuthorizations.deviceCodeHash });
    if (inserted.length > 0)
      return {
        deviceCode,
        userCode: displayed(userCode),
        expiresIn: DEVICE_CODE_TTL_MS / 1000,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      };
    if (attempt >= 3) throw new Error("no free user code after four draws");
  }
}

/** Takes the device sign-in a returning `state` belongs to, once. */
async function consumeDeviceState(
  deps: Pick<DeviceFlowDeps, "db" | "clock">,
  state: string,
): Promise<DeviceSignIn | null> {
  const [row] = await deps.db
    .update(deviceAuthorizations)
    .set({ stateHash: null })
    .where(
      and(
        eq(deviceAuthorizations.stateHash, sha256Hex(state)),
        eq(deviceAuthorizations.status, "pending"),
        liveAt(deps.clock.now()),
      ),
    )
    .returning({
      deviceCodeHash: deviceAuthorizations.deviceCodeHash,
      userAgent: deviceAuthorizations.userAgent,
      createdAt: deviceAuthorizations.createdAt,
    });
  return row ?? null;
}

/** Approves or denies the pending device sign-in of a confirmation token. */
async function decideDevice(
  deps: Pick<DeviceFlowDeps, "db" | "clock">,
  confirm: string,
  approve: boolean,
): Promise<boolean> {
  const rows = await deps.db
    .update(deviceAuthorizations)
    .set({ status: approve ? "approved" : "denied", confirmHash: null })
    .where(
      and(
        eq(deviceAuthorizations.confirmHash, sha256Hex(confirm)),
        eq(deviceAuthorizations.status, "pending"),
        liveAt(deps.clock.now()),
      ),
    )
    .returning({ hash: deviceAuthorizations.deviceCodeHash });
  return rows.length > 0;
}

export type DeviceFlowService = ReturnType<typeof createDeviceFlowService>;
