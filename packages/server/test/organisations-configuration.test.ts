import { randomUUID } from 'node:crypto';
import { TRIAL_LIMITS } from '@compliance-portal/sdk';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN,
  organisationId,
  PARTNER,
  sessionToken,
  signInWithSetup,
  TENANTS,
  useTestServer,
  workerIp,
} from './helpers.js';

interface Worker {
  workerId: string;
  workerIp: string;
  indexIp: string;
  clientId: string;
  organisationName: string;
  abbr: string;
  stagingtenant_id: string | null;
  cloud_portal_license: string;
}
interface Client {
  clientId: string;
  name: string;
  license: string;
  partnerId: string | null;
  worker: Worker;
  createdAt: string;
}
interface Checks {
  workerIp: string;
  online: boolean;
  lastSeen: string | null;
  checks: { name: string; ok: boolean; message?: string }[];
}
interface BackupConfig {
  tenantId: string;
  defaultLocationId: string | null;
  pricePerGbMonth: number;
  currency: string;
  teamsConfigured: boolean;
  exchangeConfigured: boolean;
  maxConcurrency: number;
}
interface LegacyError {
  message: string;
  errors?: Record<string, string[]>;
}
interface Problem {
  status: number;
  title: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

const NO_USE = { onedrive: 0, sharepoint: 0, teams: 0 };

describe('organisations, workers and configuration', () => {
  const server = useTestServer();
  let admin = '';
  let partner = '';
  let operator = '';
  let contosoId = '';
  let fabrikamId = '';
  let seededClients: string[] = [];
  let seededBackupConfig = '';

  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    partner = await sessionToken(server, PARTNER);
    contosoId = await organisationId(server, 'Contoso');
    fabrikamId = await organisationId(server, 'Fabrikam Partners');
    const [org] = await server.ctx.db.query<{ id: string }>(
      `insert into organisations (id, name, kind, license, abbr) values ($1, 'Platform', 'operator', 'full', 'platform') returning id`,
      [randomUUID()],
    );
    await server.ctx.db.query(
      `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
       select $1, 'operator@portal.example', 'Operator', password_hash, 'operator', $2, true from users where email = $3`,
      [randomUUID(), org?.id ?? null, ADMIN],
    );
    operator = await sessionToken(server, 'operator@portal.example');
    seededClients = (
      await server.ctx.db.query<{ id: string }>('select id from organisations where partner_id = $1', [fabrikamId])
    ).map((r) => r.id);
    const [config] = await server.ctx.db.query<{ row: string }>(
      'select to_jsonb(b)::text as row from backup_config b where tenant_id = $1',
      [TENANTS.contoso],
    );
    seededBackupConfig = config?.row ?? '';
  });
  // Each test starts from the seeded partner and configuration: tests add clients to Fabrikam (gone
  // again here, with their tenants, users and workers) and change Contoso's backup settings (put back).
  beforeEach(async () => {
    const db = server.ctx.db;
    const added = (
      await db.query<{ id: string }>('select id from organisations where partner_id = $1 and not (id = any($2))', [
        fabrikamId,
        seededClients,
      ])
    ).map((r) => r.id);
    if (added.length > 0) {
      for (const table of ['tenants', 'users', 'workers'])
        await db.query(`delete from ${table} where organisation_id = any($1)`, [added]);
      await db.query('delete from organisations where id = any($1)', [added]);
    }
    await db.query('delete from backup_config where tenant_id = $1', [TENANTS.contoso]);
    await db.query('insert into backup_config select * from jsonb_populate_record(null::backup_config, $1::jsonb)', [
      seededBackupConfig,
    ]);
  });

  const legacy = (method: string, path: string, token: string, body?: unknown) =>
    server.request({ method, url: `/api${path}`, token, ...(body !== undefined ? { body } : {}) });
  const apollo = (method: string, path: string, token: string, body?: unknown) =>
    server.request({ method, url: `/apollo${path}`, token, ...(body !== undefined ? { body } : {}) });
  const names = (clients: unknown) => (clients as Client[]).map((c) => c.name);

