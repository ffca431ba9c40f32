import type { Queryable } from '../../db/database.js';

export type Provisioning = 'notProvisioned' | 'provisioning' | 'provisioned' | 'deprovisioning' | 'failed';

export interface TenantRecord {
  tenantId: string;
  organisationId: string;
  tenantName: string;
  applicationId: string;
  objectId: string;
  redirectUri: string;
  clientSecretSealed: string | null;
  isActive: boolean;
  provisioning: Provisioning;
  graphBaseUrl: string | null;
  authorityUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  tenant_id: string;
  organisation_id: string;
  tenant_name: string;
  application_id: string;
  object_id: string;
  redirect_uri: string;
  client_secret_enc: string | null;
  is_active: boolean;
  provisioning: Provisioning;
  graph_base_url: string | null;
  authority_url: string | null;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (r: Row): TenantRecord => ({
  tenantId: r.tenant_id,
  organisationId: r.organisation_id,
  tenantName: r.tenant_name,
  applicationId: r.application_id,
  objectId: r.object_id,
  redirectUri: r.redirect_uri,
  clientSecretSealed: r.client_secret_enc,
  isActive: r.is_active,
  provisioning: r.provisioning,
  graphBaseUrl: r.graph_base_url,
  authorityUrl: r.authority_url,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

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
  };
}

export async function findTenant(db: Queryable, tenantId: string): Promise<TenantRecord | undefined> {
  const [row] = await db.query<Row>('select * from tenants where lower(tenant_id) = lower($1)', [tenantId]);
  return row ? toRecord(row) : undefined;
}

export async function listTenants(db: Queryable, organisationIds: readonly string[]): Promise<TenantRecord[]> {
  const rows = await db.query<Row>('select * from tenants where organisation_id = any($1) order by tenant_name', [
    organisationIds,
  ]);
  return rows.map(toRecord);
}

export async function insertTenant(
  db: Queryable,
  t: Omit<TenantRecord, 'isActive' | 'provisioning' | 'createdAt' | 'updatedAt'> & { isActive: boolean },
  now: Date,
): Promise<TenantRecord> {
  const [row] = await db.query<Row>(
    `insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri, client_secret_enc,
       is_active, graph_base_url, authority_url, created_at, updated_at)
     values (lower($1), $2, $3, lower($4), lower($5), $6, $7, $8, $9, $10, $11, $11) returning *`,
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
    ],
  );
  if (!row) throw new Error('tenant insert returned nothing');
  return toRecord(row);
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
  const [row] = await db.query<Row>(
    `update tenants set ${[...sets, 'updated_at = $2'].join(', ')} where tenant_id = $1 returning *`,
    values,
  );
  if (!row) throw new Error('tenant update returned nothing');
  return toRecord(row);
}
