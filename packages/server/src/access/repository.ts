/** The lookups that decide what a caller may reach: organisations, workers and a worker's tenant. */
import type { Queryable } from '../db/database.js';
import { type TenantRow, toWorker, WORKER_WITH_TENANT, type WorkerRecord, type WorkerRow } from '../db/records.js';

export async function allOrganisationIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('select id from organisations')).map((r) => r.id);
}

/** The organisation and the organisations it is the partner of. */
export async function organisationAndClientIds(db: Queryable, organisationId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from organisations where id = $1 or partner_id = $1', [
    organisationId,
  ]);
  return rows.map((r) => r.id);
}

export async function isClientOf(db: Queryable, organisationId: string, partnerId: string): Promise<boolean> {
  const rows = await db.query('select 1 from organisations where id = $1 and partner_id = $2', [
    organisationId,
    partnerId,
  ]);
  return rows.length === 1;
}

export async function findWorker(
  db: Queryable,
  by: { workerIp?: string; workerId?: string },
): Promise<WorkerRecord | undefined> {
  const [row] = by.workerIp
    ? await db.query<WorkerRow>(`${WORKER_WITH_TENANT} where w.worker_ip = $1`, [by.workerIp])
    : await db.query<WorkerRow>(`${WORKER_WITH_TENANT} where w.id = $1`, [by.workerId ?? '']);
  return row ? toWorker(row) : undefined;
}

/** The worker at an address with the row of its active tenant (absent members when it has none, or the tenant is gone). */
export type WorkerTenantRow = Partial<TenantRow> & {
  worker_organisation_id: string;
  worker_index_ip: string;
  worker_tenant_id: string | null;
};

/** The worker and its tenant in one query: every legacy worker screen asks this first. */
export async function findWorkerTenant(db: Queryable, workerIp: string): Promise<WorkerTenantRow | undefined> {
  const [row] = await db.query<WorkerTenantRow>(
    `select w.organisation_id as worker_organisation_id, w.index_ip as worker_index_ip,
            w.stagingtenant_id as worker_tenant_id, t.*
       from workers w left join tenants t on lower(t.tenant_id) = lower(w.stagingtenant_id)
      where w.worker_ip = $1`,
    [workerIp],
  );
  return row;
}
