import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator } from '@compliance-portal/m365-simulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import {
  ADMIN,
  jobsApi,
  PARTNER,
  sessionToken,
  simulatedTenant,
  simulatorGraph,
  TENANTS,
  useTestServer,
} from './helpers.js';

type Row = Record<string, unknown>;

/**
 * Retrying a run (`POST …/monitoring/{reportId}/retry`) with the real engine and executors against the
 * simulated tenant: only the failed items where the job can pick them out, the sources with failures
 * of a mail archive, the whole job otherwise; tenant-scoped and audited.
 */
describe('retrying a run', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-retry-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let engine: JobEngine;
  let admin = '';
  let partner = '';
  const users: { id: string; upn: string }[] = [];

  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    partner = await sessionToken(server, PARTNER);
  });
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      { users: 3, sites: 1, teams: 1, filesPerDrive: 6, versionsPerFile: 1, messagesPerFolder: 4 },
      8,
    );
    const plane = createDataPlane(server.ctx, createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-'))));
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    users.length = 0;
    for (const u of sim.state.tenant(tenantId).users) users.push({ id: u.id, upn: u.upn });
  });
  afterEach(() => sim.close());

  const jobs = () => jobsApi(server, tenantId, () => admin);
  const retry = (reportId: string, token = admin, tenant: string = tenantId) =>
    server.request({ method: 'POST', url: `/apollo-beta/api/${tenant}/monitoring/${reportId}/retry`, token });
  const runsOf = (jobId: string) =>
    server.ctx.db.query<Row>('select * from job_runs where job_id = $1 order by seq', [jobId]);
  /** The job's runs as the monitor answers them, by run id (the test clock starts runs at one instant). */
  const monitored = async (jobId: string) => {
    const answer = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${tenantId}/monitoring?jobId=${jobId}`,
      token: admin,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const items = (answer.json() as { items: Row[] }).items;
    return (runId: unknown) => items.find((r) => r.reportId === runId);
  };
  const retryAudits = (jobId: string) =>
    server.ctx.db.query<{ details: unknown }>(
      `select details from audit_log where action = 'job.retry' and target = $1 order by seq`,
      [jobId],
    );

  it('restores again only the files that failed, leaves the rest alone, and audits the retry', async () => {
    const backup = await jobs().create({
      name: 'OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: [users[0]?.upn],
    });
    expect((await jobs().start(backup.jobId, engine)).run).toMatchObject({ status: 'finished', items_failed: 0 });
    const files = await server.ctx.db.query<{ item_id: string; name: string; path: string; hash: string }>(
      `select item_id, name, path, hash from backup_items where job_id = $1 and kind = 'file' and is_latest
        and deleted_seq is null order by path limit 3`,
      [backup.jobId],
    );
    expect(files).toHaveLength(3);
    const broken = files[1];
    if (!broken) throw new Error('no second file');
    // The second file's bytes cannot be read from the store: its restore fails, the others succeed.
    await server.ctx.db.query('update backup_items set hash = $3 where job_id = $1 and item_id = $2', [
      backup.jobId,
      broken.item_id,
      '0'.repeat(64),
    ]);
    const restore = await jobs().create({
      name: 'Restore three',
      type: 'restore',
      application: 'onedrive',
      sources: [users[0]?.upn ?? ''],
      restore: {
        sourceJobId: backup.jobId,
        snapshot: new Date(Date.now() + 86_400_000).toISOString(),
        sourceId: users[0]?.upn ?? '',
        nodeIds: files.map((f) => f.item_id),
        target: 'other',
        targetId: users[2]?.upn ?? '',
        conflictPolicy: 'keepBoth',
      },
    });
    await engine.runUntilIdle();
    const [first] = await runsOf(restore.jobId);
    expect(first).toMatchObject({ status: 'finished', items_total: 3, items_done: 2, items_failed: 1 });
    expect((await monitored(restore.jobId))(first?.run_id)).toMatchObject({ retryable: true });

    // Its bytes are back; the retry restores that file only.
    await server.ctx.db.query('update backup_items set hash = $3 where job_id = $1 and item_id = $2', [
      backup.jobId,
      broken.item_id,
      broken.hash,
    ]);
    const answer = await retry(String(first?.run_id));
    expect(answer.statusCode, answer.body).toBe(202);
    const retried = answer.json() as { reportId: string };
    expect(retried).toMatchObject({ jobId: restore.jobId, retryOf: first?.run_id, scope: 'failedItems', count: 1 });
    await engine.runUntilIdle();
    const [, second] = await runsOf(restore.jobId);
    expect(second).toMatchObject({
      run_id: retried.reportId,
      trigger: 'retry',
      retry_of: first?.run_id,
      status: 'finished',
      items_total: 1,
      items_done: 1,
      items_failed: 0,
    });
    const shown = await monitored(restore.jobId);
    expect(shown(retried.reportId)).toMatchObject({ retryOf: first?.run_id, retryable: false });

    // Each file is in the other account once: the two restored before were not restored twice.
    const graph = simulatorGraph(sim, tenantId);
    const drive = await graph.userDrive(users[2]?.upn ?? '');
    for (const file of files) {
      const folder = file.path.slice(0, file.path.length - file.name.length) || '/';
      const parent = await graph.itemByPath(drive.id ?? '', folder);
      const names: string[] = [];
      for await (const child of graph.children(drive.id ?? '', parent?.id ?? 'root')) names.push(child.name ?? '');
      const base = file.name.replace(/\.[^.]+$/, '');
      expect(
        names.filter((n) => n.startsWith(base)),
        file.path,
      ).toHaveLength(1);
    }

    expect(await retryAudits(restore.jobId)).toEqual([
      {
        details: expect.objectContaining({
          run: first?.run_id,
          retry: retried.reportId,
          scope: 'failedItems',
          count: 1,
        }),
      },
    ]);
  });

  it('archives again only the mailbox that failed, tried again although it failed for good', async () => {
    const guest = users.find((u) => u.upn.includes('#EXT#'))?.upn ?? '';
    const job = await jobs().create({
      name: 'Mail',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: [users[0]?.upn, guest],
      folders: ['Inbox'],
    });
    const { run: first } = await jobs().start(job.jobId, engine);
    expect(first).toMatchObject({ status: 'finished', items_failed: 1 });
    expect(Number(first.items_done)).toBeGreaterThan(0);
    // New mail in the mailbox that worked: a retry of the failed mailbox does not read it.
    evolve(sim.state.tenant(tenantId), { newMessages: 3 });
    const answer = await retry(String(first.run_id));
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toMatchObject({ scope: 'failedSources', count: 1 });
    await engine.runUntilIdle();
    const [, second] = await runsOf(job.jobId);
    expect(second).toMatchObject({ trigger: 'retry', status: 'finished', items_done: 0, items_failed: 1 });
    const errors = await server.ctx.db.query<{ item_key: string }>(
      'select item_key from job_run_errors where run_id = $1',
      [second?.run_id],
    );
    // Known to fail for good, the guest's mailbox is skipped by a normal run but tried by the retry.
    expect(errors).toEqual([{ item_key: `mailbox:${guest}` }]);
    const sources = await server.ctx.db.query<{ source_id: string }>(
      'select source_id from job_run_sources where run_id = $1',
      [second?.run_id],
    );
    expect(sources.map((s) => s.source_id)).toEqual([guest]);
    // The next normal run reads the new mail.
    const { run: third } = await jobs().start(job.jobId, engine);
    expect(Number(third.items_done)).toBeGreaterThan(0);
  });

  it('runs the whole job again when the run failed as a whole, and refuses what it cannot retry', async () => {
    const backup = await jobs().create({
      name: 'OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: [users[0]?.upn],
    });
    const { run: backed } = await jobs().start(backup.jobId, engine);
    // A run without failures has nothing to retry.
    const clean = await retry(String(backed.run_id));
    expect(clean.statusCode).toBe(409);
    const restore = await jobs().create({
      name: 'Too early',
      type: 'restore',
      application: 'onedrive',
      sources: [users[0]?.upn ?? ''],
      restore: {
        sourceJobId: backup.jobId,
        // Before any backup: the run fails as a whole, before any item.
        snapshot: '2001-01-01T00:00:00.000Z',
        sourceId: users[0]?.upn ?? '',
        nodeIds: ['root'],
        target: 'original',
        conflictPolicy: 'keepBoth',
      },
    });
    await engine.runUntilIdle();
    const [failed] = await runsOf(restore.jobId);
    expect(failed?.status).toBe('failed');
    const answer = await retry(String(failed?.run_id));
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toMatchObject({ scope: 'wholeJob', count: 0 });
    // While the retry is queued, another one is refused.
    expect((await retry(String(failed?.run_id))).statusCode).toBe(409);
    await engine.runUntilIdle();
    const [, again] = await runsOf(restore.jobId);
    expect(again).toMatchObject({ trigger: 'retry', retry_of: failed?.run_id, status: 'failed' });
    expect(again?.retry_scope).toEqual({ kind: 'job' });
  });

  it('gives the run that prepared a restore’s download its size, the size of what the download serves', async () => {
    const backup = await jobs().create({
      name: 'OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: [users[0]?.upn],
    });
    await jobs().start(backup.jobId, engine);
    const restore = await jobs().create({
      name: 'As a download',
      type: 'restore',
      application: 'onedrive',
      sources: [users[0]?.upn ?? ''],
      restore: {
        sourceJobId: backup.jobId,
        snapshot: new Date(Date.now() + 86_400_000).toISOString(),
        sourceId: users[0]?.upn ?? '',
        nodeIds: ['root'],
        target: 'download',
        conflictPolicy: 'keepBoth',
      },
    });
    await engine.runUntilIdle();
    const zip = await server.request({
      method: 'POST',
      url: '/api/backup-and-restore/download-restore-archive',
      token: admin,
      body: { jobId: restore.jobId },
    });
    expect(zip.statusCode).toBe(200);
    const [prepared] = await runsOf(restore.jobId);
    const first = (await monitored(restore.jobId))(prepared?.run_id);
    expect(first).toMatchObject({ status: 'finished', download: { size: Number(zip.headers['content-length']) } });
    // Its message leaves the size to the download's link, said in the reader's units there.
    expect(first?.message).toBe('Prepared a download of 6 files.');
    // Run again: the download serves the newer run's ZIP, and only that run offers it.
    await jobs().start(restore.jobId, engine);
    const [older, newer] = await runsOf(restore.jobId);
    const shown = await monitored(restore.jobId);
    expect(shown(older?.run_id)?.download).toBeUndefined();
    expect(shown(newer?.run_id)?.download).toMatchObject({ size: expect.any(Number) });
    // A backup's run prepares no download.
    const [backedUp] = await runsOf(backup.jobId);
    expect((await monitored(backup.jobId))(backedUp?.run_id)).toMatchObject({ status: 'finished' });
    expect((await monitored(backup.jobId))(backedUp?.run_id)?.download).toBeUndefined();
  });

  it("refuses another organisation's run with the 404 of a missing one, and changes nothing", async () => {
    const restore = await jobs().create({
      name: 'Nothing yet',
      type: 'restore',
      application: 'onedrive',
      sources: [users[0]?.upn ?? ''],
      restore: {
        sourceJobId: (
          await jobs().create({ name: 'OneDrive', type: 'backup', application: 'onedrive', sources: [users[0]?.upn] })
        ).jobId,
        snapshot: '2001-01-01T00:00:00.000Z',
        sourceId: users[0]?.upn ?? '',
        nodeIds: ['root'],
        target: 'original',
        conflictPolicy: 'keepBoth',
      },
    });
    await engine.runUntilIdle();
    const [failed] = await runsOf(restore.jobId);
    expect(failed?.status).toBe('failed');
    // The partner acts for other organisations: neither through contoso nor through its own tenant.
    for (const tenant of [tenantId, TENANTS.northwind]) {
      const refused = await retry(String(failed?.run_id), partner, tenant);
      expect(refused.statusCode, refused.body).toBe(404);
    }
    expect(await runsOf(restore.jobId)).toHaveLength(1);
    expect(await retryAudits(restore.jobId)).toEqual([]);
  });
});
