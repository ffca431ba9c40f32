import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathOf, type RunningSimulator, type SimDrive, startSimulator } from '@compliance-portal/m365-simulator';
import type {
  BrowseResult,
  CleanupPreview,
  DataManagementDashboard,
  FileVersion,
  OverviewDashboard,
} from '@compliance-portal/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

/** The file manager, clean-up of chosen folders, and the data-management and overview dashboards. */
describe('data management', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-data-management-')) });
  const tenantId = TENANTS.contoso;
  const api = `/apollo-beta/api/${tenantId}`;
  const keepOne = { kind: 'keepNewest', count: 1 } as const;
  let sim: RunningSimulator;
  let token = '';

  const call = async <T>(method: 'GET' | 'POST', url: string, body?: object, status = 200) => {
    const response = await server.request({ method, url, token, ...(body ? { body } : {}) });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response.json() as T;
  };
  const site = () => sim.state.tenant(tenantId).sites[0];
  const driveOf = (s = site()) => sim.state.tenant(tenantId).drives.get(s?.driveIds[0] ?? '') as SimDrive;
  const liveFiles = (drive: SimDrive) => [...drive.items.values()].filter((i) => i.kind === 'file' && !i.deleted);
  const allVersionBytes = () => {
    let total = 0;
    for (const s of sim.state.tenant(tenantId).sites)
      for (const f of liveFiles(driveOf(s))) for (const v of f.versions) total += v.size;
    return total;
  };

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        { tenantId, size: { users: 2, sites: 2, teams: 0, filesPerDrive: 9, foldersPerDrive: 2, versionsPerFile: 3 } },
      ],
      pageSize: 4,
    });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    token = await sessionToken(server, ADMIN);
  });
  afterAll(() => sim.close());

  it('browses a site’s libraries, folders and files with their versions under the rule', async () => {
    const s = site();
    const root = await call<BrowseResult>('POST', `${api}/data-management/browse`, {
      application: 'sharepoint',
      sourceId: s?.id,
      nodeId: 'root',
      rule: keepOne,
    });
    expect(root.items.map((n) => [n.kind, n.name])).toEqual([['library', 'Documents']]);
    const drive = driveOf();
    expect(root.items[0]?.sizeBytes).toBe(
      liveFiles(drive).reduce((sum, f) => sum + f.versions.reduce((a, v) => a + v.size, 0), 0),
    );
    const top = await call<BrowseResult>('POST', `${api}/data-management/browse`, {
      application: 'sharepoint',
      sourceId: s?.id,
      nodeId: root.items[0]?.nodeId,
      rule: keepOne,
      pageSize: 200,
    });
    const kinds = top.items.map((n) => n.kind);
    expect(kinds.indexOf('file')).toBeGreaterThan(kinds.lastIndexOf('folder'));
    for (const node of top.items.filter((n) => n.kind === 'file')) {
      const item = drive.items.get(node.nodeId.split(':')[1] ?? '');
      expect(node.versions).toBe(item?.versions.length);
      expect(node.eligibleVersions).toBe((item?.versions.length ?? 1) - 1);
      expect(node.reclaimableBytes).toBe(item?.versions.slice(0, -1).reduce((a, v) => a + v.size, 0));
      expect(node.path).toBe(`${drive.id}:${item ? pathOf(drive, item) : ''}`);
    }
    const file = top.items.find((n) => n.kind === 'file' && (n.versions ?? 0) > 1);
    const versions = await call<FileVersion[]>('POST', `${api}/data-management/versions`, {
      application: 'sharepoint',
      sourceId: s?.id,
      nodeId: file?.nodeId,
      rule: { kind: 'olderThan', date: '2100-01-01T00:00:00.000Z' },
    });
    expect(versions[0]).toMatchObject({ current: true, eligible: false });
    expect(versions.slice(1).every((v) => v.eligible && !v.current)).toBe(true);
    // A drive of another site is not browsed through this one.
    const other = driveOf(sim.state.tenant(tenantId).sites[1]);
    await call(
      'POST',
      `${api}/data-management/browse`,
      {
        application: 'sharepoint',
        sourceId: s?.id,
        nodeId: `drive:${other.id}`,
        rule: keepOne,
      },
      404,
    );
  });

  it('cleans up the chosen folder only, freeing exactly the predicted space', async () => {
    const s = site();
    const drive = driveOf();
    const folder = [...drive.items.values()].find((i) => i.kind === 'folder' && !i.deleted);
    const folderPath = `${drive.id}:${folder ? pathOf(drive, folder) : ''}`;
    const inside = liveFiles(drive).filter((f) =>
      pathOf(drive, f).startsWith(`${folder ? pathOf(drive, folder) : ''}/`),
    );
    const outside = liveFiles(drive).filter((f) => !inside.includes(f));
    expect(inside.length).toBeGreaterThan(0);
    expect(outside.length).toBeGreaterThan(0);
    const versionsBefore = new Map(liveFiles(drive).map((f) => [f.id, f.versions.length]));
    const predicted = inside.reduce((sum, f) => sum + f.versions.slice(0, -1).reduce((a, v) => a + v.size, 0), 0);

    const dashboardBefore = await call<DataManagementDashboard>('GET', `${api}/dashboard/sharepoint-data-management`);
    expect(dashboardBefore.storageUsedBytes).toBe(allVersionBytes());
    expect(dashboardBefore.storageSavedBytes).toBe(0);
    expect(dashboardBefore.topSitesWithoutDataManagement.map((x) => x.siteId)).toContain(s?.id);
    expect(dashboardBefore.topCleanupCandidates[0]?.reclaimableBytes).toBeGreaterThan(0);
    expect(dashboardBefore.series).toHaveLength(dashboardBefore.periodDays + 1);

    const preview = await call<CleanupPreview>('POST', `${api}/data-management/preview`, {
      application: 'sharepoint',
      sourceId: s?.id,
      paths: [folderPath],
      rule: keepOne,
    });
    expect(preview).toMatchObject({ files: inside.length, reclaimableBytes: predicted });
    expect(preview.monthlySaving).toBeCloseTo((predicted / 1e9) * preview.pricePerGbMonth, 10);

    const refused = await server.request({
      method: 'POST',
      url: `${api}/jobs`,
      token,
      body: { name: 'Backup', type: 'backup', application: 'sharepoint', sources: [s?.id], paths: [folderPath] },
    });
    expect(refused.statusCode).toBe(400);
    const job = await call<{ jobId: string; paths: string[] }>('POST', `${api}/jobs`, {
      name: 'Clean-up of a folder',
      type: 'versionCleanup',
      application: 'sharepoint',
      sources: [s?.id],
      paths: [folderPath],
      cleanupRule: keepOne,
      recurrence: { kind: 'afterCreation' },
    });
    expect(job.paths).toEqual([folderPath]);
    server.clock.advance(60_000);
    await new JobEngine(server.ctx, {
      executors: executors(createDataPlane(server.ctx)),
      heartbeatMs: 50,
    }).runUntilIdle();

    // Read back from Microsoft 365 (the simulator): the folder's files keep their current version only.
    for (const f of inside) expect(f.versions).toHaveLength(1);
    for (const f of outside) expect(f.versions).toHaveLength(versionsBefore.get(f.id) ?? -1);
    const [freed] = await server.ctx.db.query<{ bytes: string }>(
      'select coalesce(sum(freed_bytes), 0)::bigint as bytes from version_inventory where job_id = $1',
      [job.jobId],
    );
    expect(Number(freed?.bytes)).toBe(predicted);

    const after = await call<DataManagementDashboard>('GET', `${api}/dashboard/sharepoint-data-management`);
    expect(after.storageSavedBytes).toBe(predicted);
    expect(after.storageUsedBytes).toBe(dashboardBefore.storageUsedBytes - predicted);
    expect(after.series.at(-1)).toMatchObject({ usedBytes: after.storageUsedBytes, savedBytes: predicted });
    expect(after.topSitesWithoutDataManagement.map((x) => x.siteId)).not.toContain(s?.id);

    // Reports of an area: any of its types; one type alone.
    const byArea = await call<{ items: { jobId: string }[] }>(
      'GET',
      `${api}/reporting?types=versionCleanup&types=backup`,
    );
    expect(byArea.items.map((r) => r.jobId)).toEqual([job.jobId]);
    const oneType = await call<{ total: number }>('GET', `${api}/reporting?types=backup`);
    expect(oneType.total).toBe(0);
    const overview = await call<OverviewDashboard>('GET', `${api}/dashboard/overview`);
    expect(overview.dataManagement.savedBytes).toBe(predicted);
    expect(overview.license.kind).toBeDefined();
    expect(overview.recentFailures.every((r) => r.status === 'failed')).toBe(true);
  });

  it('refuses a preview of a path outside the site', async () => {
    const other = driveOf(sim.state.tenant(tenantId).sites[1]);
    await call(
      'POST',
      `${api}/data-management/preview`,
      {
        application: 'sharepoint',
        sourceId: site()?.id,
        paths: [`${other.id}:/`],
        rule: keepOne,
      },
      404,
    );
  });
});
