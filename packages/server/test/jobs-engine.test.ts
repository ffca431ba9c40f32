import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JobEngine } from '../src/jobs/engine.js';
import { progressOf, WorkPart } from '../src/jobs/progress.js';
import { findJob } from '../src/jobs/repository.js';
import type { Executor } from '../src/jobs/run-context.js';
import { GraphError } from '../src/m365/graph-api.js';
import { TENANTS, type TestServer, useTestServer } from './helpers.js';

/**
 * A job type for the engine's tests: each source is an item; "flaky:N" fails N times transiently,
 * "gone" fails for good, "slow" waits until stopped (on a run's first attempt). The checkpoint holds
 * the items done.
 */
const executions: Record<string, string[]> = {};
const attempts = new Map<string, number>();

const fakeBackup: Executor = async (rc) => {
  const done = new Set((rc.checkpoint.done as string[] | undefined) ?? []);
  executions[rc.job.jobId] = [...(executions[rc.job.jobId] ?? []), `run:${[...done].join(',')}`];
  rc.progress({ total: rc.job.sources.length, done: done.size });
  for (const source of rc.job.sources) {
    if (done.has(source)) continue;
    if (await rc.isKnownFailure(source)) {
      rc.progress({ done: 1 });
      continue;
    }
    const result = await rc.item({ key: source, name: `item ${source}`, source }, async () => {
      const n = (attempts.get(`${rc.job.jobId}/${source}`) ?? 0) + 1;
      attempts.set(`${rc.job.jobId}/${source}`, n);
      if (source === 'gone') throw new GraphError(404, 'itemNotFound', 'The item was deleted.');
      if (source.startsWith('flaky:') && n <= Number(source.split(':')[1])) throw new Error('connection reset');
      if (source === 'slow' && rc.run.attempt === 1) {
        await new Promise((resolve) => rc.signal.addEventListener('abort', resolve, { once: true }));
        rc.checkStopped();
      }
      if (source === 'broken') throw Object.assign(new Error('The location is not reachable.'), { fatal: true });
      return source;
    });
    if (source === 'broken') throw new Error('The storage location is not reachable.');
    if (result.ok) rc.progress({ done: 1, bytes: 10, source });
    done.add(source);
    await rc.saveCheckpoint({ done: [...done] });
  }
  return {};
};

async function createJob(server: TestServer, sources: string[], extra: { nextRun?: Date; recurrence?: object } = {}) {
  const jobId = randomUUID();
  await server.ctx.db.query(
    `insert into jobs (job_id, tenant_id, name, type, application, definition, next_run, created_at, updated_at)
     values ($1, $2, $3, 'backup', 'onedrive', $4, $5, $6, $6)`,
    [
      jobId,
      TENANTS.contoso,
      `job ${jobId.slice(0, 4)}`,
      JSON.stringify({ sources, recurrence: extra.recurrence ?? null, retention: null }),
      extra.nextRun ?? null,
      server.ctx.now(),
    ],
  );
  return jobId;
}

function engine(server: TestServer, workerId = 'w1') {
  return new JobEngine(server.ctx, {
    executors: { backup: fakeBackup },
    workerId,
    heartbeatMs: 20,
    leaseMs: 60_000,
  });
}

async function run(server: TestServer, runId: string) {
  const [row] = await server.ctx.db.query<Record<string, unknown>>('select * from job_runs where run_id = $1', [runId]);
  return row ?? {};
}

