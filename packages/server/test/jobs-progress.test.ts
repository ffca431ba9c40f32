/**
 * A run's progress as the portal shows it, for every job type, with the real engine and executors
 * against the simulated tenant (listings in pages of a few items, as Graph's delta queries page):
 * every value written while a run works is recorded. It never goes down within a run, it is 100 only
 * once the run finished, and it does not claim the run nearly done before most of its work is: a run
 * that finds its items as it goes (a drive page by page, a mailbox folder by folder) once showed 99 %
 * after its first folder and fell back when it listed the next.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '@compliance-portal/m365-simulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.js';
import type { Database } from '../src/db/database.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, discovered, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';

/** A value of progress written while a run worked, with the run's counters written with it. */
interface Sample {
  progress: number;
  /** Items found so far. */
  found: number;
  /** Items done or failed so far. */
  finished: number;
}

/**
 * `ctx` whose database records, per job, each progress written while its run works (and the counters
 * written just before it): the run context writes the run's counters, then the job's progress.
 */
function recording(ctx: AppContext) {
  const samples = new Map<string, Sample[]>();
  const counters = new Map<string, { found: number; finished: number }>();
  const record = (sql: string, params: readonly unknown[] | undefined) => {
    if (sql.trimStart().startsWith('update job_runs set items_total = items_total +')) {
      const runId = String(params?.[0]);
      const c = counters.get(runId) ?? { found: 0, finished: 0 };
      c.found += Number(params?.[1]);
      c.finished += Number(params?.[2]) + Number(params?.[3]);
      counters.set(runId, c);
      counters.set('last', c);
    } else if (sql.startsWith('update jobs set progress = $2 where job_id = $1')) {
      const jobId = String(params?.[0]);
      const c = counters.get('last') ?? { found: 0, finished: 0 };
      samples.set(jobId, [...(samples.get(jobId) ?? []), { progress: Number(params?.[1]), ...c }]);
    }
  };
  const db = new Proxy(ctx.db, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver);
      return (sql: string, params?: readonly unknown[]) => {
        record(sql, params);
        return target.query(sql, params as never);
      };
    },
  }) as Database;
  return { ctx: { ...ctx, db }, samples, reset: () => counters.clear() };
}

