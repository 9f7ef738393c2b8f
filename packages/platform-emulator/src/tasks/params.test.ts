import { describe, expect, it } from "vitest";
import { parseMusicParams } from "./params.ts";

const parse = (fields: Record<string, unknown>) => parseMusicParams(Object.entries(fields));

describe("parseMusicParams (spec 4.6, 7)", () => {
  it("types each known field: numbers, integers, booleans and strings", () => {
    expect(
      parse({
        prompt: "p",
        duration: "12.5",
        infer_steps: "60",
        use_erg_tag: "true",
        cfg_type: "apg",
      }),
    ).toEqual({
      ok: true,
      parameters: {
        prompt: "p",
        duration: 12.5,
        infer_steps: 60,
        use_erg_tag: true,
        cfg_type: "apg",
      },
    });
  });

  it("accepts exponent notation and surrounding spaces for numbers", () => {
    expect(parse({ prompt: "p", guidance_scale: " 1.5e1 " })).toMatchObject({
      ok: true,
      parameters: { guidance_scale: 15 },
    });
  });

  it("refuses hexadecimal, Infinity and NaN as numbers", () => {
    for (const bad of ["0x10", "Infinity", "NaN"])
      expect(parse({ prompt: "p", omega_scale: bad })).toMatchObject({
        ok: false,
        field: "omega_scale",
      });
  });

  it("reads an empty non-string field as null and keeps an empty string field", () => {
    expect(parse({ prompt: "p", omega_scale: "", lyrics: "" })).toEqual({
      ok: true,
      parameters: { prompt: "p", omega_scale: null, lyrics: "" },
    });
  });

  it("refuses a file where a field is expected", () => {
    const file = new File(["x"], "x.txt");
    expect(parse({ prompt: "p", lyrics: file })).toMatchObject({ ok: false, field: "lyrics" });
  });

  it("ignores unknown fields", () => {
    expect(parse({ prompt: "p", seed: "banana" })).toEqual({
      ok: true,
      parameters: { prompt: "p" },
    });
  });

  it("keeps the last value of a repeated field", () => {
    expect(
      parseMusicParams([
        ["prompt", "a"],
        ["prompt", "b"],
      ]),
    ).toEqual({
      ok: true,
      parameters: { prompt: "b" },
    });
  });

  it("requires a non-blank prompt", () => {
    expect(parse({ prompt: "  " })).toMatchObject({ ok: false, field: "prompt" });
  });

  it("requires infer_steps ≥ 1", () => {
    expect(parse({ prompt: "p", infer_steps: "0" })).toMatchObject({
      ok: false,
      field: "infer_steps",
    });
  });
});
