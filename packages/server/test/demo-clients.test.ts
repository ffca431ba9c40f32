/**
 * PORTAL_DEMO_CLIENTS: the demo partner's number of client organisations (3 by default, today's
 * demo). Beyond Northwind, Tailspin and Woodgrove, each drawn client has its tenant in the demo
 * simulator, jobs and two days of history made by the same engine and generator as the others', so the
 * partner's fleet is full and varied: failures and warnings, stored bytes, discovery, trials ending
 * soon, a client never tested and one whose connection test failed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDemoHistory, type DemoHistoryFigures, FLEET_HISTORY_DAYS, fleetPlan } from '../src/demo/demo-history.js';
import { demoSimulatorOf } from '../src/demo/demo-simulator.js';
import { demoFleetClients } from '../src/demo/seed.js';
import { createTestServer, PARTNER, sessionToken, TENANTS, type TestServer } from './helpers.js';

const DAY = 86_400_000;
const CLIENTS = 40;

describe('PORTAL_DEMO_CLIENTS', () => {
  it('is 3 by default, a whole number from 3 otherwise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-demo-clients-config-'));
    expect(loadConfig({ PORTAL_DATA_DIR: dir }).demoClients).toBe(3);
    expect(loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_DEMO_CLIENTS: '500' }).demoClients).toBe(500);
    for (const wrong of ['2', '-1', '12.5', 'many', '100000']) {
      expect(() => loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_DEMO_CLIENTS: wrong })).toThrow(/PORTAL_DEMO_CLIENTS/);
    }
  });

  it('draws the same clients for the same count, with names, short names and tenants of their own', () => {
    const clients = demoFleetClients(497);
    expect(demoFleetClients(497)).toEqual(clients);
    expect(demoFleetClients(37)).toEqual(clients.slice(0, 37));
    expect(new Set(clients.map((c) => c.name)).size).toBe(497);
    expect(new Set(clients.map((c) => c.abbr)).size).toBe(497);
    expect(new Set(clients.map((c) => c.tenantId)).size).toBe(497);
    const users = clients.map((c) => c.size.users ?? 0);
    expect(Math.min(...users)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...users)).toBeLessThanOrEqual(200);
    expect(clients.filter((c) => c.trialDaysLeft !== null && c.trialDaysLeft <= 7)).toHaveLength(2);
  });

  it('by default gives the partner its three clients', async () => {
    const server = await createTestServer();
    try {
      const token = await sessionToken(server, PARTNER);
      const answer = await server.request({ method: 'GET', url: '/api/partner-clients', token });
      expect((answer.json() as { name: string }[]).map((c) => c.name)).toEqual([
        'Northwind Traders',
        'Tailspin Toys',
        'Woodgrove Bank',
      ]);
    } finally {
      await server.close();
    }
  });
});

describe(`the demo world with PORTAL_DEMO_CLIENTS=${CLIENTS}`, () => {
  let server: TestServer & { close(): Promise<void> };
  let figures: DemoHistoryFigures;
  const drawn = demoFleetClients(CLIENTS - 3);
  const drawnIds = drawn.map((c) => c.tenantId);
  let seedMs = 0;

  beforeAll(async () => {
    const started = performance.now();
    server = await createTestServer({
      demo: true,
      demoClients: CLIENTS,
      dataDir: mkdtempSync(join(tmpdir(), 'portal-demo-clients-')),
    });
    seedMs = performance.now() - started;
    const simulator = demoSimulatorOf(server.ctx);
    if (!simulator) throw new Error('the demo simulator is not running');
    figures = await createDemoHistory(server.ctx, simulator.state, { throttleSeconds: 1 });
    console.log(
      `${CLIENTS} demo clients: seeded and simulator started in ${(seedMs / 1000).toFixed(1)} s; history ` +
        `${figures.runs} runs (${figures.failedRuns} failed, ${figures.warningRuns} with warnings), ` +
        `${figures.items} items, ${figures.storedBytes} bytes stored, made in ${figures.seconds.toFixed(1)} s`,
    );
  }, 900_000);
  afterAll(async () => {
    await server?.close();
  });

  it(`gives the partner ${CLIENTS} clients, the first three as today, each with its tenant in the simulator`, async () => {
    const token = await sessionToken(server, PARTNER);
    const answer = await server.request({ method: 'GET', url: '/api/partner-clients', token });
    const names = (answer.json() as { name: string }[]).map((c) => c.name);
    expect(names).toHaveLength(CLIENTS);
    expect(names).toEqual(expect.arrayContaining(['Northwind Traders', 'Tailspin Toys', 'Woodgrove Bank']));
    expect(names).toEqual(expect.arrayContaining(drawn.map((c) => c.name)));
    const simulator = demoSimulatorOf(server.ctx);
    for (const client of drawn) {
      expect(simulator?.state.tenant(client.tenantId).users.filter((u) => u.hasMailbox)).toHaveLength(
        client.size.users ?? 0,
      );
    }
    // Every drawn tenant points at the simulator and has its default domain, read from it.
    const [pointed] = await server.ctx.db.query<{ n: number }>(
      `select count(*)::int as n from tenants where tenant_id = any($1) and graph_base_url = $2 and default_domain is not null`,
      [drawnIds, simulator?.graphBaseUrl],
    );
    expect(pointed?.n).toBe(drawn.length);
  });

  it('gives every drawn client but the one just added runs, discovery and stored bytes', async () => {
    const now = server.ctx.now().getTime();
    const rows = await server.ctx.db.query<{
      tenant_id: string;
      runs: number;
      failed: number;
      warnings: number;
      first: Date | null;
      discovered: number;
      stored: string;
    }>(
      `select t.tenant_id,
              (select count(*)::int from job_runs r where r.tenant_id = t.tenant_id and r.status in ('finished', 'failed')) as runs,
              (select count(*)::int from job_runs r where r.tenant_id = t.tenant_id and r.status = 'failed') as failed,
              (select count(*)::int from job_runs r where r.tenant_id = t.tenant_id and r.status = 'finished' and r.warnings > 0) as warnings,
              (select min(r.started) from job_runs r where r.tenant_id = t.tenant_id) as first,
              (select count(*)::int from discovered_sources d where d.tenant_id = t.tenant_id) as discovered,
              ((select coalesce(sum(b.size), 0) from backup_items b join jobs j on j.job_id = b.job_id where j.tenant_id = t.tenant_id)
               + (select coalesce(sum(a.size), 0) from archive_items a where a.tenant_id = t.tenant_id))::text as stored
         from tenants t where t.tenant_id = any($1)`,
      [drawnIds],
    );
    const byTenant = new Map(rows.map((r) => [r.tenant_id, r]));
    let failing = 0;
    let warning = 0;
    for (const client of drawn) {
      const plan = fleetPlan(client.index, drawn.length);
      const row = byTenant.get(client.tenantId);
      if (!plan.jobs) {
        expect(row?.runs, client.name).toBe(0);
        continue;
      }
      // A run a night (or more): the first of them within the last FLEET_HISTORY_DAYS.
      expect(row?.runs, client.name).toBeGreaterThanOrEqual(1);
      expect(new Date(row?.first ?? 0).getTime(), client.name).toBeGreaterThan(now - (FLEET_HISTORY_DAYS + 1) * DAY);
      expect(row?.discovered, client.name).toBeGreaterThan(client.size.users ?? 0);
      // Bytes stored, unless every run so far failed (a client whose only night failed: never backed up).
      if ((row?.runs ?? 0) > (row?.failed ?? 0)) expect(Number(row?.stored), client.name).toBeGreaterThan(0);
      if (plan.outageNights.includes(0)) expect(row?.failed, client.name).toBeGreaterThan(0);
      if (plan.mailArchive === 'everyAccount') expect(row?.warnings, client.name).toBeGreaterThan(0);
      if ((row?.failed ?? 0) > 0) failing += 1;
      if ((row?.warnings ?? 0) > 0) warning += 1;
    }
    // Varied: a few failing, some warning, most fine.
    expect(failing).toBeGreaterThanOrEqual(2);
    expect(warning).toBeGreaterThanOrEqual(3);
    expect(failing + warning).toBeLessThan(drawn.length / 2);
    // The first three clients' history is theirs as before, with Contoso's.
    expect(figures.runs).toBeGreaterThan(400);
  });

  it('holds a failure of last night, trials ending soon, a client never tested and one whose test failed', async () => {
    const now = server.ctx.now().getTime();
    const lastNight = drawn.filter((c) => fleetPlan(c.index, drawn.length).outageNights.includes(0));
    expect(lastNight.length).toBeGreaterThan(0);
    for (const client of lastNight) {
      const [failed] = await server.ctx.db.query<{ ended: Date }>(
        `select max(finished) as ended from job_runs where tenant_id = $1 and status = 'failed'`,
        [client.tenantId],
      );
      expect(now - new Date(failed?.ended ?? 0).getTime(), client.name).toBeLessThan(DAY);
    }
    const trials = await server.ctx.db.query<{ name: string; license_valid_until: Date }>(
      `select name, license_valid_until from organisations where license = 'trial' and license_valid_until is not null
        and license_valid_until < $1 order by license_valid_until`,
      [new Date(now + 7 * DAY)],
    );
    expect(trials.map((t) => t.name)).toHaveLength(2);
    for (const t of trials) expect(new Date(t.license_valid_until).getTime()).toBeGreaterThan(now);
    const tests = await server.ctx.db.query<{ target: string; outcome: string }>(
      `select distinct on (target) target, outcome from audit_log where action = 'tenant.connectionTest'
        and target = any($1) order by target, seq desc`,
      [[...drawnIds, TENANTS.northwind]],
    );
    const outcome = new Map(tests.map((t) => [t.target, t.outcome]));
    expect(outcome.get(TENANTS.northwind)).toBe('success');
    const untested = drawn.filter((c) => !outcome.has(c.tenantId));
    expect(untested.map((c) => c.index)).toEqual([drawn.length - 1]);
    const failedTest = drawn.filter((c) => outcome.get(c.tenantId) === 'failure');
    expect(failedTest.map((c) => c.index)).toEqual(
      drawn.filter((c) => fleetPlan(c.index, drawn.length).secretExpired).map((c) => c.index),
    );
    expect(failedTest.length).toBeGreaterThan(0);
  });
});
