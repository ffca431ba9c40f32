/**
 * A partner's night on PostgreSQL: forty client tenants whose backups are all due at once, a few
 * with many jobs queued first, shared by two job engines, each on its own connection pool to the one
 * database (as two worker processes are). Every run is executed exactly once (executor invocations
 * counted per run id), every step of it once, by both workers; no tenant runs two at once; every
 * tenant's first run starts before any tenant's second; and the longest wait of a tenant for its
 * first run (queued to started, on the simulated clock) is at most three times the median wait.
 *
 * Skipped without TEST_DATABASE_URL (pnpm test runs the server's suite again on PostgreSQL with it;
 * `pnpm run test:postgres` alone).
 */
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { openScratchDatabase } from '../src/db/scratch.js';
import { JobEngine } from '../src/jobs/engine.js';
import type { RunRow } from '../src/jobs/repository.js';
import { databaseTemplate } from './database-templates.js';
import { addClientTenants, addJob, fleetExecutor, median } from './fleet.js';
import { testContext } from './helpers.js';

const postgres = process.env.TEST_DATABASE_URL;
const TENANTS = 40;

// Without PostgreSQL the skipped test says what it needs.
describe.skipIf(!postgres)(
  `two workers share a night of many tenants on PostgreSQL${postgres ? '' : ' (skipped: TEST_DATABASE_URL is unset)'}`,
  () => {
    it('run every job once, in fair turns', async () => {
      const { db, drop, url } = await openScratchDatabase(postgres, 'portal_fair', databaseTemplate('migrated'));
      const second = await openPostgres(url ?? '', 4);
      const engines: JobEngine[] = [];
      try {
        await migrate(db);
        const { ctx, clock } = testContext(db);
        const tenants = await addClientTenants(
          db,
          Array.from({ length: TENANTS }, (_, i) => `Client ${i + 1}`),
        );
        // Five heavy tenants queued first (twelve, then four jobs each), the rest one or two jobs.
        const jobsOf = (i: number) => (i === 0 ? 12 : i < 5 ? 4 : 1 + (i % 2));
        const { executor, record } = fleetExecutor(clock.advance, 1000);
        const options = {
          executors: { backup: executor },
          concurrency: 3,
          pollMs: 5,
          heartbeatMs: 50,
          // The simulated clock runs with the work done: no lease may end on it during the test.
          leaseMs: 365 * 24 * 3600_000,
          // Exactly once per run id: no run yields here (jobs-fair-turns.test.ts has the slice).
          timeSliceMs: 0,
        };
        engines.push(
          new JobEngine(ctx, { ...options, workerId: 'night-1' }),
          new JobEngine({ ...ctx, db: second }, { ...options, workerId: 'night-2' }),
        );
        const [one, two] = engines;
        if (!one || !two) throw new Error('no engines');
        const queued: string[] = [];
        for (const [i, tenantId] of tenants.entries()) {
          for (let j = 0; j < jobsOf(i); j++) {
            const runId = await one.enqueue(await addJob(db, tenantId, ctx.now(), 3), 'schedule');
            if (runId) queued.push(runId);
          }
        }
        expect(queued).toHaveLength(tenants.reduce((sum, _, i) => sum + jobsOf(i), 0));

        await Promise.all([one.start(), two.start()]);
        for (let i = 0; i < 3000; i++) {
          const [open] = await db.query<{ n: number }>(
            `select count(*)::int as n from job_runs where status in ('queued', 'running')`,
          );
          if (open?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await Promise.all(engines.map((e) => e.stop()));

        const runs = await db.query<RunRow>('select * from job_runs where run_id = any($1)', [queued]);
        expect(runs).toHaveLength(queued.length);
        expect(runs.every((r) => r.status === 'finished')).toBe(true);
        // One run per job, each executed once, each of its steps once.
        const [perJob] = await db.query<{ jobs: number; runs: number }>(
          'select count(distinct job_id)::int as jobs, count(*)::int as runs from job_runs',
        );
        expect(perJob).toEqual({ jobs: queued.length, runs: queued.length });
        expect(queued.map((runId) => record.invocations.get(runId))).toEqual(queued.map(() => 1));
        expect(record.steps.size).toBe(queued.length * 3);
        expect([...record.steps.values()].every((n) => n === 1)).toBe(true);
        // Both workers took their share of the one queue; no tenant ran two at once.
        const byWorker = new Map<string, number>();
        for (const r of runs) byWorker.set(r.worker_id ?? '', (byWorker.get(r.worker_id ?? '') ?? 0) + 1);
        expect([...byWorker.keys()].sort()).toEqual(['night-1', 'night-2']);
        expect(Math.max(...record.mostAtOnce.values())).toBe(1);

        // Turns: every tenant's first run was claimed before any tenant's second one.
        const startsOf = new Map<string, number[]>();
        for (const r of runs) {
          const list = startsOf.get(r.tenant_id) ?? [];
          list.push(new Date(r.started ?? 0).getTime());
          startsOf.set(r.tenant_id, list);
        }
        const firsts = [...startsOf.values()].map((list) => Math.min(...list));
        const seconds = [...startsOf.values()].filter((list) => list.length > 1).map((list) => list.sort()[1] ?? 0);
        expect(Math.max(...firsts)).toBeLessThanOrEqual(Math.min(...seconds));
        // Each tenant's wait for its first run, queued to started, on the simulated clock.
        const queuedAt = Math.min(...runs.map((r) => new Date(r.created_at).getTime()));
        const waits = firsts.map((first) => (first - queuedAt) / 1000);
        const longest = Math.max(...waits);
        const middle = median(waits);
        console.info(
          `fair night: ${queued.length} runs of ${TENANTS} tenants on 2 workers x 3 slots; runs per worker ${JSON.stringify(
            Object.fromEntries(byWorker),
          )}; a tenant's wait for its first run (simulated s): median ${middle}, longest ${longest}`,
        );
        expect(middle).toBeGreaterThan(0);
        expect(longest).toBeLessThanOrEqual(3 * middle);
      } finally {
        await Promise.all(engines.map((e) => e.stop()));
        await second.close();
        await drop();
      }
    }, 120_000);
  },
);
