import type { Queryable } from '../../db/database.js';

export interface BackupConfigRecord {
  tenantId: string;
  defaultLocationId: string | null;
  pricePerGbMonth: number;
  currency: string;
  teamsConfigured: boolean;
  exchangeConfigured: boolean;
  maxConcurrency: number;
}

interface ConfigRow {
  tenant_id: string;
  default_location_id: string | null;
  price_per_gb_month: number;
  currency: string;
  teams_configured: boolean;
  exchange_configured: boolean;
  max_concurrency: number;
}

const toRecord = (r: ConfigRow): BackupConfigRecord => ({
  tenantId: r.tenant_id,
  defaultLocationId: r.default_location_id,
  pricePerGbMonth: Number(r.price_per_gb_month),
  currency: r.currency,
  teamsConfigured: r.teams_configured,
  exchangeConfigured: r.exchange_configured,
  maxConcurrency: r.max_concurrency,
});

/** The tenant's backup settings, created with the defaults when it has none yet. */
export async function loadBackupConfig(db: Queryable, tenantId: string): Promise<BackupConfigRecord> {
  await db.query('insert into backup_config (tenant_id) values ($1) on conflict (tenant_id) do nothing', [tenantId]);
  const [row] = await db.query<ConfigRow>('select * from backup_config where tenant_id = $1', [tenantId]);
  if (!row) throw new Error('backup config missing after insert');
  return toRecord(row);
}

export async function saveBackupConfig(db: Queryable, config: BackupConfigRecord): Promise<BackupConfigRecord> {
  const [row] = await db.query<ConfigRow>(
    `update backup_config set default_location_id = $2, price_per_gb_month = $3, currency = $4, teams_configured = $5,
       exchange_configured = $6, max_concurrency = $7 where tenant_id = $1 returning *`,
    [
      config.tenantId,
      config.defaultLocationId,
      config.pricePerGbMonth,
      config.currency,
      config.teamsConfigured,
      config.exchangeConfigured,
      config.maxConcurrency,
    ],
  );
  if (!row) throw new Error('backup config update returned nothing');
  return toRecord(row);
}

/** How many jobs of a type the organisation's tenants have, per application. */
export async function jobCountsByApplication(
  db: Queryable,
  organisationId: string,
  type: string,
): Promise<{ application: string; n: number }[]> {
  return db.query<{ application: string; n: number }>(
    `select j.application, count(*)::int as n from jobs j join tenants t on t.tenant_id = j.tenant_id
     where t.organisation_id = $1 and j.type = $2 group by j.application`,
    [organisationId, type],
  );
}

/** Makes the tenant its organisation's only active one and its worker's staging tenant. */
export async function activateTenant(db: Queryable, organisationId: string, tenantId: string): Promise<void> {
  await db.query('update tenants set is_active = (tenant_id = $2) where organisation_id = $1', [
    organisationId,
    tenantId,
  ]);
  await db.query('update workers set stagingtenant_id = $2 where organisation_id = $1', [organisationId, tenantId]);
}

/** The ids of the tenant's accounts as the last discovery of OneDrive found them. */
export async function discoveredUserIds(db: Queryable, tenantId: string): Promise<string[]> {
  const rows = await db.query<{ source_id: string }>(
    "select source_id from discovered_sources where tenant_id = $1 and application = 'onedrive'",
    [tenantId],
  );
  return rows.map((r) => r.source_id);
}
