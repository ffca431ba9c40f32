/**
 * Drive content as SharePoint serves it: QuickXorHash (against published vectors and an independent
 * computation), media types by extension, `/content` answering 302 to a pre-authenticated download
 * link, and the link itself (no token, Range, expiry of a forged one); uploads by path into folders,
 * made where missing, as OneDrive does.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uploadFragment } from '../src/graph/drives.js';
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

describe('uploads by path', () => {
  const graph = graphOver({ users: 1, filesPerDrive: 4 }, 50);
  const { tenant, get, call } = graph;
  const user = tenant.users[0];
  if (!user) throw new Error('no user');
  const driveId = user.driveId;
  const drive = tenant.drives.get(driveId);
  if (!drive) throw new Error('no drive');
  const put = (url: string, text: string) =>
    call('PUT', url, { body: text, headers: { 'content-type': 'text/plain' } });
  const itemNamed = (parentId: string, name: string) =>
    [...drive.items.values()].find((i) => i.parentId === parentId && i.name === name && !i.deleted);
  const rootId = `${driveId}-root`;
  type Item = { id: string; name: string; size: number; parentReference: { id: string; path: string } };

  it("puts the documented example's file into FolderA, made for it, and answers as documented", async () => {
    // learn.microsoft.com, Upload or replace the contents of a driveItem: PUT /me/drive/root:/FolderA/FileB.txt:/content.
    const documented = { status: 201, body: { id: '0123456789abc', name: 'FileB.txt', size: 35, file: {} } };
    expect(itemNamed(rootId, 'FolderA')).toBeUndefined();
    const answer = await put(
      `/users/${user.id}/drive/root:/FolderA/FileB.txt:/content`,
      'The contents of the file goes here.',
    );
    expect(answer.status).toBe(documented.status);
    expect(answer.body).toMatchObject({
      name: documented.body.name,
      size: documented.body.size,
      file: expect.any(Object),
    });
    const folder = itemNamed(rootId, 'FolderA');
    expect(folder?.kind).toBe('folder');
    const file = itemNamed(folder?.id ?? '', 'FileB.txt');
    expect(file?.id).toBe(answer.body.id);
    expect(itemNamed(rootId, 'FolderA/FileB.txt')).toBeUndefined();
    expect(answer.body.parentReference).toMatchObject({
      driveId,
      id: folder?.id,
      name: 'FolderA',
      path: `/drives/${driveId}/root:/FolderA`,
    });
    expect(graph.validation?.mismatches).toEqual([]);
  });

  it('replaces a file at that path: 200, the same id, a new version', async () => {
    const first = await put(`/drives/${driveId}/root:/FolderA/FileB.txt:/content`, 'again');
    expect(first.status).toBe(200);
    const folder = itemNamed(rootId, 'FolderA');
    const file = itemNamed(folder?.id ?? '', 'FileB.txt');
    expect(first.body).toMatchObject({ id: file?.id, name: 'FileB.txt', size: 5 });
    expect(file?.versions.map((v) => v.id)).toEqual(['1.0', '2.0']);
    expect([...drive.items.values()].filter((i) => i.name === 'FolderA')).toHaveLength(1);
  });

  it('makes every missing folder of a deeper path, from the root or from an item, and lists them', async () => {
    const deep = await put(`/drives/${driveId}/root:/A/B/file.txt:/content`, 'deep');
    expect(deep.status).toBe(201);
    const a = itemNamed(rootId, 'A');
    const b = itemNamed(a?.id ?? '', 'B');
    expect([a?.kind, b?.kind]).toEqual(['folder', 'folder']);
    expect((deep.body as unknown as Item).parentReference).toMatchObject({
      id: b?.id,
      path: `/drives/${driveId}/root:/A/B`,
    });
    // From a folder by its id, into a sub-folder that exists and one that does not.
    const fromItem = await put(`/drives/${driveId}/items/${a?.id}:/B/second.txt:/content`, 'second');
    expect(fromItem.status).toBe(201);
    const newSub = await put(`/users/${user.id}/drive/items/${a?.id}:/C/third.txt:/content`, 'third');
    expect(newSub.status).toBe(201);
    const c = itemNamed(a?.id ?? '', 'C');
    expect((newSub.body as unknown as Item).parentReference.id).toBe(c?.id);

    const children = (await get(`/drives/${driveId}/items/${b?.id}/children`)).body.value as Item[];
    expect(children.map((i) => i.name).sort()).toEqual(['file.txt', 'second.txt']);
    const byPath = (await get(`/drives/${driveId}/root:/A/B:/children`)).body.value as Item[];
    expect(byPath.map((i) => i.id).sort()).toEqual(children.map((i) => i.id).sort());
    const underA = (await get(`/drives/${driveId}/items/${a?.id}/children`)).body.value as Item[];
    expect(underA.map((i) => i.name).sort()).toEqual(['B', 'C']);
    expect((await get(`/drives/${driveId}/items/${a?.id}`)).body.folder).toEqual({ childCount: 2 });

    for (const url of [
      `/drives/${driveId}/root:/A/B/file.txt`,
      `/drives/${driveId}/root:/A/B/file.txt:`,
      `/users/${user.id}/drive/root:/a/b/FILE.txt`,
      `/drives/${driveId}/items/${a?.id}:/B/file.txt:`,
    ]) {
      const found = await get(url);
      expect(found.status, url).toBe(200);
      expect(found.body.id, url).toBe(deep.body.id);
    }
    expect((await get(`/drives/${driveId}/root:/A/file.txt`)).status).toBe(404);
  });

  it('reads a path put in the item id and encoded, as the Kiota-based SDKs send it', async () => {
    const encoded = encodeURIComponent('root:/Kiota/Sub/kiota.txt:');
    expect(encoded).toBe('root%3A%2FKiota%2FSub%2Fkiota.txt%3A');
    const created = await put(`/drives/${driveId}/items/${encoded}/content`, 'from kiota');
    expect(created.status).toBe(201);
    const sub = itemNamed(itemNamed(rootId, 'Kiota')?.id ?? '', 'Sub');
    expect((created.body as unknown as Item).parentReference.id).toBe(sub?.id);
    const read = await get(`/drives/${driveId}/items/${encoded}`);
    expect(read.body.id).toBe(created.body.id);
    expect((await put(`/users/${user.id}/drive/items/${encoded}/content`, 'again')).status).toBe(200);
  });

  it('shows delta the new folders and the file in its folder', async () => {
    let deltaLink = '';
    for (let next: string | undefined = `/drives/${driveId}/root/delta`; next; ) {
      const answer = await get(next);
      next = answer.body['@odata.nextLink'] as string | undefined;
      deltaLink = (answer.body['@odata.deltaLink'] as string | undefined) ?? deltaLink;
    }
    const before = tenant.clock;
    await put(`/drives/${driveId}/root:/Reports/2026/q3.txt:/content`, 'q3');
    const changes = (await get(deltaLink)).body.value as Item[];
    const reports = itemNamed(rootId, 'Reports');
    const year = itemNamed(reports?.id ?? '', '2026');
    const q3 = itemNamed(year?.id ?? '', 'q3.txt');
    expect(changes.map((i) => i.id)).toEqual([reports?.id, year?.id, q3?.id]);
    expect(changes.map((i) => i.parentReference.id)).toEqual([rootId, reports?.id, year?.id]);
    expect([reports, year, q3].every((i) => (i?.changed ?? 0) > before)).toBe(true);
  });

  it('refuses a path through a file, and finishes an upload session into a folder it makes', async () => {
    const blocked = await put(`/drives/${driveId}/root:/A/B/file.txt/inner.txt:/content`, 'x');
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({ code: 'nameAlreadyExists' });
    const session = await call('POST', `/drives/${driveId}/root:/Uploads/big.bin:/createUploadSession`, {
      body: JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': 'replace' } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(session.status).toBe(200);
    const id = new URL(String(session.body.uploadUrl)).pathname.split('/').pop() ?? '';
    const done = uploadFragment(
      {
        method: 'PUT',
        path: '',
        query: new URLSearchParams(),
        headers: { 'content-range': 'bytes 0-3/4' },
        body: Buffer.from([1, 2, 3, 4]),
      },
      tenant,
      id,
      graph.context,
    );
    expect(done.status).toBe(201);
    const uploads = itemNamed(rootId, 'Uploads');
    expect(itemNamed(uploads?.id ?? '', 'big.bin')?.versions[0]?.size).toBe(4);
  });
});
