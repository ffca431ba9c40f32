/**
 * QuickXorHash, the content hash OneDrive for Business and SharePoint report in a file's
 * `file.hashes.quickXorHash` (base64 of 20 bytes). The engine checks downloaded bytes against it.
 *
 * The hash is a 160-bit register: content byte n is XORed in at bit offset (11 · n) mod 160, wrapping
 * from the last bit to the first, and finally the content's length, as a 64-bit little-endian number,
 * is XORed into the register's last 8 bytes. The register is kept here as 160 bits, one per entry,
 * which keeps the wrap-around plain.
 *
 * The engine's own implementation, independent of the Microsoft 365 simulator's (a test compares the
 * two and checks Microsoft's published values), so that the double cannot hide a mistake here.
 */
const BITS = 160;
const STEP = 11;

export function quickXorHash(content: Uint8Array): string {
  // Byte n and byte n + 160 start at the same bit (160 · 11 is a multiple of 160): the content is
  // first folded into 160 bytes, so that the bit work does not grow with the file.
  const folded = new Uint8Array(BITS);
  for (let n = 0; n < content.length; n++) folded[n % BITS] = (folded[n % BITS] as number) ^ (content[n] as number);
  const register = new Uint8Array(BITS);
  for (let n = 0; n < BITS; n++) {
    const byte = folded[n] as number;
    for (let bit = 0; bit < 8; bit++) {
      if ((byte >> bit) & 1) {
        const at = (n * STEP + bit) % BITS;
        register[at] = (register[at] as number) ^ 1;
      }
    }
  }
  const out = new Uint8Array(BITS / 8);
  for (let at = 0; at < BITS; at++) {
    if (register[at]) out[at >> 3] = (out[at >> 3] as number) | (1 << (at & 7));
  }
  let length = BigInt(content.length);
  for (let i = out.length - 8; i < out.length; i++) {
    out[i] = (out[i] as number) ^ Number(length & 0xffn);
    length >>= 8n;
  }
  return Buffer.from(out).toString('base64');
}
