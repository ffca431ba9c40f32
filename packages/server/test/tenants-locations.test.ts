import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto/secret-box.js';
import type { SqlValue } from '../src/db/database.js';
import { ADMIN, organisationId, PARTNER, sessionToken, TENANTS, useTestServer, workerIp } from './helpers.js';

interface Tenant {
  tenantId: string;
  tenantName: string;
  applicationId: string;
  objectId: string;
  redirectUri: string;
  organisationId: string;
  hasClientSecret: boolean;
  isActive: boolean;
  provisioning: string;
  createdAt: string;
  updatedAt: string;
}
interface Task {
  taskId: string;
  tenantId: string;
  kind: string;
  status: string;
  progress: number;
  message?: string;
  started: string;
  finished: string | null;
}
interface Location {
  locationId: string;
  name: string;
  siteAddress: string;
  usedByJobs: number;
  createdAt: string;
}
interface AuditItem {
  actorEmail: string | null;
  organisationId: string | null;
  action: string;
  target: string | null;
  outcome: string;
  ip: string | null;
  details: Record<string, unknown>;
}
interface Problem {
  status: number;
  title: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

const TENANT_FIELDS = [
  'applicationId',
  'createdAt',
  'hasClientSecret',
  'isActive',
  'objectId',
  'organisationId',
  'provisioning',
  'redirectUri',
  'tenantId',
  'tenantName',
  'updatedAt',
];

describe('tenants and locations', () => {
  const server = useTestServer();
  let admin = '';
  let contosoId = '';

  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    contosoId = await organisationId(server, 'Contoso');
  });
  // Each test starts with Contoso's seeded tenant as its only one, and the active one: tests add tenants.
  beforeEach(async () => {
    await server.ctx.db.query('delete from tenants where organisation_id = $1 and tenant_id <> $2', [
      contosoId,
      TENANTS.contoso,
    ]);
    await server.ctx.db.query('update tenants set is_active = true where tenant_id = $1', [TENANTS.contoso]);
    await server.ctx.db.query('update workers set stagingtenant_id = $2 where organisation_id = $1', [
      contosoId,
      TENANTS.contoso,
    ]);
  });

  const api = (method: string, path: string, body?: unknown, token = admin) =>
    server.request({ method, url: `/apollo${path}`, token, ...(body !== undefined ? { body } : {}) });

  const tenantBody = (overrides: Record<string, unknown> = {}) => ({
    tenantName: `t-${randomUUID().slice(0, 8)}.onmicrosoft.com`,
    applicationId: randomUUID(),
    clientSecret: 'a-client-secret',
    tenantId: randomUUID(),
    objectId: randomUUID(),
    redirectUri: 'https://portal.example/auth/callback',
    organisationId: contosoId,
    ...overrides,
  });

  async function createTenant(overrides: Record<string, unknown> = {}, token = admin): Promise<Tenant> {
    const response = await api('POST', '/api/Tenants', tenantBody(overrides), token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Tenant;
  }

  async function tenantsCount(): Promise<number> {
    const [row] = await server.ctx.db.query<{ n: number }>('select count(*)::int as n from tenants');
    return Number(row?.n);
  }

  /** The audit entries of an action on a target, newest first, through the audit API. */
  async function audit(action: string, target: string, token = admin): Promise<AuditItem[]> {
    const response = await api(
      'GET',
      `/api/audit-log?action=${encodeURIComponent(action)}&pageSize=500`,
      undefined,
      token,
    );
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { items: AuditItem[] }).items.filter((e) => e.target === target);
  }

  async function waitForTask(tenantId: string, taskId: string, token = admin): Promise<Task[]> {
    const seen: Task[] = [];
    for (let i = 0; i < 300; i++) {
      const response = await api('GET', `/api/Tenants/${tenantId}/${taskId}`, undefined, token);
      expect(response.statusCode, response.body).toBe(200);
      const task = response.json() as Task;
      seen.push(task);
      if (task.status === 'succeeded' || task.status === 'failed') return seen;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`task ${taskId} did not finish`);
  }