describe('the progress of a run, for every job type', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-progress-')) });
  const tenantId = TENANTS.contoso;
  let token = '';
  let sim: RunningSimulator;
  let engine: JobEngine;
  let watched: ReturnType<typeof recording>;
  const users: { id: string; upn: string }[] = [];

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      {
        users: 3,
        sites: 1,
        teams: 1,
        channelsPerTeam: 3,
        messagesPerChannel: 3,
        repliesPerMessage: 1,
        chats: 2,
        messagesPerChat: 3,
        filesPerDrive: 24,
        versionsPerFile: 2,
        messagesPerFolder: 6,
      },
      // Listings in pages of 5: a drive's files, a folder's mail arrive page by page.
      5,
    );
    watched = recording(server.ctx);
    const plane = createDataPlane(
      watched.ctx,
      createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-progress-blobs-'))),
    );
    // Every change of progress is written, so that each is seen.
    engine = new JobEngine(watched.ctx, { executors: executors(plane), heartbeatMs: 50, progressIntervalMs: 0 });
    users.length = 0;
    const tenant = sim.state.tenant(tenantId);
    for (const u of tenant.users) if (!u.upn.includes('#EXT#')) users.push({ id: u.id, upn: u.upn });
    // Known to discovery, as if read from Microsoft 365 just now (jobs may name only what it found).
    await discovered(
      server,
      tenantId,
      'onedrive',
      users.map((u) => u.upn),
    );
    await discovered(
      server,
      tenantId,
      'exchange',
      users.map((u) => u.upn),
    );
    await discovered(
      server,
      tenantId,
      'sharepoint',
      tenant.sites.map((s) => s.id),
    );
    await discovered(
      server,
      tenantId,
      'teams',
      tenant.teams.map((t) => t.id),
    );
  });
  afterEach(() => sim.close());

  const api = () => jobsApi(server, tenantId, () => token);

  /** Runs the job to its end; checks what its progress said on the way. */
  async function runAndCheck(label: string, body: object) {
    const { jobId } = await api()
      .create(body)
      .catch((error: Error) => {
        throw new Error(`${label}: ${error.message}`);
      });
    watched.reset();
    const { run } = await api().start(jobId, engine);
    expect(run.status, label).toBe('finished');
    const samples = watched.samples.get(jobId) ?? [];
    const values = samples.map((s) => s.progress);
    const total = Number(run.items_total);
    const shown = `${label}: ${JSON.stringify(samples)}`;
    // Never down within the run.
    for (let i = 1; i < values.length; i++) expect(values[i], shown).toBeGreaterThanOrEqual(values[i - 1] ?? 0);
    // 100 only once finished.
    for (const value of values) expect(value, shown).toBeLessThan(100);
    const [job] = await server.ctx.db.query<{ progress: number }>('select progress from jobs where job_id = $1', [
      jobId,
    ]);
    expect(job?.progress, label).toBe(100);
    // Not nearly done before half of its items are: not after its first item of many, nor after its first folder.
    for (const s of samples) if (s.finished * 2 < total) expect(s.progress, shown).toBeLessThan(90);
    const first = samples.find((s) => s.finished === 1);
    if (total > 4 && first) expect(first.progress, shown).toBeLessThan(50);
    return { jobId, run, samples };
  }

  it('backs up OneDrive, SharePoint and Teams, and restores, with progress that only goes up', async () => {
    const onedrive = await runAndCheck('OneDrive backup', {
      name: 'OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: users.slice(0, 2).map((u) => u.upn),
    });
    expect(Number(onedrive.run.items_total)).toBe(48);
    const site = sim.state.tenant(tenantId).sites[0]?.id ?? '';
    await runAndCheck('SharePoint backup', {
      name: 'Site',
      type: 'backup',
      application: 'sharepoint',
      sources: [site],
    });
    const team = sim.state.tenant(tenantId).teams[0]?.id ?? '';
    await runAndCheck('Teams backup', { name: 'Team', type: 'backup', application: 'teams', sources: [team] });
    const restore = (target: object) => ({
      name: 'Restore',
      type: 'restore',
      application: 'onedrive',
      sources: [users[0]?.upn ?? ''],
      restore: {
        sourceJobId: onedrive.jobId,
        snapshot: new Date(Date.now() + 86_400_000).toISOString(),
        sourceId: users[0]?.upn ?? '',
        nodeIds: ['root'],
        conflictPolicy: 'keepBoth',
        ...target,
      },
    });
    await runAndCheck('restore as a download', restore({ target: 'download' }));
    await runAndCheck('restore in place', restore({ target: 'original' }));
    await runAndCheck('version clean-up', {
      name: 'Keep 1',
      type: 'versionCleanup',
      application: 'sharepoint',
      sources: [site],
      cleanupRule: { kind: 'keepNewest', count: 1 },
    });
  });

  it('archives mail, Teams and chats, restores mail and deletes by retention, with progress that only goes up', async () => {
    const mail = await runAndCheck('mail archive', {
      name: 'Mail',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: users.slice(0, 2).map((u) => u.upn),
    });
    const team = sim.state.tenant(tenantId).teams[0]?.id ?? '';
    await runAndCheck('Teams archive', {
      name: 'Teams',
      type: 'teamsArchive',
      application: 'teams',
      sources: [team],
      chats: users.slice(0, 2).map((u) => u.upn),
    });
    const mailbox = users[0]?.upn ?? '';
    const archived = await server.ctx.db.query<{ id: string }>(
      "select id::text from archive_items where tenant_id = $1 and kind = 'mail' and source = $2",
      [tenantId, mailbox],
    );
    expect(archived.length).toBeGreaterThan(4);
    await runAndCheck('mail restore', {
      name: 'Mail back',
      type: 'restore',
      application: 'exchange',
      sources: [mailbox],
      restore: {
        sourceJobId: mail.jobId,
        snapshot: new Date(Date.now() + 86_400_000).toISOString(),
        sourceId: mailbox,
        nodeIds: archived.map((a) => a.id),
        conflictPolicy: 'keepBoth',
        target: 'original',
      },
    });
    await runAndCheck('mail deletion', {
      name: 'Purge',
      type: 'archiveDeletion',
      application: 'exchange',
      sources: [mailbox],
      retention: { unit: 'days', value: 30 },
    });
  });
});
