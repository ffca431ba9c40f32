import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveMail,
  archiveTeamsMessage,
  deleteArchivedBefore,
  getArchivedItem,
  searchArchive,
} from '../src/archive-data/archive.js';
import { archiveStats } from '../src/archive-data/archive-repository.js';
import { summariseMail } from '../src/archive-data/mime.js';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { BlobCorruptError, createLocalBlobStore, sha256 } from '../src/storage/blob-store.js';
import { mime, openTestDatabase } from './helpers.js';

const store = () => createLocalBlobStore(mkdtempSync(join(tmpdir(), 'blobs-')));

describe('the blob store', () => {
  it('stores identical content once, compresses text and keeps random bytes raw', async () => {
    const blobs = store();
    const text = new TextEncoder().encode('The quarterly figures are attached. '.repeat(400));
    const first = await blobs.put(text);
    const again = await blobs.put(text);
    expect(first).toMatchObject({ hash: sha256(text), size: text.length, isNew: true });
    expect(again).toMatchObject({ hash: first.hash, isNew: false, storedSize: first.storedSize });
    expect(first.storedSize).toBeLessThan(text.length / 10);
    const random = randomBytes(64 * 1024);
    const raw = await blobs.put(random);
    expect(raw.storedSize).toBe(random.length + 1);
    expect(Buffer.from(await blobs.get(first.hash))).toEqual(Buffer.from(text));
    expect(Buffer.from(await blobs.get(raw.hash))).toEqual(random);
    expect(await blobs.stats()).toEqual({ blobs: 2, storedBytes: first.storedSize + raw.storedSize });
  });

  it('survives concurrent puts of the same content and detects corruption', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blobs-'));
    const blobs = createLocalBlobStore(dir);
    const bytes = new TextEncoder().encode('same content');
    const results = await Promise.all(Array.from({ length: 8 }, () => blobs.put(bytes)));
    expect(new Set(results.map((r) => r.hash)).size).toBe(1);
    expect((await blobs.stats()).blobs).toBe(1);
    const hash = results[0]?.hash ?? '';
    // A new store: one level of 256 directories, said in its LAYOUT file.
    expect(readFileSync(join(dir, 'LAYOUT'), 'utf8')).toBe('1\n');
    const path = join(dir, hash.slice(0, 2), hash);
    expect(readdirSync(join(dir, hash.slice(0, 2)))).toEqual([hash]);
    writeFileSync(path, Buffer.concat([Buffer.from([0]), Buffer.from('tampered')]));
    await expect(blobs.get(hash)).rejects.toBeInstanceOf(BlobCorruptError);
    await blobs.delete(hash);
    expect(await blobs.has(hash)).toBe(false);
  });

  it('keeps reading and writing a store made with two levels of directories as it is', async () => {
    // A store of an earlier version: no LAYOUT file, blobs at <2 hex>/<next 2 hex>/<hash>.
    const dir = mkdtempSync(join(tmpdir(), 'blobs-two-levels-'));
    const old = new TextEncoder().encode('kept by an earlier version');
    const oldHash = sha256(old);
    mkdirSync(join(dir, oldHash.slice(0, 2), oldHash.slice(2, 4)), { recursive: true });
    writeFileSync(join(dir, oldHash.slice(0, 2), oldHash.slice(2, 4), oldHash), Buffer.concat([Buffer.from([0]), old]));
    const blobs = createLocalBlobStore(dir);
    expect(readFileSync(join(dir, 'LAYOUT'), 'utf8')).toBe('2\n');
    expect(Buffer.from(await blobs.get(oldHash))).toEqual(Buffer.from(old));
    expect((await blobs.put(old)).isNew).toBe(false);
    const added = await blobs.put(new TextEncoder().encode('written after the upgrade'));
    expect(readdirSync(join(dir, added.hash.slice(0, 2), added.hash.slice(2, 4)))).toEqual([added.hash]);
    expect(await blobs.stats()).toEqual({ blobs: 2, storedBytes: old.length + 1 + added.storedSize });
    // The layout is read from its file from then on, also once the store is emptied.
    await blobs.delete(oldHash);
    await blobs.delete(added.hash);
    const again = createLocalBlobStore(dir);
    const third = await again.put(new TextEncoder().encode('a third'));
    expect(readdirSync(join(dir, third.hash.slice(0, 2), third.hash.slice(2, 4)))).toEqual([third.hash]);
    writeFileSync(join(dir, 'LAYOUT'), '3\n');
    expect(() => createLocalBlobStore(dir)).toThrow(/unknown blob store layout "3"/);
  });
});

describe('reading a mail', () => {
  it('decodes encoded headers, quoted-printable bodies and finds attachments', () => {
    const raw = [
      'From: =?utf-8?Q?J=C3=BCrgen_M=C3=BCller?= <juergen@contoso.example>',
      'To: team@contoso.example',
      'Subject: =?utf-8?B?UmVjaG51bmcgZsO8ciBOb3ZlbWJlcg==?=',
      'Date: Tue, 03 Nov 2026 10:00:00 +0000',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Anbei die Rechnung f=C3=BCr November.',
      '--b1',
      'Content-Type: application/pdf; name="rechnung.pdf"',
      'Content-Disposition: attachment; filename="rechnung.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      'JVBERi0xLjQK',
      '--b1--',
    ].join('\r\n');
    const mail = summariseMail(new TextEncoder().encode(raw));
    expect(mail).toMatchObject({
      subject: 'Rechnung für November',
      from: 'Jürgen Müller <juergen@contoso.example>',
      to: 'team@contoso.example',
      body: 'Anbei die Rechnung für November.',
      hasAttachments: true,
    });
    expect(mail.date?.toISOString()).toBe('2026-11-03T10:00:00.000Z');
  });
});

