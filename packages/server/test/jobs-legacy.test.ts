import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobEngine } from '../src/jobs/engine.js';
import type { Executor } from '../src/jobs/run-context.js';
import { GraphError } from '../src/m365/graph-api.js';
import { ADMIN, discovered, sessionToken, TENANTS, useTestServer, workerIp } from './helpers.js';

/** Archives each mailbox; a "#EXT#" guest has no mailbox and fails for good. */
const archive: Executor = async (rc) => {
  for (const mailbox of rc.job.sources) {
    const result = await rc.item(
      { key: `mailbox:${mailbox}`, name: mailbox, source: mailbox, wholeSource: true },
      async () => {
        if (mailbox.includes('#EXT#'))
          throw new GraphError(
            404,
            'MailboxNotEnabledForRESTAPI',
            'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
          );
        return 3;
      },
    );
    if (result.ok) rc.progress({ total: 3, done: 3, bytes: 300, source: mailbox });
  }
  return {};
};

describe('the legacy jobs API of the worker screens', () => {
  const server = useTestServer();
  let token = '';
  let ip = '';
  const post = (url: string, body: object) => server.request({ method: 'POST', url: `/api${url}`, token, body });
  const engine = () => new JobEngine(server.ctx, { executors: { exchangeArchive: archive }, heartbeatMs: 20 });

  const createMailArchive = () =>
    post('/jobs/scheduled-job/create', {
      workerIp: ip,
      prefix: 'email',
      name: 'Mail archive',
      sources: ['adele@contoso.example', 'guest_fabrikam.example#EXT#@contoso.onmicrosoft.com'],
      folders: ['Inbox/TestOrder'],
      recurrence: { kind: 'daily', hours: [1] },
    });

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    ip = await workerIp(server, 'Contoso');
    // The tenant's accounts as discovery found them; the guest has no mailbox.
    await discovered(server, TENANTS.contoso, 'onedrive', [
      'adele@contoso.example',
      'guest_fabrikam.example#EXT#@contoso.onmicrosoft.com',
      'a',
    ]);
  });
  // Each test starts without jobs (and so without runs).
  beforeEach(async () => {
    await server.ctx.db.query('delete from jobs');
  });

  it('creates an email archive job for the worker, lists it, runs it and reports per mailbox', async () => {
    const created = await createMailArchive();
    expect(created.statusCode, created.body).toBe(200);
    const job = created.json();
    expect(job).toMatchObject({
      prefix: 'email',
      type: 'exchangeArchive',
      folders: ['Inbox/TestOrder'],
      status: 'pending',
    });

    const scheduled = await server.request({
      method: 'GET',
      url: `/api/backup-and-restore/scheduled-jobs/${ip}/email`,
      token,
    });
    expect(scheduled.json().map((j: { jobId: string }) => j.jobId)).toEqual([job.jobId]);
    const teams = await server.request({
      method: 'GET',
      url: `/api/backup-and-restore/scheduled-jobs/${ip}/teams`,
      token,
    });
    expect(teams.json()).toEqual([]);

    const started = await post('/backup-and-restore/scheduled-job/start', { jobId: job.jobId });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ jobId: job.jobId, status: 'pending', jobName: 'Mail archive' });
    const running = await server.request({
      method: 'GET',
      url: `/api/backup-and-restore/running-jobs?workerIp=${ip}`,
      token,
    });
    expect(running.json().map((r: { reportId: string }) => r.reportId)).toEqual([started.json().reportId]);

    await engine().runUntilIdle();
    const report = await post('/backup-and-restore/scheduled-job/report-data-accounts', {
      reportId: started.json().reportId,
    });
    expect(report.json()).toMatchObject({ total: 2, page: 1 });
    const [adele, guest] = report.json().items;
    expect(adele).toMatchObject({
      accountId: 'adele@contoso.example',
      status: 'finished',
      items: 3,
      failedItems: 0,
      bytes: 300,
      errors: [],
    });
    expect(guest).toMatchObject({ status: 'failed', items: 0, failedItems: 1 });
    expect(guest.errors[0]).toContain('The mailbox is either inactive');
    const tenantId = (
      await server.ctx.db.query<{ tenant_id: string }>('select tenant_id from jobs where job_id = $1', [job.jobId])
    )[0]?.tenant_id;
    const monitor = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${tenantId}/monitoring?status=finished`,
      token,
    });
    expect(monitor.json().items[0]).toMatchObject({
      reportId: started.json().reportId,
      itemsProcessed: 3,
      itemsFailed: 1,
      bytesProcessed: 300,
    });
    const accounts = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${tenantId}/monitoring/${started.json().reportId}/accounts?status=failed`,
      token,
    });
    expect(accounts.json().items.map((a: { accountId: string }) => a.accountId)).toEqual([
      'guest_fabrikam.example#EXT#@contoso.onmicrosoft.com',
    ]);
    const failedOnly = await post('/backup-and-restore/scheduled-job/report-data-accounts', {
      reportId: started.json().reportId,
      status: 'failed',
    });
    expect(failedOnly.json().total).toBe(1);
  });

  describe('with the mail archive job run once', () => {
    beforeEach(async () => {
      const created = await createMailArchive();
      expect(created.statusCode, created.body).toBe(200);
      await post('/backup-and-restore/scheduled-job/start', { jobId: created.json().jobId });
      await engine().runUntilIdle();
    });

    it('filters runs by family, status and date with pages, and changes, stops and removes jobs', async () => {
      const list = await server.request({
        method: 'GET',
        url: `/api/backup-and-restore/scheduled-jobs/${ip}/email`,
        token,
      });
      const jobId = list.json()[0].jobId;
      await post('/backup-and-restore/scheduled-job/start', { jobId });
      await engine().runUntilIdle();
      const all = await post('/filtered-jobs', { workerIp: ip, prefix: 'email', pageSize: 1 });
      expect(all.json()).toMatchObject({ total: 2, page: 1, pageSize: 1 });
      expect(all.json().items[0]).toMatchObject({ jobId, status: 'finished', itemsProcessed: 3, itemsFailed: 1 });
      const none = await post('/filtered-jobs', { workerIp: ip, status: ['failed'] });
      expect(none.json().total).toBe(0);
      const future = await post('/filtered-jobs', { workerIp: ip, from: '2030-01-01T00:00:00Z' });
      expect(future.json().total).toBe(0);

      const updated = await post('/jobs/scheduled-job/update', {
        jobId,
        name: 'Mail archive (all folders)',
        folders: [],
      });
      expect(updated.json()).toMatchObject({ name: 'Mail archive (all folders)', folders: [] });

      const notRunning = await post('/backup-and-restore/stop-running-job', { jobId });
      expect(notRunning.statusCode).toBe(409);
      await post('/backup-and-restore/scheduled-job/start', { jobId });
      const stopped = await post('/backup-and-restore/stop-running-job', { jobId });
      expect(stopped.statusCode).toBe(202);
      expect(stopped.json()).toMatchObject({ jobId, status: 'pending' });

      const removed = await post('/jobs/scheduled-job/remove', { jobId });
      expect(removed.statusCode).toBe(200);
      const after = await server.request({
        method: 'GET',
        url: `/api/backup-and-restore/scheduled-jobs/${ip}/email`,
        token,
      });
      expect(after.json()).toEqual([]);
    });
  });

  it('needs a retention for deletion jobs', async () => {
    const refused = await post('/jobs/scheduled-job/create', {
      workerIp: ip,
      prefix: 'deletion',
      name: 'Purge',
      sources: ['a'],
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain('retention');
    const created = await post('/jobs/scheduled-job/create', {
      workerIp: ip,
      prefix: 'deletion',
      name: 'Purge',
      sources: ['a'],
      retention: { unit: 'year', value: 1 },
    });
    expect(created.json()).toMatchObject({ prefix: 'deletion', retention: { unit: 'year', value: 1 } });
  });

  it('keeps what an email archive includes of each mailbox, and refuses it for a Teams archive', async () => {
    const created = await post('/jobs/scheduled-job/create', {
      workerIp: ip,
      prefix: 'email',
      name: 'Calendars and contacts',
      sources: ['a'],
      include: ['contacts', 'calendars'],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().include).toEqual(['calendars', 'contacts']);
    const changed = await post('/jobs/scheduled-job/update', { jobId: created.json().jobId, include: ['mail'] });
    expect(changed.json().include).toEqual(['mail']);
    // Every part again: the job includes everything, as one that never chose.
    const all = await post('/jobs/scheduled-job/update', {
      jobId: created.json().jobId,
      include: ['mail', 'calendars', 'contacts', 'tasks'],
    });
    expect(all.json()).not.toHaveProperty('include');
    const teams = await post('/jobs/scheduled-job/create', {
      workerIp: ip,
      prefix: 'teams',
      name: 'Teams',
      sources: ['a'],
      include: ['mail'],
    });
    expect(teams.statusCode).toBe(400);
    expect(JSON.stringify(teams.json())).toContain('include');
  });
});
