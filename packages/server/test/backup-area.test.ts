import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import type {
  DashboardBasic,
  DashboardDetails,
  DashboardSize,
  DiscoveredGroup,
  DiscoveredSource,
  DiscoveryNode,
  Page,
  RunAccount,
} from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import type { SnapshotItem } from '../src/jobs/executors/backup-store.js';
import { selectItems } from '../src/jobs/executors/restore.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

/**
 * The server side of the backup area: discovery of accounts, sites, teams and groups in the
 * simulated tenant, a snapshot's tree node by node, the dashboards and the legacy statistics, after
 * real backups by the engine.
 */
describe('backup area: discovery, snapshot trees and dashboards', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-backup-area-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let token = '';
  let locationId = '';
  let workerIp = '';
  let engine: JobEngine;
  const api = `/apollo-beta/api/${tenantId}`;

  const get = async <T>(url: string, status = 200): Promise<T> => {
    const response = await server.request({ method: 'GET', url, token });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response.json() as T;
  };
  const backup = async (application: string, sources: string[]) => {
    const created = await server.request({
      method: 'POST',
      url: `${api}/jobs`,
      token,
      body: { name: `${application} backup`, type: 'backup', application, sources, locationId },
    });
    expect(created.statusCode, created.body).toBe(200);
    const job = created.json() as { jobId: string };
    await server.request({ method: 'POST', url: `${api}/jobs/${job.jobId}/start`, token });
    await engine.runUntilIdle();
    const [run] = await server.ctx.db.query<{ run_id: string; status: string; finished: Date }>(
      'select run_id, status, finished from job_runs where job_id = $1 order by seq desc limit 1',
      [job.jobId],
    );
    expect(run?.status).toBe('finished');
    return { jobId: job.jobId, runId: run?.run_id ?? '', finished: new Date(run?.finished ?? 0).toISOString() };
  };

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        {
          tenantId,
          size: { users: 4, sites: 1, teams: 2, filesPerDrive: 6, versionsPerFile: 2, messagesPerFolder: 2 },
        },
      ],
      pageSize: 3,
    });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-backup-area-blobs-')));
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx, blobs)), heartbeatMs: 50 });
    token = await sessionToken(server, ADMIN);
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 order by name limit 1',
      [tenantId],
    );
    locationId = location?.location_id ?? '';
    const [worker] = await server.ctx.db.query<{ worker_ip: string }>(
      'select w.worker_ip from workers w where w.stagingtenant_id = $1',
      [tenantId],
    );
    workerIp = worker?.worker_ip ?? '';
  });
  afterAll(() => sim.close());

  const users = (query = '') =>
    get<Page<DiscoveredSource>>(`${api}/discovery/${locationId}/users${query ? `?${query}` : ''}`);

  describe('discovery', () => {
    // Each test starts with no backup job, and with what discovery found whole and fresh: tests age it,
    // delete part of it and cut Microsoft 365 off.
    beforeEach(async () => {
      await server.ctx.db.query('delete from jobs where tenant_id = $1', [tenantId]);
      for (const application of ['onedrive', 'exchange', 'sharepoint', 'teams'])
        await users(`application=${application}`);
    });

    it('discovers accounts, mailboxes, sites and teams, paged, sorted and searched in the database', async () => {
      const all = await users('application=onedrive&pageSize=100');
      const model = sim.state.tenant(tenantId);
      expect(all.total).toBe(model.users.length);
      expect(all.items.map((u) => u.displayName)).toEqual(
        [...model.users.map((u) => u.displayName)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      expect(all.items.every((u) => u.kind === 'user' && !u.protected)).toBe(true);

      const second = await users('application=onedrive&pageSize=2&page=2&sort=displayName&order=desc');
      expect(second.items.map((u) => u.displayName)).toEqual(
        all.items
          .map((u) => u.displayName)
          .reverse()
          .slice(2, 4),
      );
      const adele = await users('application=onedrive&search=ADELE');
      expect(adele.items.map((u) => u.displayName)).toEqual(['Adele Vance']);

      // The guest has no mailbox: it is not an Exchange source.
      const mailboxes = await users('application=exchange&pageSize=100');
      expect(mailboxes.total).toBe(model.users.length - 1);
      expect(mailboxes.items.every((m) => m.kind === 'mailbox' && !m.email?.includes('#EXT#'))).toBe(true);

      const sites = await users('application=sharepoint');
      expect(sites.items).toHaveLength(1);
      expect(sites.items[0]?.url).toMatch(/^https:\/\//);
      const teams = await users('application=teams');
      expect(teams.items.map((t) => t.displayName).sort()).toEqual(['Project Falcon', 'Sales Team']);
    });

    it('reads Microsoft 365 again only when what it found is older than five minutes', async () => {
      const before = sim.state.stats.requests;
      await users('application=onedrive');
      expect(sim.state.stats.requests).toBe(before);
      await server.ctx.db.query(
        "update discovered_sources set seen_at = seen_at - interval '6 minutes' where tenant_id = $1",
        [tenantId],
      );
      await users('application=onedrive');
      expect(sim.state.stats.requests).toBeGreaterThan(before);
    });

    it('answers 502 with the cause when Microsoft 365 cannot be read and nothing was found before', async () => {
      await server.ctx.db.query('update tenants set graph_base_url = $2 where tenant_id = $1', [
        tenantId,
        'http://127.0.0.1:9/v1.0',
      ]);
      try {
        // What was found before is still shown...
        await server.ctx.db.query(
          "update discovered_sources set seen_at = seen_at - interval '1 hour' where tenant_id = $1",
          [tenantId],
        );
        expect((await users('application=onedrive')).total).toBeGreaterThan(0);
        // ...and without it there is nothing to show.
        await server.ctx.db.query("delete from discovered_sources where tenant_id = $1 and application = 'teams'", [
          tenantId,
        ]);
        const failed = await get<{ code?: string; microsoft365?: { code: string; error?: string } }>(
          `${api}/discovery/${locationId}/users?application=teams`,
          502,
        );
        // Port 9 (discard) on loopback: nothing listens, the connection is refused.
        expect(failed).toMatchObject({
          code: 'm365Unreachable',
          microsoft365: { code: 'm365Unreachable', error: 'ECONNREFUSED' },
        });
      } finally {
        await server.ctx.db.query('update tenants set graph_base_url = $2 where tenant_id = $1', [
          tenantId,
          sim.graphBaseUrl,
        ]);
      }
    });

    it('lists groups with their kinds and member counts, and a group’s members', async () => {
      const groups = await get<Page<DiscoveredGroup>>(`${api}/discovery/${locationId}/groups`);
      expect(groups.items.map((g) => [g.displayName, g.kind])).toEqual([
        ['All Company', 'security'],
        ['Project Falcon', 'microsoft365'],
        ['Sales Team', 'microsoft365'],
      ]);
      const everyone = groups.items[0];
      expect(everyone?.memberCount).toBe(4);
      const members = await get<Page<DiscoveredSource>>(
        `${api}/discovery/${locationId}/groups/${everyone?.groupId}/users?sort=email&order=desc`,
      );
      expect(members.total).toBe(4);
      expect(members.items.map((m) => m.email)).toEqual([...members.items.map((m) => m.email)].sort().reverse());
      // The counts come from Graph's $count; each must match the group's listed members.
      for (const group of groups.items) {
        const listed = await get<Page<DiscoveredSource>>(
          `${api}/discovery/${locationId}/groups/${group.groupId}/users`,
        );
        expect([group.displayName, group.memberCount]).toEqual([group.displayName, listed.total]);
      }
      const falcon = await get<Page<DiscoveredGroup>>(`${api}/discovery/${locationId}/groups?search=falcon`);
      expect(falcon.items.map((g) => g.displayName)).toEqual(['Project Falcon']);
      await get(`${api}/discovery/${locationId}/groups/no-such-group/users`, 404);
    });

    it('keeps the group list 30 s with live member counts; a group found gone is not shown again', async () => {
      const model = sim.state.tenant(tenantId);
      const list = () => get<Page<DiscoveredGroup>>(`${api}/discovery/${locationId}/groups`);
      const countOf = (page: Page<DiscoveredGroup>, name: string) =>
        page.items.find((g) => g.displayName === name)?.memberCount;
      const first = await list();
      // Again: the list kept, the three counts in one batch.
      const before = { ...sim.state.stats };
      expect(await list()).toEqual(first);
      expect([sim.state.stats.requests - before.requests, sim.state.stats.batched - before.batched]).toEqual([1, 3]);
      // Someone leaves All Company: the count is live.
      const leaving = model.users.find((u) => u.hasMailbox) ?? expect.unreachable('a member');
      leaving.hasMailbox = false;
      try {
        expect(countOf(await list(), 'All Company')).toBe((countOf(first, 'All Company') ?? 0) - 1);
      } finally {
        leaving.hasMailbox = true;
      }
      // A team removed: its members page answers 404, and the next groups page reads the list again.
      const teams = [...model.teams];
      const falcon = teams.find((t) => t.name === 'Project Falcon') ?? expect.unreachable('Project Falcon');
      model.teams.splice(model.teams.indexOf(falcon), 1);
      try {
        await get(`${api}/discovery/${locationId}/groups/${falcon.id}/users`, 404);
        expect((await list()).items.map((g) => g.displayName)).toEqual(['All Company', 'Sales Team']);
      } finally {
        model.teams.splice(0, model.teams.length, ...teams);
        // The list kept without the team goes as a group gone makes it go.
        await get(`${api}/discovery/${locationId}/groups/no-such-group/users`, 404);
      }
      expect((await list()).items.map((g) => g.displayName)).toEqual(['All Company', 'Project Falcon', 'Sales Team']);
    });

    it('refuses unknown locations and bad parameters', async () => {
      await get(`${api}/discovery/00000000-0000-4000-8000-000000000000/users`, 404);
      await get(`${api}/discovery/${locationId}/users?application=fax`, 400);
      await get(`${api}/discovery/${locationId}/users?pageSize=501`, 400);
      await get(`${api}/dashboard/exchange/basic`, 400);
      await get(`${api}/dashboard/onedrive/everything`, 400);
      await get(`${api}/discovery/${locationId}/source/nobody/items/root`, 404);
    });
  });

  describe('after backups of two accounts, a site and a team', () => {
    // Made once, in this order; the tests read them.
    let onedrive: { jobId: string; runId: string; finished: string };
    let backedUp: DiscoveredSource[] = [];
    let site: DiscoveredSource | undefined;
    let team: DiscoveredSource | undefined;
    beforeAll(async () => {
      backedUp = (await users('application=onedrive&pageSize=100')).items.slice(0, 2);
      onedrive = await backup(
        'onedrive',
        backedUp.map((u) => u.sourceId),
      );
      site = (await users('application=sharepoint')).items[0];
      await backup('sharepoint', [site?.sourceId ?? '']);
      team = (await users('application=teams')).items[0];
      await backup('teams', [team?.sourceId ?? '']);
    });

    it('browses a OneDrive snapshot: top level, a folder, search; marks the accounts protected', async () => {
      const [first, second] = backedUp;
      const covered = await users('application=onedrive&pageSize=100&sort=protected&order=desc');
      expect(covered.items.filter((u) => u.protected).map((u) => u.sourceId)).toEqual(
        [first?.sourceId, second?.sourceId].sort((a, b) =>
          (covered.items.find((u) => u.sourceId === a)?.displayName ?? '').localeCompare(
            covered.items.find((u) => u.sourceId === b)?.displayName ?? '',
          ),
        ),
      );

      const items = (node: string, query = '') =>
        get<Page<DiscoveryNode>>(`${api}/discovery/${locationId}/source/${first?.sourceId}/items/${node}${query}`);
      const top = await items('root');
      expect(top.total).toBeGreaterThan(0);
      const folders = top.items.filter((n) => n.kind === 'folder');
      expect(folders.length).toBeGreaterThan(0);
      // Folders first, then files, each by name.
      expect(top.items.map((n) => n.kind)).toEqual([
        ...folders.map(() => 'folder'),
        ...top.items.slice(folders.length).map(() => 'file'),
      ]);
      const folder = folders.find((f) => f.hasChildren);
      const inside = await items(folder?.nodeId ?? '');
      expect(inside.items.length).toBeGreaterThan(0);
      expect(inside.items.every((n) => n.path.startsWith(`${folder?.path}/`) && n.parentId === folder?.nodeId)).toBe(
        true,
      );
      const file = inside.items.find((n) => n.kind === 'file');
      expect(file?.sizeBytes).toBeGreaterThan(0);
      const found = await items(folder?.nodeId ?? '', `?search=${encodeURIComponent(file?.name.slice(0, 6) ?? '')}`);
      expect(found.items.map((n) => n.nodeId)).toContain(file?.nodeId);
      await get(`${api}/discovery/${locationId}/source/${first?.sourceId}/items/no-such-folder`, 404);
      // Before the first backup there is no snapshot.
      await get(
        `${api}/discovery/${locationId}/source/${first?.sourceId}/items/root?snapshot=2000-01-01T00:00:00.000Z`,
        404,
      );
      const atRun = await items('root', `?snapshot=${encodeURIComponent(onedrive.finished)}`);
      expect(atRun.total).toBe(top.total);
    });

    it('browses a site by library and a team by channel', async () => {
      const libraries = await get<Page<DiscoveryNode>>(
        `${api}/discovery/${locationId}/source/${site?.sourceId}/items/root`,
      );
      // Its library first, then the lists and the pages group the backup kept beside it.
      expect(libraries.items.map((l) => [l.kind, l.name])).toEqual([
        ['library', 'Documents'],
        ['list', 'Contract register'],
        ['list', 'Issue tracker'],
        ['list', 'Travel requests'],
        ['pages', 'Site pages'],
      ]);
      const library = libraries.items[0];
      expect(library?.nodeId).toMatch(/^drive:/);
      const content = await get<Page<DiscoveryNode>>(
        `${api}/discovery/${locationId}/source/${site?.sourceId}/items/${encodeURIComponent(library?.nodeId ?? '')}`,
      );
      expect(content.total).toBeGreaterThan(0);

      const channels = await get<Page<DiscoveryNode>>(
        `${api}/discovery/${locationId}/source/${team?.sourceId}/items/root`,
      );
      expect(channels.items.map((c) => c.kind)).toEqual(channels.items.map(() => 'channel'));
      expect(channels.items.map((c) => c.name)).toContain('General');
      const general = channels.items.find((c) => c.name === 'General');
      const messages = await get<Page<DiscoveryNode>>(
        `${api}/discovery/${locationId}/source/${team?.sourceId}/items/${encodeURIComponent(general?.nodeId ?? '')}`,
      );
      expect(messages.items.length).toBeGreaterThan(0);
      expect(messages.items.every((m) => m.kind === 'message')).toBe(true);
    });

    it('shows the OneDrive dashboard: protected accounts, items, stored size per day, per-account details', async () => {
      const basic = await get<DashboardBasic>(`${api}/dashboard/onedrive/basic`);
      expect(basic).toMatchObject({ view: 'basic', application: 'onedrive', periodDays: 30, protectedCount: 2 });
      expect(basic.discoveredCount).toBe(sim.state.tenant(tenantId).users.length);
      expect(basic.items).toBeGreaterThan(0);
      expect(basic.lastSuccessfulJob?.jobId).toBe(onedrive.jobId);
      expect(basic.jobsByStatus).toEqual({ finished: 1, running: 0, failed: 0, pending: 0 });

      const size = await get<DashboardSize>(`${api}/dashboard/onedrive/size`);
      expect(size.storedBytes).toBeGreaterThan(0);
      expect(size.series.length).toBeGreaterThanOrEqual(31);
      expect(size.series.at(-1)?.bytes).toBe(size.storedBytes);
      expect(size.series.at(-1)?.items).toBeGreaterThanOrEqual(basic.items);
      expect(size.growthBytes).toBe(size.storedBytes);

      const details = await get<DashboardDetails>(`${api}/dashboard/onedrive/details`);
      expect(details.entries).toHaveLength(2);
      expect(details.entries.reduce((sum, e) => sum + e.bytes, 0)).toBe(size.storedBytes);
      const names = (await users('application=onedrive&pageSize=100')).items.map((u) => u.displayName);
      expect(details.entries.every((e) => names.includes(e.displayName) && e.lastStatus === 'finished')).toBe(true);

      const teams = await get<DashboardBasic>(`${api}/dashboard/teams/basic`);
      expect(teams.protectedCount).toBe(1);
    });

    it('names a report’s accounts after discovery, sorts and searches them', async () => {
      const accounts = await get<Page<RunAccount>>(
        `${api}/reporting/${onedrive.runId}/accounts?sort=displayName&order=desc`,
      );
      const names = accounts.items.map((a) => a.displayName);
      expect(names).toEqual([...names].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));
      expect(names.every((n) => !n.match(/^[0-9a-f]{8}-/))).toBe(true);
      const one = await get<Page<RunAccount>>(
        `${api}/reporting/${onedrive.runId}/accounts?search=${encodeURIComponent(names[0]?.slice(0, 5) ?? '')}`,
      );
      expect(one.items.map((a) => a.displayName)).toContain(names[0]);
      // Keyset paging gives the same rows as numbered pages.
      const first = await get<Page<RunAccount>>(
        `${api}/reporting/${onedrive.runId}/accounts?sort=displayName&order=desc&pageSize=1`,
      );
      const next = await get<Page<RunAccount>>(
        `${api}/reporting/${onedrive.runId}/accounts?sort=displayName&order=desc&pageSize=1&after=${first.items[0]?.accountId}`,
      );
      expect([...first.items, ...next.items].map((a) => a.displayName)).toEqual(names.slice(0, 2));
      expect(next.total).toBe(accounts.total);
      const failed = await get<Page<RunAccount>>(`${api}/reporting/${onedrive.runId}/accounts?status=failed`);
      expect(failed.total).toBe(0);
    });

    it('names accounts of a report read before discovery knew them once discovery reads the tenant again', async () => {
      await server.ctx.db.query('update job_run_sources set display_name = source_id where run_id = $1', [
        onedrive.runId,
      ]);
      const unnamed = await get<Page<RunAccount>>(`${api}/reporting/${onedrive.runId}/accounts`);
      expect(unnamed.items.every((a) => a.displayName === a.accountId)).toBe(true);
      await server.ctx.db.query(
        "update discovered_sources set seen_at = seen_at - interval '6 minutes' where tenant_id = $1",
        [tenantId],
      );
      await users('application=onedrive');
      const named = await get<Page<RunAccount>>(`${api}/reporting/${onedrive.runId}/accounts`);
      expect(named.items.every((a) => a.displayName !== a.accountId)).toBe(true);
    });

    it('answers the legacy statistics and last successful job of the worker', async () => {
      const stats = await get<{
        periodDays: number;
        perApplication: { application: string; jobs: number; protectedCount: number; items: number; bytes: number }[];
      }>(`/api/backup-and-restore/statistics?workerIp=${workerIp}`);
      expect(stats.perApplication.map((a) => [a.application, a.jobs])).toEqual([
        ['onedrive', 1],
        ['sharepoint', 1],
        ['teams', 1],
      ]);
      expect(stats.perApplication.every((a) => a.bytes > 0 && a.items > 0)).toBe(true);
      // The three workloads are counted in one grouped query: each must read as its own dashboard does.
      for (const a of stats.perApplication) {
        const basic = await get<DashboardBasic>(`${api}/dashboard/${a.application}/basic`);
        const size = await get<DashboardSize>(`${api}/dashboard/${a.application}/size`);
        expect([a.application, a.protectedCount, a.items, a.bytes]).toEqual([
          a.application,
          basic.protectedCount,
          basic.items,
          size.storedBytes,
        ]);
      }
      const last = await get<{ jobId: string; application: string }>(
        `/api/backup-and-restore/get-last-successful-job/${workerIp}`,
      );
      expect(last.application).toBe('teams');
    });

    it('answers 404 with the legacy message for a worker without a tenant, and for one whose tenant is gone', async () => {
      const url = `/api/backup-and-restore/statistics?workerIp=${workerIp}`;
      const setTenant = (id: string | null) =>
        server.ctx.db.query('update workers set stagingtenant_id = $2 where worker_ip = $1', [workerIp, id]);
      try {
        await setTenant(null);
        expect(await get(url, 404)).toEqual({
          message: 'No Tenant was found in the Configuration. Please configure one.',
        });
        await setTenant('00000000-0000-4000-8000-00000000dead');
        expect(await get(url, 404)).toEqual({ message: 'Tenant not found' });
        expect(await get('/api/backup-and-restore/statistics?workerIp=10.99.99.99', 404)).toEqual({
          message: 'Worker not found',
        });
        // In any letter case, as the tenant id is looked up everywhere.
        await setTenant(tenantId.toUpperCase());
        expect((await get<{ periodDays: number }>(url)).periodDays).toBe(30);
      } finally {
        await setTenant(tenantId);
      }
    });
  });
});