  async function addClient(name: string, abbr: string, license: 'trial' | 'full') {
    const response = await legacy('POST', '/partner-clients', partner, {
      name,
      abbr,
      license,
      adminEmail: `admin@${abbr}.example`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Client;
  }

  async function count(table: 'organisations' | 'users' | 'workers'): Promise<number> {
    const [row] = await server.ctx.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    return Number(row?.n);
  }

  async function auditEntries(action: string, target: string) {
    return server.ctx.db.query<{
      actor_email: string;
      organisation_id: string;
      outcome: string;
      details: Record<string, unknown>;
    }>(
      'select actor_email, organisation_id, outcome, details from audit_log where action = $1 and target = $2 order by seq',
      [action, target],
    );
  }

  describe('organisations and partners', () => {
    it("answers /client with the caller's own organisation and its worker", async () => {
      const own = await legacy('GET', '/client', admin);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual({
        clientId: contosoId,
        name: 'Contoso',
        license: 'full',
        partnerId: null,
        worker: {
          workerId: expect.any(String),
          workerIp: await workerIp(server, 'Contoso'),
          indexIp: expect.stringMatching(/^10\.65\.\d+\.\d+$/),
          clientId: contosoId,
          organisationName: 'Contoso',
          abbr: 'contoso',
          stagingtenant_id: TENANTS.contoso,
          cloud_portal_license: 'full',
        },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect((own.json() as Client).worker.workerIp).toMatch(/^10\.64\.\d+\.\d+$/);
      const partnerOwn = (await legacy('GET', '/client', partner)).json() as Client;
      expect(partnerOwn).toMatchObject({ clientId: fabrikamId, name: 'Fabrikam Partners', partnerId: null });
      expect(partnerOwn.worker).toMatchObject({ abbr: 'fabrikam', stagingtenant_id: null });
    });

    it('answers /clients and /client/{type} with the organisations the caller may act for', async () => {
      expect(names((await legacy('GET', '/clients', admin)).json())).toEqual(['Contoso']);
      const clients = (await legacy('GET', '/clients', partner)).json() as Client[];
      expect(clients.map((c) => [c.name, c.license, c.partnerId, c.worker.stagingtenant_id])).toEqual([
        ['Northwind Traders', 'full', fabrikamId, TENANTS.northwind],
        ['Tailspin Toys', 'trial', fabrikamId, TENANTS.tailspin],
        ['Woodgrove Bank', 'full', fabrikamId, TENANTS.woodgrove],
      ]);
      expect(new Set(clients.map((c) => c.worker.workerIp)).size).toBe(3);
      expect(
        clients.every((c) => c.worker.clientId === c.clientId && c.worker.cloud_portal_license === c.license),
      ).toBe(true);

      expect(names((await legacy('GET', '/client/trial', partner)).json())).toEqual(['Tailspin Toys']);
      expect(names((await legacy('GET', '/client/full', partner)).json())).toEqual([
        'Northwind Traders',
        'Woodgrove Bank',
      ]);
      expect(names((await legacy('GET', '/client/trial', admin)).json())).toEqual([]);
      expect(names((await legacy('GET', '/client/full', admin)).json())).toEqual(['Contoso']);
      const bad = await legacy('GET', '/client/gold', partner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'Invalid request', errors: { 'params/type': [expect.any(String)] } });
    });

    it('lets a partner add a client organisation with its licence, worker and invited administrator', async () => {
      const listed = await legacy('GET', '/partner-clients', partner);
      expect(listed.statusCode).toBe(200);
      expect(names(listed.json())).toEqual(['Northwind Traders', 'Tailspin Toys', 'Woodgrove Bank']);
      const mails = server.mails.length;

      const created = await legacy('POST', '/partner-clients', partner, {
        name: 'Litware Inc',
        abbr: 'litware',
        license: 'trial',
        adminEmail: 'admin@litware.example',
      });
      expect(created.statusCode, created.body).toBe(200);
      const client = created.json() as Client;
      expect(client).toEqual({
        clientId: expect.any(String),
        name: 'Litware Inc',
        license: 'trial',
        partnerId: fabrikamId,
        worker: {
          workerId: expect.any(String),
          workerIp: expect.stringMatching(/^10\.64\.\d+\.\d+$/),
          indexIp: expect.stringMatching(/^10\.65\.\d+\.\d+$/),
          clientId: client.clientId,
          organisationName: 'Litware Inc',
          abbr: 'litware',
          stagingtenant_id: null,
          cloud_portal_license: 'trial',
        },
        createdAt: expect.any(String),
      });
      const ips = await server.ctx.db.query<{ worker_ip: string }>('select worker_ip from workers');
      expect(ips.filter((r) => r.worker_ip === client.worker.workerIp)).toHaveLength(1);
      expect(names((await legacy('GET', '/partner-clients', partner)).json())).toEqual([
        'Litware Inc',
        'Northwind Traders',
        'Tailspin Toys',
        'Woodgrove Bank',
      ]);
      expect(names((await legacy('GET', '/client/trial', partner)).json())).toEqual(['Litware Inc', 'Tailspin Toys']);

      const [user] = await server.ctx.db.query<{ role: string; organisation_id: string; totp_enabled: boolean }>(
        'select role, organisation_id, totp_enabled from users where email = $1',
        ['admin@litware.example'],
      );
      expect(user).toEqual({ role: 'admin', organisation_id: client.clientId, totp_enabled: false });
      expect(server.mails.length).toBe(mails + 1);
      const mail = server.mails.at(-1);
      expect(mail).toMatchObject({
        to: 'admin@litware.example',
        subject: 'Your compliance portal account for Litware Inc',
      });
      expect(mail?.link).toMatch(/^http:\/\/portal\.test\/invitation\/.+/);
      expect(await auditEntries('partner.client.create', client.clientId)).toEqual([
        {
          actor_email: PARTNER,
          organisation_id: client.clientId,
          outcome: 'success',
          details: { name: 'Litware Inc', license: 'trial', adminEmail: 'admin@litware.example' },
        },
      ]);

      // The invited administrator chooses a password through the link and works in the new organisation.
      const accepted = await server.request({
        method: 'POST',
        url: `/api/auth/invitations/${mail?.link?.split('/').at(-1)}`,
        body: { password: 'Litware-Passw0rd!', confirmPassword: 'Litware-Passw0rd!' },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const { token } = await signInWithSetup(server, 'admin@litware.example', 'Litware-Passw0rd!');
      expect(names((await legacy('GET', '/clients', token)).json())).toEqual(['Litware Inc']);
      expect((await apollo('GET', '/license', token)).json()).toMatchObject({
        organisationId: client.clientId,
        kind: 'trial',
        limits: TRIAL_LIMITS,
      });
    });

    it('refuses a partner client with a taken short name or email, bad fields, or from a non-partner', async () => {
      const before = { organisations: await count('organisations'), users: await count('users') };
      const mails = server.mails.length;
      // A short name is compared with the partner's own organisation and its clients only.
      const takenAbbr = await legacy('POST', '/partner-clients', partner, {
        name: 'Another Northwind',
        abbr: 'northwind',
        license: 'full',
        adminEmail: 'someone@another.example',
      });
      expect(takenAbbr.statusCode).toBe(409);
      expect(takenAbbr.json()).toEqual({
        message: 'This short name is already used by one of your organisations.',
        code: 'shortNameTaken',
      });
      const takenEmail = await legacy('POST', '/partner-clients', partner, {
        name: 'Fresh Org',
        abbr: 'fresh-org',
        license: 'full',
        adminEmail: ADMIN,
      });
      expect(takenEmail.statusCode).toBe(409);
      expect(takenEmail.json()).toEqual({ message: 'A user with this email already exists.', code: 'emailTaken' });
      const bad = await legacy('POST', '/partner-clients', partner, {
        name: 'L',
        abbr: 'Bad Abbr',
        license: 'gold',
        adminEmail: 'not-an-email',
      });
      expect(bad.statusCode).toBe(400);
      const { message, errors } = bad.json() as LegacyError;
      expect(message).toBe('Invalid request');
      expect(Object.keys(errors ?? {}).sort()).toEqual(['body/abbr', 'body/adminEmail', 'body/license', 'body/name']);
      const blank = await legacy('POST', '/partner-clients', partner, {
        name: '    ',
        abbr: 'blank-org',
        license: 'full',
        adminEmail: 'admin@blank-org.example',
      });
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({ message: 'Invalid request', errors: { 'body/name': [expect.any(String)] } });
      const byAdmin = await legacy('POST', '/partner-clients', admin, {
        name: 'Admin Org',
        abbr: 'admin-org',
        license: 'full',
        adminEmail: 'admin@admin-org.example',
      });
      expect(byAdmin.statusCode).toBe(403);
      expect((await legacy('GET', '/partner-clients', admin)).statusCode).toBe(403);
      expect({ organisations: await count('organisations'), users: await count('users') }).toEqual(before);
      expect(server.mails.length).toBe(mails);
    });

    it('lists the partners with their client counts to operators only', async () => {
      for (const token of [admin, partner]) {
        const refused = await legacy('GET', '/partners-list', token);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ message: 'Access denied' });
      }
      const [row] = await server.ctx.db.query<{ n: number }>(
        'select count(*)::int as n from organisations where partner_id = $1',
        [fabrikamId],
      );
      const list = await legacy('GET', '/partners-list', operator);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual([{ partnerId: fabrikamId, name: 'Fabrikam Partners', clientCount: Number(row?.n) }]);
      expect(Number(row?.n)).toBeGreaterThanOrEqual(3);
    });
  });

  describe('worker checks', () => {
    it("reports a configured worker's checks as passing", async () => {
      const ip = await workerIp(server, 'Contoso');
      const response = await legacy('GET', `/worker/stats/checks/${ip}`, admin);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        workerIp: ip,
        online: true,
        lastSeen: new Date(server.clock.now).toISOString(),
        checks: [
          { name: 'database', ok: true, message: expect.stringMatching(/^(pglite|postgres), answered in \d+ ms$/) },
          { name: 'tenant', ok: true },
          { name: 'provisioning', ok: true },
          { name: 'storage', ok: true },
        ],
      });
    });

    it('reports what a new client still lacks, check by check, until it is set up', async () => {
      const client = await addClient('Proseware', 'proseware', 'full');
      const checks = async () => {
        const response = await legacy('GET', `/worker/stats/checks/${client.worker.workerIp}`, partner);
        expect(response.statusCode, response.body).toBe(200);
        return (response.json() as Checks).checks.filter((c) => c.name !== 'database');
      };
      expect(await checks()).toEqual([
        { name: 'tenant', ok: false, message: 'No tenant was found in the configuration, please configure one.' },
        { name: 'provisioning', ok: false, message: 'The tenant is missing.' },
        { name: 'storage', ok: false, message: 'No storage location is configured.' },
      ]);

      const tenantId = randomUUID();
      const created = await apollo('POST', '/api/Tenants', partner, {
        tenantName: 'proseware.onmicrosoft.com',
        applicationId: randomUUID(),
        clientSecret: 'proseware-secret',
        tenantId,
        objectId: randomUUID(),
        redirectUri: 'https://portal.example/auth/callback',
        organisationId: client.clientId,
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(await checks()).toEqual([
        { name: 'tenant', ok: true },
        { name: 'provisioning', ok: false, message: 'The tenant is notProvisioned.' },
        { name: 'storage', ok: false, message: 'No storage location is configured.' },
      ]);

      await apollo('POST', `/api/${tenantId}/locations`, partner, {
        name: 'Primary',
        siteAddress: 'https://proseware.sharepoint.com/sites/backup',
      });
      const task = (await apollo('POST', `/api/Tenants/${tenantId}/provision`, partner)).json() as { taskId: string };
      for (let i = 0; i < 300; i++) {
        const status = (await apollo('GET', `/api/Tenants/${tenantId}/${task.taskId}`, partner)).json() as {
          status: string;
        };
        if (status.status === 'succeeded') break;
        expect(status.status).not.toBe('failed');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await checks()).toEqual([
        { name: 'tenant', ok: true },
        { name: 'provisioning', ok: true },
        { name: 'storage', ok: true },
      ]);

      const unknown = await legacy('GET', '/worker/stats/checks/10.99.99.99', partner);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'Worker not found' });
    });
  });

  describe('licence', () => {
    it('answers a full licence without limits', async () => {
      const response = await apollo('GET', '/license', admin);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        organisationId: contosoId,
        kind: 'full',
        validUntil: null,
        limits: null,
        used: { backupJobs: NO_USE, restores: NO_USE },
      });
      expect((await apollo('GET', '/license', partner)).json()).toMatchObject({
        organisationId: fabrikamId,
        kind: 'full',
        limits: null,
      });
    });

    it('answers a trial licence with its limits, what is used of them, and its end', async () => {
      const tailspinId = await organisationId(server, 'Tailspin Toys');
      const jobs: [string, string][] = [
        ['backup', 'onedrive'],
        ['backup', 'teams'],
        ['restore', 'sharepoint'],
        ['restore', 'sharepoint'],
      ];
      for (const [type, application] of jobs) {
        await server.ctx.db.query(
          `insert into jobs (job_id, tenant_id, name, type, application) values ($1, $2, 'Job', $3, $4)`,
          [randomUUID(), TENANTS.tailspin, type, application],
        );
      }
      await server.ctx.db.query('update organisations set license_valid_until = $2 where id = $1', [
        tailspinId,
        new Date('2026-12-31T00:00:00.000Z'),
      ]);
      const response = await apollo('GET', `/license?organisationId=${tailspinId}`, partner);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        organisationId: tailspinId,
        kind: 'trial',
        validUntil: '2026-12-31T00:00:00.000Z',
        limits: { ...TRIAL_LIMITS },
        used: {
          backupJobs: { onedrive: 1, sharepoint: 0, teams: 1 },
          restores: { onedrive: 0, sharepoint: 2, teams: 0 },
        },
      });
      const unknown = await apollo('GET', `/license?organisationId=${randomUUID()}`, partner);
      expect(unknown.statusCode).toBe(404);
      await server.ctx.db.query('delete from jobs where tenant_id = $1', [TENANTS.tailspin]);
    });
  });

  describe('backup configuration', () => {
    it("answers a tenant's backup settings, with defaults for a tenant that has none yet", async () => {
      const [primary] = await server.ctx.db.query<{ location_id: string }>(
        "select location_id from locations where tenant_id = $1 and name = 'Primary storage'",
        [TENANTS.contoso],
      );
      const response = await apollo('GET', `/backup-config?tenantId=${TENANTS.contoso}`, admin);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        tenantId: TENANTS.contoso,
        defaultLocationId: primary?.location_id,
        pricePerGbMonth: 0.02,
        currency: 'EUR',
        teamsConfigured: true,
        exchangeConfigured: true,
        maxConcurrency: 4,
      });

      const tenantId = randomUUID();
      await apollo('POST', '/api/Tenants', admin, {
        tenantName: 'fresh.onmicrosoft.com',
        applicationId: randomUUID(),
        clientSecret: 'fresh-secret',
        tenantId,
        objectId: randomUUID(),
        redirectUri: 'https://portal.example/auth/callback',
        organisationId: contosoId,
      });
      expect((await apollo('GET', `/backup-config?tenantId=${tenantId}`, admin)).json()).toEqual({
        tenantId,
        defaultLocationId: null,
        pricePerGbMonth: 0.02,
        currency: 'EUR',
        teamsConfigured: false,
        exchangeConfigured: false,
        maxConcurrency: 4,
      });
      expect((await apollo('DELETE', `/api/Tenants/${tenantId}`, admin)).statusCode).toBe(200);

      const missing = await apollo('GET', '/backup-config', admin);
      expect(missing.statusCode).toBe(400);
      expect(Object.keys((missing.json() as Problem).errors ?? {})).toEqual(['querystring/tenantId']);
      const unknown = await apollo('GET', `/backup-config?tenantId=${randomUUID()}`, admin);
      expect(unknown.statusCode).toBe(404);
      expect((unknown.json() as Problem).detail).toBe('Tenant not found');
    });

    it('changes only the given backup settings, checks the default location and audits the change', async () => {
      const read = async () =>
        (await apollo('GET', `/backup-config?tenantId=${TENANTS.contoso}`, admin)).json() as BackupConfig;
      const before = await read();
      const update = await apollo('PUT', '/backup-update-config', admin, {
        tenantId: TENANTS.contoso,
        pricePerGbMonth: 0.05,
        currency: 'usd',
      });
      expect(update.statusCode, update.body).toBe(200);
      expect(update.json()).toEqual({ ...before, pricePerGbMonth: 0.05, currency: 'USD' });
      expect(await read()).toEqual(update.json());
      expect(await auditEntries('config.backup.update', TENANTS.contoso)).toEqual([
        {
          actor_email: ADMIN,
          organisation_id: contosoId,
          outcome: 'success',
          details: { changed: ['pricePerGbMonth', 'currency'] },
        },
      ]);

      const [archive] = await server.ctx.db.query<{ location_id: string }>(
        "select location_id from locations where tenant_id = $1 and name = 'Archive storage'",
        [TENANTS.contoso],
      );
      const moved = await apollo('PUT', '/backup-update-config', admin, {
        tenantId: TENANTS.contoso,
        defaultLocationId: archive?.location_id,
        maxConcurrency: 8,
        teamsConfigured: false,
      });
      expect(moved.json()).toMatchObject({
        defaultLocationId: archive?.location_id,
        maxConcurrency: 8,
        teamsConfigured: false,
        exchangeConfigured: true,
        currency: 'USD',
      });
      const cleared = await apollo('PUT', '/backup-update-config', admin, {
        tenantId: TENANTS.contoso,
        defaultLocationId: null,
      });
      expect(cleared.json()).toMatchObject({ defaultLocationId: null, maxConcurrency: 8 });
      const current = await read();

      // A location of another tenant, or none at all, is no default location.
      const [foreign] = await server.ctx.db.query<{ location_id: string }>(
        'select location_id from locations where tenant_id = $1 limit 1',
        [TENANTS.northwind],
      );
      for (const defaultLocationId of [foreign?.location_id, randomUUID()]) {
        const refused = await apollo('PUT', '/backup-update-config', admin, {
          tenantId: TENANTS.contoso,
          defaultLocationId,
        });
        expect(refused.statusCode).toBe(404);
        expect((refused.json() as Problem).detail).toBe('Location not found');
      }
      const invalid = await apollo('PUT', '/backup-update-config', admin, {
        tenantId: TENANTS.contoso,
        pricePerGbMonth: -1,
        currency: 'EURO',
        maxConcurrency: 17,
        teamsConfigured: 'yes',
      });
      expect(invalid.statusCode).toBe(400);
      expect(Object.keys((invalid.json() as Problem).errors ?? {}).sort()).toEqual([
        'body/currency',
        'body/maxConcurrency',
        'body/pricePerGbMonth',
        'body/teamsConfigured',
      ]);
      expect(await read()).toEqual(current);
      expect((await auditEntries('config.backup.update', TENANTS.contoso)).length).toBe(3);
    });
  });

  describe('switching the active tenant', () => {
    it("makes a tenant the organisation's active one and its worker's", async () => {
      const tenantId = randomUUID();
      await apollo('POST', '/api/Tenants', admin, {
        tenantName: 'switch.onmicrosoft.com',
        applicationId: randomUUID(),
        clientSecret: 'switch-secret',
        tenantId,
        objectId: randomUUID(),
        redirectUri: 'https://portal.example/auth/callback',
        organisationId: contosoId,
      });
      const switched = await apollo('POST', '/v2/onedrive/switch-tenant', admin, { tenantId });
      expect(switched.statusCode, switched.body).toBe(200);
      expect(switched.json()).toEqual({ tenantId, tenantName: 'switch.onmicrosoft.com', isActive: true });
      expect(((await legacy('GET', '/client', admin)).json() as Client).worker.stagingtenant_id).toBe(tenantId);
      const tenants = (await apollo('GET', '/api/Tenants', admin)).json() as { tenantId: string; isActive: boolean }[];
      expect(tenants.filter((t) => t.isActive).map((t) => t.tenantId)).toEqual([tenantId]);
      expect(await auditEntries('tenant.switch', tenantId)).toEqual([
        expect.objectContaining({ actor_email: ADMIN, organisation_id: contosoId, outcome: 'success' }),
      ]);

      expect((await apollo('POST', '/v2/onedrive/switch-tenant', admin, {})).statusCode).toBe(400);
      expect((await apollo('POST', '/v2/onedrive/switch-tenant', admin, { tenantId: randomUUID() })).statusCode).toBe(
        404,
      );
      expect(((await legacy('GET', '/client', admin)).json() as Client).worker.stagingtenant_id).toBe(tenantId);

      await apollo('POST', '/v2/onedrive/switch-tenant', admin, { tenantId: TENANTS.contoso });
      expect(((await legacy('GET', '/client', admin)).json() as Client).worker.stagingtenant_id).toBe(TENANTS.contoso);
      expect((await apollo('DELETE', `/api/Tenants/${tenantId}`, admin)).statusCode).toBe(200);
    });
  });

  describe('users and notifications', () => {
    it('creates invited users within the roles an organisation allows', async () => {
      const mails = server.mails.length;
      const created = await legacy('POST', '/admin/user_create', admin, {
        email: 'Second@Contoso.example',
        displayName: 'Second Admin',
        role: 'admin',
      });
      expect(created.statusCode, created.body).toBe(201);
      const user = created.json() as { userId: string };
      expect(user).toEqual({
        userId: expect.any(String),
        email: 'second@contoso.example',
        displayName: 'Second Admin',
        role: 'admin',
        organisationId: contosoId,
        twoFactorEnabled: false,
        ediscoveryManager: false,
        createdAt: expect.any(String),
        status: 'invited',
        lastSignInAt: null,
        invitedAt: new Date(server.clock.now).toISOString(),
        deactivatedAt: null,
      });
      expect(server.mails.length).toBe(mails + 1);
      expect(server.mails.at(-1)?.to.toLowerCase()).toBe('second@contoso.example');
      expect(server.mails.at(-1)?.subject).toBe('Your compliance portal account for Contoso');
      expect(await auditEntries('user.create', user.userId)).toEqual([
        {
          actor_email: ADMIN,
          organisation_id: contosoId,
          outcome: 'success',
          details: { email: 'Second@Contoso.example', role: 'admin' },
        },
      ]);
      // The invited user has no password anyone knows until the link is used.
      const signin = await server.request({
        method: 'POST',
        url: '/api/auth/signin',
        body: { email: 'second@contoso.example', password: 'Demo-Passw0rd!' },
      });
      expect(signin.statusCode).toBe(401);

      const duplicate = await legacy('POST', '/admin/user_create', admin, {
        email: 'second@contoso.example',
        displayName: 'Again',
        role: 'admin',
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toEqual({ message: 'A user with this email already exists.', code: 'emailTaken' });

      const northwindId = await organisationId(server, 'Northwind Traders');
      const forClient = await legacy('POST', '/admin/user_create', partner, {
        email: 'it@northwind.example',
        displayName: 'Northwind IT',
        role: 'admin',
        organisationId: northwindId,
      });
      expect(forClient.statusCode, forClient.body).toBe(201);
      expect(forClient.json()).toMatchObject({ role: 'admin', organisationId: northwindId });
      const colleague = await legacy('POST', '/admin/user_create', partner, {
        email: 'colleague@fabrikam.example',
        displayName: 'Colleague',
        role: 'partner',
      });
      expect(colleague.statusCode, colleague.body).toBe(201);
      expect(colleague.json()).toMatchObject({ role: 'partner', organisationId: fabrikamId });

      const users = await count('users');
      const wrongRole = await legacy('POST', '/admin/user_create', admin, {
        email: 'p@contoso.example',
        displayName: 'Would-be partner',
        role: 'partner',
      });
      expect(wrongRole.statusCode).toBe(403);
      expect(wrongRole.json()).toEqual({ message: 'The role partner cannot be given in this organisation.' });
      const bad = await legacy('POST', '/admin/user_create', admin, { email: 'nope', displayName: '', role: 'root' });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys((bad.json() as LegacyError).errors ?? {}).sort()).toEqual([
        'body/displayName',
        'body/email',
        'body/role',
      ]);
      expect(await count('users')).toBe(users);
    });

    it("keeps each user's notification settings", async () => {
      const defaults = {
        jobFailed: true,
        jobFinished: false,
        dailySummary: false,
        weeklyReport: true,
        licenseExpiry: true,
      };
      const initial = await legacy('GET', '/admin/notifications', admin);
      expect(initial.statusCode).toBe(200);
      expect(initial.json()).toEqual(defaults);
      const settings = {
        jobFailed: false,
        jobFinished: true,
        dailySummary: true,
        weeklyReport: false,
        licenseExpiry: false,
        email: 'alerts@contoso.example',
      };
      const saved = await legacy('PUT', '/admin/notifications', admin, settings);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual(settings);
      expect((await legacy('GET', '/admin/notifications', admin)).json()).toEqual(settings);
      expect((await legacy('GET', '/admin/notifications', partner)).json()).toEqual(defaults);

      for (const body of [
        { jobFailed: true },
        { ...settings, email: 'not-an-email' },
        { ...settings, jobFailed: 'yes' },
      ]) {
        const refused = await legacy('PUT', '/admin/notifications', admin, body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(400);
        expect(refused.json()).toMatchObject({ message: 'Invalid request', errors: expect.any(Object) });
      }
      expect((await legacy('GET', '/admin/notifications', admin)).json()).toEqual(settings);
    });
  });
});
