import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_UPLOAD_BYTES } from '@compliance-portal/sdk';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertUser } from '../src/modules/identity/users-repository.js';
import { createOrganisation } from '../src/modules/organisations/repository.js';
import { ADMIN, PARTNER, sessionToken, useTestServer } from './helpers.js';

/** A PDF of exactly `size` bytes: the header, filler, and the end-of-file marker. */
function pdf(size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'), 0);
  bytes.set(new TextEncoder().encode('%%EOF\n'), size - 6);
  return bytes;
}

async function form(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; type?: string }) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  if (file) data.set('file', new Blob([Buffer.from(file.bytes)], { type: file.type ?? 'application/pdf' }), file.name);
  const request = new Request('http://x', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type') ?? '' };
}

describe('documents', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-documents-')) });
  let admin = '';
  let partner = '';
  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    partner = await sessionToken(server, PARTNER);
  });
  const upload = async (token: string, fields: Record<string, string>, file?: Parameters<typeof form>[1]) => {
    const body = await form(fields, file);
    return server.request({
      method: 'POST',
      url: '/api/files/upload-file',
      token,
      body: body.payload,
      headers: { 'content-type': body.type },
    });
  };
  // Each test starts with no documents on file.
  beforeEach(async () => {
    await server.ctx.db.query('delete from documents');
  });
  /** A contract already on file: a document of another type, and one the partner must not reach. */
  const contractOnFile = async () => {
    const saved = await upload(
      admin,
      { abbr: 'contoso', documentType: 'contracts' },
      { name: 'big.pdf', bytes: pdf(MAX_UPLOAD_BYTES) },
    );
    expect(saved.statusCode, saved.body).toBe(201);
  };

  it('takes a PDF of exactly 3 MB and refuses one byte more, and a renamed non-PDF, with the rule', async () => {
    const exact = await upload(
      admin,
      { abbr: 'contoso', documentType: 'contracts' },
      { name: 'big.pdf', bytes: pdf(MAX_UPLOAD_BYTES) },
    );
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json()).toMatchObject({ fileName: 'big.pdf', documentType: 'contracts', sizeBytes: MAX_UPLOAD_BYTES });

    const over = await upload(
      admin,
      { abbr: 'contoso', documentType: 'contracts' },
      { name: 'over.pdf', bytes: pdf(MAX_UPLOAD_BYTES + 1) },
    );
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ message: 'The file must be a PDF of at most 3 MB.' });

    const renamed = new TextEncoder().encode('PK\u0003\u0004 this is a zip file, not a PDF');
    const fake = await upload(admin, { abbr: 'contoso', documentType: 'others' }, { name: 'fake.pdf', bytes: renamed });
    expect(fake.statusCode).toBe(400);
    expect(fake.json()).toMatchObject({ message: 'The file must be a PDF of at most 3 MB.' });

    // Far beyond the limit the body is not even read whole.
    const huge = await upload(
      admin,
      { abbr: 'contoso', documentType: 'others' },
      { name: 'huge.pdf', bytes: pdf(5 * 1024 * 1024) },
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ message: 'The file must be a PDF of at most 3 MB.' });

    const bad = await upload(admin, { abbr: 'contoso', documentType: 'invoices' }, { name: 'a.pdf', bytes: pdf(100) });
    expect(bad.statusCode).toBe(400);
    for (const name of [
      '..',
      '.',
      '../escape.pdf',
      'a..b.pdf',
      'a\\b.pdf',
      `${'x'.repeat(252)}.pdf`,
      'bell\u0007.pdf',
      'CON',
      'con.pdf',
      'Aux.PDF',
      'COM1.pdf',
      'lpt9',
      'report.pdf.',
      'report.pdf ',
      'invoice\u202efdp.exe',
      'a\u2066b.pdf',
      'line\u2028break.pdf',
      'para\u2029graph.pdf',
    ]) {
      const refused = await upload(admin, { abbr: 'contoso', documentType: 'others' }, { name, bytes: pdf(100) });
      expect(refused.statusCode, name).toBe(400);
      expect(refused.json(), name).toMatchObject({ errors: { fileName: [expect.stringContaining('not allowed')] } });
    }
    // A "/" in the multipart header (a client other than a browser): refused too, never stored under a path.
    const raw = await form({ abbr: 'contoso', documentType: 'others' }, { name: 'PLACEHOLDER.pdf', bytes: pdf(100) });
    const slashed = await server.request({
      method: 'POST',
      url: '/api/files/upload-file',
      token: admin,
      body: Buffer.from(raw.payload.toString('latin1').replace('PLACEHOLDER.pdf', '../../etc/x.pdf'), 'latin1'),
      headers: { 'content-type': raw.type },
    });
    expect(slashed.statusCode).toBe(400);
    const list = await server.request({ method: 'GET', url: '/api/files/contoso/document', token: admin });
    expect((list.json() as { fileName: string }[]).map((f) => f.fileName)).toEqual(['big.pdf']);

    // 255 characters is the longest name taken.
    const longest = `${'y'.repeat(251)}.pdf`;
    const long = await upload(admin, { abbr: 'contoso', documentType: 'others' }, { name: longest, bytes: pdf(100) });
    expect(long.statusCode, long.body).toBe(201);
    const removed = await server.request({
      method: 'POST',
      url: '/api/files/delete-file',
      token: admin,
      body: { abbr: 'contoso', documentType: 'others', fileName: longest },
    });
    expect(removed.statusCode).toBe(200);
  });

  it('answers 404, not a crash, for a listed document whose file is gone from the data directory', async () => {
    const saved = await upload(
      admin,
      { abbr: 'contoso', documentType: 'others' },
      { name: 'gone.pdf', bytes: pdf(64) },
    );
    expect(saved.statusCode).toBe(201);
    const [row] = await server.ctx.db.query<{ document_id: string }>(
      "select document_id from documents where file_name = 'gone.pdf'",
    );
    rmSync(join(server.ctx.config.dataDir, 'documents', row?.document_id ?? 'missing'));
    const url = '/api/files/download/gone.pdf/contoso/others';
    expect((await server.request({ method: 'GET', url, token: admin })).statusCode).toBe(404);
    const removed = await server.request({
      method: 'POST',
      url: '/api/files/delete-file',
      token: admin,
      body: { abbr: 'contoso', documentType: 'others', fileName: 'gone.pdf' },
    });
    expect(removed.statusCode).toBe(200);
  });

  const documentIdOf = async (fileName: string) => {
    const [row] = await server.ctx.db.query<{ document_id: string }>(
      'select document_id from documents where file_name = $1',
      [fileName],
    );
    return row?.document_id ?? 'missing';
  };
  const fileOf = (documentId: string) => join(server.ctx.config.dataDir, 'documents', documentId);

  it("keeps the file sealed under its organisation's key, and serves the same bytes", async () => {
    const marker = `Confidential clause ${Math.random().toString(36).slice(2)}`;
    const bytes = pdf(200_000);
    bytes.set(new TextEncoder().encode(marker), 100);
    const saved = await upload(admin, { abbr: 'contoso', documentType: 'contracts' }, { name: 'sealed.pdf', bytes });
    expect(saved.statusCode, saved.body).toBe(201);
    const stored = readFileSync(fileOf(await documentIdOf('sealed.pdf')));
    expect(stored[0]).toBe(3);
    expect(stored.includes(Buffer.from('%PDF-'))).toBe(false);
    expect(stored.includes(Buffer.from(marker))).toBe(false);
    const download = await server.request({
      method: 'GET',
      url: '/api/files/download/sealed.pdf/contoso/contracts',
      token: admin,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe(String(bytes.length));
    expect(download.rawPayload.equals(Buffer.from(bytes))).toBe(true);
  });

  it("refuses a sealed file put in place of another organisation's document", async () => {
    const secret = pdf(5_000);
    secret.set(new TextEncoder().encode('Contoso only'), 50);
    expect(
      (await upload(admin, { abbr: 'contoso', documentType: 'others' }, { name: 'c.pdf', bytes: secret })).statusCode,
    ).toBe(201);
    expect(
      (await upload(partner, { abbr: 'northwind', documentType: 'others' }, { name: 'n.pdf', bytes: pdf(5_000) }))
        .statusCode,
    ).toBe(201);
    // Someone with the data directory copies Contoso's sealed file over Northwind's document.
    copyFileSync(fileOf(await documentIdOf('c.pdf')), fileOf(await documentIdOf('n.pdf')));
    const moved = await server.request({
      method: 'GET',
      url: '/api/files/download/n.pdf/northwind/others',
      token: partner,
    });
    expect(moved.statusCode).toBe(500);
    expect(moved.rawPayload.includes(Buffer.from('Contoso only'))).toBe(false);
  });

  it('serves a document kept in the clear before encryption as it is', async () => {
    const bytes = pdf(3_000);
    expect(
      (await upload(admin, { abbr: 'contoso', documentType: 'reports' }, { name: 'old.pdf', bytes })).statusCode,
    ).toBe(201);
    // As an earlier version stored it: the PDF itself.
    writeFileSync(fileOf(await documentIdOf('old.pdf')), bytes);
    const download = await server.request({
      method: 'GET',
      url: '/api/files/download/old.pdf/contoso/reports',
      token: admin,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe(String(bytes.length));
    expect(download.rawPayload.equals(Buffer.from(bytes))).toBe(true);
  });

  describe('with a contract on file', () => {
    beforeEach(contractOnFile);

    it('lists, downloads the same bytes, replaces by name, and deletes', async () => {
      const bytes = pdf(4321);
      const created = await upload(
        admin,
        { abbr: 'contoso', documentType: 'reports' },
        { name: 'Q3 report.pdf', bytes },
      );
      expect(created.statusCode, created.body).toBe(201);
      const reports = await server.request({ method: 'GET', url: '/api/files/contoso/report', token: admin });
      expect(
        (reports.json() as { fileName: string; uploadedBy: string }[]).map((f) => [f.fileName, f.uploadedBy]),
      ).toEqual([['Q3 report.pdf', ADMIN]]);
      const url = `/api/files/download/${encodeURIComponent('Q3 report.pdf')}/contoso/reports`;
      const download = await server.request({ method: 'GET', url, token: admin });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toContain('application/pdf');
      expect(download.rawPayload.equals(Buffer.from(bytes))).toBe(true);

      const newer = pdf(999);
      await upload(admin, { abbr: 'contoso', documentType: 'reports' }, { name: 'q3 REPORT.pdf', bytes: newer });
      const again = await server.request({ method: 'GET', url, token: admin });
      expect(again.rawPayload.equals(Buffer.from(newer))).toBe(true);
      const all = (
        await server.request({ method: 'GET', url: '/api/files/contoso/document', token: admin })
      ).json() as unknown[];
      expect(all).toHaveLength(2);

      const removed = await server.request({
        method: 'POST',
        url: '/api/files/delete-file',
        token: admin,
        body: { abbr: 'contoso', documentType: 'reports', fileName: 'Q3 report.pdf' },
      });
      expect(removed.statusCode).toBe(200);
      expect((await server.request({ method: 'GET', url, token: admin })).statusCode).toBe(404);
      const [audit] = await server.ctx.db.query<{ n: number }>(
        "select count(*)::int as n from audit_log where action in ('document.upload', 'document.delete')",
      );
      expect(audit?.n).toBeGreaterThanOrEqual(3);
    });

    it('keeps each organisation’s documents to those who act for it', async () => {
      const own = await upload(
        partner,
        { abbr: 'contoso', documentType: 'others' },
        { name: 'x.pdf', bytes: pdf(100) },
      );
      expect(own.statusCode).toBe(404);
      const list = await server.request({ method: 'GET', url: '/api/files/contoso/document', token: partner });
      expect(list.statusCode).toBe(404);
      const download = await server.request({
        method: 'GET',
        url: '/api/files/download/big.pdf/contoso/contracts',
        token: partner,
      });
      expect(download.statusCode).toBe(404);
      const remove = await server.request({
        method: 'POST',
        url: '/api/files/delete-file',
        token: partner,
        body: { abbr: 'contoso', documentType: 'contracts', fileName: 'big.pdf' },
      });
      expect(remove.statusCode).toBe(404);
      expect(
        (await server.request({ method: 'GET', url: '/api/files/contoso/document', token: admin })).json(),
      ).toHaveLength(1);
    });

    it('resolves a short name that several organisations share to the one the caller acts for; an operator is refused', async () => {
      // A customer of its own has the short name "shared-name", and so does a client the partner adds:
      // short names are unique only within a partner's organisations.
      const passwordHash = (
        await server.ctx.db.query<{ password_hash: string }>('select password_hash from users where email = $1', [
          ADMIN,
        ])
      )[0]?.password_hash;
      const other = await server.ctx.db.transaction(async (tx) => {
        const { organisation } = await createOrganisation(tx, {
          name: 'Shared Name Ltd',
          kind: 'customer',
          license: 'full',
          abbr: 'shared-name',
        });
        await insertUser(tx, {
          id: randomUUID(),
          email: 'admin@shared-name.example',
          displayName: 'Shared Name Admin',
          passwordHash: passwordHash ?? '',
          role: 'admin',
          organisationId: organisation.id,
          emailConfirmed: true,
        });
        const { organisation: platform } = await createOrganisation(tx, {
          name: 'Platform',
          kind: 'operator',
          license: 'full',
          abbr: 'platform-docs',
        });
        await insertUser(tx, {
          id: randomUUID(),
          email: 'operator@platform-docs.example',
          displayName: 'Operator',
          passwordHash: passwordHash ?? '',
          role: 'operator',
          organisationId: platform.id,
          emailConfirmed: true,
        });
        return organisation;
      });
      const client = await server.request({
        method: 'POST',
        url: '/api/partner-clients',
        token: partner,
        body: {
          name: 'Shared Name Client',
          abbr: 'shared-name',
          license: 'full',
          adminEmail: 'it@shared-client.example',
        },
      });
      expect(client.statusCode, client.body).toBe(200);
      const clientId = (client.json() as { clientId: string }).clientId;

      const otherAdmin = await sessionToken(server, 'admin@shared-name.example');
      const theirs = await upload(
        otherAdmin,
        { abbr: 'shared-name', documentType: 'others' },
        { name: 'theirs.pdf', bytes: pdf(100) },
      );
      expect(theirs.statusCode, theirs.body).toBe(201);
      const ours = await upload(
        partner,
        { abbr: 'shared-name', documentType: 'others' },
        { name: 'ours.pdf', bytes: pdf(100) },
      );
      expect(ours.statusCode, ours.body).toBe(201);
      const stored = await server.ctx.db.query<{ organisation_id: string; file_name: string }>(
        "select organisation_id, file_name from documents where file_name in ('ours.pdf', 'theirs.pdf') order by file_name",
      );
      expect(stored).toEqual([
        { organisation_id: clientId, file_name: 'ours.pdf' },
        { organisation_id: other.id, file_name: 'theirs.pdf' },
      ]);
      const listOf = async (token: string) =>
        (await server.request({ method: 'GET', url: '/api/files/shared-name/document', token })).json() as {
          fileName: string;
        }[];
      expect((await listOf(partner)).map((d) => d.fileName)).toEqual(['ours.pdf']);
      expect((await listOf(otherAdmin)).map((d) => d.fileName)).toEqual(['theirs.pdf']);

      // An operator acts for both: which is meant is not guessed. A short name only one has still works.
      const operator = await sessionToken(server, 'operator@platform-docs.example');
      const ambiguous = await server.request({
        method: 'GET',
        url: '/api/files/shared-name/document',
        token: operator,
      });
      expect(ambiguous.statusCode).toBe(409);
      expect(ambiguous.json()).toEqual({
        message:
          'More than one organisation you act for has this short name, so it does not say whose documents are meant.',
        code: 'shortNameAmbiguous',
      });
      const single = await server.request({ method: 'GET', url: '/api/files/contoso/document', token: operator });
      expect(single.statusCode).toBe(200);
    });
  });
});
