import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MUSIC_FIELDS, validateMusicParams } from "./index.ts";
import { musicFieldErrors, musicParamsSchema } from "./schema.ts";

const prompt = "lofi hip hop, mellow piano";

/** Inputs a form or a client sends, valid and not, each read by both. */
const INPUTS: unknown[] = [
  { prompt },
  { prompt: "  padded  ", duration: "90", use_erg_tag: "false", seeds: "7, 42" },
  { prompt, duration: 30, infer_steps: 60, omega_scale: -100, guidance_interval: 1 },
  { prompt, lyrics: "[verse]\r\nla la", lora_name: "ACE-Step-v1-chinese-rap-LoRA", seeds: [] },
  { prompt: "🎵".repeat(4_000), duration: null, infer_steps: " " },
  { prompt, duration: 1_000, scheduler_type: "nope" },
  { prompt: "   ", durtion: 60 },
  { prompt, infer_steps: 1.5, seeds: [-1], use_erg_lyric: "yes" },
  { prompt: "🎵".repeat(4_001) },
  { prompt: "a\u0000b" },
];

describe("musicParamsSchema (spec 4.6)", () => {
  it.each(INPUTS.map((input) => [JSON.stringify(input).slice(0, 60), input]))(
    "accepts and refuses as validateMusicParams does: %s",
    (_, input) => {
      const validation = validateMusicParams(input);
      const parsed = musicParamsSchema.safeParse(input);
      expect(parsed.success).toBe(validation.ok);
      if (validation.ok) expect(parsed.data).toEqual(validation.value);
      else if (!parsed.success) expect(musicFieldErrors(parsed.error)).toEqual(validation.errors);
    },
  );

  it("refuses input that is not an object as an object schema does, with no field errors", () => {
    const parsed = musicParamsSchema.safeParse(["lofi"]);
    expect(parsed.success).toBe(false);
    if (!parsed.success) {
      expect(parsed.error.issues[0]?.code).toBe("invalid_type");
      expect(musicFieldErrors(parsed.error)).toEqual([]);
    }
  });

  it("documents every field with its type, range or options, and default", () => {
    const document = z.toJSONSchema(musicParamsSchema, { io: "input" }) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(document.properties)).toEqual(Object.keys(MUSIC_FIELDS));
    expect(document.required).toEqual(["prompt"]);
    expect(document.additionalProperties).toBe(false);
    for (const [name, spec] of Object.entries(MUSIC_FIELDS)) {
      const field = document.properties[name] ?? {};
      expect(field.description, name).toEqual(expect.any(String));
      if (spec.kind === "number" || spec.kind === "integer") {
        expect(field, name).toMatchObject({ minimum: spec.min, maximum: spec.max });
        expect(field.type, name).toBe(spec.kind);
      }
      if (spec.kind === "integer-list")
        expect(field.items, name).toMatchObject({ type: "integer", minimum: spec.min });
      if (spec.kind === "option") expect(field.enum, name).toEqual(spec.options);
      if (spec.kind === "text") expect(field.maxLength, name).toBe(spec.maxLength);
      if (!spec.required && spec.kind !== "integer-list")
        expect(field.default, name).toEqual(spec.default);
    }
  });
});