describe('the job engine', () => {
  const server = useTestServer();

  it('runs a queued job to the end with progress, counts and the job status', async () => {
    const jobId = await createJob(server, ['a', 'b', 'c']);
    const e = engine(server);
    const runId = await e.enqueue(jobId, 'manual');
    expect((await findJob(server.ctx.db, jobId))?.status).toBe('pending');
    const outcomes = await e.runUntilIdle();
    expect(outcomes).toEqual([{ runId, status: 'finished' }]);
    const row = await run(server, runId ?? '');
    expect(row).toMatchObject({ status: 'finished', items_total: 3, items_done: 3, items_failed: 0, progress: 100 });
    expect(Number(row.bytes)).toBe(30);
    const job = await findJob(server.ctx.db, jobId);
    expect(job).toMatchObject({ status: 'finished', progress: 100, message: 'Finished.' });
  });

  it('allows one active run per job', async () => {
    const jobId = await createJob(server, ['a']);
    const e = engine(server);
    expect(await e.enqueue(jobId, 'manual')).not.toBeNull();
    expect(await e.enqueue(jobId, 'manual')).toBeNull();
    await e.runUntilIdle();
    expect(await e.enqueue(jobId, 'manual')).not.toBeNull();
    await e.runUntilIdle();
  });

  it('retries transient item failures, records permanent ones once and skips them on later runs', async () => {
    const jobId = await createJob(server, ['flaky:1', 'gone', 'ok']);
    const e = engine(server);
    const first = (await e.enqueue(jobId, 'manual')) ?? '';
    await e.runUntilIdle();
    expect(await run(server, first)).toMatchObject({ status: 'finished', items_done: 2, items_failed: 1 });
    expect(attempts.get(`${jobId}/flaky:1`)).toBe(2);
    expect(attempts.get(`${jobId}/gone`)).toBe(1);
    const errors = await server.ctx.db.query('select item_key, code, permanent from job_run_errors where run_id = $1', [
      first,
    ]);
    expect(errors).toEqual([{ item_key: 'gone', code: 'itemNotFound', permanent: true }]);
    expect((await findJob(server.ctx.db, jobId))?.message).toBe('Finished with 1 item that could not be processed.');
    const perSource = await server.ctx.db.query(
      'select source_id, items, failed_items, bytes::int as bytes from job_run_sources where run_id = $1 order by source_id',
      [first],
    );
    expect(perSource).toEqual([
      { source_id: 'flaky:1', items: 1, failed_items: 0, bytes: 10 },
      { source_id: 'gone', items: 0, failed_items: 1, bytes: 0 },
      { source_id: 'ok', items: 1, failed_items: 0, bytes: 10 },
    ]);

    const second = (await e.enqueue(jobId, 'manual')) ?? '';
    await e.runUntilIdle();
    expect(attempts.get(`${jobId}/gone`)).toBe(1);
    expect(await run(server, second)).toMatchObject({ status: 'finished', items_failed: 0 });
    const failures = await server.ctx.db.query('select item_key, reason from job_item_failures where job_id = $1', [
      jobId,
    ]);
    expect(failures).toEqual([{ item_key: 'gone', reason: 'The item was deleted.' }]);
  });

  it('ends failed with the reason when the run itself cannot work', async () => {
    const jobId = await createJob(server, ['a', 'broken', 'c']);
    const e = engine(server);
    const runId = (await e.enqueue(jobId, 'manual')) ?? '';
    await e.runUntilIdle();
    expect(await run(server, runId)).toMatchObject({
      status: 'failed',
      message: 'The storage location is not reachable.',
    });
    expect((await findJob(server.ctx.db, jobId))?.status).toBe('failed');
  });

  it('mails the organisation’s people about ended runs as their notification settings ask', async () => {
    const [admin] = await server.ctx.db.query<{ id: string; email: string }>(
      'select u.id, u.email from users u join tenants t on t.organisation_id = u.organisation_id where t.tenant_id = $1 limit 1',
      [TENANTS.contoso],
    );
    const failing = await createJob(server, ['broken']);
    const e = engine(server);
    let before = server.mails.length;
    await e.enqueue(failing, 'manual');
    await e.runUntilIdle();
    // By default a failed run mails, a finished one does not.
    const failedMails = server.mails.slice(before).filter((m) => m.to === admin?.email);
    expect(failedMails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Job ".+" failed \(contoso\./)]);
    expect(failedMails[0]?.text).toContain('The storage location is not reachable.');
    const fine = await createJob(server, ['a']);
    before = server.mails.length;
    await e.enqueue(fine, 'manual');
    await e.runUntilIdle();
    expect(server.mails.slice(before).filter((m) => m.to === admin?.email)).toEqual([]);
    // Asked for finished runs too, at another address: they come there.
    await server.ctx.db.query(
      `insert into notification_settings (user_id, settings) values ($1, $2)
       on conflict (user_id) do update set settings = excluded.settings`,
      [admin?.id ?? '', JSON.stringify({ jobFailed: false, jobFinished: true, email: 'ops@contoso.example' })],
    );
    before = server.mails.length;
    await e.enqueue(fine, 'manual');
    await e.runUntilIdle();
    expect(server.mails.slice(before).map((m) => [m.to, /^Job ".+" finished \(/.test(m.subject)])).toContainEqual([
      'ops@contoso.example',
      true,
    ]);
    before = server.mails.length;
    await e.enqueue(failing, 'manual');
    await e.runUntilIdle();
    expect(server.mails.slice(before).filter((m) => m.to === 'ops@contoso.example')).toEqual([]);
  });

  it('starts through a task that reports when the run began, and stops a running run within a heartbeat', async () => {
    const jobId = await createJob(server, ['a', 'slow', 'c']);
    const e = engine(server);
    const job = await findJob(server.ctx.db, jobId);
    if (!job) throw new Error('no job');
    const start = await e.queue.requestStart(job);
    expect(start).toMatchObject({ action: 'start', status: 'pending' });
    await e.tick();
    expect((await e.queue.task(start?.taskId ?? ''))?.status).toBe('succeeded');
    expect((await findJob(server.ctx.db, jobId))?.status).toBe('running');

    // Another worker's stop request reaches this one through the heartbeat.
    await server.ctx.db.query(`update job_runs set cancel_requested = true where job_id = $1`, [jobId]);
    const [outcome] = await e.drain();
    expect(outcome?.status).toBe('stopped');

    const stop = await e.queue.requestStop(job);
    expect(stop?.status).toBe('succeeded');
    expect(await findJob(server.ctx.db, jobId)).toMatchObject({ enabled: false, status: 'pending' });
  });

  it('resumes a run whose worker died from its checkpoint, and gives up after the last attempt', async () => {
    const jobId = await createJob(server, ['a', 'b', 'c']);
    const runId = randomUUID();
    // As a killed worker leaves it: running, heartbeat long ago, two items done.
    await server.ctx.db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, attempt, worker_id, heartbeat_at, checkpoint, created_at, started)
       values ($1, $2, $3, 'manual', 'running', $4, 1, 'dead-worker', $4, $5, $4, $4)`,
      [
        runId,
        jobId,
        TENANTS.contoso,
        new Date(server.ctx.now().getTime() - 120_000),
        JSON.stringify({ done: ['a', 'b'] }),
      ],
    );
    const e = engine(server, 'w2');
    await e.runUntilIdle();
    expect(await run(server, runId)).toMatchObject({ status: 'finished', attempt: 2, worker_id: 'w2' });
    expect(executions[jobId]).toEqual(['run:a,b']);

    const doomed = await createJob(server, ['a']);
    const doomedRun = randomUUID();
    await server.ctx.db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, attempt, worker_id, heartbeat_at, created_at)
       values ($1, $2, $3, 'manual', 'running', $4, 3, 'dead-worker', $4, $4)`,
      [doomedRun, doomed, TENANTS.contoso, new Date(server.ctx.now().getTime() - 120_000)],
    );
    await e.tick();
    const row = await run(server, doomedRun);
    expect(row.status).toBe('failed');
    expect(String(row.message)).toMatch(/interrupted 3 times/);
  });

  it('pauses runs at shutdown and resumes them on the next start', async () => {
    const jobId = await createJob(server, ['a', 'slow', 'c']);
    const first = engine(server, 'w-shutdown');
    const runId = (await first.enqueue(jobId, 'manual')) ?? '';
    await first.tick();
    await expect.poll(async () => JSON.stringify((await run(server, runId)).checkpoint)).toContain('"a"');
    await first.stop();
    expect(await run(server, runId)).toMatchObject({ status: 'queued' });

    const second = engine(server, 'w-after-restart');
    await second.runUntilIdle();
    expect(await run(server, runId)).toMatchObject({ status: 'finished', attempt: 2, items_done: 3 });
    expect(executions[jobId]).toEqual(['run:', 'run:a']);
  });

  it('queues due scheduled jobs and moves their next run on', async () => {
    const due = new Date(server.ctx.now().getTime() - 1000);
    const jobId = await createJob(server, ['a'], { nextRun: due, recurrence: { kind: 'daily', hours: [3] } });
    const e = engine(server);
    await e.scheduleDue();
    const runs = await server.ctx.db.query<{ trigger: string; status: string }>(
      'select trigger, status from job_runs where job_id = $1',
      [jobId],
    );
    expect(runs).toEqual([{ trigger: 'schedule', status: 'queued' }]);
    const job = await findJob(server.ctx.db, jobId);
    expect(job?.nextRun?.getTime()).toBeGreaterThan(server.ctx.now().getTime());
    expect(job?.nextRun?.getUTCHours()).toBe(3);
    await e.runUntilIdle();
  });

  it('never lets two workers run the same job', async () => {
    const jobs = await Promise.all(Array.from({ length: 6 }, () => createJob(server, ['a', 'b'])));
    const a = engine(server, 'wa');
    const b = engine(server, 'wb');
    for (const jobId of jobs) await a.enqueue(jobId, 'manual');
    await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
    for (const jobId of jobs) expect(executions[jobId]).toHaveLength(1);
    const workers = await server.ctx.db.query<{ n: number }>(
      `select count(*)::int as n from job_runs where job_id = any($1) and status = 'finished'`,
      [jobs],
    );
    expect(workers[0]?.n).toBe(6);
  });

  it('shows the progress of a run that finds its items page by page as honest: up only, never nearly done early', async () => {
    // Two accounts of three pages of three items each, as a delta query lists them: a page more may
    // follow until the last was read. The progress read back after each step.
    const seen: number[] = [];
    const progressNow = async (rc: Parameters<Executor>[0]) => {
      await rc.flush();
      const [row] = await rc.ctx.db.query<{ progress: number }>('select progress from job_runs where run_id = $1', [
        rc.run.run_id,
      ]);
      seen.push(Number(row?.progress));
    };
    const paged: Executor = async (rc) => {
      const parts = rc.work.split(rc.job.sources.length);
      for (const [index, source] of rc.job.sources.entries()) {
        const part = parts[index] as WorkPart;
        for (let page = 0; page < 3; page++) {
          rc.progress({ total: 3, source, part, more: 3 });
          for (let item = 0; item < 3; item++) {
            rc.progress({ done: 1, source, part });
            await progressNow(rc);
          }
        }
        part.end();
        await progressNow(rc);
      }
      return {};
    };
    const jobId = await createJob(server, ['first', 'second']);
    const e = new JobEngine(server.ctx, { executors: { backup: paged }, heartbeatMs: 20, progressIntervalMs: 0 });
    const runId = await e.enqueue(jobId, 'manual');
    await e.runUntilIdle();
    expect(seen).toHaveLength(20);
    for (let i = 1; i < seen.length; i++) expect(seen[i], seen.join(' ')).toBeGreaterThanOrEqual(seen[i - 1] ?? 0);
    // One item of eighteen: a few per cent, not 99; the first account's first page: at most half of its half.
    expect(seen[0]).toBeLessThan(10);
    expect(seen[2]).toBeLessThanOrEqual(25);
    // The first account read to its end is half the run; the second, up to its last page, is not done.
    expect(seen[9]).toBe(50);
    expect(Math.max(...seen.slice(0, 19))).toBeLessThan(99);
    expect(seen[19]).toBe(99);
    expect(await run(server, runId ?? '')).toMatchObject({ status: 'finished', progress: 100, items_done: 18 });
  });
});

describe('the work of a run (progress.ts)', () => {
  const part = () => new WorkPart(() => undefined);

  it('weighs parts, counts a part listed page by page as at most 90 % done until its end, and never more than 99', () => {
    const run = part();
    const [small, large] = run.split([1, 3]) as [WorkPart, WorkPart];
    small.add(2);
    small.finish(2);
    expect(progressOf(run)).toBe(25);
    large.add(10, 10);
    large.finish(10);
    // Its whole known page done, and a page as large may follow: half of it, not all.
    expect(large.share).toBe(0.5);
    large.add(1000, 10);
    large.finish(1000);
    expect(large.share).toBe(0.9);
    large.end();
    expect(progressOf(run)).toBe(99);
    expect(run.share).toBe(1);
    // No parts: nothing to do. A part not begun counts nothing.
    expect(part().split([]).length).toBe(0);
    const idle = part();
    idle.split(4);
    expect(idle.share).toBe(0);
  });
});
