import type { Queryable } from '../../db/database.js';
import { type TenantRecord, type TenantRow, toTenantRecord } from '../../db/records.js';

export type { TenantRecord } from '../../db/records.js';
export { findTenant } from '../../db/records.js';

/** The API view: the secret never leaves the server, only whether one is stored. */
export function tenantView(t: TenantRecord) {
  return {
    tenantId: t.tenantId,
    tenantName: t.tenantName,
    applicationId: t.applicationId,
    objectId: t.objectId,
    redirectUri: t.redirectUri,
    organisationId: t.organisationId,
    hasClientSecret: t.clientSecretSealed !== null,
    isActive: t.isActive,
    provisioning: t.provisioning,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    ...(t.adminConsentAt ? { adminConsentAt: t.adminConsentAt.toISOString() } : {}),
    ...(t.adminConsentBy ? { adminConsentBy: t.adminConsentBy } : {}),
    ...(t.defaultDomain ? { defaultDomain: t.defaultDomain } : {}),
  };
}

export async function listTenants(db: Queryable, organisationIds: readonly string[]): Promise<TenantRecord[]> {
  const rows = await db.query<TenantRow>('select * from tenants where organisation_id = any($1) order by tenant_name', [
    organisationIds,
  ]);
  return rows.map(toTenantRecord);
}

export async function insertTenant(
  db: Queryable,
  t: Omit<
    TenantRecord,
    'isActive' | 'provisioning' | 'createdAt' | 'updatedAt' | 'adminConsentAt' | 'adminConsentBy' | 'defaultDomain'
  > & { isActive: boolean; adminConsentBy?: string },
  now: Date,
): Promise<TenantRecord> {
  // A tenant connected by admin consent records that consent as made now, by whom.
  const [row] = await db.query<TenantRow>(
    `insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri, client_secret_enc,
       is_active, graph_base_url, authority_url, created_at, updated_at, admin_consent_at, admin_consent_by)
     values (lower($1), $2, $3, lower($4), lower($5), $6, $7, $8, $9, $10, $11, $11, $12, $13) returning *`,
    [
      t.tenantId,
      t.organisationId,
      t.tenantName,
      t.applicationId,
      t.objectId,
      t.redirectUri,
      t.clientSecretSealed,
      t.isActive,
      t.graphBaseUrl,
      t.authorityUrl,
      now,
      t.adminConsentBy ? now : null,
      t.adminConsentBy ?? null,
    ],
  );
  if (!row) throw new Error('tenant insert returned nothing');
  return toTenantRecord(row);
}

export async function updateTenant(
  db: Queryable,
  tenantId: string,
  changes: Partial<
    Pick<
      TenantRecord,
      'tenantName' | 'applicationId' | 'objectId' | 'redirectUri' | 'clientSecretSealed' | 'provisioning'
    >
  >,
  now: Date,
): Promise<TenantRecord> {
  const columns: Record<string, string> = {
    tenantName: 'tenant_name',
    applicationId: 'application_id',
    objectId: 'object_id',
    redirectUri: 'redirect_uri',
    clientSecretSealed: 'client_secret_enc',
    provisioning: 'provisioning',
  };
  const sets: string[] = [];
  const values: unknown[] = [tenantId, now];
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    values.push(value);
    sets.push(`${columns[key]} = $${values.length}`);
  }
  const [row] = await db.query<TenantRow>(
    `update tenants set ${[...sets, 'updated_at = $2'].join(', ')} where tenant_id = $1 returning *`,
    values,
  );
  if (!row) throw new Error('tenant update returned nothing');
  return toTenantRecord(row);
}

/** Whether one of the organisation's tenants is its active one. */
export async function hasActiveTenant(db: Queryable, organisationId: string): Promise<boolean> {
  const rows = await db.query('select 1 from tenants where organisation_id = $1 and is_active', [organisationId]);
  return rows.length > 0;
}

/** Records an admin consent to the tenant's app registration, made now and started by `by`. */
export async function markAdminConsent(db: Queryable, tenantId: string, at: Date, by: string): Promise<TenantRecord> {
  const [row] = await db.query<TenantRow>(
    'update tenants set admin_consent_at = $2, admin_consent_by = $3 where tenant_id = $1 returning *',
    [tenantId, at, by],
  );
  if (!row) throw new Error('tenant update returned nothing');
  return toTenantRecord(row);
}

/** Records the default domain of the tenant's Microsoft 365 organisation, as Graph answered it. */
export async function storeDefaultDomain(db: Queryable, tenantId: string, domain: string): Promise<void> {
  await db.query('update tenants set default_domain = $2 where tenant_id = $1', [tenantId, domain]);
}

/** Makes the tenant the active (staging) tenant of the organisation's workers that have none. */
export async function activateForIdleWorkers(db: Queryable, organisationId: string, tenantId: string): Promise<void> {
  await db.query('update workers set stagingtenant_id = $2 where organisation_id = $1 and stagingtenant_id is null', [
    organisationId,
    tenantId,
  ]);
}

