/**
 * Draws the portal's icons (a white shield with a tick on the brand blue) into public/icons as PNG,
 * without an image library: each pixel's coverage is sampled 4 × 4 times and written through zlib.
 * The maskable icon keeps the shield inside the central 80 % circle that launchers never crop.
 * Run it again after changing the drawing: `node build/make-icons.mjs`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const BRAND = [0x12, 0x3b, 0x6b];
const WHITE = [0xff, 0xff, 0xff];
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Inside the shield: a flat top, straight sides to 55 % of its height, then a curve to the point. */
function inShield(x, y) {
  if (y < -0.5 || y > 0.62 || Math.abs(x) > 0.42) return false;
  if (y <= 0.05) return true;
  const t = (y - 0.05) / 0.57;
  return Math.abs(x) <= 0.42 * Math.sqrt(1 - t * t);
}
/** The tick, as two thick strokes. */
function inTick(x, y) {
  const stroke = (ax, ay, bx, by) => {
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(x - (ax + t * dx), y - (ay + t * dy)) < 0.065;
  };
  return stroke(-0.2, 0.02, -0.05, 0.18) || stroke(-0.05, 0.18, 0.22, -0.16);
}

/** scale: the shield's size relative to the icon; rounded: transparent corners outside a rounded square. */
function draw(size, { scale, rounded }) {
  const rgba = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const u = (px + (sx + 0.5) / samples) / size - 0.5;
          const v = (py + (sy + 0.5) / samples) / size - 0.5;
          const r = 0.18;
          const cx = Math.max(Math.abs(u) - (0.5 - r), 0);
          const cy = Math.max(Math.abs(v) - (0.5 - r), 0);
          if (rounded && Math.hypot(cx, cy) > r) continue;
          bg++;
          const x = u / scale;
          const y = v / scale + 0.06;
          if (inShield(x, y) && !inTick(x, y)) fg++;
        }
      }
      const n = samples * samples;
      const a = bg / n;
      const f = bg ? fg / bg : 0;
      const i = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(BRAND[c] * (1 - f) + WHITE[c] * f);
      rgba[i + 3] = Math.round(a * 255);
    }
  }
  return png(size, rgba);
}

mkdirSync(out, { recursive: true });
const icons = {
  'icon-192.png': draw(192, { scale: 0.66, rounded: true }),
  'icon-512.png': draw(512, { scale: 0.66, rounded: true }),
  // Launchers crop maskable icons to any shape inside the full square: no transparency, a smaller shield.
  'icon-maskable-512.png': draw(512, { scale: 0.5, rounded: false }),
  'apple-touch-icon-180.png': draw(180, { scale: 0.58, rounded: false }),
  'favicon-32.png': draw(32, { scale: 0.8, rounded: true }),
};
for (const [name, bytes] of Object.entries(icons)) {
  writeFileSync(join(out, name), bytes);
  console.log(`${name}: ${bytes.length} bytes`);
}
