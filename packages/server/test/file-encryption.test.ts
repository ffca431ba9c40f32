/**
 * Files sealed under an organisation's key in chunks (storage/file-encryption.ts): every size round
 * trips, and a changed, dropped, reordered or cut chunk is refused rather than served.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { OrganisationKey, OrganisationKeys } from '../src/storage/encryption.js';
import { openKeptFile, sealFile } from '../src/storage/file-encryption.js';

const CHUNK = 64 * 1024;
const key: OrganisationKey = { organisationId: 'org-1', encryption: randomBytes(32), naming: randomBytes(32) };
const keys: OrganisationKeys = {
  find: async (id) => (id === key.organisationId ? key : undefined),
  ensure: async () => key,
};
const dir = mkdtempSync(join(tmpdir(), 'portal-file-encryption-'));

async function seal(content: Buffer) {
  const plain = join(dir, `${randomBytes(4).toString('hex')}.zip`);
  writeFileSync(plain, content);
  await sealFile(key, plain, `${plain}.sealed`);
  return readFileSync(`${plain}.sealed`);
}
/** Reads a kept file back as the download does, in pieces of `piece` bytes. */
async function open(sealed: Buffer, piece = 7_000, withKeys = keys) {
  const pieces = [];
  for (let at = 0; at < sealed.length; at += piece) pieces.push(sealed.subarray(at, at + piece));
  const file = await openKeptFile(withKeys, { size: sealed.length, stream: Readable.from(pieces) });
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return { size: file.size, bytes: Buffer.concat(chunks) };
}

describe('files sealed in chunks', () => {
  it('round-trips every size, the content never in the clear, and says the content size', async () => {
    for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5]) {
      const content = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(Math.max(0, size - 4))]).subarray(
        0,
        size,
      );
      const sealed = await seal(content);
      expect(sealed[0]).toBe(3);
      expect(sealed.includes(Buffer.from('PK\u0003\u0004'))).toBe(false);
      const opened = await open(sealed);
      expect(opened.size, `size ${size}`).toBe(size);
      expect(opened.bytes.equals(content), `size ${size}`).toBe(true);
    }
  });

  it('refuses a changed byte, a dropped, reordered or cut chunk, and a destroyed key', async () => {
    const content = randomBytes(3 * CHUNK + 100);
    const sealed = await seal(content);
    const header = 2 + Buffer.byteLength(key.organisationId) + 8;
    const record = CHUNK + 16;
    const changed = Buffer.from(sealed);
    changed[header + record + 10] = (changed[header + record + 10] ?? 0) ^ 1;
    const dropped = Buffer.concat([sealed.subarray(0, header + record), sealed.subarray(header + 2 * record)]);
    const reordered = Buffer.concat([
      sealed.subarray(0, header),
      sealed.subarray(header + record, header + 2 * record),
      sealed.subarray(header, header + record),
      sealed.subarray(header + 2 * record),
    ]);
    // Cut after a whole chunk: what is left looks complete, but its last chunk was not sealed as last.
    const cut = sealed.subarray(0, header + 2 * record);
    for (const [label, bytes] of Object.entries({ changed, dropped, reordered, cut })) {
      await expect(open(bytes), label).rejects.toThrow();
    }
    const gone: OrganisationKeys = { find: async () => undefined, ensure: async () => key };
    await expect(open(sealed, 7_000, gone)).rejects.toThrow(/destroyed/);
  });

  it('serves a file kept before encryption as it is', async () => {
    const path = join(dir, 'plain.zip');
    writeFileSync(path, Buffer.from('PK\u0003\u0004 an old download'));
    const opened = await open(readFileSync(path));
    expect(opened).toEqual({ size: statSync(path).size, bytes: readFileSync(path) });
  });
});