describe('the archive', () => {
  let db: Database;
  let drop: () => Promise<void>;
  const blobs = store();
  const T1 = 'tenant-one';
  const T2 = 'tenant-two';

  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db);
    const mails: [string, string, string, string][] = [
      ['m1', 'Invoice 4711 for October', 'Please pay the attached invoice by Friday.', 'Inbox'],
      ['m2', 'Lunch on Friday?', 'Shall we try the new place near the office?', 'Inbox'],
      ['m3', 'Rechnungen für den Oktober', 'Anbei alle Rechnungen des Monats.', 'Inbox/TestOrder'],
      ['m4', 'Project kickoff', 'Agenda: scope, invoices to expect, milestones.', 'Archive'],
    ];
    for (const [id, subject, body, folder] of mails) {
      await archiveMail(db, blobs, {
        tenantId: T1,
        jobId: 'j1',
        source: 'adele@contoso.example',
        folder,
        externalId: id,
        mime: mime(subject, body),
      });
    }
    await archiveMail(db, blobs, {
      tenantId: T2,
      jobId: 'j2',
      source: 'x@fabrikam.example',
      folder: 'Inbox',
      externalId: 'm1',
      mime: mime('Invoice for Fabrikam', 'secret invoice'),
    });
    await archiveTeamsMessage(db, blobs, {
      tenantId: T1,
      jobId: 'j3',
      source: 'team-1',
      channel: 'General',
      externalId: 't1',
      message: {
        id: 't1',
        createdDateTime: '2026-11-04T08:00:00Z',
        body: { contentType: 'html', content: '<p>The <b>invoice</b> template is in Files.</p>' },
        from: { user: { displayName: 'Megan Bowen' } },
      },
    });
  });
  afterAll(() => drop());

  it('is idempotent per item', async () => {
    const again = await archiveMail(db, blobs, {
      tenantId: T1,
      jobId: 'j1',
      source: 'adele@contoso.example',
      folder: 'Inbox',
      externalId: 'm1',
      mime: mime('Invoice 4711 for October', 'x'),
    });
    expect(again).toBe(false);
    expect((await searchArchive(db, T1, { kind: 'mail' })).total).toBe(4);
  });

  it('finds words by their English and German stems, ranks the subject first, and highlights', async () => {
    const invoices = await searchArchive(db, T1, { text: 'invoices' });
    // The subject match first; body matches after it.
    expect(invoices.items[0]?.subject).toBe('Invoice 4711 for October');
    expect(invoices.items.map((i) => i.subject).sort()).toEqual(['', 'Invoice 4711 for October', 'Project kickoff']);
    expect(invoices.items[0]?.snippet).toContain('<mark>');
    const german = await searchArchive(db, T1, { text: 'Rechnung' });
    expect(german.items.map((i) => i.subject)).toEqual(['Rechnungen für den Oktober']);
    const phrase = await searchArchive(db, T1, { text: '"new place" -invoice' });
    expect(phrase.items.map((i) => i.subject)).toEqual(['Lunch on Friday?']);
  });

  it('filters, sorts and pages, and never shows another tenant', async () => {
    expect((await searchArchive(db, T1, { container: 'Inbox' })).total).toBe(3);
    expect((await searchArchive(db, T1, { kind: 'teams' })).items.map((i) => i.sender)).toEqual(['Megan Bowen']);
    expect((await searchArchive(db, T1, { sender: 'adele' })).total).toBe(4);
    const paged = await searchArchive(db, T1, { sort: 'date', pageSize: 2, page: 2 });
    expect(paged).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(paged.items).toHaveLength(2);
    const other = await searchArchive(db, T1, { text: 'secret' });
    expect(other.total).toBe(0);
    expect((await searchArchive(db, T2, { text: 'secret' })).total).toBe(1);
  });

  it('returns the stored MIME of an item', async () => {
    const [hit] = (await searchArchive(db, T1, { text: 'lunch' })).items;
    const item = await getArchivedItem(db, async () => blobs, T1, hit?.id ?? '');
    expect(new TextDecoder().decode(item?.content)).toContain('Subject: Lunch on Friday?');
    expect(await getArchivedItem(db, async () => blobs, T2, hit?.id ?? '')).toBeUndefined();
  });

  it('deletes by retention, and only blobs nothing else refers to', async () => {
    const shared = mime('Shared body', 'identical');
    await archiveMail(db, blobs, {
      tenantId: T1,
      jobId: 'j1',
      source: 'old@contoso.example',
      folder: 'Inbox',
      externalId: 'o1',
      mime: shared,
    });
    await archiveMail(db, blobs, {
      tenantId: T1,
      jobId: 'j1',
      source: 'keep@contoso.example',
      folder: 'Inbox',
      externalId: 'k1',
      mime: shared,
    });
    const result = await deleteArchivedBefore(db, blobs, T1, {
      kind: 'mail',
      before: new Date('2030-01-01'),
      sources: ['old@contoso.example'],
    });
    expect(result.items).toBe(1);
    expect(await blobs.has(sha256(shared))).toBe(true);
    await deleteArchivedBefore(db, blobs, T1, {
      kind: 'mail',
      before: new Date('2030-01-01'),
      sources: ['keep@contoso.example'],
    });
    expect(await blobs.has(sha256(shared))).toBe(false);
    const stats = await archiveStats(db, T1);
    expect(stats.map((s) => `${s.kind}:${s.source}:${s.items}`)).toEqual([
      'mail:adele@contoso.example:4',
      'teams:team-1:1',
    ]);
  });
});
