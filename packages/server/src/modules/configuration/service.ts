import { type BackupConfigUpdate, type License, TRIAL_LIMITS } from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { notFound } from '../../errors.js';
import { locationExists } from '../locations/repository.js';
import { findOrganisation } from '../organisations/repository.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  activateTenant,
  type BackupConfigRecord,
  jobCountsByApplication,
  loadBackupConfig,
  saveBackupConfig,
} from './repository.js';

export function backupConfig(ctx: AppContext, tenant: TenantRecord): Promise<BackupConfigRecord> {
  return loadBackupConfig(ctx.db, tenant.tenantId);
}

/**
 * Changes the fields given, and only those: `defaultLocationId: null` clears the default location, and
 * a location of another tenant is not found. The currency is kept in capitals.
 */
export async function updateBackupConfig(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  changes: BackupConfigUpdate,
): Promise<BackupConfigRecord> {
  if (changes.defaultLocationId && !(await locationExists(ctx.db, tenant.tenantId, changes.defaultLocationId))) {
    throw notFound('Location not found');
  }
  return ctx.db.transaction(async (tx) => {
    const current = await loadBackupConfig(tx, tenant.tenantId);
    const updated = await saveBackupConfig(tx, {
      tenantId: tenant.tenantId,
      defaultLocationId:
        changes.defaultLocationId === undefined ? current.defaultLocationId : changes.defaultLocationId,
      pricePerGbMonth: changes.pricePerGbMonth ?? current.pricePerGbMonth,
      currency: changes.currency?.toUpperCase() ?? current.currency,
      teamsConfigured: changes.teamsConfigured ?? current.teamsConfigured,
      exchangeConfigured: changes.exchangeConfigured ?? current.exchangeConfigured,
      maxConcurrency: changes.maxConcurrency ?? current.maxConcurrency,
    });
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'config.backup.update',
        target: tenant.tenantId,
        outcome: 'success',
        details: { changed: Object.keys(changes).filter((k) => k !== 'tenantId') },
      },
      tx,
    );
    return updated;
  });
}

const perApplication = async (db: Queryable, organisationId: string, type: string) => {
  const rows = await jobCountsByApplication(db, organisationId, type);
  const count = (app: string) => Number(rows.find((r) => r.application === app)?.n ?? 0);
  return { onedrive: count('onedrive'), sharepoint: count('sharepoint'), teams: count('teams') };
};

/** The organisation's licence, a trial's limits, and the backup jobs and restores it has per application. */
export async function licenceOf(ctx: AppContext, organisationId: string): Promise<License> {
  const org = await findOrganisation(ctx.db, organisationId);
  if (!org) throw notFound('Organisation not found');
  return {
    organisationId: org.id,
    kind: org.license,
    validUntil: org.licenseValidUntil?.toISOString() ?? null,
    limits: org.license === 'trial' ? { ...TRIAL_LIMITS } : null,
    used: {
      backupJobs: await perApplication(ctx.db, org.id, 'backup'),
      restores: await perApplication(ctx.db, org.id, 'restore'),
    },
  };
}

/** Makes the tenant the one its organisation works with: the only active one, and its worker's. */
export async function switchTenant(ctx: AppContext, actor: Actor, tenant: TenantRecord): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await activateTenant(tx, tenant.organisationId, tenant.tenantId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'tenant.switch',
        target: tenant.tenantId,
        outcome: 'success',
      },
      tx,
    );
  });
}
