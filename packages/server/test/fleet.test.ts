import { randomUUID } from 'node:crypto';
import type { FleetPage, FleetQuery } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../src/context.js';
import { fleetFor } from '../src/modules/fleet/service.js';
import type { User } from '../src/modules/identity/users.js';
import { createOrganisation } from '../src/modules/organisations/repository.js';
import { ADMIN, PARTNER, refusal, seededUser, sessionToken, useTestServer } from './helpers.js';

const HOUR = 3_600_000;

/**
 * A partner's fleet on the embedded database: a partner of its own with seven clients, each made to
 * show one kind of health (runs, jobs, usage, connection tests, licences inserted as the engine and
 * the connection test write them), read through the service and over HTTP.
 */
describe('fleet', () => {
  // Every read sees the rows written before it; the snapshot's reuse has a test of its own.
  const server = useTestServer({ fleetSnapshotMs: 0 });
  let partner: User;
  let operator: User;
  let admin: User;
  const clientIds: Record<string, string> = {};
  const tenantIds: Record<string, string> = {};
  // Tests run in any order and some move the clock (a sign-in, the snapshot's age): the seeded runs
  // are placed from the clock as it was when they were made, hours from any window's edge.
  let seededAt = 0;
  const ago = (hours: number) => new Date(seededAt - hours * HOUR);
  /** When a run started `hours` ago ends: ten minutes later. */
  const endOf = (hours: number) => new Date(ago(hours).getTime() + 600_000).toISOString();

  async function addClient(
    name: string,
    options: {
      tenant?: boolean;
      location?: boolean;
      connection?: 'success' | 'failure';
      license?: 'trial' | 'full';
      validUntil?: Date;
      /** Whose client it is; the fleet's own partner by default. */
      of?: User;
    } = {},
  ) {
    const { tenant = true, location = true, license = 'full', of = partner } = options;
    const db = server.ctx.db;
    const { organisation, worker } = await db.transaction((tx) =>
      createOrganisation(tx, {
        name,
        kind: 'customer',
        license,
        partnerId: of.organisationId,
        abbr: `${name.slice(0, 3).toLowerCase()}-${randomUUID().slice(0, 4)}`,
      }),
    );
    clientIds[name] = organisation.id;
    if (options.validUntil)
      await db.query('update organisations set license_valid_until = $2 where id = $1', [
        organisation.id,
        options.validUntil,
      ]);
    if (!tenant) return;
    const tenantId = randomUUID();
    tenantIds[name] = tenantId;
    await db.query(
      `insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri, is_active, default_domain)
       values ($1, $2, $3, $4, $5, 'https://portal.test/redirect', true, $3)`,
      [tenantId, organisation.id, `${name.toLowerCase()}-domain.onmicrosoft.com`, randomUUID(), randomUUID()],
    );
    // As the engine's workers keep it: the tenant id as Entra writes it, in any letter case.
    await db.query('update workers set stagingtenant_id = $2 where id = $1', [worker.workerId, tenantId.toUpperCase()]);
    if (location)
      await db.query(
        `insert into locations (location_id, tenant_id, name, site_address) values ($1, $2, 'Vault', 'https://x.sharepoint.com/sites/vault')`,
        [randomUUID(), tenantId],
      );
    if (options.connection)
      await server.ctx.audit({
        actorUserId: partner.id,
        actorEmail: partner.email,
        organisationId: organisation.id,
        action: 'tenant.connectionTest',
        target: tenantId,
        outcome: options.connection,
      });
  }

  async function addJob(
    client: string,
    type: string,
    application: string,
    sources: string[] = [],
    enabled = true,
  ): Promise<string> {
    const jobId = randomUUID();
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, definition, enabled) values ($1, $2, $3, $4, $5, $6, $7)`,
      [jobId, tenantIds[client], `${client} ${type} ${application}`, type, application, { sources }, enabled],
    );
    return jobId;
  }

  async function addRun(
    client: string,
    jobId: string,
    status: 'queued' | 'running' | 'finished' | 'failed',
    hoursAgo: number,
    figures: { itemsFailed?: number; warnings?: number; bytes?: number } = {},
  ): Promise<number> {
    const ended = status === 'finished' || status === 'failed';
    const [row] = await server.ctx.db.query<{ seq: number }>(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished,
                             items_failed, warnings, bytes)
       values ($1, $2, $3, 'schedule', $4, $5, $5, $5, $6, $7, $8, $9) returning seq`,
      [
        randomUUID(),
        jobId,
        tenantIds[client],
        status,
        ago(hoursAgo),
        ended ? endOf(hoursAgo) : null,
        figures.itemsFailed ?? 0,
        figures.warnings ?? 0,
        figures.bytes ?? 0,
      ],
    );
    return Number(row?.seq);
  }

  async function discover(client: string, application: string, sourceIds: string[]) {
    for (const id of sourceIds)
      await server.ctx.db.query(
        `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, seen_at)
         values ($1, $2, $3, 'user', $3, $4)`,
        [tenantIds[client], application, id, ago(1)],
      );
  }

  const fleet = (query: FleetQuery = {}, user = partner) => fleetFor(server.ctx, user, query);
  const names = (page: FleetPage) => page.items.map((c) => c.name);
  const one = async (name: string) => {
    const found = (await fleet({ search: name })).items.find((c) => c.name === name);
    if (!found) throw new Error(`no client ${name}`);
    return found;
  };

  beforeAll(async () => {
    seededAt = server.clock.now;
    admin = await seededUser(server, ADMIN);
    const seededPartner = await seededUser(server, PARTNER);
    const own = await server.ctx.db.transaction((tx) =>
      createOrganisation(tx, { name: 'Litmus Partners', kind: 'partner', license: 'full' }),
    );
    // The rules look at the role and the organisation only.
    partner = {
      ...seededPartner,
      id: randomUUID(),
      email: 'partner@litmus.example',
      organisationId: own.organisation.id,
    };
    operator = { ...admin, id: randomUUID(), email: 'operator@portal.test', role: 'operator' };

    // Alpha is fine: its backups and mail archive succeeded today; a warning three days ago is no issue.
    await addClient('Alpha', { connection: 'success' });
    const alphaDrive = await addJob('Alpha', 'backup', 'onedrive', ['u1', 'u2']);
    await addJob('Alpha', 'backup', 'onedrive', ['u2', 'u3'], false);
    const alphaSeq = await addRun('Alpha', alphaDrive, 'finished', 2, { bytes: 1000 });
    await addRun('Alpha', alphaDrive, 'finished', 72, { warnings: 2 });
    await addRun('Alpha', alphaDrive, 'failed', 240, { bytes: 9999 });
    const alphaMail = await addJob('Alpha', 'exchangeArchive', 'exchange', ['m1']);
    await addRun('Alpha', alphaMail, 'finished', 3, { bytes: 500 });
    await discover('Alpha', 'onedrive', ['u1', 'u2', 'u3']);
    await discover('Alpha', 'exchange', ['m1', 'm2']);
    for (const [item, size] of [
      ['f1', 600],
      ['f2', 400],
    ] as const)
      await server.ctx.db.query(
        `insert into backup_items (job_id, source_id, item_id, version_id, kind, name, path, size, is_latest, first_seq)
         values ($1, 'u1', $2, 'v1', 'file', $2, '/', $3, true, $4)`,
        [alphaDrive, item, size, alphaSeq],
      );
    await server.ctx.db.query(
      `insert into archive_items (tenant_id, kind, source, container, external_id, size, blob_hash, archived_at, search)
       values ($1, 'mail', 'm1', 'Inbox', 'x1', 500, 'h1', $2, to_tsvector('simple', ''))`,
      [tenantIds.Alpha, ago(3)],
    );
    await server.ctx.db.query(
      `insert into archive_deletions (tenant_id, run_id, kind, source, archived_day, deleted_at, items, bytes)
       values ($1, 'r-old', 'mail', 'm1', '2026-01-01', $2, 1, 200), ($1, 'r-older', 'mail', 'm1', '2026-01-01', $3, 1, 50)`,
      [tenantIds.Alpha, ago(48), ago(24 * 9)],
    );

    // Bravo: a SharePoint run failed an hour ago (and another three days ago); it succeeded in between.
    await addClient('Bravo', { connection: 'success' });
    const bravo = await addJob('Bravo', 'backup', 'sharepoint', ['s1']);
    await addRun('Bravo', bravo, 'failed', 1);
    await addRun('Bravo', bravo, 'finished', 5);
    await addRun('Bravo', bravo, 'failed', 72);

    // Charlie: two Teams runs failed today.
    await addClient('Charlie', { connection: 'success' });
    const charlie = await addJob('Charlie', 'backup', 'teams', ['t1']);
    await addRun('Charlie', charlie, 'finished', 6);
    await addRun('Charlie', charlie, 'failed', 4);
    await addRun('Charlie', charlie, 'failed', 2);

    // Delta: a OneDrive run failed three days ago, none since; its connection was never tested.
    await addClient('Delta');
    const delta = await addJob('Delta', 'backup', 'onedrive', ['u1']);
    await addRun('Delta', delta, 'failed', 72);
    await addRun('Delta', delta, 'finished', 24, { itemsFailed: 0 });

    // Echo: no tenant yet, on a trial ending in a week.
    await addClient('Echo', { tenant: false, license: 'trial', validUntil: ago(-24 * 7) });

    // Foxtrot: its Teams archive last succeeded three days ago; its mail archive ran and never did.
    await addClient('Foxtrot', { connection: 'success' });
    const foxTeams = await addJob('Foxtrot', 'teamsArchive', 'teams', ['t1']);
    await addRun('Foxtrot', foxTeams, 'finished', 72);
    await addRun('Foxtrot', foxTeams, 'running', 0.5);
    const foxMail = await addJob('Foxtrot', 'exchangeArchive', 'exchange', ['m1']);
    await addRun('Foxtrot', foxMail, 'failed', 120);
    await addRun('Foxtrot', foxMail, 'finished', 100, { itemsFailed: 3, warnings: 3 });

    // Golf: its connection test failed, it has no storage location, its trial is over.
    await addClient('Golf', { connection: 'failure', location: false, license: 'trial', validUntil: ago(1) });
  });

  it('puts critical clients first, the most failed runs first among them, then warnings, then the fine', async () => {
    const page = await fleet();
    expect(names(page)).toEqual(['Charlie', 'Bravo', 'Foxtrot', 'Echo', 'Golf', 'Delta', 'Alpha']);
    expect(page.items.map((c) => c.attention)).toEqual([
      'critical',
      'critical',
      'critical',
      'critical',
      'critical',
      'warning',
      'ok',
    ]);
    expect(page).toMatchObject({
      total: 7,
      page: 1,
      pageSize: 25,
      counts: { critical: 5, warning: 1, ok: 1 },
      generatedAt: server.ctx.now().toISOString(),
    });
  });

  it('names each issue, most urgent first, with its area and count', async () => {
    const issues = Object.fromEntries((await fleet()).items.map((c) => [c.name, c.issues]));
    expect(issues).toEqual({
      Alpha: [],
      Bravo: [{ code: 'runFailed', area: 'sharePoint', count: 1 }],
      Charlie: [{ code: 'runFailed', area: 'teams', count: 2 }],
      Delta: [{ code: 'runFailed', area: 'oneDrive', count: 1 }, { code: 'connectionUntested' }],
      Echo: [{ code: 'noTenant' }, { code: 'licenseExpiring' }],
      Foxtrot: [
        { code: 'neverBackedUp', area: 'mailArchive', count: 1 },
        { code: 'backupOverdue', area: 'teamsArchive', count: 1 },
        { code: 'runFailed', area: 'mailArchive', count: 1 },
      ],
      Golf: [{ code: 'connectionFailed' }, { code: 'licenseExpired' }, { code: 'noLocation' }],
    });
  });

  it('gives the true run counts, last successes, coverage, stored bytes and growth of seeded runs', async () => {
    const alpha = await one('Alpha');
    expect(alpha).toMatchObject({
      clientId: clientIds.Alpha,
      license: 'full',
      licenseValidUntil: null,
      tenantDomain: 'alpha-domain.onmicrosoft.com',
      runs24h: { failed: 0, warnings: 0 },
      // The failure ten days ago is outside the week.
      runs7d: { failed: 0, warnings: 1 },
      lastSuccess: {
        oneDrive: endOf(2),
        sharePoint: null,
        teams: null,
        mailArchive: endOf(3),
        teamsArchive: null,
      },
      // The disabled job's u3 is not protected; discovery found three accounts and two mailboxes.
      coverage: {
        accounts: { protected: 2, found: 3 },
        sites: { protected: 0, found: 0 },
        teams: { protected: 0, found: 0 },
        mailboxes: { protected: 1, found: 2 },
      },
      // 600 + 400 bytes of backed-up versions, 500 of archived mail.
      storedBytes: 1500,
      // Stored by this week's runs (1000 + 500), less what retention removed this week (200).
      growthBytes7d: 1300,
      connection: { state: 'ok', testedAt: new Date(seededAt).toISOString() },
      runningJobs: 0,
    });
    expect(alpha.workerIp).toMatch(/^10\.64\./);

    const bravo = await one('Bravo');
    expect(bravo).toMatchObject({
      runs24h: { failed: 1, warnings: 0 },
      runs7d: { failed: 2, warnings: 0 },
      lastSuccess: { sharePoint: endOf(5), oneDrive: null },
      coverage: { sites: { protected: 1, found: 0 } },
    });
    // A run that finished with failed items is no success.
    const foxtrot = await one('Foxtrot');
    expect(foxtrot).toMatchObject({
      runs7d: { failed: 1, warnings: 1 },
      lastSuccess: { teamsArchive: endOf(72), mailArchive: null },
      runningJobs: 1,
    });
    expect(await one('Echo')).toMatchObject({
      tenantDomain: null,
      license: 'trial',
      licenseValidUntil: ago(-24 * 7).toISOString(),
      connection: { state: 'none', testedAt: null },
      storedBytes: 0,
      growthBytes7d: 0,
    });
    expect((await one('Golf')).connection.state).toBe('failed');
    expect((await one('Delta')).connection).toEqual({ state: 'untested', testedAt: null });
  });

  it('filters by attention, licence, connection, area with an issue and running jobs', async () => {
    const filtered = async (query: FleetQuery) => {
      const page = await fleet(query);
      // The counts are always the whole fleet's.
      expect(page.counts).toEqual({ critical: 5, warning: 1, ok: 1 });
      expect(page.total).toBe(page.items.length);
      return names(page);
    };
    expect(await filtered({ attention: 'critical' })).toEqual(['Charlie', 'Bravo', 'Foxtrot', 'Echo', 'Golf']);
    expect(await filtered({ attention: 'warning' })).toEqual(['Delta']);
    expect(await filtered({ attention: 'ok' })).toEqual(['Alpha']);
    expect(await filtered({ attention: 'needsAttention' })).toHaveLength(6);
    expect(await filtered({ license: 'trial' })).toEqual(['Echo', 'Golf']);
    expect(await filtered({ connection: 'ok' })).toEqual(['Charlie', 'Bravo', 'Foxtrot', 'Alpha']);
    expect(await filtered({ connection: 'failed' })).toEqual(['Golf']);
    expect(await filtered({ connection: 'untested' })).toEqual(['Delta']);
    expect(await filtered({ connection: 'none' })).toEqual(['Echo']);
    expect(await filtered({ area: 'sharePoint' })).toEqual(['Bravo']);
    expect(await filtered({ area: 'mailArchive' })).toEqual(['Foxtrot']);
    expect(await filtered({ area: 'oneDrive' })).toEqual(['Delta']);
    expect(await filtered({ area: 'teamsArchive' })).toEqual(['Foxtrot']);
    expect(await filtered({ running: 'true' })).toEqual(['Foxtrot']);
    expect(await filtered({ running: 'false' })).toHaveLength(6);
    expect(await filtered({ attention: 'critical', running: 'false', license: 'full' })).toEqual(['Charlie', 'Bravo']);
  });

  it('searches name, short name and tenant domain whatever the letter case', async () => {
    const found = async (search: string) => names(await fleet({ search }));
    expect(await found('ALPH')).toEqual(['Alpha']);
    expect(await found('gol-')).toEqual(['Golf']);
    expect(await found('bravo-DOMAIN.onmicrosoft')).toEqual(['Bravo']);
    expect(await found('-domain.onmicrosoft.com')).toHaveLength(6);
    expect(await found('nobody')).toEqual([]);
  });

  it('pages and sorts, keeping the total of all pages', async () => {
    const second = await fleet({ page: 2, pageSize: 2 });
    expect(names(second)).toEqual(['Foxtrot', 'Echo']);
    expect(second).toMatchObject({ total: 7, page: 2, pageSize: 2 });
    expect(names(await fleet({ page: 4, pageSize: 2 }))).toEqual(['Alpha']);
    expect(names(await fleet({ page: 5, pageSize: 2 }))).toEqual([]);
    // Ties go by name from A to Z in either order.
    expect(names(await fleet({ sort: 'attention', order: 'desc' }))).toEqual([
      'Alpha',
      'Delta',
      'Echo',
      'Golf',
      'Foxtrot',
      'Bravo',
      'Charlie',
    ]);
    expect(names(await fleet({ sort: 'name' }))).toEqual([
      'Alpha',
      'Bravo',
      'Charlie',
      'Delta',
      'Echo',
      'Foxtrot',
      'Golf',
    ]);
    expect(names(await fleet({ sort: 'failed7d', order: 'desc', pageSize: 3 }))).toEqual(['Bravo', 'Charlie', 'Delta']);
    expect(names(await fleet({ sort: 'storedBytes', order: 'desc', pageSize: 1 }))).toEqual(['Alpha']);
    expect(names(await fleet({ sort: 'runningJobs', order: 'desc', pageSize: 1 }))).toEqual(['Foxtrot']);
    expect(names(await fleet({ sort: 'connection', pageSize: 2 }))).toEqual(['Golf', 'Echo']);
    expect(names(await fleet({ sort: 'license', pageSize: 2 }))).toEqual(['Golf', 'Echo']);
    // Clients without any success first, then the one whose success is oldest (Foxtrot, three days ago).
    expect(names(await fleet({ sort: 'lastSuccess', pageSize: 3 }))).toEqual(['Echo', 'Golf', 'Foxtrot']);
    // An unknown sort field is the default order.
    expect(names(await fleet({ sort: 'nonsense' }))).toEqual(names(await fleet()));
  });

  it('shows a partner only its own clients, an operator every partner’s, and refuses anyone else', async () => {
    const seededPartner = await seededUser(server, PARTNER);
    const fabrikam = names(await fleet({}, seededPartner));
    expect(fabrikam.sort()).toEqual(['Northwind Traders', 'Tailspin Toys', 'Woodgrove Bank']);
    const all = await fleet({ pageSize: 500 }, operator);
    expect(names(all)).toEqual(expect.arrayContaining([...fabrikam, ...Object.keys(clientIds)]));
    expect(all.total).toBe(fabrikam.length + Object.keys(clientIds).length);
    expect(await refusal(fleet({}, admin))).toEqual({ status: 403, message: 'Access denied' });
  });

  it('answers over HTTP with the contract’s shape and refuses a customer administrator', async () => {
    const partnerToken = await sessionToken(server, PARTNER);
    const response = await server.request({
      method: 'GET',
      url: '/api/partner-clients/fleet?attention=needsAttention&sort=name&pageSize=2',
      token: partnerToken,
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as FleetPage;
    expect(page).toMatchObject({ page: 1, pageSize: 2 });
    expect(page.items.every((c) => c.attention !== 'ok')).toBe(true);
    expect(['Northwind Traders', 'Tailspin Toys', 'Woodgrove Bank']).toEqual(expect.arrayContaining(names(page)));

    const tooLarge = await server.request({
      method: 'GET',
      url: '/api/partner-clients/fleet?pageSize=501',
      token: partnerToken,
    });
    expect(tooLarge.statusCode).toBe(400);

    const refused = await server.request({
      method: 'GET',
      url: '/api/partner-clients/fleet',
      token: await sessionToken(server, ADMIN),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Access denied' });
  });

  it('reuses a snapshot for its configured age, then answers with it while the next is read, and says when it was read', async () => {
    // A partner of its own, so that the runs added here change no other test's fleet.
    const own = await server.ctx.db.transaction((tx) =>
      createOrganisation(tx, { name: 'Snapshot Partners', kind: 'partner', license: 'full' }),
    );
    const other: User = { ...partner, id: randomUUID(), organisationId: own.organisation.id };
    await addClient('Juliet', { connection: 'success', of: other });
    const cached: AppContext = { ...server.ctx, config: { ...server.ctx.config, fleetSnapshotMs: 5_000 } };
    const read = () => fleetFor(cached, other, {});
    const failNow = async () => {
      const job = await addJob('Juliet', 'backup', 'sharepoint', ['s9']);
      await addRun('Juliet', job, 'failed', (seededAt - server.clock.now) / HOUR + 0.1);
    };
    const first = await read();
    expect(first.items.map((c) => [c.name, c.attention])).toEqual([['Juliet', 'ok']]);
    await failNow();
    server.clock.advance(4_000);
    expect(await read()).toEqual(first);
    // Five seconds old: still answered at once, while the next snapshot is read.
    server.clock.advance(1_000);
    expect(await read()).toEqual(first);
    const readAt = server.ctx.now().toISOString();
    await vi.waitFor(async () => expect((await read()).generatedAt).toBe(readAt));
    const second = await read();
    expect(second.items[0]).toMatchObject({ attention: 'critical', runs24h: { failed: 1 } });
    expect(second.counts).toEqual({ critical: 1, warning: 0, ok: 0 });
    // Twice the age without a request: the next request waits for a fresh read.
    await failNow();
    server.clock.advance(10_000);
    const third = await read();
    expect(third.generatedAt).toBe(server.ctx.now().toISOString());
    expect(third.items[0]?.runs24h.failed).toBe(2);
  });
});
