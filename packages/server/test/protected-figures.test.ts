/**
 * The figures count every kind an area protects: after real runs against the simulator, the mail
 * archive's statistics, the overview, the monitor and the reports give mails, events, contacts and
 * tasks; the SharePoint dashboards, the backup statistics and the overview files, list items and pages;
 * each total the sum of its kinds, each kind what the runs stored. Read through the SDK, every answer
 * checked against the OpenAPI document.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, type RunningSimulator } from '@compliance-portal/m365-simulator';
import { createClient, type ItemsByKind, type PortalClient } from '@compliance-portal/sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCounts } from '../src/archive-data/mailbox-items-repository.js';
import type { Queryable } from '../src/db/database.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, API_KEY, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer, workerIp } from './helpers.js';
import { checkedFetch, OpenApiAnswers } from './openapi-answers.js';

const sum = (kinds: ItemsByKind | undefined) => Object.values(kinds ?? {}).reduce((n, k) => n + (k ?? 0), 0);

/** A count `sql` makes of the job's rows (its `$1`). */
async function live(db: Queryable, sql: string, jobId: string) {
  const [row] = await db.query<{ n: number }>(sql, [jobId]);
  return Number(row?.n ?? 0);
}

describe('the figures count every kind an area protects', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-protected-figures-')) });
  const tenantId = TENANTS.contoso;
  const answers = new OpenApiAnswers();
  let origin = '';
  let token = '';
  let sim: RunningSimulator;
  let engine: JobEngine;
  let client: PortalClient;

  beforeAll(async () => {
    origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    token = await sessionToken(server, ADMIN);
    client = createClient({ origin, apiKey: API_KEY, fetch: checkedFetch(answers), token });
  });
  afterEach(() => sim?.close());

  const api = () => jobsApi(server, tenantId, () => token);
  const newEngine = () => {
    const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-')));
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx, blobs)), heartbeatMs: 50 });
  };

  describe('SharePoint: files, list items and pages', () => {
    beforeEach(async () => {
      sim = await simulatedTenant(
        server,
        tenantId,
        {
          users: 2,
          sites: 1,
          teams: 0,
          filesPerDrive: 3,
          versionsPerFile: 1,
          listsPerSite: 2,
          listItemsPerList: 5,
          versionsPerListItem: 2,
          pagesPerSite: 3,
        },
        5,
      );
      newEngine();
    });

    it('dashboards, statistics, overview, monitor and reports split the items into files, list items and pages', async () => {
      const site = sim.state.tenant(tenantId).sites[0];
      if (!site) throw new Error('no site');
      const job = await api().create({ name: 'Site', type: 'backup', application: 'sharepoint', sources: [site.id] });
      const first = await api().start(job.jobId, engine);
      expect(first.run.status).toBe('finished');
      evolve(sim.state.tenant(tenantId), { newListItems: 2, deletedListItems: 1, editedPages: 1 });
      const second = await api().start(job.jobId, engine);
      expect(second.run.status).toBe('finished');

      // What the store holds now, counted apart: the figures must say the same.
      const db = server.ctx.db;
      const listItems = await live(
        db,
        `select count(*)::int as n from (select distinct site_id, list_id, item_id from backup_list_items
          where job_id = $1 and deleted_seq is null) x`,
        job.jobId,
      );
      const pages = await live(
        db,
        'select count(*)::int as n from (select distinct site_id, page_id from backup_pages where job_id = $1 and deleted_seq is null) x',
        job.jobId,
      );
      const simItems = site.lists
        .filter((l) => !l.hidden && !l.system && l.template !== 'documentLibrary')
        .reduce((n, l) => n + [...l.items.values()].filter((i) => !i.deleted).length, 0);
      expect(listItems).toBe(simItems);
      expect(pages).toBe(site.pages.length);

      const basic = await client.apollo.dashboards.application({ tenantId, application: 'sharepoint', view: 'basic' });
      expect(Object.keys(basic.itemsByKind ?? {}).sort()).toEqual(['files', 'listItems', 'pages']);
      expect(basic.itemsByKind).toMatchObject({ listItems, pages });
      expect(basic.itemsByKind?.files).toBeGreaterThan(0);
      expect(basic.items).toBe(sum(basic.itemsByKind));

      const details = await client.apollo.dashboards.application({
        tenantId,
        application: 'sharepoint',
        view: 'details',
      });
      const entry = details.entries.find((e) => e.sourceId === site.id);
      expect(entry?.itemsByKind).toMatchObject({ listItems, pages });
      expect(entry?.items).toBe(sum(entry?.itemsByKind));
      expect(details.entries.reduce((n, e) => n + e.items, 0)).toBeGreaterThanOrEqual(basic.items);

      // The day's point of the series counts the same items as the basic view.
      const size = await client.apollo.dashboards.application({ tenantId, application: 'sharepoint', view: 'size' });
      expect(size.series.at(-1)?.items).toBe(basic.items);

      const ip = await workerIp(server, 'Contoso');
      const stats = await client.legacy.workers.statistics({ query: { workerIp: ip } });
      const sharepoint = stats.perApplication.find((a) => a.application === 'sharepoint');
      expect(sharepoint?.itemsByKind).toEqual(basic.itemsByKind);
      expect(sharepoint?.items).toBe(basic.items);
      const onedrive = stats.perApplication.find((a) => a.application === 'onedrive');
      expect(Object.keys(onedrive?.itemsByKind ?? {})).toEqual(['files']);

      const overview = await client.apollo.dashboards.overview({ tenantId });
      expect(overview.backup.itemsByKind?.listItems).toBe(listItems);
      expect(overview.backup.itemsByKind?.pages).toBe(pages);
      expect(overview.backup.items).toBe(sum(overview.backup.itemsByKind));

      // A run: its files (itemsProcessed, as before) with its list items and pages beside them.
      const runs = await client.apollo.monitoring.list({ tenantId, query: { jobId: job.jobId } });
      const newest = runs.items.find((r) => r.reportId === second.run.run_id);
      expect(newest?.itemsByKind).toEqual({
        files: Number(second.run.items_done),
        listItems: Number(second.run.list_items_done),
        pages: Number(second.run.pages_done),
      });
      expect(newest?.itemsByKind?.files).toBe(newest?.itemsProcessed);
      expect(newest?.itemsByKind?.listItems).toBeGreaterThanOrEqual(3);
      const oldest = runs.items.find((r) => r.reportId === first.run.run_id);
      expect(oldest?.itemsByKind).toEqual({ files: 3, listItems: 10, pages: 3 });
      const reports = await client.apollo.reporting.list({ tenantId });
      const report = reports.items.find((r) => r.reportId === first.run.run_id);
      expect(report?.totals.itemsByKind).toEqual({ files: 3, listItems: 10, pages: 3 });
      expect(report?.totals.items).toBe(3);
    });
  });

  describe('the mail archive: mails, events, contacts and tasks', () => {
    beforeEach(async () => {
      sim = await simulatedTenant(server, tenantId, { users: 2, sites: 0, teams: 0, messagesPerFolder: 1 }, 6);
      newEngine();
    });

    it('statistics, overview, monitor and reports split the items into mails, events, contacts and tasks', async () => {
      const mailboxes = sim.state.tenant(tenantId).users.filter((u) => u.hasMailbox);
      const before = await client.legacy.email.statistics({ query: { ip: await workerIp(server, 'Contoso') } });
      const job = await api().create({
        name: 'Mailboxes',
        type: 'exchangeArchive',
        application: 'exchange',
        sources: mailboxes.map((u) => u.id),
      });
      const first = await api().start(job.jobId, engine);
      expect(first.run.status).toBe('finished');
      const counts = await runCounts(server.ctx.db, String(first.run.run_id));
      if (!counts) throw new Error('the run recorded no counts');
      // Items deleted in the mailbox since stay archived and counted.
      evolve(sim.state.tenant(tenantId), { newEvents: 1, deletedEvents: 1, newContacts: 1, newTasks: 1 });
      const second = await api().start(job.jobId, engine);
      expect(second.run.status).toBe('finished');

      const stats = await client.legacy.email.statistics({ query: { ip: await workerIp(server, 'Contoso') } });
      const added = (kind: 'events' | 'contacts' | 'tasks') =>
        (stats.itemsByKind?.[kind] ?? 0) - (before.itemsByKind?.[kind] ?? 0);
      // Each item once: a changed one's versions together; the new ones of the second run added.
      expect(added('events')).toBeGreaterThanOrEqual(counts.events + 1);
      expect(added('contacts')).toBe(counts.contacts + 1);
      expect(added('tasks')).toBe(counts.tasks + 1);
      expect(counts.events).toBeGreaterThan(0);
      expect(counts.contacts).toBe(mailboxes.reduce((n, u) => n + u.contacts.size, 0) - 1);
      expect(stats.itemsByKind?.mails).toBeGreaterThan(0);
      expect(stats.items).toBe(sum(stats.itemsByKind));

      const overview = await client.apollo.dashboards.overview({ tenantId });
      expect(overview.emailArchive.itemsByKind).toEqual(stats.itemsByKind);
      expect(overview.emailArchive.items).toBe(stats.items);

      const runs = await client.apollo.monitoring.list({ tenantId, query: { jobId: job.jobId } });
      const run = runs.items.find((r) => r.reportId === first.run.run_id);
      expect(run?.itemsByKind).toEqual({
        mails: Number(first.run.items_done),
        events: counts.events,
        contacts: counts.contacts,
        tasks: counts.tasks,
      });
      const reports = await client.apollo.reporting.list({ tenantId });
      const report = reports.items.find((r) => r.reportId === first.run.run_id);
      expect(report?.totals.itemsByKind).toEqual(run?.itemsByKind);
    });
  });
});