/**
 * Before a tenant is removed: the organisation's active tenant afterwards (the active one if another,
 * else the first other by name), made active, and the tenant of the workers that acted for the removed
 * one. Null when no other tenant is left: those workers then act for none.
 */
export async function handOverActiveTenant(
  db: Queryable,
  organisationId: string,
  removedTenantId: string,
): Promise<string | null> {
  const [next] = await db.query<{ tenant_id: string }>(
    `select tenant_id from tenants where organisation_id = $1 and tenant_id <> $2
      order by is_active desc, lower(tenant_name), tenant_id limit 1`,
    [organisationId, removedTenantId],
  );
  const nextId = next?.tenant_id ?? null;
  if (nextId) {
    await db.query('update tenants set is_active = (tenant_id = $2) where organisation_id = $1 and tenant_id <> $3', [
      organisationId,
      nextId,
      removedTenantId,
    ]);
  }
  await db.query('update workers set stagingtenant_id = $2 where lower(stagingtenant_id) = lower($1)', [
    removedTenantId,
    nextId,
  ]);
  return nextId;
}

export async function countRunningJobs(db: Queryable, tenantId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from jobs where tenant_id = $1 and status = 'running'`,
    [tenantId],
  );
  return row?.n ?? 0;
}

export async function deleteTenant(db: Queryable, tenantId: string): Promise<void> {
  await db.query('delete from tenants where tenant_id = $1', [tenantId]);
}

/**
 * Sets the tenant's Microsoft 365 endpoints (null: Microsoft's global ones); answers its organisation,
 * undefined when there is no such tenant.
 */
export async function storeEndpoints(
  db: Queryable,
  tenantId: string,
  endpoints: { authorityUrl: string | null; graphBaseUrl: string | null },
  at: Date,
): Promise<string | undefined> {
  const [row] = await db.query<{ organisation_id: string }>(
    `update tenants set authority_url = $2, graph_base_url = $3, updated_at = $4 where tenant_id = $1
     returning organisation_id`,
    [tenantId, endpoints.authorityUrl, endpoints.graphBaseUrl, at],
  );
  return row?.organisation_id;
}

/** A provisioning or deprovisioning task (`provisioning_tasks`). */
export interface TaskRow {
  task_id: string;
  tenant_id: string;
  kind: 'provision' | 'deprovision';
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  progress: number;
  message: string | null;
  started: Date;
  finished: Date | null;
}

export async function insertTask(
  db: Queryable,
  task: { taskId: string; tenantId: string; kind: TaskRow['kind']; started: Date },
): Promise<TaskRow | undefined> {
  const [row] = await db.query<TaskRow>(
    `insert into provisioning_tasks (task_id, tenant_id, kind, status, progress, started) values ($1, $2, $3, 'pending', 0, $4) returning *`,
    [task.taskId, task.tenantId, task.kind, task.started],
  );
  return row;
}

export async function findTask(db: Queryable, tenantId: string, taskId: string): Promise<TaskRow | undefined> {
  const [row] = await db.query<TaskRow>('select * from provisioning_tasks where task_id = $1 and tenant_id = $2', [
    taskId,
    tenantId,
  ]);
  return row;
}

/** The task running, at `progress` percent, doing what `message` says. */
export async function recordTaskStep(db: Queryable, taskId: string, progress: number, message: string): Promise<void> {
  await db.query(`update provisioning_tasks set status = 'running', progress = $2, message = $3 where task_id = $1`, [
    taskId,
    progress,
    message,
  ]);
}

export async function finishTask(
  db: Queryable,
  taskId: string,
  status: 'succeeded' | 'failed',
  message: string,
  at: Date,
): Promise<void> {
  await db.query(
    'update provisioning_tasks set status = $2, progress = 100, message = $3, finished = $4 where task_id = $1',
    [taskId, status, message, at],
  );
}

/** The tenant's provisioning failed (a task that ended in an error it did not foresee). */
export async function markProvisioningFailed(db: Queryable, tenantId: string, at: Date): Promise<void> {
  await db.query(`update tenants set provisioning = 'failed', updated_at = $2 where tenant_id = $1`, [tenantId, at]);
}

/** The tenant's backup settings with their defaults, unless it has them. */
export async function createBackupConfig(db: Queryable, tenantId: string): Promise<void> {
  await db.query('insert into backup_config (tenant_id) values ($1) on conflict (tenant_id) do nothing', [tenantId]);
}

/** How many storage locations the tenant has. */
export async function countLocations(db: Queryable, tenantId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from locations where tenant_id = $1', [
    tenantId,
  ]);
  return row?.n ?? 0;
}

/** Disables the tenant's enabled jobs' schedules; answers how many it disabled. */
export async function disableScheduledJobs(db: Queryable, tenantId: string): Promise<number> {
  const stopped = await db.query('update jobs set enabled = false where tenant_id = $1 and enabled returning job_id', [
    tenantId,
  ]);
  return stopped.length;
}
