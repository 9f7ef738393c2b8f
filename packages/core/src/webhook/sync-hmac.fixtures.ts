// Test-only: a synchronous HMAC-SHA256 in plain TypeScript (FIPS 180-4, RFC 2104), written
// without WebCrypto so tests can inject a sync `hmac` and cross-check the default one.
// Slow and unaudited; production code never imports it.
const K = Uint32Array.from(
  "428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2"
    .split(" ")
    .map((h) => parseInt(h, 16)),
);
const H0 = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

function sha256(data: Uint8Array): Uint8Array {
  const length = Math.ceil((data.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(length - 4, (data.length * 8) >>> 0);
  const h = [...H0];
  const w = new Uint32Array(64);
  for (let block = 0; block < length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15] ?? 0;
      const b = w[t - 2] ?? 0;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = (w[t - 16] ?? 0) + s0 + (w[t - 7] ?? 0) + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let t = 0; t < 64; t++) {
      const t1 =
        hh +
        (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
        ((e & f) ^ (~e & g)) +
        (K[t] ?? 0) +
        (w[t] ?? 0);
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => {
      h[i] = ((h[i] ?? 0) + v) >>> 0;
    });
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((v, i) => {
    outView.setUint32(i * 4, v);
  });
  return out;
}

const encoder = new TextEncoder();

/** Synchronous HMAC-SHA256 → lowercase hex; an injectable `HmacSha256Hex` for tests. */
export function syncHmacSha256Hex(secret: string, message: string | Uint8Array): string {
  let key: Uint8Array = encoder.encode(secret);
  if (key.length > 64) key = sha256(key);
  const inner = new Uint8Array(64).map((_, i) => (key[i] ?? 0) ^ 0x36);
  const outer = new Uint8Array(64).map((_, i) => (key[i] ?? 0) ^ 0x5c);
  const text = typeof message === "string" ? encoder.encode(message) : message;
  const innerHash = sha256(concat(inner, text));
  return Array.from(sha256(concat(outer, innerHash)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const decoder = new TextDecoder();

/** One `createHmac` call recorded by {@link recordingCreateHmac}. */
export interface CreateHmacCall {
  readonly algorithm: string;
  readonly key: Uint8Array;
  readonly updates: (string | Uint8Array)[];
  /** The encoding each `digest` was asked for. */
  readonly digests: string[];
}

/**
 * A `node:crypto`-style `createHmac` on {@link syncHmacSha256Hex} that records its calls: the
 * key it was given, each `update` and each `digest`, to check how core feeds an incremental HMAC.
 * It answers `digest("binary")` with one character per byte, as Node does, unless `hexOnly`,
 * which makes it answer hex whatever it is asked (an HMAC that knows no other encoding).
 */
export function recordingCreateHmac(options: { hexOnly?: boolean } = {}) {
  const calls: CreateHmacCall[] = [];
  const createHmac = (algorithm: "sha256", key: Uint8Array) => {
    const call: CreateHmacCall = { algorithm, key, updates: [], digests: [] };
    calls.push(call);
    const stream = {
      update(data: string | Uint8Array) {
        call.updates.push(data);
        return stream;
      },
      digest(encoding: "hex" | "binary") {
        call.digests.push(encoding);
        const parts = call.updates.map((u) => (typeof u === "string" ? encoder.encode(u) : u));
        const hex = syncHmacSha256Hex(decoder.decode(key), parts.reduce(concat, new Uint8Array()));
        return encoding === "binary" && options.hexOnly !== true ? binaryOfHex(hex) : hex;
      },
    };
    return stream;
  };
  return { createHmac, calls };
}

/** One character per byte of `hex`, as `digest("binary")` answers. */
function binaryOfHex(hex: string): string {
  const bytes = hex.match(/../g) ?? [];
  return String.fromCharCode(...bytes.map((pair) => Number.parseInt(pair, 16)));
}

/** One `hash` call recorded by {@link recordingHash}: a copy of the bytes it was given. */
export interface HashCall {
  readonly algorithm: string;
  readonly data: Uint8Array;
  readonly encoding: string;
}

/**
 * A `node:crypto`-style one-shot `hash` on this file's SHA-256 that records its calls. It copies
 * each input, because core hands it a reused buffer.
 */
export function recordingHash() {
  const calls: HashCall[] = [];
  const hash = (algorithm: "sha256", data: Uint8Array, encoding: "binary") => {
    calls.push({ algorithm, data: data.slice(), encoding });
    return String.fromCharCode(...sha256(data));
  };
  return { hash, calls };
}
