/**
 * Microsoft 365's throttling as a run records it, against the simulated tenant: Graph answers 429
 * with Retry-After, then 503 with Retry-After, then again normally. While the run waits, it records
 * since when it waits, its next try (Retry-After after the retry), the status that made it wait and
 * its retries, and the monitor says so; once Graph answers, the wait ends, its time is added to the
 * run's time waited, and the run finishes with everything.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '@compliance-portal/m365-simulator';
import type { JobRun, Page } from '@compliance-portal/sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import type { RunRow } from '../src/jobs/repository.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, jobsApi, sessionToken, simulatedTenant, TENANTS, useTestServer } from './helpers.js';

/** Polls `read` every 20 ms until `done` holds (at most `ms`). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting; last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a run that Microsoft 365 throttles', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-throttling-')) });
  const tenantId = TENANTS.contoso;
  let token = '';
  let sim: RunningSimulator;
  let engine: JobEngine;

  beforeAll(async () => {
    token = await sessionToken(server, ADMIN);
  });
  beforeEach(async () => {
    sim = await simulatedTenant(
      server,
      tenantId,
      { users: 2, sites: 1, teams: 0, filesPerDrive: 6, versionsPerFile: 1, messagesPerFolder: 1 },
      8,
    );
    const plane = createDataPlane(server.ctx, createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-blobs-'))));
    engine = new JobEngine(server.ctx, { executors: executors(plane), heartbeatMs: 50 });
  });
  afterEach(() => sim.close());

  const runRow = async (jobId: string) => {
    const [run] = await server.ctx.db.query<RunRow>(
      'select * from job_runs where job_id = $1 order by seq desc limit 1',
      [jobId],
    );
    return run;
  };
  const monitored = async (jobId: string) => {
    const response = await server.request({
      method: 'GET',
      url: `/apollo-beta/api/${tenantId}/monitoring?pageSize=100`,
      token,
    });
    return (response.json() as Page<JobRun>).items.find((r) => r.jobId === jobId);
  };

  it('records the wait for 429, then 503, with its retries and next try, and then finishes', async () => {
    const user = sim.state.tenant(tenantId).users[0];
    const { jobId } = await jobsApi(server, tenantId, () => token).create({
      name: 'Throttled OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: [user?.upn],
    });
    // Every Graph request is refused with 429 and "Retry-After: 1" until told otherwise.
    sim.state.setThrottle(1, 1, { status: 429 });
    await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`, token });
    const running = engine.runUntilIdle();

    const limited = await until(
      () => runRow(jobId),
      (r) => Number(r?.throttle_retries) >= 1 && r?.throttled_since !== null,
    );
    expect(limited).toMatchObject({ status: 'running', throttle_status: 429 });
    const since = new Date(limited?.throttled_since ?? 0).getTime();
    // The next try is Retry-After (1 s) after the retry was decided (the test clock stands still).
    expect(new Date(limited?.throttle_next_try ?? 0).getTime() - since).toBe(1000);
    const shown = await monitored(jobId);
    expect(shown?.throttling).toMatchObject({ waiting: true, status: 429 });
    expect(shown?.throttling?.retries).toBeGreaterThanOrEqual(Number(limited?.throttle_retries));
    expect(shown?.throttling?.since).toBe(new Date(since).toISOString());
    expect(shown?.throttling?.nextTryAt).toBe(new Date(since + 1000).toISOString());

    // Now Microsoft 365 is unavailable: the same wait goes on, with 503.
    sim.state.setThrottle(1, 1, { status: 503 });
    const unavailable = await until(
      () => runRow(jobId),
      (r) => r?.throttle_status === 503,
    );
    expect(unavailable?.throttled_since).not.toBeNull();
    expect(new Date(unavailable?.throttled_since ?? 0).getTime()).toBe(since);
    expect(Number(unavailable?.throttle_retries)).toBeGreaterThan(Number(limited?.throttle_retries));
    expect((await monitored(jobId))?.throttling).toMatchObject({ waiting: true, status: 503 });

    // Graph answers again: the wait ends and the run finishes with every file.
    sim.state.setThrottle(0);
    await running;
    const done = await runRow(jobId);
    expect(done).toMatchObject({
      status: 'finished',
      items_failed: 0,
      items_done: 6,
      throttled_since: null,
      throttle_next_try: null,
      throttle_status: 503,
    });
    const retries = Number(done?.throttle_retries);
    expect(retries).toBeGreaterThanOrEqual(2);
    // Each retry waited its Retry-After of a second (measured on the real clock).
    expect(Number(done?.throttled_ms)).toBeGreaterThanOrEqual(1000 * retries - 100);
    const finished = await monitored(jobId);
    expect(finished?.status).toBe('finished');
    expect(finished?.throttling).toMatchObject({ waiting: false, since: null, nextTryAt: null, retries, status: 503 });
    expect(finished?.throttling?.waitedSeconds).toBeGreaterThanOrEqual(retries - 1);
  });

  it('a run Microsoft 365 never throttled has no throttling to show', async () => {
    const user = sim.state.tenant(tenantId).users[1];
    const { jobId } = await jobsApi(server, tenantId, () => token).create({
      name: 'Quiet OneDrive',
      type: 'backup',
      application: 'onedrive',
      sources: [user?.upn],
    });
    const { run } = await jobsApi(server, tenantId, () => token).start(jobId, engine);
    expect(run).toMatchObject({ status: 'finished', throttle_retries: 0, throttled_since: null });
    expect((await monitored(jobId))?.throttling).toBeUndefined();
  });
});
