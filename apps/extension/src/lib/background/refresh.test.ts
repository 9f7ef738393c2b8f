import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { ME, USER, fakeBackend, json } from "../../testing/fixtures.ts";
import { send } from "../shared/messages.ts";
import { sessionItem } from "./session-store.ts";

// The test background's clock reads 2025-01-01T10:05:00Z (testing/background.ts).
const FIRST_EXPIRY = "2025-01-01T10:10:00.000Z";
const RENEWED_EXPIRY = "2025-01-31T10:05:00.000Z";

/** `/api/me` of a session that slid forward on use, as the real backend's does. */
const renewedMe = () => json({ ...ME, session: { id: "s1", expires_at: RENEWED_EXPIRY } });
const renewing = () => fakeBackend({ "GET /api/me": renewedMe });

describe("background: refresh keeps the session as the backend knows it", () => {
  it("keeps the session's renewed expiry, so a person who uses Overture stays signed in", async () => {
    await signedIn();
    await sessionItem.setValue({ token: "ovs_token", expiresAt: FIRST_EXPIRY, user: USER });
    startTestBackground(renewing());
    await send("state/refresh");
    expect(await sessionItem.getValue()).toEqual({
      token: "ovs_token",
      expiresAt: RENEWED_EXPIRY,
      user: USER,
    });
  });

  it("does not bring back a session that was signed out while the refresh ran", async () => {
    await signedIn();
    await sessionItem.setValue({ token: "ovs_token", expiresAt: FIRST_EXPIRY, user: USER });
    startTestBackground(
      fakeBackend({
        "GET /api/me": async () => {
          await sessionItem.removeValue();
          return renewedMe();
        },
      }),
    );
    await send("state/refresh");
    expect(await sessionItem.getValue()).toBeNull();
  });
});
