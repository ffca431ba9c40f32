/**
 * The tenant, organisation and worker records and the lookups that every layer needs: the job engine
 * reads a job's tenant and organisation, src/access a request's tenant or worker, the modules'
 * repositories (tenants, organisations) build on these.
 * Kept here, below jobs and storage, so that nothing under src/jobs imports a module.
 */
import type { Queryable } from './database.js';

type Provisioning = 'notProvisioned' | 'provisioning' | 'provisioned' | 'deprovisioning' | 'failed';

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
  /** When an administrator of the tenant last granted admin consent through the portal, and who started it. */
  adminConsentAt: Date | null;
  adminConsentBy: string | null;
  /** The default domain of the tenant's Microsoft 365 organisation, once read from Graph (contoso.onmicrosoft.com). */
  defaultDomain: string | null;
}

/** A row of `tenants`. */
export interface TenantRow {
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
  admin_consent_at: Date | null;
  admin_consent_by: string | null;
  default_domain: string | null;
}

export const toTenantRecord = (r: TenantRow): TenantRecord => ({
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
  adminConsentAt: r.admin_consent_at ? new Date(r.admin_consent_at) : null,
  adminConsentBy: r.admin_consent_by,
  defaultDomain: r.default_domain,
});

export async function findTenant(db: Queryable, tenantId: string): Promise<TenantRecord | undefined> {
  const [row] = await db.query<TenantRow>('select * from tenants where lower(tenant_id) = lower($1)', [tenantId]);
  return row ? toTenantRecord(row) : undefined;
}

export type LicenseKind = 'trial' | 'full';
export type OrganisationKind = 'customer' | 'partner' | 'operator';

export interface Organisation {
  id: string;
  name: string;
  kind: OrganisationKind;
  partnerId: string | null;
  license: LicenseKind;
  licenseValidUntil: Date | null;
  abbr: string;
  createdAt: Date;
}

/** A row of `organisations`. */
export interface OrganisationRow {
  id: string;
  name: string;
  kind: OrganisationKind;
  partner_id: string | null;
  license: LicenseKind;
  license_valid_until: Date | null;
  abbr: string;
  created_at: Date;
}

export const toOrganisation = (r: OrganisationRow): Organisation => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  partnerId: r.partner_id,
  license: r.license,
  licenseValidUntil: r.license_valid_until ? new Date(r.license_valid_until) : null,
  abbr: r.abbr,
  createdAt: new Date(r.created_at),
});

export async function findOrganisation(db: Queryable, id: string): Promise<Organisation | undefined> {
  const [row] = await db.query<OrganisationRow>('select * from organisations where id = $1', [id]);
  return row ? toOrganisation(row) : undefined;
}

/** An organisation's worker: the addresses the legacy screens name it by, and the tenant it acts for. */
export interface WorkerRecord {
  workerId: string;
  workerIp: string;
  indexIp: string;
  organisationId: string;
  stagingtenantId: string | null;
  /** The default domain of the tenant it acts for, once read from Graph. */
  tenantDomain: string | null;
}

/** A row of `workers`. */
export interface WorkerRow {
  id: string;
  worker_ip: string;
  index_ip: string;
  organisation_id: string;
  stagingtenant_id: string | null;
  /** Read with its tenant (WORKER_WITH_TENANT); absent for a worker just made, which acts for none yet. */
  tenant_domain?: string | null;
}

export const toWorker = (r: WorkerRow): WorkerRecord => ({
  workerId: r.id,
  workerIp: r.worker_ip,
  indexIp: r.index_ip,
  organisationId: r.organisation_id,
  stagingtenantId: r.stagingtenant_id,
  tenantDomain: r.tenant_domain ?? null,
});

/** A worker with the default domain of the tenant it acts for (tenant ids are stored in lower case). */
export const WORKER_WITH_TENANT = `select w.*, t.default_domain as tenant_domain from workers w
  left join tenants t on t.tenant_id = lower(w.stagingtenant_id)`;

/** A source (mailbox, site, team) by the name discovery found it under, or undefined when it never saw it. */
export async function discoveredName(
  db: Queryable,
  tenantId: string,
  application: string,
  sourceId: string,
): Promise<string | undefined> {
  const [row] = await db.query<{ display_name: string }>(
    'select display_name from discovered_sources where tenant_id = $1 and application = $2 and source_id = $3',
    [tenantId, application, sourceId],
  );
  return row?.display_name || undefined;
}