  async function insertJob(tenantId: string, options: { locationId?: string; status?: string; enabled?: boolean }) {
    const jobId = randomUUID();
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, location_id, status, enabled)
       values ($1, $2, 'Nightly OneDrive', 'backup', 'onedrive', $3, $4, $5)`,
      [jobId, tenantId, options.locationId ?? null, options.status ?? 'pending', options.enabled ?? true],
    );
    return jobId;
  }

  describe('tenants', () => {
    it('lists, reads, creates, updates and deletes tenants', async () => {
      const list = await api('GET', '/api/Tenants');
      expect(list.statusCode).toBe(200);
      const [contoso] = list.json() as Tenant[];
      expect((list.json() as Tenant[]).map((t) => t.tenantId)).toEqual([TENANTS.contoso]);
      expect(Object.keys(contoso ?? {}).sort()).toEqual(TENANT_FIELDS);
      expect(contoso).toMatchObject({
        tenantName: 'contoso.onmicrosoft.com',
        organisationId: contosoId,
        hasClientSecret: true,
        isActive: true,
        provisioning: 'provisioned',
      });

      // Ids are stored lower-case whatever case they are given in.
      const tenantId = randomUUID();
      const applicationId = randomUUID();
      const objectId = randomUUID();
      const createdAt = new Date(server.clock.now).toISOString();
      const create = await api(
        'POST',
        '/api/Tenants',
        tenantBody({
          tenantName: 'second.onmicrosoft.com',
          tenantId: tenantId.toUpperCase(),
          applicationId: applicationId.toUpperCase(),
          objectId: objectId.toUpperCase(),
        }),
      );
      expect(create.statusCode, create.body).toBe(200);
      const created = create.json() as Tenant;
      expect(created).toEqual({
        tenantId,
        tenantName: 'second.onmicrosoft.com',
        applicationId,
        objectId,
        redirectUri: 'https://portal.example/auth/callback',
        organisationId: contosoId,
        hasClientSecret: true,
        isActive: false,
        provisioning: 'notProvisioned',
        createdAt,
        updatedAt: createdAt,
      });
      expect((await api('GET', `/api/Tenants/${tenantId}`)).json()).toEqual(created);
      expect((await api('GET', `/api/Tenants/${tenantId.toUpperCase()}`)).json()).toEqual(created);
      expect(((await api('GET', '/api/Tenants')).json() as Tenant[]).map((t) => t.tenantName)).toEqual([
        'contoso.onmicrosoft.com',
        'second.onmicrosoft.com',
      ]);
      expect(await audit('tenant.create', tenantId)).toEqual([
        expect.objectContaining({
          actorEmail: ADMIN,
          organisationId: contosoId,
          outcome: 'success',
          ip: '127.0.0.1',
          details: { tenantName: 'second.onmicrosoft.com' },
        }),
      ]);

      const again = await api('POST', '/api/Tenants', tenantBody({ tenantId }));
      expect(again.statusCode).toBe(409);
      expect((again.json() as Problem).detail).toBe('A tenant with this tenant ID is already connected.');

      server.clock.advance(60_000);
      const update = await api('PUT', `/api/Tenants/${tenantId}`, {
        tenantName: 'renamed.onmicrosoft.com',
        redirectUri: 'https://portal.example/other/callback',
      });
      expect(update.statusCode, update.body).toBe(200);
      expect(update.json()).toEqual({
        ...created,
        tenantName: 'renamed.onmicrosoft.com',
        redirectUri: 'https://portal.example/other/callback',
        updatedAt: new Date(server.clock.now).toISOString(),
      });
      expect((await api('GET', `/api/Tenants/${tenantId}`)).json()).toEqual(update.json());
      expect(await audit('tenant.update', tenantId)).toEqual([
        expect.objectContaining({
          actorEmail: ADMIN,
          organisationId: contosoId,
          outcome: 'success',
          details: { changed: ['tenantName', 'redirectUri'], clientSecretReplaced: false },
        }),
      ]);

      // Deleting a tenant removes its locations with it.
      const location = await api('POST', `/api/${tenantId}/locations`, {
        name: 'Doomed',
        siteAddress: 'https://contoso.sharepoint.com/sites/doomed',
      });
      expect(location.statusCode).toBe(200);
      const remove = await api('DELETE', `/api/Tenants/${tenantId}`);
      expect(remove.statusCode, remove.body).toBe(200);
      expect(remove.body).toBe('');
      const gone = await api('GET', `/api/Tenants/${tenantId}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ status: 404, detail: 'Tenant not found' });
      expect((await api('DELETE', `/api/Tenants/${tenantId}`)).statusCode).toBe(404);
      expect(((await api('GET', '/api/Tenants')).json() as Tenant[]).map((t) => t.tenantId)).toEqual([TENANTS.contoso]);
      expect(await server.ctx.db.query('select 1 from locations where tenant_id = $1', [tenantId])).toEqual([]);
      expect(await audit('tenant.delete', tenantId)).toEqual([
        expect.objectContaining({ actorEmail: ADMIN, organisationId: contosoId, outcome: 'success' }),
      ]);
    });

    it("makes an organisation's first tenant the active one of its worker, hands over to the next when deleted, and clears it after the last", async () => {
      const partner = await sessionToken(server, PARTNER);
      const client = await server.request({
        method: 'POST',
        url: '/api/partner-clients',
        token: partner,
        body: { name: 'Litware Inc', abbr: 'litware', license: 'full', adminEmail: 'admin@litware.example' },
      });
      expect(client.statusCode, client.body).toBe(200);
      const { clientId, worker } = client.json() as { clientId: string; worker: { stagingtenant_id: string | null } };
      expect(worker.stagingtenant_id).toBeNull();
      const stagingTenant = async () => {
        const [row] = await server.ctx.db.query<{ stagingtenant_id: string | null }>(
          'select stagingtenant_id from workers where organisation_id = $1',
          [clientId],
        );
        return row?.stagingtenant_id;
      };

      const first = await createTenant({ organisationId: clientId }, partner);
      expect(first.isActive).toBe(true);
      expect(await stagingTenant()).toBe(first.tenantId);
      const second = await createTenant({ organisationId: clientId }, partner);
      expect(second.isActive).toBe(false);
      expect(await stagingTenant()).toBe(first.tenantId);

      expect((await api('DELETE', `/api/Tenants/${first.tenantId}`, undefined, partner)).statusCode).toBe(200);
      // The worker goes on with the tenant left, now the organisation's active one; /client says so.
      expect(await stagingTenant()).toBe(second.tenantId);
      const own = (await api('GET', '/api/Tenants', undefined, partner)).json() as Tenant[];
      expect(own.find((t) => t.tenantId === second.tenantId)?.isActive).toBe(true);
      const clients = (await server.request({ method: 'GET', url: '/api/partner-clients', token: partner })).json() as {
        clientId: string;
        worker: { stagingtenant_id: string | null };
      }[];
      expect(clients.find((c) => c.clientId === clientId)?.worker.stagingtenant_id).toBe(second.tenantId);

      expect((await api('DELETE', `/api/Tenants/${second.tenantId}`, undefined, partner)).statusCode).toBe(200);
      expect(await stagingTenant()).toBeNull();
      // The next tenant connected is the active one again.
      const third = await createTenant({ organisationId: clientId }, partner);
      expect(third.isActive).toBe(true);
      expect(await stagingTenant()).toBe(third.tenantId);
    });

    it('switches the active tenant of the organisation and its worker', async () => {
      const second = await createTenant({ tenantName: 'zz-second.onmicrosoft.com' });
      const ip = await workerIp(server, 'Contoso');
      // Other tests switch back to Contoso too: this test's switch is one more.
      const contosoSwitches = (await audit('tenant.switch', TENANTS.contoso)).length;
      const switched = await server.request({
        method: 'POST',
        url: '/apollo/v2/onedrive/switch-tenant',
        token: admin,
        body: { tenantId: second.tenantId },
      });
      expect(switched.statusCode, switched.body).toBe(200);
      expect(switched.json()).toEqual({ tenantId: second.tenantId, tenantName: second.tenantName, isActive: true });
      const active = ((await api('GET', '/api/Tenants')).json() as Tenant[]).map((t) => [t.tenantId, t.isActive]);
      expect(active).toEqual([
        [TENANTS.contoso, false],
        [second.tenantId, true],
      ]);
      const own = await server.request({ method: 'GET', url: '/api/client', token: admin });
      expect((own.json() as { worker: { stagingtenant_id: string } }).worker.stagingtenant_id).toBe(second.tenantId);
      // The legacy locations of the worker follow the active tenant.
      const backup = await server.request({ method: 'GET', url: `/api/backup-locations/${ip}`, token: admin });
      expect(backup.json()).toEqual([]);

      await server.request({
        method: 'POST',
        url: '/apollo/v2/onedrive/switch-tenant',
        token: admin,
        body: { tenantId: TENANTS.contoso },
      });
      const back = await server.request({ method: 'GET', url: `/api/backup-locations/${ip}`, token: admin });
      expect((back.json() as Location[]).map((l) => l.name)).toEqual(['Archive storage', 'Primary storage']);
      expect((await audit('tenant.switch', second.tenantId)).length).toBe(1);
      expect((await audit('tenant.switch', TENANTS.contoso)).length).toBe(contosoSwitches + 1);

      const unknown = await server.request({
        method: 'POST',
        url: '/apollo/v2/onedrive/switch-tenant',
        token: admin,
        body: { tenantId: randomUUID() },
      });
      expect(unknown.statusCode).toBe(404);
      expect((await api('DELETE', `/api/Tenants/${second.tenantId}`)).statusCode).toBe(200);
    });

    it('keeps the client secret encrypted at rest and never returns it', async () => {
      const secret = `Plain-Client-Secret-${randomUUID()}`;
      const replacement = `Replaced-Client-Secret-${randomUUID()}`;
      const answers: string[] = [];
      const keep = async (response: LightMyRequestResponse) => {
        expect(response.statusCode, response.body).toBeLessThan(300);
        answers.push(response.body);
        return response;
      };
      const create = await keep(await api('POST', '/api/Tenants', tenantBody({ clientSecret: secret })));
      const tenant = create.json() as Tenant;
      expect(tenant).not.toHaveProperty('clientSecret');
      expect(tenant.hasClientSecret).toBe(true);

      const stored = async () => {
        const [row] = await server.ctx.db.query<{ client_secret_enc: string; row: string }>(
          'select client_secret_enc, row_to_json(t)::text as row from tenants t where tenant_id = $1',
          [tenant.tenantId],
        );
        if (!row) throw new Error('tenant row missing');
        return row;
      };
      const first = await stored();
      expect(first.client_secret_enc).toMatch(/^v1\./);
      expect(first.row).not.toContain(secret);
      expect(server.ctx.secrets.open(first.client_secret_enc)).toBe(secret);

      await keep(await api('GET', `/api/Tenants/${tenant.tenantId}`));
      await keep(await api('GET', '/api/Tenants'));
      const updated = await keep(await api('PUT', `/api/Tenants/${tenant.tenantId}`, { clientSecret: replacement }));
      expect(updated.json()).toMatchObject({ hasClientSecret: true });
      const second = await stored();
      expect(second.client_secret_enc).not.toBe(first.client_secret_enc);
      expect(second.row).not.toContain(replacement);
      expect(server.ctx.secrets.open(second.client_secret_enc)).toBe(replacement);
      expect(await audit('tenant.update', tenant.tenantId)).toEqual([
        expect.objectContaining({ details: { changed: [], clientSecretReplaced: true } }),
      ]);

      const task = await keep(await api('POST', `/api/Tenants/${tenant.tenantId}/provision`));
      const { taskId } = task.json() as Task;
      answers.push(...(await waitForTask(tenant.tenantId, taskId)).map((t) => JSON.stringify(t)));
      await keep(await api('GET', '/api/audit-log?pageSize=500'));
      await keep(
        await server.request({
          method: 'POST',
          url: '/apollo/v2/onedrive/switch-tenant',
          token: admin,
          body: { tenantId: tenant.tenantId },
        }),
      );
      await keep(
        await server.request({
          method: 'POST',
          url: '/apollo/v2/onedrive/switch-tenant',
          token: admin,
          body: { tenantId: TENANTS.contoso },
        }),
      );
      for (const body of answers) {
        expect(body).not.toContain(secret);
        expect(body).not.toContain(replacement);
        expect(body).not.toContain(first.client_secret_enc);
        expect(body).not.toContain(second.client_secret_enc);
      }
      const leaks = await server.ctx.db.query(
        `select seq from audit_log where details::text like '%' || $1 || '%' or details::text like '%' || $2 || '%'`,
        [secret, replacement],
      );
      expect(leaks).toEqual([]);
      await keep(await api('DELETE', `/api/Tenants/${tenant.tenantId}`));
    });
  });

  describe('provisioning', () => {
    it('provisions asynchronously, with a status endpoint that reports progress until done', async () => {
      const tenant = await createTenant();
      const db = server.ctx.db;
      const original = db.query.bind(db);
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let reached = () => {};
      let taskId = '';
      const atBackupSettings = new Promise<void>((resolve) => {
        reached = resolve;
      });
      // Holds the task at its second step, so that the status endpoint can be seen reporting it.
      db.query = async <T>(sql: string, params?: readonly SqlValue[]) => {
        if (sql.includes('insert into backup_config') && params?.[0] === tenant.tenantId) {
          reached();
          await gate;
        }
        return original<T>(sql, params);
      };
      try {
        const start = await api('POST', `/api/Tenants/${tenant.tenantId}/provision`);
        expect(start.statusCode, start.body).toBe(202);
        const task = start.json() as Task;
        taskId = task.taskId;
        expect(task).toEqual({
          taskId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          tenantId: tenant.tenantId,
          kind: 'provision',
          status: 'pending',
          progress: 0,
          started: new Date(server.clock.now).toISOString(),
          finished: null,
        });
        expect((await api('GET', `/api/Tenants/${tenant.tenantId}`)).json()).toMatchObject({
          provisioning: 'provisioning',
        });
        // One task at a time, and no deletion while it runs.
        for (const [method, path] of [
          ['POST', `/api/Tenants/${tenant.tenantId}/provision`],
          ['DELETE', `/api/Tenants/${tenant.tenantId}/provision`],
          ['DELETE', `/api/Tenants/${tenant.tenantId}`],
        ] as const) {
          const busy = await api(method, path);
          expect(busy.statusCode, `${method} ${path}`).toBe(409);
        }

        await atBackupSettings;
        const running = await api('GET', `/api/Tenants/${tenant.tenantId}/${task.taskId}`);
        expect(running.json()).toMatchObject({
          status: 'running',
          progress: 60,
          message: 'Creating the backup settings',
          finished: null,
        });
        release();
        const seen = await waitForTask(tenant.tenantId, task.taskId);
        const progress = [0, 60, ...seen.map((t) => t.progress)];
        expect(progress).toEqual([...progress].sort((a, b) => a - b));
        expect(seen.at(-1)).toEqual({
          ...task,
          status: 'succeeded',
          progress: 100,
          message: 'Provisioned. Add a storage location before creating jobs.',
          finished: new Date(server.clock.now).toISOString(),
        });
      } finally {
        release();
        db.query = original;
      }
      expect((await api('GET', `/api/Tenants/${tenant.tenantId}`)).json()).toMatchObject({
        provisioning: 'provisioned',
      });
      expect(await db.query('select tenant_id from backup_config where tenant_id = $1', [tenant.tenantId])).toEqual([
        { tenant_id: tenant.tenantId },
      ]);
      expect(await audit('tenant.provision', tenant.tenantId)).toEqual([
        expect.objectContaining({ actorEmail: ADMIN, organisationId: contosoId, outcome: 'success' }),
      ]);

      // With a location, provisioning has nothing left to ask for.
      await api('POST', `/api/${tenant.tenantId}/locations`, {
        name: 'Vault',
        siteAddress: 'https://contoso.sharepoint.com/sites/vault',
      });
      const again = (await api('POST', `/api/Tenants/${tenant.tenantId}/provision`)).json() as Task;
      expect((await waitForTask(tenant.tenantId, again.taskId)).at(-1)).toMatchObject({
        status: 'succeeded',
        message: 'Provisioned.',
      });
      expect((await audit('tenant.provision', tenant.tenantId)).map((e) => e.details.taskId)).toEqual([
        again.taskId,
        taskId,
      ]);
    });

    it('deprovisions asynchronously and stops the tenant’s scheduled jobs', async () => {
      const tenant = await createTenant();
      const enabledJob = await insertJob(tenant.tenantId, { enabled: true });
      await insertJob(tenant.tenantId, { enabled: false });
      const otherJob = await insertJob(TENANTS.contoso, { enabled: true });
      const start = await api('DELETE', `/api/Tenants/${tenant.tenantId}/provision`);
      expect(start.statusCode, start.body).toBe(202);
      const task = start.json() as Task;
      expect(task).toMatchObject({ kind: 'deprovision', status: 'pending', progress: 0, finished: null });
      expect((await waitForTask(tenant.tenantId, task.taskId)).at(-1)).toMatchObject({
        status: 'succeeded',
        progress: 100,
        message: 'Deprovisioned; 1 scheduled job stopped.',
      });
      const jobs = await server.ctx.db.query<{ job_id: string; enabled: boolean }>(
        'select job_id, enabled from jobs where job_id = any($1) order by job_id',
        [[enabledJob, otherJob]],
      );
      expect(Object.fromEntries(jobs.map((j) => [j.job_id, j.enabled]))).toEqual({
        [enabledJob]: false,
        [otherJob]: true,
      });
      expect((await api('GET', `/api/Tenants/${tenant.tenantId}`)).json()).toMatchObject({
        provisioning: 'notProvisioned',
      });
      expect(await audit('tenant.deprovision', tenant.tenantId)).toEqual([
        expect.objectContaining({ actorEmail: ADMIN, outcome: 'success', details: { taskId: task.taskId } }),
      ]);
      await server.ctx.db.query('delete from jobs where tenant_id = any($1)', [[tenant.tenantId, TENANTS.contoso]]);
    });

    it('fails provisioning when the client secret cannot be opened or is missing, until it is replaced', async () => {
      const tenant = await createTenant();
      const otherKey = createSecretBox(Buffer.alloc(32, 9)).seal('sealed-with-another-key');
      for (const [sealed, message] of [
        [otherKey, 'Provisioning failed: the stored client secret cannot be read with the current PORTAL_SECRET_KEY.'],
        [null, 'Provisioning failed: no client secret is stored.'],
      ] as const) {
        await server.ctx.db.query('update tenants set client_secret_enc = $2 where tenant_id = $1', [
          tenant.tenantId,
          sealed,
        ]);
        const task = (await api('POST', `/api/Tenants/${tenant.tenantId}/provision`)).json() as Task;
        expect((await waitForTask(tenant.tenantId, task.taskId)).at(-1)).toMatchObject({
          status: 'failed',
          progress: 100,
          message,
          finished: expect.any(String),
        });
        expect((await api('GET', `/api/Tenants/${tenant.tenantId}`)).json()).toMatchObject({
          provisioning: 'failed',
          hasClientSecret: sealed !== null,
        });
        expect(
          await server.ctx.db.query('select 1 from backup_config where tenant_id = $1', [tenant.tenantId]),
        ).toEqual([]);
      }
      await api('PUT', `/api/Tenants/${tenant.tenantId}`, { clientSecret: 'a-fresh-secret' });
      const retry = (await api('POST', `/api/Tenants/${tenant.tenantId}/provision`)).json() as Task;
      expect((await waitForTask(tenant.tenantId, retry.taskId)).at(-1)).toMatchObject({ status: 'succeeded' });
    });

    it('ends a task as failed, never running forever, when a step breaks unexpectedly', async () => {
      const db = server.ctx.db;
      const original = db.query.bind(db);
      for (const [kind, method, breaks, message] of [
        ['provision', 'POST', 'insert into backup_config', /^Provisioning failed: /],
        ['deprovision', 'DELETE', 'update jobs set enabled = false', /^Deprovisioning failed: /],
      ] as const) {
        const tenant = await createTenant();
        db.query = async <T>(sql: string, params?: readonly SqlValue[]) => {
          if (sql.includes(breaks) && params?.[0] === tenant.tenantId) throw new Error('storage unavailable');
          return original<T>(sql, params);
        };
        try {
          const task = (await api(method, `/api/Tenants/${tenant.tenantId}/provision`)).json() as Task;
          const last = (await waitForTask(tenant.tenantId, task.taskId)).at(-1);
          expect(last, kind).toMatchObject({
            status: 'failed',
            progress: 100,
            message: expect.stringMatching(message),
          });
          expect(last?.message).not.toContain('storage unavailable');
        } finally {
          db.query = original;
        }
        expect((await api('GET', `/api/Tenants/${tenant.tenantId}`)).json()).toMatchObject({ provisioning: 'failed' });
        // Not stuck: the tenant can be provisioned again, and deleted.
        const retry = (await api('POST', `/api/Tenants/${tenant.tenantId}/provision`)).json() as Task;
        expect((await waitForTask(tenant.tenantId, retry.taskId)).at(-1)).toMatchObject({ status: 'succeeded' });
        expect((await api('DELETE', `/api/Tenants/${tenant.tenantId}`)).statusCode).toBe(200);
      }
    });

    it('answers 404 for an unknown task and for a task asked about under another tenant', async () => {
      const tenant = await createTenant();
      const task = (await api('POST', `/api/Tenants/${tenant.tenantId}/provision`)).json() as Task;
      await waitForTask(tenant.tenantId, task.taskId);
      for (const path of [
        `/api/Tenants/${tenant.tenantId}/${randomUUID()}`,
        `/api/Tenants/${TENANTS.contoso}/${task.taskId}`,
      ]) {
        const response = await api('GET', path);
        expect(response.statusCode).toBe(404);
        expect((response.json() as Problem).detail).toBe('Task not found');
      }
      const noTenant = await api('GET', `/api/Tenants/${randomUUID()}/${task.taskId}`);
      expect((noTenant.json() as Problem).detail).toBe('Tenant not found');
    });

    it('refuses to delete a tenant while its jobs run', async () => {
      const tenant = await createTenant();
      const jobId = await insertJob(tenant.tenantId, { status: 'running' });
      const response = await api('DELETE', `/api/Tenants/${tenant.tenantId}`);
      expect(response.statusCode).toBe(409);
      expect((response.json() as Problem).detail).toBe(
        'The tenant cannot be deleted while its jobs run; stop them first.',
      );
      expect((await api('GET', `/api/Tenants/${tenant.tenantId}`)).statusCode).toBe(200);
      expect(await audit('tenant.delete', tenant.tenantId)).toEqual([]);
      await server.ctx.db.query("update jobs set status = 'finished' where job_id = $1", [jobId]);
      expect((await api('DELETE', `/api/Tenants/${tenant.tenantId}`)).statusCode).toBe(200);
      expect(await server.ctx.db.query('select 1 from jobs where job_id = $1', [jobId])).toEqual([]);
    });
  });

  describe('locations', () => {
    it('lists, reads, creates, updates and deletes locations', async () => {
      const base = `/api/${TENANTS.contoso}/locations`;
      const list = await api('GET', base);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual([
        {
          locationId: expect.any(String),
          name: 'Archive storage',
          siteAddress: 'https://contoso.sharepoint.com/sites/compliance-archive',
          store: 'server',
          hasSecret: false,
          usedByJobs: 0,
          createdAt: expect.any(String),
        },
        {
          locationId: expect.any(String),
          name: 'Primary storage',
          siteAddress: 'https://contoso.sharepoint.com/sites/compliance-backup',
          store: 'server',
          hasSecret: false,
          usedByJobs: 0,
          createdAt: expect.any(String),
        },
      ]);

      const create = await api('POST', base, {
        name: '  Vault  ',
        siteAddress: ' https://contoso.sharepoint.com/sites/vault ',
      });
      // A URI with spaces around it is no URI: the contract refuses it.
      expect(create.statusCode).toBe(400);
      const created = await api('POST', base, {
        name: '  Vault  ',
        siteAddress: 'https://contoso.sharepoint.com/sites/vault',
      });
      expect(created.statusCode, created.body).toBe(200);
      const location = created.json() as Location;
      expect(location).toEqual({
        locationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Vault',
        siteAddress: 'https://contoso.sharepoint.com/sites/vault',
        store: 'server',
        hasSecret: false,
        usedByJobs: 0,
        createdAt: new Date(server.clock.now).toISOString(),
      });
      const path = `${base}/${location.locationId}`;
      expect((await api('GET', path)).json()).toEqual(location);
      expect(((await api('GET', base)).json() as Location[]).map((l) => l.name)).toEqual([
        'Archive storage',
        'Primary storage',
        'Vault',
      ]);

      // Names are compared as stored: trimmed and whatever their case.
      for (const name of ['VAULT', ' vault ']) {
        const duplicate = await api('POST', base, { name, siteAddress: 'https://contoso.sharepoint.com/sites/v' });
        expect(duplicate.statusCode, JSON.stringify(name)).toBe(409);
        expect((duplicate.json() as Problem).detail).toBe('A location with this name already exists.');
      }

      const update = await api('PUT', path, {
        name: 'Vault 2',
        siteAddress: 'https://contoso.sharepoint.com/sites/vault2',
      });
      expect(update.statusCode, update.body).toBe(200);
      expect(update.json()).toEqual({
        ...location,
        name: 'Vault 2',
        siteAddress: 'https://contoso.sharepoint.com/sites/vault2',
      });
      // Its own name is no conflict; another location's is.
      const same = await api('PUT', path, {
        name: 'vault 2',
        siteAddress: 'https://contoso.sharepoint.com/sites/vault3',
      });
      expect(same.json()).toMatchObject({
        name: 'vault 2',
        siteAddress: 'https://contoso.sharepoint.com/sites/vault3',
      });
      for (const name of ['Primary Storage', 'Primary storage  ']) {
        const clash = await api('PUT', path, { name, siteAddress: 'https://contoso.sharepoint.com/x' });
        expect(clash.statusCode, JSON.stringify(name)).toBe(409);
      }
      expect((await api('GET', path)).json()).toMatchObject({ name: 'vault 2' });

      // A location is reached through its own tenant only.
      const other = await createTenant();
      const wrongTenant = await api('GET', `/api/${other.tenantId}/locations/${location.locationId}`);
      expect(wrongTenant.statusCode).toBe(404);
      expect((wrongTenant.json() as Problem).detail).toBe('Location not found');
      expect((await api('GET', `/api/${other.tenantId}/locations`)).json()).toEqual([]);
      // The same name may be used in another tenant.
      expect(
        (await api('POST', `/api/${other.tenantId}/locations`, { name: 'Vault 2', siteAddress: 'https://x.example/s' }))
          .statusCode,
      ).toBe(200);

      const remove = await api('DELETE', path);
      expect(remove.statusCode, remove.body).toBe(200);
      expect(remove.body).toBe('');
      expect((await api('GET', path)).statusCode).toBe(404);
      expect((await api('DELETE', path)).statusCode).toBe(404);
      expect(((await api('GET', base)).json() as Location[]).map((l) => l.name)).toEqual([
        'Archive storage',
        'Primary storage',
      ]);

      for (const action of ['location.create', 'location.update', 'location.delete']) {
        const entries = await audit(action, location.locationId);
        expect(entries.length, action).toBeGreaterThan(0);
        expect(
          entries.every((e) => e.actorEmail === ADMIN && e.organisationId === contosoId && e.outcome === 'success'),
        ).toBe(true);
      }
      expect((await audit('location.update', location.locationId)).length).toBe(2);
      expect(await api('DELETE', `/api/Tenants/${other.tenantId}`)).toMatchObject({ statusCode: 200 });
    });

    it('refuses to delete a location used by a job', async () => {
      const base = `/api/${TENANTS.contoso}/locations`;
      const location = (await api('POST', base, {
        name: 'Job target',
        siteAddress: 'https://contoso.sharepoint.com/sites/job-target',
      }).then((r) => r.json())) as Location;
      const jobId = await insertJob(TENANTS.contoso, { locationId: location.locationId });
      expect((await api('GET', `${base}/${location.locationId}`)).json()).toMatchObject({ usedByJobs: 1 });

      const refused = await api('DELETE', `${base}/${location.locationId}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({
        status: 409,
        title: 'Conflict',
        detail: 'Cannot delete location as it is used for a job',
        message: 'Cannot delete location as it is used for a job',
      });
      expect((await api('GET', `${base}/${location.locationId}`)).statusCode).toBe(200);
      expect(await audit('location.delete', location.locationId)).toEqual([
        expect.objectContaining({ actorEmail: ADMIN, outcome: 'failure', details: { reason: 'in use' } }),
      ]);

      await server.ctx.db.query('delete from jobs where job_id = $1', [jobId]);
      expect((await api('DELETE', `${base}/${location.locationId}`)).statusCode).toBe(200);
      expect((await audit('location.delete', location.locationId)).map((e) => e.outcome)).toEqual([
        'success',
        'failure',
      ]);
    });
  });

  describe('bad input', () => {
    const fieldErrors = (response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
      expect(response.statusCode).toBe(400);
      expect(String(response.headers['content-type'])).toContain('application/problem+json');
      const body = response.json() as Problem;
      expect(body.title).toBe('One or more validation errors occurred.');
      for (const messages of Object.values(body.errors ?? {})) {
        expect(messages.length).toBeGreaterThan(0);
        expect(messages.every((m) => typeof m === 'string' && m.length > 0)).toBe(true);
      }
      return Object.keys(body.errors ?? {}).sort();
    };

    it('answers 400 with field errors for bad tenants and writes nothing', async () => {
      const count = await tenantsCount();
      const create = await api('POST', '/api/Tenants', {
        tenantName: '',
        applicationId: 'not-a-guid',
        clientSecret: '',
        tenantId: '1234',
        objectId: randomUUID(),
        redirectUri: 'not a uri',
      });
      expect(fieldErrors(create)).toEqual([
        'body/applicationId',
        'body/clientSecret',
        'body/organisationId',
        'body/redirectUri',
        'body/tenantId',
        'body/tenantName',
      ]);
      const update = await api('PUT', `/api/Tenants/${TENANTS.contoso}`, {
        tenantName: 'x'.repeat(121),
        objectId: 'nope',
      });
      expect(fieldErrors(update)).toEqual(['body/objectId', 'body/tenantName']);
      expect(await tenantsCount()).toBe(count);
      expect((await api('GET', `/api/Tenants/${TENANTS.contoso}`)).json()).toMatchObject({
        tenantName: 'contoso.onmicrosoft.com',
      });
    });

    it('answers 400 with field errors for bad locations and writes nothing', async () => {
      const base = `/api/${TENANTS.contoso}/locations`;
      const before = (await api('GET', base)).json() as Location[];
      expect(fieldErrors(await api('POST', base, { name: '', siteAddress: 'not-a-uri' }))).toEqual([
        'body/name',
        'body/siteAddress',
      ]);
      expect(fieldErrors(await api('POST', base, {}))).toEqual(['body/name', 'body/siteAddress']);
      expect(fieldErrors(await api('POST', base, { name: '   ', siteAddress: 'https://ok.example' }))).toEqual([
        'body/name',
      ]);
      const [first] = before;
      expect(
        fieldErrors(
          await api('PUT', `${base}/${first?.locationId}`, {
            name: 'x'.repeat(121),
            siteAddress: 'https://ok.example',
          }),
        ),
      ).toEqual(['body/name']);
      expect(
        fieldErrors(await api('PUT', `${base}/${first?.locationId}`, { name: ' ', siteAddress: 'https://ok.example' })),
      ).toEqual(['body/name']);
      expect((await api('GET', base)).json()).toEqual(before);
    });
  });
});
