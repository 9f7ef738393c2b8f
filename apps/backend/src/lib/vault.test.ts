import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createVault, VaultError } from "./vault.ts";

const key = () => randomBytes(32).toString("base64");

describe("vault", () => {
  const k1 = { id: "k1", key: key() };
  const k2 = { id: "k2", key: key() };

  it("opens what it sealed, and the sealed text does not contain the plaintext", () => {
    const vault = createVault([k1]);
    const sealed = vault.seal("platform-access-token", "grant:1:access");
    expect(sealed).not.toContain("platform-access-token");
    expect(sealed.startsWith("v1.k1.")).toBe(true);
    expect(vault.open(sealed, "grant:1:access")).toBe("platform-access-token");
  });

  it("uses a fresh IV, so the same plaintext seals differently each time", () => {
    const vault = createVault([k1]);
    expect(vault.seal("x", "c")).not.toBe(vault.seal("x", "c"));
  });

  it("refuses a ciphertext moved to another context", () => {
    const vault = createVault([k1]);
    const sealed = vault.seal("secret", "grant:1:access");
    expect(() => vault.open(sealed, "grant:2:access")).toThrow(VaultError);
  });

  it("refuses a tampered ciphertext", () => {
    const vault = createVault([k1]);
    const sealed = vault.seal("secret", "c");
    const last = sealed.at(-2) === "A" ? "B" : "A";
    expect(() => vault.open(`${sealed.slice(0, -2)}${last}${sealed.slice(-1)}`, "c")).toThrow(
      VaultError,
    );
  });

  it("opens values sealed with an older key after rotation and seals with the new one", () => {
    const old = createVault([k1]).seal("secret", "c");
    const rotated = createVault([k2, k1]);
    expect(rotated.open(old, "c")).toBe("secret");
    expect(rotated.isStale(old)).toBe(true);
    expect(rotated.seal("secret", "c").startsWith("v1.k2.")).toBe(true);
  });

  it("names the unknown key id when a value's key was removed", () => {
    const sealed = createVault([k1]).seal("secret", "c");
    expect(() => createVault([k2]).open(sealed, "c")).toThrow(/unknown key id "k1"/);
  });
});
