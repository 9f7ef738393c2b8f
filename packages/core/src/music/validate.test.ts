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

  it("accepts a prompt of exactly 4,000 characters (the platform's limit)", () => {
    expect(validateMusicParams({ prompt: "a".repeat(4000) }).ok).toBe(true);
  });

  it("rejects a prompt longer than 4,000 characters with its maximum", () => {
    expect(errorsOf({ prompt: "a".repeat(4001) })).toEqual([
      {
        field: "prompt",
        code: "length",
        message: "prompt must be at most 4000 characters.",
        max: 4000,
      },
    ]);
  });

  it("counts characters as code points, like Python's len: an emoji is one", () => {
    expect(validateMusicParams({ prompt: "🎵".repeat(4000) }).ok).toBe(true);
    expect(errorsOf({ prompt: "🎵".repeat(4001) })[0]?.code).toBe("length");
  });

  it("rejects a prompt that is not text", () => {
    expect(errorsOf({ prompt: 42 })[0]).toMatchObject({ field: "prompt", code: "type" });
  });

  it("keeps the lyrics' layout, indentation and blank lines included", () => {
    const lyrics = "[verse]\n  Hello\n\n[chorus]\nLa  la\n";
    expect(valueOf({ prompt, lyrics }).lyrics).toBe(lyrics);
  });

  it("turns CRLF and lone CR line breaks into LF in prompt and lyrics", () => {
    const value = valueOf({ prompt: "lofi\r\npiano\rrain", lyrics: "[verse]\r\nHello\r\rBye\r" });
    expect(value.prompt).toBe("lofi\npiano\nrain");
    expect(value.lyrics).toBe("[verse]\nHello\n\nBye\n");
  });

  it("counts a CRLF as one character, after normalising", () => {
    expect(validateMusicParams({ prompt, lyrics: "a\r\n".repeat(8000) }).ok).toBe(true);
  });

  it("accepts lyrics of exactly 16,000 characters and rejects 16,001", () => {
    expect(validateMusicParams({ prompt, lyrics: "a".repeat(16_000) }).ok).toBe(true);
    expect(errorsOf({ prompt, lyrics: "a".repeat(16_001) })[0]).toMatchObject({
      field: "lyrics",
      code: "length",
      max: 16_000,
    });
  });
});

describe("validateMusicParams: text Postgres cannot store", () => {
  it.each([
    ["prompt", "lofi\u0000piano", "NUL"],
    ["lyrics", "[verse]\u0000", "NUL"],
    ["prompt", "lofi \uD83D piano", "surrogate"],
    ["lyrics", "\uDE00la la", "surrogate"],
  ])("refuses %s with %j, naming the field", (field, text, what) => {
    const errors = errorsOf({ prompt, [field]: text });
    expect(errors).toEqual([expect.objectContaining({ field, code: "unstorable_text" })]);
    expect(errors[0]?.message).toContain(field);
    expect(errors[0]?.message).toContain(what);
  });

  it("accepts emoji written as surrogate pairs", () => {
    expect(valueOf({ prompt: "\uD83C\uDFB5 lofi" }).prompt).toBe("🎵 lofi");
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
    ([, spec]) => spec.min !== undefined && spec.max !== undefined && spec.kind !== "integer-list",
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

describe("validateMusicParams: the platform's ranges (docs/platform-facts.md)", () => {
  it.each([
    ["duration", 30, 240],
    ["infer_steps", 1, 60],
    ["guidance_scale", 0, 200],
    ["guidance_scale_text", 0, 200],
    ["guidance_scale_lyric", 0, 200],
    ["min_guidance_scale", 0, 200],
    ["omega_scale", -100, 100],
    ["guidance_interval", 0, 1],
    ["guidance_interval_decay", 0, 1],
    ["reference_audio_strength", 0, 1],
  ])("%s accepts %d to %d and nothing beyond", (field, min, max) => {
    expect(validateMusicParams({ prompt, [field]: min }).ok).toBe(true);
    expect(validateMusicParams({ prompt, [field]: max }).ok).toBe(true);
    const step = Number.isInteger(min) && max > 1 ? 1 : 0.01;
    expect(errorsOf({ prompt, [field]: min - step })[0]).toMatchObject({
      field,
      code: "range",
      min,
      max,
    });
    expect(errorsOf({ prompt, [field]: max + step })[0]).toMatchObject({
      field,
      code: "range",
      min,
      max,
    });
  });

  it("defaults reference_audio_strength to 0.3", () => {
    expect(valueOf({ prompt }).reference_audio_strength).toBe(0.3);
  });
});

describe("validateMusicParams: seeds", () => {
  it("leaves seeds out when none are given", () => {
    expect(valueOf({ prompt })).not.toHaveProperty("seeds");
    expect(valueOf({ prompt, seeds: [] })).not.toHaveProperty("seeds");
    expect(valueOf({ prompt, seeds: " " })).not.toHaveProperty("seeds");
  });

  it("bounds each seed by MUSIC_FIELDS.seeds: 0 to 2^53 - 1", () => {
    const { min, max } = MUSIC_FIELDS.seeds;
    expect([min, max]).toEqual([0, Number.MAX_SAFE_INTEGER]);
    expect(valueOf({ prompt, seeds: [0, Number.MAX_SAFE_INTEGER] }).seeds).toHaveLength(2);
    expect(errorsOf({ prompt, seeds: [3, -1] })[0]).toMatchObject({
      field: "seeds",
      code: "range",
    });
  });

  it("takes [] as no value for seeds only: for another field it is a type error", () => {
    expect(errorsOf({ prompt, use_erg_diffusion: [] })[0]).toMatchObject({
      field: "use_erg_diffusion",
      code: "type",
    });
    expect(errorsOf({ prompt, duration: [] })[0]).toMatchObject({
      field: "duration",
      code: "type",
    });
  });

  it("accepts a list of whole numbers", () => {
    expect(valueOf({ prompt, seeds: [42, 0, 4294967295] }).seeds).toEqual([42, 0, 4294967295]);
  });

  it("accepts the text a form posts: numbers separated by commas or spaces", () => {
    expect(valueOf({ prompt, seeds: "42, 7 8" }).seeds).toEqual([42, 7, 8]);
    expect(valueOf({ prompt, seeds: ["1", " 2 "] }).seeds).toEqual([1, 2]);
  });

  it.each([[[1.5]], [[-1]], ["1,x"], [[2 ** 53]], [{}], [["1e3"]]])("refuses %j", (seeds) => {
    const [error] = errorsOf({ prompt, seeds });
    expect(error).toMatchObject({ field: "seeds" });
    expect(["type", "range"]).toContain(error?.code);
  });
});

describe("validateMusicParams: LoRA", () => {
  it("takes none for a missing, null or empty lora_name (the reference client's None)", () => {
    for (const lora_name of [undefined, null, ""]) {
      expect(valueOf({ prompt, lora_name }).lora_name).toBe("none");
    }
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
      reference_audio_strength: 0.3,
    });
  });

  it("describes the fields of MUSIC_DEFAULTS with the same defaults, and seeds", () => {
    const { seeds, ...rest } = MUSIC_FIELDS;
    const defaults = Object.fromEntries(
      Object.entries(rest).map(([field, spec]) => [field, spec.default]),
    );
    expect(defaults).toEqual(MUSIC_DEFAULTS);
    expect(seeds).toMatchObject({ kind: "integer-list", required: false, min: 0 });
  });

  it("marks only the prompt as required", () => {
    const required = Object.entries(MUSIC_FIELDS).filter(([, spec]) => spec.required);
    expect(required.map(([field]) => field)).toEqual(["prompt"]);
  });
});
