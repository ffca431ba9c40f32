import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobEngine } from '../src/jobs/engine.js';
import type { Executor } from '../src/jobs/run-context.js';
import { TRIAL_MESSAGES } from '../src/modules/jobs/service.js';
import { ADMIN, discovered, PARTNER, sessionToken, TENANTS, useTestServer } from './helpers.js';

const quick: Executor = async (rc) => {
  rc.progress({ total: rc.job.sources.length, done: rc.job.sources.length });
  return {};
};

describe('jobs through the API', () => {
  const server = useTestServer();
  const api = (tenantId: string) => `/apollo-beta/api/${tenantId}/jobs`;
  let admin = '';
  let partner = '';
  const engine = () => new JobEngine(server.ctx, { executors: { backup: quick, restore: quick }, heartbeatMs: 20 });

  const create = (token: string, tenantId: string, body: object) =>
    server.request({ method: 'POST', url: api(tenantId), token, body });
  const nightly = () =>
    create(admin, TENANTS.contoso, {
      name: '  Nightly OneDrive  ',
      type: 'backup',
      application: 'onedrive',
      sources: ['adele@contoso.example', 'alex@contoso.example'],
      recurrence: { kind: 'daily', hours: [2], timeZone: 'Europe/Berlin' },
      retention: { unit: 'days', value: 30 },
    });

  beforeAll(async () => {
    admin = await sessionToken(server, ADMIN);
    partner = await sessionToken(server, PARTNER);
    // The accounts, sites and teams the jobs name, as discovery found them in each Microsoft 365.
    await discovered(server, TENANTS.contoso, 'onedrive', ['adele@contoso.example', 'alex@contoso.example', 'a']);
    await discovered(server, TENANTS.contoso, 'sharepoint', ['site', 's']);
    await discovered(server, TENANTS.contoso, 'teams', ['t']);
    await discovered(
      server,
      TENANTS.tailspin,
      'onedrive',
      Array.from({ length: 11 }, (_, i) => `user${i}@tailspin.example`),
    );
    await discovered(server, TENANTS.tailspin, 'teams', ['x']);
  });
  // Each test starts without jobs (their runs, tasks and the trial's counts go with them).
  beforeEach(async () => {
    await server.ctx.db.query('delete from jobs');
  });

  it('creates a scheduled backup job with the default location and its next run', async () => {
    const response = await nightly();
    expect(response.statusCode, response.body).toBe(200);
    const job = response.json();
    expect(job).toMatchObject({
      name: 'Nightly OneDrive',
      status: 'pending',
      enabled: true,
      progress: 0,
      started: null,
      nextRun: '2026-11-03T01:00:00.000Z',
    });
    expect(job.locationId).toEqual(expect.any(String));
    const audit = await server.ctx.db.query<{ action: string }>(`select action from audit_log where target = $1`, [
      job.jobId,
    ]);
    expect(audit.map((a) => a.action)).toEqual(['job.create']);
  });

  it('refuses inconsistent jobs with field errors and unknown locations with 404', async () => {
    const bad = await create(admin, TENANTS.contoso, {
      name: 'x',
      type: 'exchangeArchive',
      application: 'onedrive',
      sources: ['a', 'a'],
      recurrence: { kind: 'specificDate', date: '2020-01-01T00:00:00Z', timeZone: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual([
      'application',
      'recurrence.date',
      'recurrence.timeZone',
      'sources',
    ]);
    const elsewhere = await create(admin, TENANTS.contoso, {
      name: 'x',
      type: 'backup',
      application: 'onedrive',
      sources: ['a'],
      locationId: 'no-such-location',
    });
    expect(elsewhere.statusCode).toBe(404);
    const cleanup = await create(admin, TENANTS.contoso, {
      name: 'x',
      type: 'versionCleanup',
      application: 'sharepoint',
      sources: ['site'],
    });
    expect(cleanup.json().errors).toEqual({ cleanupRule: ['A clean-up job needs a rule.'] });
  });

  it('keeps what an Exchange archive or a SharePoint backup includes, and refuses it elsewhere with field errors', async () => {
    const calendarsOnly = await create(admin, TENANTS.contoso, {
      name: 'Calendars',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: ['a'],
      include: ['tasks', 'calendars'],
    });
    expect(calendarsOnly.statusCode, calendarsOnly.body).toBe(200);
    // Kept in the order the parts are named in, whatever order they came in.
    expect(calendarsOnly.json().include).toEqual(['calendars', 'tasks']);
    const url = `${api(TENANTS.contoso)}/${calendarsOnly.json().jobId}`;
    expect((await server.request({ method: 'GET', url, token: admin })).json().include).toEqual(['calendars', 'tasks']);
    // Choosing every part is choosing nothing: the job reads like one made before it could choose.
    const all = await server.request({
      method: 'PUT',
      url,
      token: admin,
      body: { include: ['mail', 'calendars', 'contacts', 'tasks'] },
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).not.toHaveProperty('include');
    const mailOnly = await server.request({ method: 'PUT', url, token: admin, body: { include: ['mail'] } });
    expect(mailOnly.json().include).toEqual(['mail']);
    // A rename leaves it as it is.
    const renamed = await server.request({ method: 'PUT', url, token: admin, body: { name: 'Mail' } });
    expect(renamed.json()).toMatchObject({ name: 'Mail', include: ['mail'] });

    const site = await create(admin, TENANTS.contoso, {
      name: 'Site without lists',
      type: 'backup',
      application: 'sharepoint',
      sources: ['site'],
      include: ['libraries', 'pages'],
    });
    expect(site.statusCode, site.body).toBe(200);
    expect(site.json().include).toEqual(['libraries', 'pages']);

    const refused = async (body: object) => {
      const response = await create(admin, TENANTS.contoso, { name: 'x', ...body });
      expect(response.statusCode, response.body).toBe(400);
      return response.json().errors;
    };
    // None chosen: the contract's own rule (at least one), named by the body's field.
    expect(
      Object.keys(await refused({ type: 'exchangeArchive', application: 'exchange', sources: ['a'], include: [] })),
    ).toEqual(['body/include']);
    // A part of another kind of job.
    expect(
      await refused({ type: 'backup', application: 'sharepoint', sources: ['site'], include: ['libraries', 'mail'] }),
    ).toEqual({ include: ['A SharePoint backup includes any of libraries, lists, pages.'] });
    expect(
      await refused({ type: 'exchangeArchive', application: 'exchange', sources: ['a'], include: ['lists'] }),
    ).toEqual({ include: ['An Exchange archive includes any of mail, calendars, contacts, tasks.'] });
    // A job that covers what it covers.
    expect(await refused({ type: 'backup', application: 'onedrive', sources: ['a'], include: ['libraries'] })).toEqual({
      include: ['Only Exchange archive and SharePoint backup jobs choose what they include.'],
    });
    const existing = await server.request({
      method: 'PUT',
      url: `${api(TENANTS.contoso)}/${site.json().jobId}`,
      token: admin,
      body: { include: ['calendars'] },
    });
    expect(existing.statusCode).toBe(400);
    expect(existing.json().errors).toEqual({
      include: ['A SharePoint backup includes any of libraries, lists, pages.'],
    });
  });

  describe('with the nightly OneDrive job', () => {
    beforeEach(async () => {
      const created = await nightly();
      expect(created.statusCode, created.body).toBe(200);
    });

    it('lists with filters, sorting and pages, and changes name and schedule', async () => {
      await create(admin, TENANTS.contoso, {
        name: 'Alpha SharePoint',
        type: 'backup',
        application: 'sharepoint',
        sources: ['s'],
      });
      await create(admin, TENANTS.contoso, {
        name: 'Zulu Teams',
        type: 'backup',
        application: 'teams',
        sources: ['t'],
      });
      const list = await server.request({
        method: 'GET',
        url: `${api(TENANTS.contoso)}?sort=name&order=asc&pageSize=2&page=1`,
        token: admin,
      });
      expect(list.json()).toMatchObject({ total: 3, page: 1, pageSize: 2 });
      expect(list.json().items.map((j: { name: string }) => j.name)).toEqual(['Alpha SharePoint', 'Nightly OneDrive']);
      const teams = await server.request({
        method: 'GET',
        url: `${api(TENANTS.contoso)}?application=teams`,
        token: admin,
      });
      expect(teams.json().items.map((j: { name: string }) => j.name)).toEqual(['Zulu Teams']);

      const id = teams.json().items[0].jobId;
      const changed = await server.request({
        method: 'PUT',
        url: `${api(TENANTS.contoso)}/${id}`,
        token: admin,
        body: { name: 'Teams weekly', recurrence: { kind: 'daysOfWeek', daysOfWeek: [6], hours: [5] } },
      });
      expect(changed.json()).toMatchObject({ name: 'Teams weekly', nextRun: '2026-11-07T05:00:00.000Z' });
    });

    it('starts and stops through tasks that take effect asynchronously', async () => {
      const list = await server.request({ method: 'GET', url: `${api(TENANTS.contoso)}?search=nightly`, token: admin });
      const id = list.json().items[0].jobId;
      const start = await server.request({ method: 'POST', url: `${api(TENANTS.contoso)}/${id}/start`, token: admin });
      expect(start.statusCode).toBe(202);
      expect(start.json()).toMatchObject({ jobId: id, action: 'start', status: 'pending' });
      const status = () =>
        server.request({
          method: 'GET',
          url: `${api(TENANTS.contoso)}/${id}/status/${start.json().taskId}`,
          token: admin,
        });
      expect((await status()).json().status).toBe('pending');

      await engine().runUntilIdle();
      expect((await status()).json().status).toBe('succeeded');
      const job = await server.request({ method: 'GET', url: `${api(TENANTS.contoso)}/${id}`, token: admin });
      expect(job.json()).toMatchObject({ status: 'finished', progress: 100 });
      expect(job.json().finished).toEqual(expect.any(String));

      const stop = await server.request({ method: 'POST', url: `${api(TENANTS.contoso)}/${id}/stop`, token: admin });
      expect(stop.statusCode).toBe(202);
      expect(stop.json()).toMatchObject({ action: 'stop', status: 'succeeded' });
      const stopped = await server.request({ method: 'GET', url: `${api(TENANTS.contoso)}/${id}`, token: admin });
      expect(stopped.json()).toMatchObject({ enabled: false });
    });
  });

  it('refuses to remove a queued or running job, and removes it once stopped', async () => {
    const created = await create(admin, TENANTS.contoso, {
      name: 'Temporary',
      type: 'backup',
      application: 'onedrive',
      sources: ['a'],
      recurrence: { kind: 'afterCreation' },
    });
    const id = created.json().jobId;
    const refused = await server.request({ method: 'DELETE', url: `${api(TENANTS.contoso)}/${id}`, token: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail ?? refused.json().title).toContain('Stop the job');
    await engine().runUntilIdle();
    const removed = await server.request({ method: 'DELETE', url: `${api(TENANTS.contoso)}/${id}`, token: admin });
    expect(removed.statusCode).toBe(200);
    const gone = await server.request({ method: 'GET', url: `${api(TENANTS.contoso)}/${id}`, token: admin });
    expect(gone.statusCode).toBe(404);
  });

  it('enforces the trial limits on the server', async () => {
    const trial = TENANTS.tailspin;
    const eleven = Array.from({ length: 11 }, (_, i) => `user${i}@tailspin.example`);
    const tooMany = await create(partner, trial, {
      name: 'Big',
      type: 'backup',
      application: 'onedrive',
      sources: eleven,
    });
    expect(tooMany.statusCode).toBe(403);
    expect(JSON.stringify(tooMany.json())).toContain(TRIAL_MESSAGES.sources);

    const first = await create(partner, trial, {
      name: 'Trial OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: eleven.slice(0, 10),
    });
    expect(first.statusCode).toBe(200);
    const second = await create(partner, trial, {
      name: 'Second',
      type: 'backup',
      application: 'onedrive',
      sources: [eleven[10] ?? ''],
    });
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({
      status: 403,
      message: TRIAL_MESSAGES.backupJobs('onedrive'),
      code: 'trialBackupJobs',
    });
    const otherApp = await create(partner, trial, {
      name: 'Teams',
      type: 'backup',
      application: 'teams',
      sources: ['x'],
    });
    expect(otherApp.statusCode).toBe(200);
    // What a job includes changes no limit: a site's lists in a second job are a second backup job.
    await discovered(server, trial, 'sharepoint', ['ts1', 'ts2']);
    const libraries = await create(partner, trial, {
      name: 'Libraries',
      type: 'backup',
      application: 'sharepoint',
      sources: ['ts1'],
      include: ['libraries'],
    });
    expect(libraries.statusCode, libraries.body).toBe(200);
    const lists = await create(partner, trial, {
      name: 'Lists',
      type: 'backup',
      application: 'sharepoint',
      sources: ['ts2'],
      include: ['lists'],
    });
    expect(lists.json()).toMatchObject({ status: 403, code: 'trialBackupJobs' });

    const remove = await server.request({
      method: 'DELETE',
      url: `${api(trial)}/${first.json().jobId}`,
      token: partner,
    });
    expect(remove.statusCode).toBe(403);
    expect(JSON.stringify(remove.json())).toContain(TRIAL_MESSAGES.noDelete);

    const restore = (n: number) =>
      create(partner, trial, {
        name: `Restore ${n}`,
        type: 'restore',
        application: 'onedrive',
        sources: [eleven[0] ?? ''],
        restore: {
          sourceJobId: first.json().jobId,
          snapshot: '2026-11-01T00:00:00Z',
          sourceId: eleven[0] ?? '',
          nodeIds: ['root'],
          target: 'original',
          conflictPolicy: 'keepBoth',
        },
      });
    for (let n = 1; n <= 10; n++) {
      expect((await restore(n)).statusCode).toBe(200);
      await engine().runUntilIdle();
    }
    const eleventh = await restore(11);
    expect(eleventh.statusCode).toBe(403);
    expect(JSON.stringify(eleventh.json())).toContain(TRIAL_MESSAGES.restores('onedrive'));
  });

  it("refuses accounts, sites, teams and restore targets of another organisation's tenant with 404, storing nothing", async () => {
    await discovered(server, TENANTS.northwind, 'onedrive', ['nina@northwind.example']);
    await discovered(server, TENANTS.northwind, 'teams', ['northwind-team']);
    const count = async () =>
      Number((await server.ctx.db.query<{ n: number }>('select count(*)::int as n from jobs'))[0]?.n ?? 0);
    const before = await count();
    const foreignSource = await create(admin, TENANTS.contoso, {
      name: 'Foreign account',
      type: 'backup',
      application: 'onedrive',
      sources: ['adele@contoso.example', 'nina@northwind.example'],
    });
    expect(foreignSource.statusCode).toBe(404);
    expect(JSON.stringify(foreignSource.json())).toContain('nina@northwind.example');
    const foreignChats = await create(admin, TENANTS.contoso, {
      name: 'Foreign chats',
      type: 'teamsArchive',
      application: 'teams',
      sources: ['t'],
      chats: ['nina@northwind.example'],
    });
    expect(foreignChats.statusCode).toBe(404);

    const backup = await create(admin, TENANTS.contoso, {
      name: 'Adele',
      type: 'backup',
      application: 'onedrive',
      sources: ['adele@contoso.example'],
    });
    expect(backup.statusCode).toBe(200);
    const restore = (target: object) =>
      create(admin, TENANTS.contoso, {
        name: 'Restore',
        type: 'restore',
        application: 'onedrive',
        sources: ['adele@contoso.example'],
        restore: {
          sourceJobId: backup.json().jobId,
          snapshot: '2026-11-01T00:00:00Z',
          sourceId: 'adele@contoso.example',
          nodeIds: ['root'],
          conflictPolicy: 'keepBoth',
          ...target,
        },
      });
    expect((await restore({ target: 'other', targetId: 'nina@northwind.example' })).statusCode).toBe(404);
    expect((await restore({ target: 'original', sourceId: 'nina@northwind.example' })).statusCode).toBe(404);
    const changed = await server.request({
      method: 'PUT',
      url: `${api(TENANTS.contoso)}/${backup.json().jobId}`,
      token: admin,
      body: { sources: ['nina@northwind.example'] },
    });
    expect(changed.statusCode).toBe(404);
    expect(await count()).toBe(before + 1);
    const stored = await server.request({
      method: 'GET',
      url: `${api(TENANTS.contoso)}/${backup.json().jobId}`,
      token: admin,
    });
    expect(stored.json().sources).toEqual(['adele@contoso.example']);
  });
});

/**
 * Product-spec.md section 6, trial licence: the name and schedule of a backup job can be changed
 * later; backup jobs cannot be deleted; the other limits hold for the changed job too.
 */
describe('a trial organisation’s backup job', () => {
  const server = useTestServer();
  const trial = TENANTS.tailspin;
  const jobs = `/apollo-beta/api/${trial}/jobs`;
  const accounts = Array.from({ length: 11 }, (_, i) => `user${i}@tailspin.example`);
  let partner = '';
  let jobId = '';
  const put = (body: object) => server.request({ method: 'PUT', url: `${jobs}/${jobId}`, token: partner, body });
  const stored = async () => (await server.request({ method: 'GET', url: `${jobs}/${jobId}`, token: partner })).json();

  beforeAll(async () => {
    partner = await sessionToken(server, PARTNER);
    await discovered(server, trial, 'onedrive', accounts);
  });
  // Each test gets the trial's one OneDrive backup job as created (a trial cannot delete it; the test can).
  beforeEach(async () => {
    await server.ctx.db.query('delete from jobs where tenant_id = $1', [trial]);
    const created = await server.request({
      method: 'POST',
      url: jobs,
      token: partner,
      body: {
        name: 'Trial OneDrive',
        type: 'backup',
        application: 'onedrive',
        sources: accounts.slice(0, 2),
        recurrence: { kind: 'daily', hours: [2] },
        retention: { unit: 'days', value: 30 },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    jobId = created.json().jobId;
  });

  it('can be renamed and rescheduled, with its next run after the new schedule', async () => {
    const changed = await put({
      name: '  Weekly OneDrive  ',
      recurrence: { kind: 'daysOfWeek', daysOfWeek: [6], hours: [5], timeZone: 'UTC' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      jobId,
      name: 'Weekly OneDrive',
      application: 'onedrive',
      sources: accounts.slice(0, 2),
      recurrence: { kind: 'daysOfWeek', daysOfWeek: [6], hours: [5] },
      retention: { unit: 'days', value: 30 },
      nextRun: '2026-11-07T05:00:00.000Z',
    });
    // The change is not a second job: the trial's one OneDrive backup is still this one.
    const list = await server.request({ method: 'GET', url: `${jobs}?type=backup`, token: partner });
    expect(list.json().items.map((j: { jobId: string; name: string }) => [j.jobId, j.name])).toEqual([
      [jobId, 'Weekly OneDrive'],
    ]);
    const audit = await server.ctx.db.query<{ details: { changed: string[] } }>(
      `select details from audit_log where action = 'job.update' and target = $1`,
      [jobId],
    );
    expect(audit.map((a) => a.details.changed.sort())).toEqual([['name', 'recurrence']]);
  });

  it('keeps the trial’s limits when changed: no application change, no more than 10 accounts', async () => {
    // A change has no application (the contract leaves it out): one sent along is not taken.
    await put({ application: 'teams' });
    expect((await stored()).application).toBe('onedrive');
    const tooMany = await put({ sources: accounts });
    expect(tooMany.statusCode).toBe(403);
    expect(tooMany.json()).toMatchObject({ code: 'trialSources', message: TRIAL_MESSAGES.sources });
    // Refused, the change left the job as it was created.
    expect(await stored()).toMatchObject({
      name: 'Trial OneDrive',
      application: 'onedrive',
      sources: accounts.slice(0, 2),
    });
  });

  it('cannot be deleted', async () => {
    const refused = await server.request({ method: 'DELETE', url: `${jobs}/${jobId}`, token: partner });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'trialNoDelete', message: TRIAL_MESSAGES.noDelete });
    expect((await stored()).jobId).toBe(jobId);
    const audit = await server.ctx.db.query(`select 1 from audit_log where action = 'job.remove' and target = $1`, [
      jobId,
    ]);
    expect(audit).toHaveLength(0);
  });
});