describe('restore selection', () => {
  const item = (over: Partial<SnapshotItem>): SnapshotItem => ({
    sourceId: 's',
    itemId: 'i',
    versionId: 'v',
    driveId: 'd1',
    kind: 'file',
    name: 'a',
    path: '/a',
    parentId: null,
    size: 1,
    hash: 'h',
    modifiedAt: null,
    permissions: [],
    ...over,
  });
  const items = [
    item({ itemId: 'f1', kind: 'folder', path: '/Docs', name: 'Docs' }),
    item({ itemId: 'a', path: '/Docs/a.txt', parentId: 'f1' }),
    item({ itemId: 'b', path: '/Docs2/b.txt' }),
    item({ itemId: 'c', path: '/Docs/c.txt', driveId: 'd2' }),
    item({ itemId: 'm1', kind: 'message', driveId: null, parentId: '19:general', path: '/General' }),
  ];
  it('takes a folder with what is under it (same library only), a library, a channel', () => {
    expect(selectItems(items, ['f1']).map((i) => i.itemId)).toEqual(['f1', 'a']);
    expect(selectItems(items, ['drive:d2']).map((i) => i.itemId)).toEqual(['c']);
    expect(selectItems(items, ['19:general']).map((i) => i.itemId)).toEqual(['m1']);
    expect(selectItems(items, ['root'])).toHaveLength(5);
  });
});
