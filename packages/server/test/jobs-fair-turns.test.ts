/**
 * Fair turns between tenants, on one engine: a tenant with many jobs queued first does not hold
 * every slot (each tenant gets its turn, then the one served longest ago); a tenant whose run waits
 * on Microsoft 365's throttling gets no further run started until its next try while other tenants'
 * runs go on; a long run that held its slot for a time slice while another tenant waits gives its
 * slot up at its next checkpoint, queues behind the waiting run, resumes from its checkpoint and
 * ends with the figures of an uninterrupted run. Fake executors on the simulated clock (fleet.ts):
 * order and counts only, no real time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.js';
import { JobEngine, type JobEngineOptions } from '../src/jobs/engine.js';
import type { RunRow } from '../src/jobs/repository.js';
import { createGraphApi, sendGraphRequestsThrough } from '../src/m365/graph-client.js';
import { addClientTenants, addJob, fleetExecutor } from './fleet.js';
import { useTestServer } from './helpers.js';

const MINUTE = 60_000;

describe('fair turns between tenants', () => {
  const server = useTestServer();
  const engines: JobEngine[] = [];
  let endWait = () => {};
  afterEach(async () => {
    endWait();
    sendGraphRequestsThrough(undefined);
    for (const e of engines.splice(0)) await e.stop();
    // Each test starts with an empty queue: what one leaves would take the next one's turns.
    await server.ctx.db.query(`update job_runs set status = 'stopped' where status in ('queued', 'running')`);
  });

  const engine = (options: Omit<JobEngineOptions, 'workerId' | 'heartbeatMs' | 'leaseMs'>, ctx = server.ctx) => {
    const e = new JobEngine(ctx, { workerId: 'fair', heartbeatMs: 20, leaseMs: 24 * 60 * MINUTE, ...options });
    engines.push(e);
    return e;
  };
  /** The server's context on a clock that moves on by a millisecond at each reading. */
  const ticking = (): AppContext => ({
    ...server.ctx,
    now: () => {
      server.clock.advance(1);
      return new Date(server.clock.now);
    },
  });
  const runRow = async (runId: string) => {
    const [row] = await server.ctx.db.query<RunRow>('select * from job_runs where run_id = $1', [runId]);
    if (!row) throw new Error(`no run ${runId}`);
    return row;
  };
  const enqueue = async (e: JobEngine, jobId: string) => {
    const runId = await e.enqueue(jobId, 'schedule');
    if (!runId) throw new Error('not queued');
    return runId;
  };

  it('gives each tenant its turn before a tenant with many jobs gets a second, then the one served longest ago', async () => {
    const [big = '', a = '', b = '', c = ''] = await addClientTenants(server.ctx.db, [
      'Big',
      'Alpha',
      'Bravo',
      'Charlie',
    ]);
    const { executor, record } = fleetExecutor(server.clock.advance, MINUTE);
    const e = engine({ executors: { backup: executor }, concurrency: 2, timeSliceMs: 0 }, ticking());
    const now = server.ctx.now();
    // First queued, first served would run Big's four jobs before anyone else's.
    const queued: string[] = [];
    for (const tenant of [big, big, big, big, a, a, b, c]) {
      queued.push(await enqueue(e, await addJob(server.ctx.db, tenant, now, 2)));
    }
    await e.runUntilIdle();
    // The order of the claims: each read of this engine's clock moves it on by a millisecond, and a
    // claim reads it in its turn, so the runs' start times are in the order they were claimed.
    const runs = await server.ctx.db.query<{ tenant_id: string; status: string }>(
      'select tenant_id, status from job_runs where run_id = any($1) order by started',
      [queued],
    );
    expect(runs.every((r) => r.status === 'finished')).toBe(true);
    const names = new Map([
      [big, 'Big'],
      [a, 'Alpha'],
      [b, 'Bravo'],
      [c, 'Charlie'],
    ]);
    expect(runs.map((r) => names.get(r.tenant_id))).toEqual([
      'Big',
      'Alpha',
      'Bravo',
      'Charlie',
      // Big and Alpha both had a turn; Big's came first (served longest ago).
      'Big',
      'Alpha',
      'Big',
      'Big',
    ]);
    // One run per tenant at a time (the default), though two slots were free.
    expect(Math.max(...record.mostAtOnce.values())).toBe(1);
    // Every run once.
    expect([...record.invocations.values()]).toEqual(queued.map(() => 1));
  });

  it('among tenants that had their turn, serves the one served longest ago first', async () => {
    const [p = '', q = '', r = ''] = await addClientTenants(server.ctx.db, ['Papa', 'Quebec', 'Romeo']);
    const { executor, record } = fleetExecutor(server.clock.advance, MINUTE);
    const e = engine({ executors: { backup: executor }, concurrency: 1, timeSliceMs: 0 });
    const now = server.ctx.now();
    for (const tenant of [p, p, p, q, q, r]) await enqueue(e, await addJob(server.ctx.db, tenant, now, 1));
    await e.runUntilIdle();
    const names = new Map([
      [p, 'Papa'],
      [q, 'Quebec'],
      [r, 'Romeo'],
    ]);
    // First queued, first served would run Papa's three first; Romeo, never served, comes before
    // anyone's second turn, and Papa (served before Quebec) before Quebec.
    expect(record.starts.map((s) => names.get(s.tenantId))).toEqual([
      'Papa',
      'Quebec',
      'Romeo',
      'Papa',
      'Quebec',
      'Papa',
    ]);
  });

  it('starts no run of a tenant while one of its runs waits on throttling, and goes on with other tenants', async () => {
    const [throttled = '', other = ''] = await addClientTenants(server.ctx.db, ['Throttled', 'Other']);
    // Graph answers the first request 429 with Retry-After 60 s (the client's longest wait), then normally.
    let requests = 0;
    sendGraphRequestsThrough(async () => {
      requests += 1;
      return requests === 1
        ? new Response(JSON.stringify({ error: { code: 'TooManyRequests', message: 'Slow down.' } }), {
            status: 429,
            headers: { 'retry-after': '60', 'content-type': 'application/json' },
          })
        : new Response(JSON.stringify({ value: [{ id: 'org', displayName: 'Throttled', verifiedDomains: [] }] }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
    });
    // The client's wait for Retry-After ends when the test says so, not on the real clock (at the
    // latest when the test ends, so that the engine can stop).
    const waited = new Promise<void>((resolve) => {
      endWait = resolve;
    });
    const graph = createGraphApi(
      {
        directoryId: throttled,
        clientId: 'app',
        clientSecret: 'secret',
        authorityHost: 'https://login.test',
        graphBaseUrl: 'https://graph.test/v1.0',
      },
      { tokens: { token: async () => 'token' }, sleep: () => waited },
    );
    // Steps take no time here: the clock moves only when the test says (past the next try).
    const { executor, record } = fleetExecutor(server.clock.advance, 0, async (_rc, source) => {
      if (source === 'graph') await graph.organization();
    });
    // Two runs of a tenant at once are allowed here: what holds the second back is the throttling.
    const e = engine({ executors: { backup: executor }, concurrency: 3, tenantConcurrency: 2, timeSliceMs: 0 });
    const now = server.ctx.now();
    const first = await enqueue(e, await addJob(server.ctx.db, throttled, now, 1, 'graph'));
    await e.tick();
    let waiting = await runRow(first);
    for (let i = 0; i < 500 && !waiting.throttle_next_try; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      waiting = await runRow(first);
    }
    expect(waiting).toMatchObject({ status: 'running', throttle_status: 429 });
    const nextTry = new Date(waiting.throttle_next_try ?? 0).getTime();
    expect(nextTry - server.ctx.now().getTime()).toBe(60_000);

    // The throttled tenant's second run is queued before the other tenant's: it is passed over.
    const second = await enqueue(e, await addJob(server.ctx.db, throttled, server.ctx.now(), 1));
    const others = await enqueue(e, await addJob(server.ctx.db, other, server.ctx.now(), 1));
    await e.tick();
    expect((await runRow(second)).status).toBe('queued');
    expect((await runRow(others)).status).not.toBe('queued');

    // Past the next try, the tenant's turn is back (its first run's request is still on its way).
    server.clock.advance(nextTry + 1 - server.ctx.now().getTime());
    expect(server.ctx.now().getTime()).toBeGreaterThan(nextTry);
    await e.tick();
    const resumed = await runRow(second);
    expect(resumed.status).not.toBe('queued');
    expect(new Date(resumed.started ?? 0).getTime()).toBeGreaterThan(nextTry);
    expect(new Date((await runRow(others)).started ?? 0).getTime()).toBeLessThan(nextTry);

    endWait();
    await e.drain();
    for (const runId of [first, second, others]) {
      expect(await runRow(runId)).toMatchObject({ status: 'finished', throttled_since: null, throttle_next_try: null });
    }
    expect(requests).toBe(2);
    expect(record.starts.map((s) => s.runId)).toEqual([first, others, second]);
  });

  it('starts a run someone asked for (a restore, a start by hand) at once, past its tenant’s limit and scheduled runs', async () => {
    const [busy = '', other = ''] = await addClientTenants(server.ctx.db, ['Busy', 'Other']);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The tenant's scheduled run holds its one place until the test lets it go.
    const { executor, record } = fleetExecutor(server.clock.advance, 0, async (rc) => {
      if (rc.run.trigger === 'schedule' && rc.tenant.tenantId === busy) await held;
    });
    const e = engine({ executors: { backup: executor }, concurrency: 3, tenantConcurrency: 1, timeSliceMs: 0 });
    const now = server.ctx.now();
    const nightly = await enqueue(e, await addJob(server.ctx.db, busy, now, 1));
    await e.tick();
    expect((await runRow(nightly)).status).toBe('running');

    const scheduled = await enqueue(e, await addJob(server.ctx.db, busy, now, 1));
    const othersScheduled = await enqueue(e, await addJob(server.ctx.db, other, now, 1));
    const asked = await e.enqueue(await addJob(server.ctx.db, busy, now, 1), 'creation');
    if (!asked) throw new Error('not queued');
    try {
      await e.tick();
      // The run asked for starts although its tenant is at its limit, and before the other tenant's
      // scheduled run (which takes the third place); the tenant's scheduled one waits.
      expect((await runRow(asked)).status).not.toBe('queued');
      expect((await runRow(othersScheduled)).status).not.toBe('queued');
      expect((await runRow(scheduled)).status).toBe('queued');
      expect(new Date((await runRow(asked)).started ?? 0).getTime()).toBeLessThanOrEqual(
        new Date((await runRow(othersScheduled)).started ?? 0).getTime(),
      );
    } finally {
      release();
    }
    await e.runUntilIdle();
    expect((await runRow(scheduled)).status).toBe('finished');
    expect(record.invocations.get(asked)).toBe(1);
  });

  it('a long run gives its slot to a waiting tenant after a time slice and ends with its whole figures', async () => {
    const [long = '', waiter = ''] = await addClientTenants(server.ctx.db, ['Long', 'Waiter']);
    const slice = 10 * MINUTE;
    let seenWhileQueued: RunRow | undefined;
    const longRun: { id?: string } = {};
    const { executor, record } = fleetExecutor(server.clock.advance, MINUTE, async (rc) => {
      // What the long run's row said while the waiting tenant had its turn.
      if (rc.tenant.tenantId === waiter && longRun.id && !seenWhileQueued) seenWhileQueued = await runRow(longRun.id);
    });
    const e = engine({ executors: { backup: executor }, concurrency: 1, timeSliceMs: slice });
    const now = server.ctx.now();
    longRun.id = await enqueue(e, await addJob(server.ctx.db, long, now, 30));
    const waiting = await enqueue(e, await addJob(server.ctx.db, waiter, now, 2));
    await e.runUntilIdle();

    // Long, then Waiter after Long's tenth one-minute step (its first checkpoint past the slice),
    // then Long again from its checkpoint.
    expect(record.starts).toEqual([
      { runId: longRun.id, tenantId: long, resumedAt: 0 },
      { runId: waiting, tenantId: waiter, resumedAt: 0 },
      { runId: longRun.id, tenantId: long, resumedAt: 10 },
    ]);
    const waited = await runRow(waiting);
    expect(new Date(waited.started ?? 0).getTime() - new Date(waited.created_at).getTime()).toBe(slice);
    expect(seenWhileQueued).toMatchObject({
      status: 'queued',
      yields: 1,
      message: "Gave its turn to other tenants' waiting runs after 10 minutes; resumes from its checkpoint.",
    });
    // Nothing was done twice, and the run resumed for twenty minutes more without yielding (no one waited).
    expect([...record.steps.values()].every((n) => n === 1)).toBe(true);
    expect(record.steps.size).toBe(32);
    const done = await runRow(longRun.id);
    expect(done).toMatchObject({
      status: 'finished',
      items_total: 30,
      items_done: 30,
      items_failed: 0,
      progress: 100,
      yields: 1,
      attempt: 1,
      message: "Finished. It gave its turn to other tenants' runs 1 time and resumed from its checkpoint.",
    });
    expect(Number(done.bytes)).toBe(300);
    const [sources] = await server.ctx.db.query<{ n: number; items: number; bytes: number }>(
      'select count(*)::int as n, sum(items)::int as items, sum(bytes)::int as bytes from job_run_sources where run_id = $1',
      [longRun.id],
    );
    expect(sources).toEqual({ n: 30, items: 30, bytes: 300 });
  });

  it('a long run keeps its slot past the slice while no other tenant waits', async () => {
    const [alone = ''] = await addClientTenants(server.ctx.db, ['Alone']);
    const { executor, record } = fleetExecutor(server.clock.advance, MINUTE);
    const e = engine({ executors: { backup: executor }, concurrency: 1, timeSliceMs: 10 * MINUTE });
    const now = server.ctx.now();
    const runId = await enqueue(e, await addJob(server.ctx.db, alone, now, 25));
    // A second run of the same tenant waits too: a run does not yield to its own tenant.
    const next = await enqueue(e, await addJob(server.ctx.db, alone, now, 1));
    await e.runUntilIdle();
    expect(record.starts.map((s) => s.runId)).toEqual([runId, next]);
    expect(await runRow(runId)).toMatchObject({ status: 'finished', yields: 0, message: 'Finished.' });
  });
});
