/**
 * The per-source totals the database keeps beside the stored items (migration 18): after the data
 * plane's writes (batches, a resumed run writing the same rows again, new versions, retention
 * deleting archived mail, a job deleted with its items) each total is the sum over the items it
 * stands for, and the overview shows those sums.
 */
import type { OverviewDashboard } from '@compliance-portal/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteArchivedBefore } from '../src/archive-data/archive.js';
import { type ArchiveRow, insertArchiveRows } from '../src/archive-data/archive-repository.js';
import { type BackupItemInput, putItems } from '../src/jobs/executors/backup-store.js';
import type { BlobStore } from '../src/storage/blob-store.js';
import { ADMIN, createTestServer, sessionToken, TENANTS, type TestServer } from './helpers.js';

const deleted: string[] = [];
const blobs: BlobStore = {
  put: () => Promise.reject(new Error('not used')),
  get: () => Promise.reject(new Error('not used')),
  has: () => Promise.resolve(true),
  delete: async (hash) => {
    deleted.push(hash);
  },
  stats: () => Promise.resolve({ blobs: 0, storedBytes: 0 }),
  withCodec: () => blobs,
};

function versions(jobId: string, sourceId: string, items: number, perItem: number, seq: number): BackupItemInput[] {
  return Array.from({ length: items * perItem }, (_, i) => ({
    jobId,
    sourceId,
    itemId: `item-${Math.floor(i / perItem)}`,
    versionId: `v-${seq}-${i % perItem}`,
    driveId: 'drive',
    kind: 'file' as const,
    name: `file-${i}.txt`,
    path: '/',
    parentId: null,
    size: 1_000 + i * 7 + seq,
    hash: `hash-${jobId}-${sourceId}-${seq}-${i}`,
    modifiedAt: null,
    isLatest: i % perItem === perItem - 1,
    seq,
  }));
}

function messages(
  tenantId: string,
  kind: ArchiveRow['kind'],
  source: string,
  count: number,
  day: number,
): ArchiveRow[] {
  return Array.from({ length: count }, (_, i) => ({
    tenantId,
    kind,
    source,
    container: 'inbox',
    externalId: `${source}-${day}-${i}`,
    subject: `Message ${i}`,
    sender: 'someone@contoso.example',
    recipients: 'other@contoso.example',
    sentAt: new Date(Date.UTC(2026, 9, day, 8, i)),
    size: 2_000 + i * 13,
    hasAttachments: false,
    blobHash: `blob-${source}-${day}-${i}`,
    body: 'text',
    jobId: null,
    locationId: null,
    archivedAt: new Date(Date.UTC(2026, 10, 1)),
  }));
}

