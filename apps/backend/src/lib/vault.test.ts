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

  describe("accepts exactly one encoding of a sealed value", () => {
    const vault = createVault([k1]);
    // A plaintext whose sealed body is a whole number of base64 groups, so an appended
    // character is one a lenient decoder drops, and one holding "-" and "_" somewhere.
    const sealedWith = (test: (sealed: string) => boolean) => {
      for (let i = 0; i < 1_000; i += 1) {
        const sealed = vault.seal(`value-${i}`, "c");
        if (test(sealed)) return sealed;
      }
      throw new Error("no sealed value of that shape in 1,000 tries");
    };

    it("opens the value as sealed (the valid case)", () => {
      const sealed = sealedWith(() => true);
      expect(vault.open(sealed, "c")).toMatch(/^value-/);
    });

    it.each([
      ["a trailing character", (s: string) => `${s}A`],
      ["a fifth segment", (s: string) => `${s}.x`],
      ["an empty fifth segment", (s: string) => `${s}.`],
      ["base64 padding", (s: string) => `${s}=`],
      ["+ and / for - and _", (s: string) => s.replaceAll("-", "+").replaceAll("_", "/")],
      ["whitespace", (s: string) => ` ${s}`],
    ])("refuses it with %s", (_, alter) => {
      const sealed = sealedWith(
        (s) => (s.split(".")[3]?.length ?? 0) % 4 === 0 && /[-_]/.test(s.slice(6)),
      );
      const altered = alter(sealed);
      expect(altered).not.toBe(sealed);
      expect(() => vault.open(altered, "c")).toThrow(VaultError);
    });
  });
});
