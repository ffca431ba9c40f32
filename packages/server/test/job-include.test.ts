import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '@compliance-portal/m365-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCounts } from '../src/archive-data/mailbox-items-repository.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { listsAt, pagesAt } from '../src/jobs/executors/site-content-repository.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';

/**
 * What a job includes, obeyed by the engine against the simulator: an Exchange archive of calendars
 * only reads no mail, contacts or tasks; a SharePoint backup without lists keeps no list, one of lists
 * only no file and no page. What they do include is kept as a job that includes everything keeps it.
 */
describe('what an archive or backup job includes', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-job-include-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let engine: JobEngine;
  let token = '';

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
    sim = await simulatedTenant(
      server,
      tenantId,
      {
        users: 2,
        sites: 1,
        teams: 0,
        messagesPerFolder: 2,
        filesPerDrive: 3,
        versionsPerFile: 1,
        listsPerSite: 2,
        listItemsPerList: 4,
        versionsPerListItem: 1,
        pagesPerSite: 2,
      },
      4,
    );
    const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-')));
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx, blobs)), heartbeatMs: 50 });
  });
  afterAll(() => sim?.close());

  const api = () => jobsApi(server, tenantId, () => token);
  const count = async (table: string, jobId: string) => {
    const [row] = await server.ctx.db.query<{ n: number | string }>(
      `select count(*) as n from ${table} where job_id = $1`,
      [jobId],
    );
    return Number(row?.n ?? 0);
  };

  it('archives only the calendars of a job that includes only calendars: no mail, contacts or tasks', async () => {
    const mailboxes = sim.state.tenant(tenantId).users.filter((u) => u.hasMailbox);
    const events = mailboxes.reduce((n, u) => n + [...u.events.values()].filter((e) => !e.deleted).length, 0);
    expect(events).toBeGreaterThan(0);
    const job = await api().create({
      name: 'Calendars',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((u) => u.id),
      include: ['calendars'],
    });
    const { run } = await api().start(job.jobId, engine);
    expect(run).toMatchObject({ status: 'finished', items_failed: 0, items_done: 0 });
    expect(await count('archive_items', job.jobId)).toBe(0);
    expect(await count('archived_contacts', job.jobId)).toBe(0);
    expect(await count('archived_tasks', job.jobId)).toBe(0);
    // Every event the simulator holds (a series as its master and its instances) is archived.
    expect(await count('archived_events', job.jobId)).toBeGreaterThanOrEqual(events);
    const counts = await runCounts(server.ctx.db, String(run.run_id));
    expect(counts).toMatchObject({ contacts: 0, tasks: 0, failed: 0 });
    expect(counts?.events).toBeGreaterThanOrEqual(events);
    // The run says what it archived, and nothing of messages it was not to archive.
    expect(run.message).toMatch(/^Calendars, contacts and To Do: \d+ events, 0 contacts and 0 tasks new or changed\.$/);

    // The same mailboxes with everything: the mail and the other items come in too.
    const whole = await api().create({
      name: 'Mailboxes',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((u) => u.id),
    });
    const all = await api().start(whole.jobId, engine);
    expect(all.run).toMatchObject({ status: 'finished', items_failed: 0 });
    expect(Number(all.run.items_done)).toBeGreaterThan(0);
    expect(await count('archived_contacts', whole.jobId)).toBeGreaterThan(0);
    expect(await count('archived_tasks', whole.jobId)).toBeGreaterThan(0);
  });

  it('backs up no list of a site backup without lists, and neither files nor pages of one with lists only', async () => {
    const site = sim.state.tenant(tenantId).sites[0];
    if (!site) throw new Error('the simulated tenant has no site');
    const noLists = await api().create({
      name: 'Libraries and pages',
      type: 'backup',
      application: 'sharepoint',
      sources: [site.id],
      include: ['libraries', 'pages'],
    });
    const first = await api().start(noLists.jobId, engine);
    expect(first.run).toMatchObject({ status: 'finished', items_failed: 0, list_items_done: 0, pages_done: 2 });
    expect(Number(first.run.items_done)).toBeGreaterThan(0);
    const key = { jobId: noLists.jobId, siteId: site.id };
    expect(await listsAt(server.ctx.db, key, Number(first.run.seq))).toEqual([]);
    expect(await count('backup_list_items', noLists.jobId)).toBe(0);
    expect(await pagesAt(server.ctx.db, key, Number(first.run.seq))).toHaveLength(2);

    const listsOnly = await api().create({
      name: 'Lists',
      type: 'backup',
      application: 'sharepoint',
      sources: [site.id],
      include: ['lists'],
    });
    const lists = await api().start(listsOnly.jobId, engine);
    expect(lists.run).toMatchObject({ status: 'finished', items_failed: 0, items_done: 0, pages_done: 0 });
    expect(Number(lists.run.list_items_done)).toBe(8);
    expect(await count('backup_items', listsOnly.jobId)).toBe(0);
    expect(await count('backup_pages', listsOnly.jobId)).toBe(0);
    expect(
      await listsAt(server.ctx.db, { jobId: listsOnly.jobId, siteId: site.id }, Number(lists.run.seq)),
    ).toHaveLength(2);

    // Lists included later: the next run keeps them, and its pages stay as they were.
    await server.request({
      method: 'PUT',
      url: `/apollo-beta/api/${tenantId}/jobs/${noLists.jobId}`,
      token,
      body: { include: ['libraries', 'lists', 'pages'] },
    });
    const second = await api().start(noLists.jobId, engine);
    expect(second.run).toMatchObject({ status: 'finished', items_failed: 0, list_items_done: 8, pages_done: 0 });
    expect(await pagesAt(server.ctx.db, key, Number(second.run.seq))).toHaveLength(2);
  });
});
