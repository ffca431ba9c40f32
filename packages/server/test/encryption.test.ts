/**
 * Encryption at rest per organisation (storage/encryption.ts): blobs encrypted under each
 * organisation's data key and named by a keyed hash, the data keys wrapped by PORTAL_SECRET_KEY and
 * rewrapped by a rotation that rewrites no blob, an organisation's deletion destroying its key first
 * and collecting its blobs, and the command that encrypts what was stored before, resumable and
 * verified.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveContact, archiveEvent } from '../src/archive-data/mailbox-items.js';
import { rotateSecrets } from '../src/crypto/rotation.js';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { encryptStoredBlobs, verifyStoredBlobs } from '../src/jobs/encrypt-blobs.js';
import type { DataPlane } from '../src/jobs/executors/plane.js';
import { saveDocument } from '../src/modules/files/documents.js';
import { encryptStoredDocuments, verifyStoredDocuments } from '../src/modules/files/encrypt-documents.js';
import { deleteOrganisation } from '../src/modules/organisations/deletion.js';
import { BlobCorruptError, createLocalBlobStore } from '../src/storage/blob-store.js';
import { documentFiles } from '../src/storage/document-files.js';
import { BlobShreddedError, keyedName, organisationKeys } from '../src/storage/encryption.js';
import { createTestServer, mime, TENANTS, type TestServer } from './helpers.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('encryption at rest, per organisation', () => {
  let server: TestServer & { close(): Promise<void> };
  let dir: string;
  let plane: DataPlane;
  const organisationOf = async (tenantId: string) => {
    const [row] = await server.ctx.db.query<{ organisation_id: string }>(
      'select organisation_id from tenants where tenant_id = $1',
      [tenantId],
    );
    return row?.organisation_id ?? '';
  };
  /** A PDF whose text says `text`. */
  const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7\n${text}\n%%EOF\n`);
  /** A document of the organisation, uploaded as the portal does (sealed); its id. */
  const uploaded = async (organisationId: string, fileName: string, text: string) => {
    await saveDocument(server.ctx, organisationId, { type: 'others', fileName, bytes: pdf(text), uploadedBy: 'test' });
    const [row] = await server.ctx.db.query<{ document_id: string }>(
      'select document_id from documents where organisation_id = $1 and file_name = $2',
      [organisationId, fileName],
    );
    return row?.document_id ?? '';
  };
  const documentPath = (id: string) => join(server.ctx.config.dataDir, 'documents', id);
  /** Where the local store keeps a blob (one level of fan-out). */
  const fileOf = (name: string) => join(dir, name.slice(0, 2), name);
  /** Archives mail of a tenant through `writer` (a plane as an organisation, or the plane in the clear). */
  const archive = async (
    writer: DataPlane,
    tenantId: string,
    mails: Uint8Array[],
    source = 'adele@contoso.example',
  ) => {
    const rows = [];
    for (const [i, bytes] of mails.entries()) {
      rows.push(
        await writer.archive.prepareMail({
          tenantId,
          jobId: `test-${tenantId}`,
          source,
          folder: 'Inbox',
          externalId: `${source}-${randomBytes(6).toString('hex')}-${i}`,
          mime: bytes,
        }),
      );
    }
    await writer.archive.saveMails(rows);
    return rows.map((r) => r.blobHash);
  };

  beforeAll(async () => {
    server = await createTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-encryption-data-')) });
    dir = mkdtempSync(join(tmpdir(), 'portal-encryption-'));
    plane = createDataPlane(server.ctx, createLocalBlobStore(dir));
  });
  afterAll(() => server?.close());

  it("encrypts each organisation's blobs under its own key: equal content, unlinkable names, no plain text stored", async () => {
    const [a, b] = [await organisationOf(TENANTS.contoso), await organisationOf(TENANTS.woodgrove)];
    expect(a).not.toBe(b);
    const marker = `Quarterly figures ${randomBytes(8).toString('hex')}`;
    const content = new TextEncoder().encode(marker.repeat(50));
    const [asA, asB] = [(await plane.at(null, a)).blobs, (await plane.at(null, b)).blobs];
    const [putA, putB] = [await asA.put(content), await asB.put(content)];
    expect(putA.hash).not.toBe(putB.hash);
    expect(putA.hash).not.toBe(sha256(content));
    expect((await asA.put(content)).isNew).toBe(false);
    for (const name of [putA.hash, putB.hash]) {
      const stored = readFileSync(fileOf(name));
      expect(stored.includes(Buffer.from(marker))).toBe(false);
      expect(stored[0]).toBe(2);
      expect(Buffer.from(await plane.blobs.get(name)).equals(Buffer.from(content))).toBe(true);
    }
    const keys = await server.ctx.db.query<{ organisation_id: string; wrapped_key: string }>(
      'select organisation_id, wrapped_key from organisation_keys where organisation_id = any($1::text[])',
      [[a, b]],
    );
    expect(keys.map((k) => k.organisation_id).sort()).toEqual([a, b].sort());
    // A changed byte of the ciphertext is refused, as is a body moved under another name.
    const tampered = readFileSync(fileOf(putA.hash));
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    writeFileSync(fileOf(putA.hash), tampered);
    await expect(plane.blobs.get(putA.hash)).rejects.toBeInstanceOf(BlobCorruptError);
    writeFileSync(fileOf(putA.hash), readFileSync(fileOf(putB.hash)));
    await expect(plane.blobs.get(putA.hash)).rejects.toBeInstanceOf(BlobCorruptError);
    // A blob stored in the clear before encryption is read as it was.
    const legacy = await createLocalBlobStore(dir).put(new TextEncoder().encode('stored before encryption'));
    expect(legacy.hash).toBe(sha256(new TextEncoder().encode('stored before encryption')));
    expect(new TextDecoder().decode(await plane.blobs.get(legacy.hash))).toBe('stored before encryption');
  });

  it('rotates PORTAL_SECRET_KEY by rewrapping data keys and secrets, without rewriting a blob', async () => {
    const organisation = await organisationOf(TENANTS.contoso);
    const [name] = await archive(await plane.at(null, organisation), TENANTS.contoso, [mime('Before rotation', 'x')]);
    const before = readFileSync(fileOf(name ?? ''));
    const next = createSecretBox(randomBytes(32));
    const report = await rotateSecrets(server.ctx.db, server.ctx.secrets, next);
    expect(report.unreadable).toEqual([]);
    expect(report.rewrapped).toBeGreaterThanOrEqual(2);
    // The rotated database opens with the new key only; the blob is the same file, read as before.
    const rotated = { ...server.ctx, secrets: next };
    const [tenant] = await server.ctx.db.query<{ client_secret_enc: string }>(
      'select client_secret_enc from tenants where tenant_id = $1',
      [TENANTS.contoso],
    );
    expect(() => server.ctx.secrets.open(tenant?.client_secret_enc ?? '')).toThrow();
    expect(next.open(tenant?.client_secret_enc ?? '')).toBeTruthy();
    const after = createDataPlane(rotated, createLocalBlobStore(dir));
    expect(new TextDecoder().decode(await after.blobs.get(name ?? ''))).toContain('Before rotation');
    expect(readFileSync(fileOf(name ?? '')).equals(before)).toBe(true);
    // Run again (a rotation that stopped half-way): nothing left to rewrap.
    const again = await rotateSecrets(server.ctx.db, server.ctx.secrets, next);
    expect(again).toEqual({ rewrapped: 0, current: report.rewrapped + report.current, unreadable: [] });
    // Back to the first key, for the other tests.
    expect((await rotateSecrets(server.ctx.db, next, server.ctx.secrets)).unreadable).toEqual([]);
  });

  it('deletes an organisation by destroying its key first, then its data, and collects its blobs', async () => {
    const gone = await organisationOf(TENANTS.northwind);
    const kept = await organisationOf(TENANTS.contoso);
    const names = await archive(await plane.at(null, gone), TENANTS.northwind, [
      mime('Northwind one', 'a'),
      mime('Northwind two', 'b'),
    ]);
    const [keptName] = await archive(await plane.at(null, kept), TENANTS.contoso, [mime('Contoso stays', 'c')]);
    const copy = readFileSync(fileOf(names[0] ?? ''));
    const sealedDocument = await uploaded(gone, 'contract.pdf', 'Northwind contract');
    const keptDocument = await uploaded(kept, 'contract.pdf', 'Contoso contract');
    // One as an earlier version kept it: in the clear.
    const clearDocument = await uploaded(gone, 'old.pdf', 'Northwind, kept before encryption');
    writeFileSync(documentPath(clearDocument), pdf('Northwind, kept before encryption'));
    const documentCopy = readFileSync(documentPath(sealedDocument));
    // A mailbox's calendar and contacts, archived beside its mail: an event with an attachment, a contact.
    const goneBlobs = (await plane.at(null, gone)).blobs;
    const mailbox = {
      tenantId: TENANTS.northwind,
      mailbox: 'nw-mailbox',
      jobId: null,
      locationId: null,
      now: new Date(),
    };
    await archiveEvent(server.ctx.db, goneBlobs, mailbox, {
      calendarId: 'cal',
      calendarName: 'Calendar',
      event: { id: 'nw-event', type: 'singleInstance', subject: 'Northwind meeting', hasAttachments: true },
      attachments: async function* () {
        yield {
          '@odata.type': '#microsoft.graph.fileAttachment',
          id: 'nw-file',
          name: 'agenda.txt',
          contentBytes: Buffer.from('Northwind agenda').toString('base64'),
        };
      },
    });
    await archiveContact(server.ctx.db, goneBlobs, mailbox, {
      folderId: 'f',
      folderPath: 'Contacts',
      contact: { id: 'nw-contact', displayName: 'Northwind contact' },
    });
    const itemBlobs = (
      await server.ctx.db.query<{ blob_hash: string }>(
        `select blob_hash from archived_events where tenant_id = $1 union select blob_hash from archived_event_attachments
          where tenant_id = $1 union select blob_hash from archived_contacts where tenant_id = $1`,
        [TENANTS.northwind],
      )
    ).map((r) => r.blob_hash);
    expect(itemBlobs).toHaveLength(3);
    const result = await deleteOrganisation(server.ctx, plane, gone);
    expect(result).toMatchObject({ tenants: 1, items: 2, blobs: 5, documents: 2 });
    for (const name of itemBlobs) expect(await (await plane.storeAt(null)).has(name)).toBe(false);
    for (const table of ['archived_events', 'archived_event_attachments', 'archived_contacts']) {
      expect(await server.ctx.db.query(`select 1 from ${table} where tenant_id = $1`, [TENANTS.northwind])).toEqual([]);
    }
    // Its documents' files are gone, the other organisation's stay; a copy of a sealed one cannot be opened.
    expect(existsSync(documentPath(sealedDocument))).toBe(false);
    expect(existsSync(documentPath(clearDocument))).toBe(false);
    expect(existsSync(documentPath(keptDocument))).toBe(true);
    writeFileSync(documentPath(sealedDocument), documentCopy);
    const shredded = documentFiles(server.ctx.config.dataDir).open(
      organisationKeys(server.ctx.db, server.ctx.secrets),
      sealedDocument,
      gone,
    );
    await expect(shredded).rejects.toThrow(/destroyed/);
    rmSync(documentPath(sealedDocument));
    for (const name of names) expect(await (await plane.storeAt(null)).has(name)).toBe(false);
    expect(await server.ctx.db.query('select 1 from organisation_keys where organisation_id = $1', [gone])).toEqual([]);
    expect(await server.ctx.db.query('select 1 from organisations where id = $1', [gone])).toEqual([]);
    expect(await server.ctx.db.query('select 1 from tenants where tenant_id = $1', [TENANTS.northwind])).toEqual([]);
    const [audited] = await server.ctx.db.query<{ action: string }>(
      "select action from audit_log where action = 'organisation.delete' and target = $1",
      [gone],
    );
    expect(audited?.action).toBe('organisation.delete');
    // A copy kept elsewhere (a replica, a backup of the store) cannot be read: the key is gone.
    writeFileSync(fileOf(names[0] ?? ''), copy);
    const fresh = createDataPlane(server.ctx, createLocalBlobStore(dir));
    await expect(fresh.blobs.get(names[0] ?? '')).rejects.toBeInstanceOf(BlobShreddedError);
    // The other organisation's blobs are untouched.
    expect(new TextDecoder().decode(await fresh.blobs.get(keptName ?? ''))).toContain('Contoso stays');
  });

  it('encrypts what was stored in the clear, resumably, and verifies it', async () => {
    const organisation = await organisationOf(TENANTS.tailspin);
    const source = `migrate-${randomBytes(3).toString('hex')}@tailspin.example`;
    // Archived as before encryption: SHA-256 names, in the clear.
    const plain = await archive(
      plane,
      TENANTS.tailspin,
      [mime('Old one', '1'), mime('Old two', '2'), mime('Old three', '3')],
      source,
    );
    for (const name of plain) expect(readFileSync(fileOf(name))[0]).not.toBe(2);
    const before = await verifyStoredBlobs(server.ctx, plane);
    expect(before.plain).toBeGreaterThanOrEqual(3);
    expect(before.failed).toEqual([]);

    // Stopped after one blob, then run to the end.
    expect((await encryptStoredBlobs(server.ctx, plane, { limit: 1 })).encrypted).toBe(1);
    const rest = await encryptStoredBlobs(server.ctx, plane);
    expect(rest.failed).toEqual([]);
    expect(rest.encrypted).toBe(before.plain - 1);
    expect(await encryptStoredBlobs(server.ctx, plane)).toMatchObject({ encrypted: 0, failed: [] });

    const rows = await server.ctx.db.query<{ blob_hash: string; subject: string }>(
      'select blob_hash, subject from archive_items where source = $1 order by subject',
      [source],
    );
    const key = await organisationKeys(server.ctx.db, server.ctx.secrets).find(organisation);
    expect(key).toBeDefined();
    for (const row of rows) {
      const content = await plane.blobs.get(row.blob_hash);
      expect(row.blob_hash).toBe(
        keyedName(key ?? { organisationId: '', encryption: Buffer.alloc(32), naming: Buffer.alloc(32) }, content),
      );
      expect(new TextDecoder().decode(content)).toContain(row.subject);
      expect(readFileSync(fileOf(row.blob_hash))[0]).toBe(2);
    }
    // The blobs in the clear are gone; nothing is left in the clear.
    for (const name of plain) expect(await (await plane.storeAt(null)).has(name)).toBe(false);
    expect(await verifyStoredBlobs(server.ctx, plane)).toMatchObject({ plain: 0, failed: [] });
    expect(readdirSync(dir).length).toBeGreaterThan(0);
  });

  it('seals the documents kept in the clear, resumably, verifies them, and removes files no document refers to', async () => {
    const organisation = await organisationOf(TENANTS.woodgrove);
    const texts = ['Woodgrove one', 'Woodgrove two', 'Woodgrove three'];
    const ids = [];
    for (const [i, text] of texts.entries()) {
      const id = await uploaded(organisation, `clear-${i}.pdf`, text);
      writeFileSync(documentPath(id), pdf(text));
      ids.push(id);
    }
    const before = await verifyStoredDocuments(server.ctx);
    expect(before.plain).toBe(3);
    expect(before.failed).toEqual([]);
    // Files no document refers to: an hour old (removed), and one just written (an upload under way: kept).
    const stale = documentPath('leftover-of-a-deleted-organisation');
    writeFileSync(stale, pdf('nobody'));
    const old = new Date(server.ctx.now().getTime() - 2 * 60 * 60_000);
    utimesSync(stale, old, old);
    const fresh = documentPath('upload-under-way');
    writeFileSync(fresh, pdf('soon listed'));
    utimesSync(fresh, server.ctx.now(), server.ctx.now());

    // Stopped after one, then run to the end; a second run finds nothing to do.
    expect(await encryptStoredDocuments(server.ctx, { limit: 1 })).toMatchObject({
      encrypted: 1,
      failed: [],
      leftovers: 1,
    });
    expect((await verifyStoredDocuments(server.ctx)).plain).toBe(2);
    const rest = await encryptStoredDocuments(server.ctx);
    expect(rest).toMatchObject({ encrypted: 2, failed: [], leftovers: 0 });
    expect(await encryptStoredDocuments(server.ctx)).toMatchObject({ encrypted: 0, failed: [], leftovers: 0 });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    for (const [i, id] of ids.entries()) {
      const stored = readFileSync(documentPath(id));
      expect(stored[0]).toBe(3);
      expect(stored.includes(Buffer.from(texts[i] ?? ''))).toBe(false);
      const opened = await documentFiles(server.ctx.config.dataDir).open(plane.keys, id, organisation);
      const chunks: Buffer[] = [];
      for await (const chunk of opened?.stream ?? []) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toContain(texts[i]);
    }
    const after = await verifyStoredDocuments(server.ctx);
    expect(after).toMatchObject({ plain: 0, failed: [], leftovers: 1 });
    expect(after.encrypted).toBeGreaterThanOrEqual(3);

    // A document whose file is damaged or gone is counted unreadable, by both.
    const damaged = readFileSync(documentPath(ids[0] ?? ''));
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] ?? 0) ^ 1;
    writeFileSync(documentPath(ids[0] ?? ''), damaged);
    rmSync(documentPath(ids[1] ?? ''));
    const broken = await verifyStoredDocuments(server.ctx);
    expect(broken.failed.map((f) => f.documentId).sort()).toEqual([ids[0], ids[1]].sort());
    expect((await encryptStoredDocuments(server.ctx)).failed.map((f) => f.documentId)).toEqual([ids[1]]);
    rmSync(fresh);
  });
});
