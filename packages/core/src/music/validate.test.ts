import { describe, expect, it } from "vitest";
import {
  MUSIC_DEFAULTS,
  MUSIC_FIELDS,
  validateMusicParams,
  type MusicFieldError,
} from "./index.ts";

const prompt = "lofi hip hop, mellow piano";

function errorsOf(input: unknown): MusicFieldError[] {
  const result = validateMusicParams(input);
  return result.ok ? [] : result.errors;
}

function valueOf(input: unknown) {
  const result = validateMusicParams(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe("validateMusicParams: defaults (spec 4.6)", () => {
  it("fills every missing field with the playground default", () => {
    expect(valueOf({ prompt })).toEqual({ ...MUSIC_DEFAULTS, prompt });
  });

  it("returns the fields in the spec's order", () => {
    expect(Object.keys(valueOf({ lyrics: "x", prompt }))).toEqual(Object.keys(MUSIC_DEFAULTS));
  });

  it("takes the default for null and for a blank string (a cleared form control)", () => {
    expect(valueOf({ prompt, duration: null, infer_steps: " " })).toMatchObject({
      duration: 60,
      infer_steps: 60,
    });
  });

  it("keeps a given value instead of the default", () => {
    expect(valueOf({ prompt, duration: 120 }).duration).toBe(120);
  });
});

describe("validateMusicParams: prompt and lyrics", () => {
  it("reports a missing prompt as required", () => {
    expect(errorsOf({})).toEqual([
      { field: "prompt", code: "required", message: "prompt is required." },
    ]);
  });

  it("reports a prompt of only whitespace as required", () => {
    expect(errorsOf({ prompt: " \n\t" })[0]?.code).toBe("required");
  });

  it("trims the prompt", () => {
    expect(valueOf({ prompt: `  ${prompt}\n` }).prompt).toBe(prompt);
  });

  it("accepts a prompt of exactly 1,000 characters", () => {
    expect(validateMusicParams({ prompt: "a".repeat(1000) }).ok).toBe(true);
  });

  it("rejects a prompt longer than 1,000 characters with its maximum", () => {
    expect(errorsOf({ prompt: "a".repeat(1001) })).toEqual([
      {
        field: "prompt",
        code: "length",
        message: "prompt must be at most 1000 characters.",
        max: 1000,
      },
    ]);
  });

  it("counts an emoji as one character", () => {
    expect(validateMusicParams({ prompt: "🎵".repeat(1000) }).ok).toBe(true);
  });

  it("rejects a prompt that is not text", () => {
    expect(errorsOf({ prompt: 42 })[0]).toMatchObject({ field: "prompt", code: "type" });
  });

  it("keeps lyrics exactly as given, line breaks and indentation included", () => {
    const lyrics = "[verse]\n  Hello\r\n\n[chorus]\nLa  la\n";
    expect(valueOf({ prompt, lyrics }).lyrics).toBe(lyrics);
  });

  it("rejects lyrics longer than 10,000 characters", () => {
    expect(errorsOf({ prompt, lyrics: "a".repeat(10_001) })[0]).toMatchObject({
      field: "lyrics",
      code: "length",
      max: 10_000,
    });
  });
});

describe("validateMusicParams: numbers", () => {
  it("accepts numbers given as numeric strings (a form posts strings)", () => {
    expect(valueOf({ prompt, duration: "90", guidance_interval: " 0.25 " })).toMatchObject({
      duration: 90,
      guidance_interval: 0.25,
    });
  });

  it.each(["abc", "0x10", "NaN", "Infinity", "1,5"])("rejects the text %j as a number", (text) => {
    expect(errorsOf({ prompt, duration: text })).toEqual([
      { field: "duration", code: "type", message: "duration must be a number." },
    ]);
  });

  it.each([NaN, Infinity])("rejects %s as a number", (value) => {
    expect(errorsOf({ prompt, guidance_scale: value })[0]?.code).toBe("type");
  });

  it("rejects a boolean given for a number", () => {
    expect(errorsOf({ prompt, duration: true })[0]?.code).toBe("type");
  });

  it("reports duration below 30 s as out of range with min and max", () => {
    expect(errorsOf({ prompt, duration: 29 })).toEqual([
      {
        field: "duration",
        code: "range",
        message: "duration must be between 30 and 240.",
        min: 30,
        max: 240,
      },
    ]);
  });

  it("accepts the duration bounds 30 and 240", () => {
    expect(validateMusicParams({ prompt, duration: 30 }).ok).toBe(true);
    expect(validateMusicParams({ prompt, duration: 240 }).ok).toBe(true);
  });

  it("accepts a fractional duration", () => {
    expect(valueOf({ prompt, duration: 45.5 }).duration).toBe(45.5);
  });

  it("rejects a fractional infer_steps as not a whole number", () => {
    expect(errorsOf({ prompt, infer_steps: "10.5" })).toEqual([
      { field: "infer_steps", code: "type", message: "infer_steps must be a whole number." },
    ]);
  });

  const ranged = Object.entries(MUSIC_FIELDS).filter(
    ([, spec]) => spec.min !== undefined && spec.max !== undefined,
  );

  it.each(ranged)("rejects %s just below its minimum", (field, spec) => {
    const below = (spec.min ?? 0) - (spec.kind === "integer" ? 1 : 0.001);
    expect(errorsOf({ prompt, [field]: below })[0]).toMatchObject({ field, code: "range" });
  });

  it.each(ranged)("rejects %s just above its maximum", (field, spec) => {
    const above = (spec.max ?? 0) + (spec.kind === "integer" ? 1 : 0.001);
    expect(errorsOf({ prompt, [field]: above })[0]).toMatchObject({ field, code: "range" });
  });

  it.each(ranged)("accepts %s at both bounds", (field, spec) => {
    expect(validateMusicParams({ prompt, [field]: spec.min }).ok).toBe(true);
    expect(validateMusicParams({ prompt, [field]: spec.max }).ok).toBe(true);
  });
});

describe("validateMusicParams: options", () => {
  it.each([
    ["scheduler_type", "heun"],
    ["cfg_type", "cfg_star"],
    ["lora_name", "ACE-Step-v1-chinese-rap-LoRA"],
  ])("accepts %s %s", (field, option) => {
    expect(valueOf({ prompt, [field]: option })).toMatchObject({ [field]: option });
  });

  it("rejects an unknown scheduler and lists the options", () => {
    expect(errorsOf({ prompt, scheduler_type: "Euler" })).toEqual([
      {
        field: "scheduler_type",
        code: "option",
        message: "scheduler_type must be one of: euler, heun.",
        options: ["euler", "heun"],
      },
    ]);
  });

  it("rejects a model other than ACE-Step-v1-3.5B", () => {
    expect(errorsOf({ prompt, model: "other" })[0]).toMatchObject({
      field: "model",
      code: "option",
    });
  });

  it("rejects a task other than text2music", () => {
    expect(errorsOf({ prompt, task: "retake" })[0]).toMatchObject({
      field: "task",
      code: "option",
    });
  });
});

describe("validateMusicParams: booleans", () => {
  it('accepts "true" and "false" strings', () => {
    expect(valueOf({ prompt, use_erg_tag: "false", use_erg_lyric: "true" })).toMatchObject({
      use_erg_tag: false,
      use_erg_lyric: true,
    });
  });

  it("accepts booleans", () => {
    expect(valueOf({ prompt, use_erg_diffusion: false }).use_erg_diffusion).toBe(false);
  });

  it.each(["yes", "on", 1, "TRUE"])("rejects %j as a boolean", (value) => {
    expect(errorsOf({ prompt, use_erg_tag: value })[0]).toMatchObject({
      field: "use_erg_tag",
      code: "type",
    });
  });
});

describe("validateMusicParams: input shape", () => {
  it("reports an unknown field instead of dropping it", () => {
    expect(errorsOf({ prompt, durtion: 90 })).toEqual([
      { field: "durtion", code: "unknown_field", message: 'Unknown field "durtion".' },
    ]);
  });

  it("reports every refused field at once", () => {
    expect(errorsOf({ duration: 5, cfg_type: "x", extra: 1 }).map((e) => e.field)).toEqual([
      "duration",
      "prompt",
      "cfg_type",
      "extra",
    ]);
  });

  it.each([null, "prompt", ["prompt"], 42])("rejects the non-object input %j", (input) => {
    expect(errorsOf(input)).toEqual([
      { field: "", code: "type", message: "Music parameters must be an object." },
    ]);
  });

  it("ignores inherited properties", () => {
    const input: unknown = Object.assign(Object.create({ duration: 5 }) as object, { prompt });
    expect(valueOf(input).duration).toBe(60);
  });
});

describe("MUSIC_FIELDS and MUSIC_DEFAULTS", () => {
  it("has the playground defaults of the issue", () => {
    expect(MUSIC_DEFAULTS).toEqual({
      model: "ACE-Step-v1-3.5B",
      task: "text2music",
      duration: 60,
      prompt: "",
      lyrics: "",
      infer_steps: 60,
      lora_name: "none",
      guidance_scale: 15,
      guidance_scale_text: 0,
      guidance_scale_lyric: 0,
      scheduler_type: "euler",
      cfg_type: "apg",
      omega_scale: 10,
      guidance_interval: 0.5,
      guidance_interval_decay: 0,
      min_guidance_scale: 3,
      use_erg_tag: true,
      use_erg_lyric: true,
      use_erg_diffusion: true,
    });
  });

  it("describes exactly the fields of MUSIC_DEFAULTS with the same defaults", () => {
    const defaults = Object.fromEntries(
      Object.entries(MUSIC_FIELDS).map(([field, spec]) => [field, spec.default]),
    );
    expect(defaults).toEqual(MUSIC_DEFAULTS);
  });

  it("marks only the prompt as required", () => {
    const required = Object.entries(MUSIC_FIELDS).filter(([, spec]) => spec.required);
    expect(required.map(([field]) => field)).toEqual(["prompt"]);
  });
});
