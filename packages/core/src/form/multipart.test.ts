import { describe, expect, it } from "vitest";
import { encodeMultipart } from "./index.ts";

/** The body as the server reads it: raw text, and the parsed fields. */
async function received(params: object) {
  const { body, contentType } = encodeMultipart(params);
  const request = new Request("http://x.test/", {
    method: "POST",
    body,
    headers: { "Content-Type": contentType },
  });
  return { wire: await request.clone().text(), form: await request.formData(), contentType };
}

describe("encodeMultipart (spec 4.6, values byte for byte)", () => {
  it("encodes values by the reference rules, in key order", async () => {
    const { form } = await received({ a: "x", b: null, c: [1, 2], d: true, e: undefined, f: 0.5 });
    expect([...form.entries()]).toEqual([
      ["a", "x"],
      ["b", ""],
      ["c", "1,2"],
      ["d", "true"],
      ["f", "0.5"],
    ]);
  });

  it("sends LF, CR and CRLF inside a value exactly as given (FormData would send CRLF)", async () => {
    const { wire, form } = await received({ lyrics: "a\nb\rc\r\nd" });
    expect(wire).toContain('name="lyrics"\r\n\r\na\nb\rc\r\nd\r\n--');
    expect(form.get("lyrics")).toBe("a\nb\rc\r\nd");
  });

  it("sends non-ASCII text as UTF-8", async () => {
    const { form } = await received({ prompt: "中文 rap 🎵" });
    expect(form.get("prompt")).toBe("中文 rap 🎵");
  });

  it("declares a boundary that no value contains", async () => {
    const { contentType, wire } = await received({ a: "--x" });
    const boundary = /boundary=(.+)$/.exec(contentType)?.[1] ?? "";
    expect(boundary).toMatch(/^[0-9A-Za-z'()+_,-./:=?]{27,70}$/);
    expect(wire.split(`--${boundary}`)).toHaveLength(3);
  });

  it("escapes quotes and line breaks in field names as browsers do", async () => {
    const { wire } = await received({ 'a"b\nc': "1" });
    expect(wire).toContain('name="a%22b%0Ac"');
  });

  it("sends a Blob as a file part with its type", async () => {
    const file = new File(["RIFF"], "ref.wav", { type: "audio/wav" });
    const { form, wire } = await received({ audio: file });
    expect(wire).toContain('name="audio"; filename="ref.wav"\r\nContent-Type: audio/wav');
    const part = form.get("audio");
    expect(part).toBeInstanceOf(Blob);
    expect(await (part as Blob).text()).toBe("RIFF");
  });

  it("throws a TypeError for a value without a string form", () => {
    expect(() => encodeMultipart({ a: {} })).toThrow(TypeError);
  });
});
