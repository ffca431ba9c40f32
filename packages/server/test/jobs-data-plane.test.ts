import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator } from '@compliance-portal/m365-simulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { searchArchive } from '../src/archive-data/archive.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import type { DataPlane } from '../src/jobs/executors/plane.js';
import { versionInventorySummary } from '../src/jobs/executors/version-cleanup.js';
import { executors } from '../src/jobs/executors.js';
import { type BlobStore, createLocalBlobStore } from '../src/storage/blob-store.js';
import {
  ADMIN,
  jobsApi,
  seededTenant,
  sessionToken,
  simulatedTenant,
  simulatorGraph,
  TENANTS,
  useTestServer,
} from './helpers.js';

/**
 * Each job type end to end: the real engine, executors, Graph client (MSAL tokens included), blob
 * store and archive against the Graph-compatible simulator.
 */
describe('jobs against the simulated Microsoft 365 tenant', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-data-plane-')) });
  let sim: RunningSimulator;
  let token = '';
  let blobs: BlobStore;
  /** Reads blobs as the portal does (encrypted under their organisation's key). */
  let plane: DataPlane;
  let engine: JobEngine;
  const tenantId = TENANTS.contoso;
  const users: { id: string; upn: string }[] = [];

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });
  // Each test gets a simulated tenant and a blob store of its own: tests change the tenant (new and
  // edited files, restores, throttling, version clean-up) and count what the store holds.
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      { users: 3, sites: 1, teams: 1, filesPerDrive: 20, versionsPerFile: 3, messagesPerFolder: 4 },
      8,
    );
    blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-')));
    plane = createDataPlane(server.ctx, blobs);
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
    users.length = 0;
    for (const u of sim.state.tenant(tenantId).users) users.push({ id: u.id, upn: u.upn });
  });
  afterEach(() => sim.close());

  const create = (body: object) => jobsApi(server, tenantId, () => token).create(body);
  const start = (jobId: string) => jobsApi(server, tenantId, () => token).start(jobId, engine);
  const graph = () => simulatorGraph(sim, tenantId);

  const oneDriveBackup = () =>
    create({
      name: 'OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: [users[0]?.upn, users[1]?.id],
    });

  it("keeps a tenant's Graph client 10 s without reading its configuration again; another registration gets a new one at once", async () => {
    const fresh = createDataPlane(server.ctx, blobs);
    const tenant = await seededTenant(server, tenantId);
    const spy = vi.spyOn(server.ctx.db, 'query');
    const configReads = () => spy.mock.calls.filter(([sql]) => String(sql).includes('backup_config')).length;
    try {
      const first = await fresh.graph(tenant, { interactive: true });
      expect(await fresh.graph(tenant, { interactive: true })).toBe(first);
      expect(configReads()).toBe(1);
      // A new secret (sealed anew): a client of its own at once, the bound read again for it.
      const renewed = { ...tenant, clientSecretSealed: server.ctx.secrets.seal('a new secret') };
      const second = await fresh.graph(renewed, { interactive: true });
      expect(second).not.toBe(first);
      expect(configReads()).toBe(2);
      // After 10 s the configuration is read again; unchanged, the client stays.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 10_001);
      expect(await fresh.graph(renewed, { interactive: true })).toBe(second);
      expect(configReads()).toBe(3);
    } finally {
      vi.useRealTimers();
      spy.mockRestore();
    }
  });

  it('backs up two OneDrive accounts: every version of every file, identical content stored once', async () => {
    const backupId = (await oneDriveBackup()).jobId;
    const { run } = await start(backupId);
    expect(run).toMatchObject({ status: 'finished', items_total: 40, items_done: 40, items_failed: 0, progress: 100 });
    const [stored] = await server.ctx.db.query<{ n: number; files: number; bytes: number }>(
      `select count(*)::int as n, count(distinct item_id)::int as files, sum(size)::bigint as bytes from backup_items where job_id = $1 and kind = 'file'`,
      [backupId],
    );
    expect(stored).toMatchObject({ n: 120, files: 40 });
    const stats = await blobs.stats();
    // Templates repeat across files and accounts, and text compresses: far fewer bytes are stored.
    expect(stats.blobs).toBeLessThan(120);
    expect(stats.storedBytes).toBeLessThan(Number(stored?.bytes) / 2);
    const accounts = await server.ctx.db.query<{ source_id: string; items: number }>(
      'select source_id, items from job_run_sources where run_id = $1 order by source_id',
      [String(run.run_id)],
    );
    expect(accounts.map((a) => a.items)).toEqual([20, 20]);
  });

  it('survives throttling: a backup under 429s still finishes with everything', async () => {
    const job = await create({
      name: 'Throttled',
      type: 'backup',
      application: 'sharepoint',
      sources: [sim.state.tenant(tenantId).sites[0]?.id],
    });
    sim.state.setThrottle(4, 0);
    const throttledBefore = sim.state.stats.throttled;
    const { run } = await start(job.jobId);
    sim.state.setThrottle(0);
    expect(sim.state.stats.throttled).toBeGreaterThan(throttledBefore);
    expect(run).toMatchObject({ status: 'finished', items_failed: 0, items_done: 20 });
  });

  it('archives mailboxes by folder, records the guest without a mailbox once, then archives only new mail', async () => {
    const guest = users.find((u) => u.upn.includes('#EXT#'))?.upn ?? '';
    const job = await create({
      name: 'Mail',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: [users[0]?.upn, guest],
      folders: ['Inbox'],
    });
    const first = await start(job.jobId);
    expect(first.run).toMatchObject({ status: 'finished', items_done: 8, items_failed: 1 });
    const second = await start(job.jobId);
    expect(second.run).toMatchObject({ status: 'finished', items_done: 0, items_failed: 0 });
    const failures = await server.ctx.db.query('select item_key, code from job_item_failures where job_id = $1', [
      job.jobId,
    ]);
    expect(failures).toEqual([{ item_key: `mailbox:${guest}`, code: 'MailboxNotEnabledForRESTAPI' }]);
    evolve(sim.state.tenant(tenantId), { newMessages: 3 });
    const third = await start(job.jobId);
    expect(Number(third.run.items_done)).toBeGreaterThan(0);
    expect(Number(third.run.items_done)).toBeLessThanOrEqual(3);
    const found = await searchArchive(server.ctx.db, tenantId, { kind: 'mail', source: users[0]?.upn ?? '' });
    expect(found.total).toBe(8 + Number(third.run.items_done));
  });

  it('archives Teams channels and deletes archived items past the retention', async () => {
    const team = sim.state.tenant(tenantId).teams[0];
    const job = await create({ name: 'Teams', type: 'teamsArchive', application: 'teams', sources: [team?.id] });
    const { run } = await start(job.jobId);
    expect(run.status).toBe('finished');
    const archived = await searchArchive(server.ctx.db, tenantId, { kind: 'teams' });
    expect(archived.total).toBeGreaterThan(0);
    const purge = await create({
      name: 'Purge Teams',
      type: 'archiveDeletion',
      application: 'teams',
      sources: [team?.id],
      // The simulated messages are from September; the test clock is in November.
      retention: { unit: 'days', value: 30 },
    });
    const deletion = await start(purge.jobId);
    expect(deletion.run).toMatchObject({ status: 'finished', items_done: archived.total });
    expect((await searchArchive(server.ctx.db, tenantId, { kind: 'teams' })).total).toBe(0);
  });

  it('backs up Teams channels and restores them as a download only', async () => {
    const team = sim.state.tenant(tenantId).teams[0];
    const backup = await create({ name: 'Teams backup', type: 'backup', application: 'teams', sources: [team?.id] });
    const { run } = await start(backup.jobId);
    expect(run.status).toBe('finished');
    const restore = (target: string) =>
      create({
        name: `Teams ${target}`,
        type: 'restore',
        application: 'teams',
        sources: [team?.id ?? ''],
        restore: {
          sourceJobId: backup.jobId,
          snapshot: new Date(Date.now() + 86_400_000).toISOString(),
          sourceId: team?.id ?? '',
          nodeIds: ['root'],
          target,
          conflictPolicy: 'keepBoth',
        },
      });
    const inPlace = await restore('original');
    await engine.runUntilIdle();
    const [refused] = await server.ctx.db.query<{ status: string; message: string }>(
      'select status, message from job_runs where job_id = $1',
      [inPlace.jobId],
    );
    expect(refused?.status).toBe('failed');
    expect(refused?.message).toContain('as a download only');
    const download = await restore('download');
    await engine.runUntilIdle();
    const zip = await server.request({
      method: 'POST',
      url: '/api/backup-and-restore/download-restore-archive',
      token,
      body: { jobId: download.jobId },
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const messages = team?.channels.reduce((n, c) => n + c.messages.length, 0) ?? 0;
    // The central directory lists one JSON per message.
    expect(zip.rawPayload.toString('latin1').match(/\.json/g)?.length).toBe(2 * messages);
  });

  describe('with a OneDrive backup of two accounts run once', () => {
    let backupId = '';
    beforeEach(async () => {
      backupId = (await oneDriveBackup()).jobId;
      const { run } = await start(backupId);
      expect(run).toMatchObject({ status: 'finished', items_failed: 0 });
    });

    it('fetches only what changed on the next run', async () => {
      const before = sim.state.stats.requests;
      await start(backupId);
      const idle = sim.state.stats.requests - before;
      evolve(sim.state.tenant(tenantId), { newFiles: 4, editedFiles: 3, deletedFiles: 1 });
      const mark = sim.state.stats.requests;
      const { run } = await start(backupId);
      const incremental = sim.state.stats.requests - mark;
      expect(run.status).toBe('finished');
      expect(Number(run.items_total)).toBeLessThanOrEqual(8);
      expect(incremental).toBeLessThan(60);
      expect(idle).toBeLessThan(10);
      const [deleted] = await server.ctx.db.query<{ n: number }>(
        'select count(distinct item_id)::int as n from backup_items where job_id = $1 and deleted_seq is not null',
        [backupId],
      );
      expect(deleted?.n).toBeLessThanOrEqual(1);
    });

    it('restores a file into another account with the backed-up bytes, and keeps both on a conflict', async () => {
      const [file] = await server.ctx.db.query<{
        item_id: string;
        source_id: string;
        name: string;
        hash: string;
        path: string;
      }>(
        `select item_id, source_id, name, hash, path from backup_items where job_id = $1 and kind = 'file' and is_latest
          and deleted_seq is null and source_id = $2 order by path limit 1`,
        [backupId, users[0]?.upn ?? ''],
      );
      const restore = (conflictPolicy: string) =>
        create({
          name: `Restore ${conflictPolicy}`,
          type: 'restore',
          application: 'onedrive',
          sources: [file?.source_id ?? ''],
          restore: {
            sourceJobId: backupId,
            snapshot: new Date(Date.now() + 86_400_000).toISOString(),
            sourceId: file?.source_id ?? '',
            nodeIds: [file?.item_id ?? ''],
            target: 'other',
            targetId: users[2]?.upn ?? '',
            conflictPolicy,
          },
        });
      await restore('keepBoth');
      await engine.runUntilIdle();
      await restore('keepBoth');
      const outcomes = await engine.runUntilIdle();
      expect(outcomes.map((o) => o.status)).toEqual(['finished']);
      const g = graph();
      const drive = await g.userDrive(users[2]?.upn ?? '');
      const restored = await g.itemByPath(drive.id ?? '', file?.path ?? '');
      expect(restored).not.toBeNull();
      const bytes = await g.itemContent(drive.id ?? '', restored?.id ?? '');
      expect(Buffer.compare(Buffer.from(bytes), Buffer.from(await plane.blobs.get(file?.hash ?? '')))).toBe(0);
      const folder = file?.path.slice(0, file.path.length - file.name.length) ?? '/';
      const siblings = [];
      const parent = await g.itemByPath(drive.id ?? '', folder);
      for await (const c of g.children(drive.id ?? '', parent?.id ?? 'root')) siblings.push(c.name);
      expect(siblings.filter((n) => n?.startsWith(file?.name.replace(/\.[^.]+$/, '') ?? '?'))).toHaveLength(2);
    });

    it('restores a file in place with its sharing grants, overwriting the current content', async () => {
      const [file] = await server.ctx.db.query<{
        item_id: string;
        source_id: string;
        drive_id: string;
        hash: string;
        metadata: unknown;
      }>(
        `select item_id, source_id, drive_id, hash, metadata from backup_items
          where job_id = $1 and is_latest and deleted_seq is null and jsonb_array_length(coalesce(metadata->'permissions', '[]'::jsonb)) > 0
          order by path limit 1`,
        [backupId],
      );
      if (!file) throw new Error('no shared file was backed up');
      const metadata = (typeof file.metadata === 'string' ? JSON.parse(file.metadata) : file.metadata) as {
        permissions: { userId: string; roles: string[] }[];
      };
      const grants = metadata.permissions;
      expect(grants.length).toBeGreaterThan(0);
      // The file loses its grants and gets new content at the source.
      const simItem = sim.state
        .tenant(tenantId)
        .drives.get(file?.drive_id ?? '')
        ?.items.get(file?.item_id ?? '');
      if (!simItem) throw new Error('no such item in the simulator');
      simItem.permissions = [];
      await create({
        name: 'Restore in place',
        type: 'restore',
        application: 'onedrive',
        sources: [file?.source_id ?? ''],
        restore: {
          sourceJobId: backupId,
          snapshot: new Date(Date.now() + 86_400_000).toISOString(),
          sourceId: file?.source_id ?? '',
          nodeIds: [file?.item_id ?? ''],
          target: 'original',
          conflictPolicy: 'overwrite',
        },
      });
      const [outcome] = await engine.runUntilIdle();
      expect(outcome?.status).toBe('finished');
      expect(simItem.permissions.map((p) => ({ userId: p.userId, roles: p.roles }))).toEqual(grants);
      const current = await graph().itemContent(file?.drive_id ?? '', file?.item_id ?? '');
      expect(Buffer.compare(Buffer.from(current), Buffer.from(await plane.blobs.get(file?.hash ?? '')))).toBe(0);
    });

    it('cleans up old versions under the rule and records what it freed per file', async () => {
      const site = sim.state.tenant(tenantId).sites[0];
      const job = await create({
        name: 'Keep 1',
        type: 'versionCleanup',
        application: 'sharepoint',
        sources: [site?.id],
        cleanupRule: { kind: 'keepNewest', count: 1 },
      });
      const { run } = await start(job.jobId);
      expect(run.status).toBe('finished');
      const [inventory] = await server.ctx.db.query<{
        files: number;
        eligible: number;
        deleted: number;
        freed: number;
      }>(
        `select count(*)::int as files, sum(eligible)::int as eligible, sum(deleted)::int as deleted, sum(freed_bytes)::bigint as freed
           from version_inventory where run_id = $1`,
        [String(run.run_id)],
      );
      expect(inventory).toMatchObject({ files: 20, eligible: 40, deleted: 40 });
      expect(Number(inventory?.freed)).toBeGreaterThan(0);
      await server.ctx.db.query('update backup_config set price_per_gb_month = 0.5 where tenant_id = $1', [tenantId]);
      const summary = await versionInventorySummary(server.ctx.db, String(run.run_id), tenantId);
      expect(summary).toMatchObject({
        files: 20,
        versions: 60,
        eligibleVersions: 40,
        deletedVersions: 40,
        currency: 'EUR',
      });
      expect(summary.savingPerMonth).toBeCloseTo((summary.freedBytes / 1e9) * 0.5, 10);
      expect(String(run.message)).toMatch(/freeing [\d.]+ MB: [\d.]+ EUR a month/);
      const reports = await server.request({
        method: 'GET',
        url: `/apollo-beta/api/${tenantId}/reporting/data-management-reports`,
        token,
      });
      expect(reports.json().items[0]).toMatchObject({
        reportId: run.run_id,
        jobType: 'versionCleanup',
        totals: { items: 20 },
      });
      expect(reports.json().items[0].title).toMatch(/^Keep 1 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      const sites = await server.request({
        method: 'GET',
        url: `/apollo-beta/api/${tenantId}/reporting/${run.run_id}/data-management-accounts`,
        token,
      });
      expect(sites.json().items).toEqual([
        {
          accountId: site?.id,
          // The site by its name, never its id (issue 38).
          displayName: site?.name,
          status: 'finished',
          files: 20,
          versionsRemoved: 40,
          bytesFreed: summary.freedBytes,
          errors: [],
        },
      ]);
      // Among the reports the backup's (this describe's) and no clean-up's.
      const all = await server.request({
        method: 'GET',
        url: `/apollo-beta/api/${tenantId}/reporting?type=backup&sort=started`,
        token,
      });
      expect(all.json().total).toBeGreaterThan(0);
      expect(all.json().items.every((r: { jobType: string }) => r.jobType === 'backup')).toBe(true);
      const drive = sim.state.tenant(tenantId).drives.get(site?.driveIds[0] ?? '');
      const files = [...(drive?.items.values() ?? [])].filter((i) => i.kind === 'file' && !i.deleted);
      expect(files.every((f) => f.versions.length === 1)).toBe(true);
    });
  });
});