describe('the totals kept per backup and archive source', () => {
  let server: TestServer & { close(): Promise<void> };

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server?.close());

  /** Each total against a fresh sum over the items: the rows that differ (none when exact). */
  async function differences() {
    const db = server.ctx.db;
    const backup = await db.query(
      `select coalesce(u.job_id, b.job_id) as job_id, coalesce(u.source_id, b.source_id) as source_id,
              u.items as kept_items, b.items, u.bytes as kept_bytes, b.bytes
         from (select * from backup_usage where items <> 0 or bytes <> 0) u
         full join (select job_id, source_id, count(*) as items, sum(size) as bytes from backup_items
                     group by job_id, source_id) b on b.job_id = u.job_id and b.source_id = u.source_id
        where u.items is distinct from b.items or u.bytes is distinct from b.bytes`,
    );
    const archive = await db.query(
      `select coalesce(u.source, a.source) as source, u.items as kept_items, a.items, u.bytes as kept_bytes, a.bytes
         from (select * from archive_usage where items <> 0 or bytes <> 0) u
         full join (select tenant_id, kind, source, count(*) as items, sum(size) as bytes from archive_items
                     group by tenant_id, kind, source) a
           on a.tenant_id = u.tenant_id and a.kind = u.kind and a.source = u.source
        where u.items is distinct from a.items or u.bytes is distinct from a.bytes`,
    );
    return { backup, archive };
  }

  it('add up every batch once, a batch written again adding nothing, subtract what is deleted, and are what the overview shows', async () => {
    const db = server.ctx.db;
    for (const [jobId, tenantId] of [
      ['usage-job-1', TENANTS.contoso],
      ['usage-job-2', TENANTS.contoso],
      ['usage-job-3', TENANTS.northwind],
    ]) {
      await db.query(
        `insert into jobs (job_id, tenant_id, name, type, application) values ($1, $2, $1, 'backup', 'onedrive')`,
        [jobId, tenantId],
      );
    }
    const first = versions('usage-job-1', 'alice', 40, 3, 1);
    await putItems(db, first);
    await putItems(db, [...first.slice(0, 30), ...versions('usage-job-1', 'bob', 10, 2, 1)]);
    await putItems(db, versions('usage-job-1', 'alice', 40, 1, 2));
    await putItems(db, versions('usage-job-2', 'carol', 25, 2, 1));
    await putItems(db, versions('usage-job-3', 'dave', 15, 2, 1));

    const mail = messages(TENANTS.contoso, 'mail', 'alice@contoso.example', 60, 1);
    await insertArchiveRows(db, mail);
    await insertArchiveRows(db, [
      ...mail.slice(0, 20),
      ...messages(TENANTS.contoso, 'mail', 'alice@contoso.example', 30, 20),
    ]);
    await insertArchiveRows(db, messages(TENANTS.contoso, 'mail', 'bob@contoso.example', 25, 5));
    await insertArchiveRows(db, messages(TENANTS.contoso, 'teams', 'team-1', 12, 3));
    await insertArchiveRows(db, messages(TENANTS.contoso, 'chat', 'team-1', 4, 3));
    await insertArchiveRows(db, messages(TENANTS.contoso, 'chat', 'chat-1', 7, 3));
    await insertArchiveRows(db, messages(TENANTS.northwind, 'mail', 'erin@northwind.example', 9, 2));
    expect(await differences()).toEqual({ backup: [], archive: [] });

    // Retention: bob's mail goes whole, alice's sent before the 10th.
    await deleteArchivedBefore(db, blobs, TENANTS.contoso, { kind: 'mail', before: new Date(Date.UTC(2026, 9, 10)) });
    expect(deleted.length).toBe(85);
    // A job deleted goes with its items and totals.
    await db.query(`delete from jobs where job_id = 'usage-job-2'`);
    expect(await differences()).toEqual({ backup: [], archive: [] });
    const [kept] = await db.query<{ jobs: number; sources: number }>(
      `select count(*) filter (where job_id = 'usage-job-2')::int as jobs,
              (select count(*)::int from archive_usage where source = 'bob@contoso.example' and items = 0) as sources
         from backup_usage`,
    );
    expect(kept).toEqual({ jobs: 0, sources: 1 });

    // The overview shows those sums; a source whose items all went is no longer covered.
    const token = await sessionToken(server, ADMIN);
    const answer = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${TENANTS.contoso}/dashboard/overview`,
      token,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const overview = answer.json() as OverviewDashboard;
    const [sums] = await server.ctx.db.query<Record<string, string | number>>(
      `select (select sum(b.size) from backup_items b join jobs j on j.job_id = b.job_id where j.tenant_id = $1) as backup,
              (select sum(size) from archive_items where tenant_id = $1 and kind = 'mail') as mail,
              (select count(distinct source) from archive_items where tenant_id = $1 and kind = 'mail') as mailboxes,
              (select sum(size) from archive_items where tenant_id = $1 and kind in ('teams', 'chat')) as teams,
              (select count(distinct source) from archive_items where tenant_id = $1 and kind in ('teams', 'chat')) as chats`,
      [TENANTS.contoso],
    );
    expect(Number(sums?.backup)).toBeGreaterThan(0);
    expect(overview.backup.bytes).toBe(Number(sums?.backup));
    expect(overview.emailArchive).toMatchObject({ bytes: Number(sums?.mail), protectedCount: 1 });
    expect(Number(sums?.mailboxes)).toBe(1);
    expect(overview.teamsArchive).toMatchObject({ bytes: Number(sums?.teams), protectedCount: 2 });
    expect(Number(sums?.chats)).toBe(2);
  });
});
