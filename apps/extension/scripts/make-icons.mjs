// Draws the toolbar and notification icons (public/icon/<size>.png) without any image tool:
// a violet rounded square with a white ring and three wave bars, 4×4 supersampled.
// Run: node scripts/make-icons.mjs
import { Buffer } from "node:buffer";
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
};
const png = (size, rgba) => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++)
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
};

// Shape in unit coordinates (0..1): 1 = white mark, 2 = background, 0 = transparent.
function shade(x, y) {
  const r = 0.22;
  const qx = Math.max(Math.abs(x - 0.5) - (0.5 - r), 0);
  const qy = Math.max(Math.abs(y - 0.5) - (0.5 - r), 0);
  if (Math.hypot(qx, qy) > r) return 0;
  const d = Math.hypot(x - 0.5, y - 0.5);
  if (d > 0.27 && d < 0.35) return 1;
  const bars = [
    [0.4, 0.1],
    [0.5, 0.16],
    [0.6, 0.1],
  ];
  for (const [cx, half] of bars) if (Math.abs(x - cx) < 0.03 && Math.abs(y - 0.5) < half) return 1;
  return 2;
}

for (const size of [16, 32, 48, 96, 128]) {
  const rgba = Buffer.alloc(size * size * 4);
  const s = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < s; sy++) {
        for (let sx = 0; sx < s; sx++) {
          const x = (px + (sx + 0.5) / s) / size;
          const y = (py + (sy + 0.5) / s) / size;
          const kind = shade(x, y);
          if (kind === 0) continue;
          const t = (x + y) / 2;
          const [cr, cg, cb] =
            kind === 1 ? [255, 255, 255] : [0x51 + t * 0x2a, 0x33 + t * 0x29, 0xb8 + t * 0x38];
          r += cr;
          g += cg;
          b += cb;
          a += 255;
        }
      }
      const n = s * s;
      const covered = a / 255 || 1;
      rgba.set(
        [r / covered, g / covered, b / covered, a / n].map(Math.round),
        (py * size + px) * 4,
      );
    }
  }
  writeFileSync(new URL(`../public/icon/${size}.png`, import.meta.url), png(size, rgba));
}
