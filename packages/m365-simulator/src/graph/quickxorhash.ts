/**
 * Microsoft's QuickXorHash, the hash OneDrive for Business and SharePoint give in
 * `file.hashes.quickXorHash`: byte i of the content is XORed into a 160-bit value at bit
 * (11 · i) mod 160 (wrapping round), the content's length (64-bit, little-endian) is XORed into the
 * last 8 of its 20 bytes, and the result is written in base64. Byte i and byte i + 160 land on the
 * same bits, so the content is first folded into 160 bytes.
 */
const WIDTH = 160;
const SHIFT = 11;

export class QuickXorHash {
  private readonly folded = new Uint8Array(WIDTH);
  private length = 0;

  update(bytes: Uint8Array): this {
    const folded = this.folded;
    let at = this.length % WIDTH;
    for (let i = 0; i < bytes.length; i++) {
      folded[at] = (folded[at] ?? 0) ^ (bytes[i] ?? 0);
      at = at + 1 === WIDTH ? 0 : at + 1;
    }
    this.length += bytes.length;
    return this;
  }

  /** The 20 bytes of the hash. */
  digest(): Uint8Array {
    const words = new Uint32Array(WIDTH / 32);
    for (let i = 0; i < WIDTH; i++) {
      const b = this.folded[i] ?? 0;
      if (b === 0) continue;
      const bit = (i * SHIFT) % WIDTH;
      const word = bit >>> 5;
      const offset = bit & 31;
      words[word] = (words[word] ?? 0) ^ ((b << offset) >>> 0);
      // The bits of a byte that do not fit in its word go to the next one (round to the first).
      if (offset > 24) {
        const next = (word + 1) % words.length;
        words[next] = (words[next] ?? 0) ^ (b >>> (32 - offset));
      }
    }
    const out = new Uint8Array(WIDTH / 8);
    const view = new DataView(out.buffer);
    for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i] ?? 0, true);
    let length = BigInt(this.length);
    for (let i = 0; i < 8; i++) {
      out[WIDTH / 8 - 8 + i] = (out[WIDTH / 8 - 8 + i] ?? 0) ^ Number(length & 0xffn);
      length >>= 8n;
    }
    return out;
  }

  digestBase64(): string {
    return Buffer.from(this.digest()).toString('base64');
  }
}

export const quickXorHash = (bytes: Uint8Array): string => new QuickXorHash().update(bytes).digestBase64();
