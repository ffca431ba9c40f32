/**
 * Figures that add up, over the demo history: every figure the portal shows for a job's runs, an
 * account, an area and the overview is counted again here, independently, from the database's rows
 * (items protected, stored size after deduplication, items changed by a run), before and after a
 * second backup job that overlaps the first and a retention deletion. The definitions are those of
 * modules/dashboards/service.ts and the web's `figures` texts:
 * - items protected: live files, messages, list items and pages, each once per account however many
 *   jobs hold it; archived mails, events, contacts and tasks, each once;
 * - stored size: each distinct content (hash) of an account once, every version included;
 * - a run's items: what it changed (stored, archived, deleted), and its report's accounts add up to it;
 * - the archive's per-day figures: what each day archived stays, a deletion shows on its own day.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ArchiveStatistics,
  DashboardBasic,
  DashboardDetails,
  DashboardSize,
  DataManagementDashboard,
  JobRun,
  OverviewDashboard,
  Page,
  RunAccount,
  TeamsArchiveStatistics,
} from '@compliance-portal/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoHistory } from '../src/demo/demo-history.js';
import { demoSimulatorOf } from '../src/demo/demo-simulator.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { ADMIN, createTestServer, jobsApi, sessionToken, TENANTS, type TestServer } from './helpers.js';

const APPLICATIONS = ['onedrive', 'sharepoint', 'teams'] as const;
type Application = (typeof APPLICATIONS)[number];
const TENANT = TENANTS.contoso;

describe('the figures of the demo history agree with the database', () => {
  let server: TestServer & { close(): Promise<void> };
  let engine: JobEngine;
  let admin = '';
  let workerIp = '';
  const api = async <T>(method: string, url: string, body?: object) => {
    const answer = await server.request({ method, url, token: admin, ...(body ? { body } : {}) });
    expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBeLessThan(300);
    return answer.json() as T;
  };
  const apollo = <T>(url: string) => api<T>('GET', `/apollo-beta/api/${TENANT}${url}`);
  const query = <T>(sql: string, params: unknown[] = []) => server.ctx.db.query<T>(sql, params);

  /** Per account, site or team of a workload: its live items and the bytes of its distinct contents, counted in JS. */
  async function countedBackup(application: Application) {
    const rows = await query<{
      source_id: string;
      item_id: string;
      kind: string;
      hash: string | null;
      size: string;
      live: boolean;
    }>(
      `select b.source_id, b.item_id, b.kind, b.hash, b.size, b.deleted_seq is null as live
         from backup_items b join jobs j on j.job_id = b.job_id
        where j.tenant_id = $1 and j.type = 'backup' and j.application = $2`,
      [TENANT, application],
    );
    const sources = new Map<string, { items: Set<string>; contents: Map<string, number> }>();
    for (const r of rows) {
      const s = sources.get(r.source_id) ?? { items: new Set(), contents: new Map() };
      sources.set(r.source_id, s);
      if (r.kind !== 'folder' && r.live) s.items.add(r.item_id);
      if (r.hash) s.contents.set(r.hash, Math.max(s.contents.get(r.hash) ?? 0, Number(r.size)));
    }
    // A site's list items and pages are items it protects too, each live one once (migration 38).
    const siteRows = await query<{ site_id: string; item: string }>(
      `select li.site_id, 'listItem:' || li.list_id || ':' || li.item_id as item
         from backup_list_items li join jobs j on j.job_id = li.job_id
        where j.tenant_id = $1 and j.type = 'backup' and j.application = $2 and li.deleted_seq is null
       union all
       select p.site_id, 'page:' || p.page_id from backup_pages p join jobs j on j.job_id = p.job_id
        where j.tenant_id = $1 and j.type = 'backup' and j.application = $2 and p.deleted_seq is null`,
      [TENANT, application],
    );
    for (const r of siteRows) {
      const s = sources.get(r.site_id) ?? { items: new Set(), contents: new Map() };
      sources.set(r.site_id, s);
      s.items.add(r.item);
    }
    const per = new Map(
      [...sources].map(([id, s]) => [
        id,
        { items: s.items.size, bytes: [...s.contents.values()].reduce((a, b) => a + b, 0) },
      ]),
    );
    const [covered] = await query<{ n: number }>(
      `select count(distinct s)::int as n from jobs j, jsonb_array_elements_text(j.definition->'sources') s
        where j.tenant_id = $1 and j.type = 'backup' and j.application = $2`,
      [TENANT, application],
    );
    return {
      per,
      items: [...per.values()].reduce((n, s) => n + s.items, 0),
      bytes: [...per.values()].reduce((n, s) => n + s.bytes, 0),
      covered: Number(covered?.n ?? 0),
    };
  }

  /** The archive's items and bytes of `kinds`, and the sources with items, counted from its rows. */
  async function countedArchive(kinds: string[]) {
    const [row] = await query<{ items: number; bytes: string; sources: number }>(
      `select count(*)::int as items, coalesce(sum(size), 0)::bigint as bytes, count(distinct source)::int as sources
         from archive_items where tenant_id = $1 and kind = any($2::text[])`,
      [TENANT, kinds],
    );
    return { items: Number(row?.items ?? 0), bytes: Number(row?.bytes ?? 0), sources: Number(row?.sources ?? 0) };
  }

  /**
   * Every figure of every backup dashboard, the overview and the archive statistics against the
   * counts above; the answers, for comparisons before and after a change.
   */
  async function checkFigures(when: string) {
    let backupBytes = 0;
    let backupItems = 0;
    const details: Record<string, DashboardDetails> = {};
    for (const application of APPLICATIONS) {
      const label = `${when}, ${application}`;
      const base = `/dashboard/${application}`;
      const [basic, size, detail, counted] = await Promise.all([
        apollo<DashboardBasic>(`${base}/basic`),
        apollo<DashboardSize>(`${base}/size`),
        apollo<DashboardDetails>(`${base}/details`),
        countedBackup(application),
      ]);
      details[application] = detail;
      expect(basic.protectedCount, label).toBe(counted.covered);
      expect(basic.items, `${label}: items protected`).toBe(counted.items);
      expect(size.storedBytes, `${label}: stored size`).toBe(counted.bytes);
      // The size chart's last day is today: what the figures above say.
      expect(size.series.at(-1)?.bytes, label).toBe(counted.bytes);
      expect(size.series.at(-1)?.items, label).toBe(counted.items);
      expect(detail.entries, label).toHaveLength(counted.covered);
      for (const entry of detail.entries) {
        const own = counted.per.get(entry.sourceId) ?? { items: 0, bytes: 0 };
        expect(entry.items, `${label}: items of ${entry.displayName}`).toBe(own.items);
        expect(entry.bytes, `${label}: stored size of ${entry.displayName}`).toBe(own.bytes);
      }
      expect(
        detail.entries.reduce((n, e) => n + e.bytes, 0),
        label,
      ).toBe(size.storedBytes);
      expect(
        detail.entries.reduce((n, e) => n + e.items, 0),
        label,
      ).toBe(basic.items);
      backupBytes += counted.bytes;
      backupItems += counted.items;
    }
    const overview = await apollo<OverviewDashboard>('/dashboard/overview');
    const [covered] = await query<{ n: number }>(
      `select count(distinct s)::int as n from jobs j, jsonb_array_elements_text(j.definition->'sources') s
        where j.tenant_id = $1 and j.type = 'backup'`,
      [TENANT],
    );
    const mail = await countedArchive(['mail']);
    const teams = await countedArchive(['teams', 'chat']);
    expect(overview.backup.bytes, `${when}: the overview's backup size`).toBe(backupBytes);
    expect(overview.backup.protectedCount, when).toBe(Number(covered?.n ?? 0));
    expect(overview.emailArchive).toMatchObject({ bytes: mail.bytes, protectedCount: mail.sources });
    expect(overview.teamsArchive.bytes, when).toBe(teams.bytes);

    const archive = await api<ArchiveStatistics>('GET', `/api/backup-and-restore/archive/statistics?ip=${workerIp}`);
    // The calendars, contacts and tasks archived beside the mails: each item once, its versions together.
    const [others] = await query<{ events: number; contacts: number; tasks: number }>(
      `select (select count(distinct mailbox || ' ' || external_id) from archived_events where tenant_id = $1)::int as events,
              (select count(distinct mailbox || ' ' || external_id) from archived_contacts where tenant_id = $1)::int as contacts,
              (select count(distinct mailbox || ' ' || external_id) from archived_tasks where tenant_id = $1)::int as tasks`,
      [TENANT],
    );
    const mailKinds = {
      mails: mail.items,
      events: Number(others?.events ?? 0),
      contacts: Number(others?.contacts ?? 0),
      tasks: Number(others?.tasks ?? 0),
    };
    const mailItems = Object.values(mailKinds).reduce((a, b) => a + b, 0);
    expect(archive, `${when}: the email archive`).toMatchObject({
      items: mailItems,
      itemsByKind: mailKinds,
      bytes: mail.bytes,
      mailboxes: mail.sources,
    });
    expect(overview.emailArchive, `${when}: the overview's email archive`).toMatchObject({
      items: mailItems,
      itemsByKind: mailKinds,
    });
    expect(overview.backup.items, `${when}: the overview's backup items`).toBe(backupItems);
    const teamsArchive = await api<TeamsArchiveStatistics>('GET', `/api/teams-archive/statistics?workerIp=${workerIp}`);
    expect(teamsArchive, `${when}: the Teams archive`).toMatchObject({ messages: teams.items, bytes: teams.bytes });

    // Every run's report: its accounts, sites, teams or mailboxes add up to the run's own figures.
    const runs = await query<{
      run_id: string;
      type: string;
      items_done: number;
      bytes: string;
      sources: string;
      source_bytes: string;
    }>(
      `select r.run_id, j.type, r.items_done, r.bytes,
              coalesce((select sum(s.items) from job_run_sources s where s.run_id = r.run_id), 0)::bigint as sources,
              coalesce((select sum(s.bytes) from job_run_sources s where s.run_id = r.run_id), 0)::bigint as source_bytes
         from job_runs r join jobs j on j.job_id = r.job_id
        where r.tenant_id = $1 and r.status in ('finished', 'failed', 'stopped')
          and j.type in ('backup', 'exchangeArchive', 'teamsArchive', 'archiveDeletion')`,
      [TENANT],
    );
    expect(runs.length).toBeGreaterThan(100);
    for (const run of runs) {
      expect(Number(run.sources), `${when}: the accounts of the ${run.type} run ${run.run_id}`).toBe(
        Number(run.items_done),
      );
      expect(Number(run.source_bytes), `${when}: the bytes of the ${run.type} run ${run.run_id}`).toBe(
        Number(run.bytes),
      );
    }
    return { overview, details, archive, teamsArchive };
  }

  beforeAll(async () => {
    server = await createTestServer({ demo: true, dataDir: mkdtempSync(join(tmpdir(), 'portal-figures-')) });
    const simulator = demoSimulatorOf(server.ctx);
    if (!simulator) throw new Error('the demo simulator is not running');
    await createDemoHistory(server.ctx, simulator.state, { throttleSeconds: 1 });
    admin = await sessionToken(server, ADMIN);
    const [worker] = await query<{ worker_ip: string }>(
      `select w.worker_ip from workers w join organisations o on o.id = w.organisation_id where o.name = 'Contoso'`,
    );
    workerIp = worker?.worker_ip ?? '';
    // The clean-up the history leaves queued (throttled on purpose) is stopped: this test runs its own jobs.
    const pending = await apollo<Page<JobRun>>('/monitoring?status=pending&pageSize=100');
    for (const run of pending.items.filter((r) => r.started === null))
      await api('POST', `/apollo-beta/api/${TENANT}/jobs/${run.jobId}/stop`);
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx)), heartbeatMs: 50 });
  }, 900_000);
  afterAll(async () => {
    await engine?.stop();
    await server?.close();
  });

  it('as the history left them, after a second job over an account another job covers, and after a deletion', async () => {
    const before = await checkFigures('after the history');

    // The data-management dashboard's coverage: the sites the analysis read, those a clean-up job includes.
    const dm = await apollo<DataManagementDashboard>('/dashboard/sharepoint-data-management');
    const sites = await query<{ source_id: string; old_versions: number; covered: boolean }>(
      `select u.source_id, u.old_versions,
              u.source_id in (select s from jobs j, jsonb_array_elements_text(j.definition->'sources') s
                               where j.tenant_id = $1 and j.type = 'versionCleanup') as covered
         from storage_usage u where u.tenant_id = $1`,
      [TENANT],
    );
    const old = sites.filter((x) => Number(x.old_versions) > 0);
    expect(dm.coverage).toEqual({
      sites: sites.length,
      covered: sites.filter((x) => x.covered).length,
      withOldVersions: old.length,
      coveredWithOldVersions: old.filter((x) => x.covered).length,
    });
    expect(dm.coverage?.sites).toBeGreaterThan(0);
    for (const candidate of dm.topCleanupCandidates)
      expect(candidate.covered, candidate.displayName).toBe(
        sites.find((x) => x.source_id === candidate.sourceId)?.covered,
      );
    // Beside its top 20 of sites with old versions, it never says every site is cleaned up when one is not.
    expect(dm.topSitesWithoutDataManagement.length).toBe(Math.min(10, sites.length - (dm.coverage?.covered ?? 0)));
    const jobs = jobsApi(server, TENANT, () => admin);

    // A second OneDrive job over the account the first one holds most for.
    const [largest] = [...(before.details.onedrive?.entries ?? [])].sort((a, b) => b.bytes - a.bytes);
    expect(largest?.bytes).toBeGreaterThan(0);
    const account = largest?.sourceId ?? '';
    const job = await jobs.create({
      name: 'OneDrive – one account again',
      type: 'backup',
      application: 'onedrive',
      sources: [account],
    });
    const { run } = await jobs.start(job.jobId, engine);
    expect(run).toMatchObject({ status: 'finished' });
    // The second job stored the account's contents again (its own rows)...
    const [again] = await query<{ bytes: string }>(
      'select coalesce(sum(size), 0)::bigint as bytes from backup_items where job_id = $1',
      [job.jobId],
    );
    expect(Number(again?.bytes)).toBeGreaterThan(0);
    // ...but the account holds only what is new to it: contents the first job had not stored.
    const [fresh] = await query<{ bytes: string }>(
      `select coalesce(sum(size), 0)::bigint as bytes from (
         select hash, max(size) as size from backup_items where job_id = $1 and hash is not null
            and hash not in (select b.hash from backup_items b join jobs j on j.job_id = b.job_id
                              where j.tenant_id = $2 and b.job_id <> $1 and b.source_id = $3 and b.hash is not null)
          group by hash) x`,
      [job.jobId, TENANT, account],
    );
    const overlapped = await checkFigures('after a second job over one account');
    const entry = overlapped.details.onedrive?.entries.find((e) => e.sourceId === account);
    expect(entry?.bytes).toBe((largest?.bytes ?? 0) + Number(fresh?.bytes));
    expect(entry?.bytes).toBeLessThan((largest?.bytes ?? 0) + Number(again?.bytes));
    expect(overlapped.overview.backup.bytes).toBe(before.overview.backup.bytes + Number(fresh?.bytes));
    expect(overlapped.overview.backup.protectedCount).toBe(before.overview.backup.protectedCount);

    // A retention that deletes a mailbox's mail older than a day (the mailbox with most mail no hold keeps).
    const [mailbox] = await query<{ source: string; n: number }>(
      `select a.source, count(*)::int as n from archive_items a
        where a.tenant_id = $1 and a.kind = 'mail'
          and not exists (select 1 from legal_hold_items h where h.item_id = a.id)
        group by a.source order by 2 desc, 1 limit 1`,
      [TENANT],
    );
    const mails = async () =>
      Number(
        (
          await query<{ n: number }>(
            `select count(*)::int as n from archive_items where tenant_id = $1 and kind = 'mail' and source = $2`,
            [TENANT, mailbox?.source],
          )
        )[0]?.n ?? 0,
      );
    const mailsBefore = await mails();
    const deletion = await jobs.create({
      name: 'Mail retention – one day',
      type: 'archiveDeletion',
      application: 'exchange',
      sources: [mailbox?.source],
      retention: { unit: 'days', value: 1 },
    });
    const deleted = await jobs.start(deletion.jobId, engine);
    expect(deleted.run).toMatchObject({ status: 'finished' });
    const removed = mailsBefore - (await mails());
    expect(removed).toBeGreaterThan(0);
    expect(Number(deleted.run.items_done)).toBe(removed);

    // Its report lists the mailbox with the items deleted there.
    const accounts = await apollo<Page<RunAccount>>(`/reporting/${deleted.run.run_id}/accounts`);
    expect(accounts.items).toHaveLength(1);
    expect(accounts.items[0]).toMatchObject({ accountId: mailbox?.source, items: removed });
    expect(accounts.items[0]?.displayName).not.toBe(mailbox?.source);

    const after = await checkFigures('after a deletion');
    expect(after.overview.emailArchive.bytes).toBeLessThan(before.overview.emailArchive.bytes);
    // The past stays as it was; the deletion is today's, as a deletion.
    const today = server.ctx.now().toISOString().slice(0, 10);
    const past = (s: ArchiveStatistics) =>
      s.growth.filter((d) => d.date < today).map((d) => [d.date, d.items, d.bytes]);
    expect(past(after.archive)).toEqual(past(overlapped.archive));
    const on = (s: ArchiveStatistics) => s.growth.find((d) => d.date === today);
    expect((on(after.archive)?.deletedItems ?? 0) - (on(overlapped.archive)?.deletedItems ?? 0)).toBe(removed);
    expect(on(after.archive)?.items).toBe(on(overlapped.archive)?.items);
    // What the chart says, summed: archived over the period minus deleted is what the archive gained.
    const net = (s: ArchiveStatistics) => s.growth.reduce((n, d) => n + d.items - (d.deletedItems ?? 0), 0);
    expect(net(overlapped.archive) - net(after.archive)).toBe(removed);
  }, 600_000);
});
