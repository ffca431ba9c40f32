/**
 * A partner's fleet for the job engine's fair-turns tests: client organisations with a tenant each,
 * backup jobs of a given number of steps, and a fake executor that records what it was asked to do.
 * Each step of a run is one source: it advances the simulated clock by `stepMs` (the run's work on
 * the engine's clock), waits a moment of real time so runs interleave, is counted, and is saved in
 * the checkpoint. A resumed run reports again what its checkpoint covers (as the real executors do),
 * so its figures stay the whole run's.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../src/db/database.js';
import type { Executor, RunContext } from '../src/jobs/run-context.js';

/** Adds a client organisation with one tenant per name; returns the tenant ids in that order. */
export async function addClientTenants(db: Queryable, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const organisationId = randomUUID();
    const tenantId = randomUUID();
    await db.query(
      `insert into organisations (id, name, kind, license, abbr) values ($1, $2, 'customer', 'full', $3)`,
      [organisationId, `${name} Ltd`, `c${organisationId.slice(0, 8)}`],
    );
    await db.query(
      `insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri, is_active)
       values ($1, $2, $3, $4, $5, 'https://portal.test/consent', true)`,
      [tenantId, organisationId, name, randomUUID(), randomUUID()],
    );
    ids.push(tenantId);
  }
  return ids;
}

/** A backup job of `steps` steps (its sources `s1`…); `first` names the first source instead. */
export async function addJob(db: Queryable, tenantId: string, now: Date, steps: number, first?: string) {
  const jobId = randomUUID();
  const sources = Array.from({ length: steps }, (_, i) => (i === 0 && first ? first : `s${i + 1}`));
  await db.query(
    `insert into jobs (job_id, tenant_id, name, type, application, definition, created_at, updated_at)
     values ($1, $2, $3, 'backup', 'onedrive', $4, $5, $5)`,
    [jobId, tenantId, `job ${jobId.slice(0, 4)}`, JSON.stringify({ sources, recurrence: null, retention: null }), now],
  );
  return jobId;
}

export interface FleetRecord {
  /** Executor invocations per run id (a resumed run is invoked again). */
  invocations: Map<string, number>;
  /** Times each step of each run was done (`runId/source`): never more than once. */
  steps: Map<string, number>;
  /** Each invocation's run and tenant, in the order they began. */
  starts: { runId: string; tenantId: string; resumedAt: number }[];
  /** Runs of each tenant executing at once, at most. */
  mostAtOnce: Map<string, number>;
}

/**
 * The fake executor. `advance` moves the simulated clock; `before` (optional) runs before each step,
 * for a test's own seam (a Graph request, a look at the queue).
 */
export function fleetExecutor(
  advance: (ms: number) => void,
  stepMs: number,
  before?: (rc: RunContext, source: string) => Promise<void>,
): { executor: Executor; record: FleetRecord } {
  const record: FleetRecord = { invocations: new Map(), steps: new Map(), starts: [], mostAtOnce: new Map() };
  const atOnce = new Map<string, number>();
  const executor: Executor = async (rc) => {
    const runId = rc.run.run_id;
    const tenantId = rc.tenant.tenantId;
    const done = new Set((rc.checkpoint.done as string[] | undefined) ?? []);
    record.invocations.set(runId, (record.invocations.get(runId) ?? 0) + 1);
    record.starts.push({ runId, tenantId, resumedAt: done.size });
    const now = (atOnce.get(tenantId) ?? 0) + 1;
    atOnce.set(tenantId, now);
    record.mostAtOnce.set(tenantId, Math.max(record.mostAtOnce.get(tenantId) ?? 0, now));
    try {
      rc.progress({ total: rc.job.sources.length });
      for (const source of done) rc.progress({ done: 1, bytes: 10, source });
      for (const source of rc.job.sources) {
        if (done.has(source)) continue;
        rc.checkStopped();
        await before?.(rc, source);
        advance(stepMs);
        await new Promise((resolve) => setTimeout(resolve, 1));
        const key = `${runId}/${source}`;
        record.steps.set(key, (record.steps.get(key) ?? 0) + 1);
        rc.progress({ done: 1, bytes: 10, source });
        done.add(source);
        await rc.saveCheckpoint({ done: [...done] });
      }
      return {};
    } finally {
      atOnce.set(tenantId, (atOnce.get(tenantId) ?? 1) - 1);
    }
  };
  return { executor, record };
}

/** The median of `values` (the lower middle of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}
