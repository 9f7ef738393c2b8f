import v8 from "node:v8";
import vm from "node:vm";

/**
 * Seeded randomness for the hostile-input tests. Every run prints its seed; set
 * `OVERTURE_FUZZ_SEED=<seed>` to replay exactly the same cases.
 */
export function fuzzSeed(): number {
  const fromEnv = process.env.OVERTURE_FUZZ_SEED;
  if (fromEnv !== undefined && fromEnv !== "") {
    const seed = Number(fromEnv);
    if (!Number.isInteger(seed))
      throw new Error(`OVERTURE_FUZZ_SEED must be an integer: ${fromEnv}`);
    return seed >>> 0;
  }
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  };
  const chance = (p: number) => next() < p;
  const ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyz0123456789",
    "0123456789abcdef",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    " \t\r\n\"'\\/<>&%=?#;,{}[]:",
    "éüñ漢字🎵\u0000\u001f\u007f\u200b\ufeff\ud800",
  ];
  const string = (maxLength: number, alphabet?: string) => {
    // By code point on purpose: a lone surrogate stays one "character" of hostile input.
    const chars = Array.from(alphabet ?? pick(ALPHABETS));
    let out = "";
    for (let i = int(0, maxLength); i > 0; i -= 1) out += pick(chars);
    return out;
  };
  const bytes = (maxLength: number) => {
    const out = new Uint8Array(int(0, maxLength));
    for (let i = 0; i < out.length; i += 1) out[i] = int(0, 255);
    return out;
  };
  return { next, int, pick, chance, string, bytes };
}

export type Random = ReturnType<typeof createRandom>;

/** A forced full garbage collection (for before/after heap measurements). */
export function forceGc(): () => void {
  v8.setFlagsFromString("--expose_gc");
  const gc = vm.runInNewContext("gc") as () => void;
  return () => {
    gc();
    gc();
  };
}

/** Heap in use after a full collection, in MB. */
export function heapAfterGc(gc: () => void): number {
  gc();
  return process.memoryUsage().heapUsed / 1_048_576;
}
