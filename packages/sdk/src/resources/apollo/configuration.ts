/** Apollo configuration: user synchronisation, backup settings, licence, connection test, tenant switch. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { LicenseKind } from '../common.js';

export const TenantRef = s.object({ tenantId: s.string({ minLength: 1 }) });
export type TenantRef = s.Static<typeof TenantRef>;

export const SyncUsersResult = s.object({
  tenantId: s.string(),
  synchronized: s.integer({ minimum: 0, description: 'Users read from the tenant.' }),
  added: s.integer({ minimum: 0 }),
  removed: s.integer({ minimum: 0 }),
  finished: s.dateTime(),
});
export type SyncUsersResult = s.Static<typeof SyncUsersResult>;

export const BackupConfig = s.object({
  tenantId: s.string(),
  defaultLocationId: s.nullable(s.string()),
  pricePerGbMonth: s.number({ minimum: 0, description: 'Used for the storage-saving figures.' }),
  currency: s.string({ minLength: 3, maxLength: 3 }),
  teamsConfigured: s.boolean(),
  exchangeConfigured: s.boolean(),
  maxConcurrency: s.integer({ minimum: 1, maximum: 16, description: 'Parallel Graph calls per tenant.' }),
});
export type BackupConfig = s.Static<typeof BackupConfig>;

export const BackupConfigUpdate = s.object({
  tenantId: s.string({ minLength: 1 }),
  defaultLocationId: s.optional(s.nullable(s.string())),
  pricePerGbMonth: s.optional(s.number({ minimum: 0, maximum: 1000 })),
  currency: s.optional(s.string({ minLength: 3, maxLength: 3 })),
  teamsConfigured: s.optional(s.boolean()),
  exchangeConfigured: s.optional(s.boolean()),
  maxConcurrency: s.optional(s.integer({ minimum: 1, maximum: 16 })),
});
export type BackupConfigUpdate = s.Static<typeof BackupConfigUpdate>;

const PerApplication = s.object({
  onedrive: s.integer({ minimum: 0 }),
  sharepoint: s.integer({ minimum: 0 }),
  teams: s.integer({ minimum: 0 }),
});

/** Product-spec.md section 6: what a licence allows and, on trial, what is left. */
export const License = s.object({
  organisationId: s.string(),
  kind: LicenseKind,
  validUntil: s.nullable(s.dateTime()),
  limits: s.nullable(
    s.object({
      backupJobsPerApplication: s.integer({ minimum: 0, description: 'Trial: 1.' }),
      sourcesPerBackup: s.integer({ minimum: 0, description: 'Trial: 10 accounts, sites or teams.' }),
      restoresPerApplication: s.integer({ minimum: 0, description: 'Trial: 10.' }),
      canDeleteBackupJobs: s.boolean('Trial: false.'),
    }),
  ),
  used: s.object({ backupJobs: PerApplication, restores: PerApplication }),
});
export type License = s.Static<typeof License>;

export const LicenseQuery = s.object({ organisationId: s.optional(s.string()) });
export type LicenseQuery = s.Static<typeof LicenseQuery>;

/** The areas of the portal that call Microsoft Graph, each needing its own application permissions. */
export const PERMISSION_AREAS = [
  'backup',
  'restore',
  'mailArchive',
  'teamsArchive',
  'chats',
  'cleanup',
  'userSync',
  'connectionTest',
] as const;
export const PermissionArea = s.oneOfStrings(
  PERMISSION_AREAS,
  'backup; restore; mailArchive (Exchange archive); teamsArchive (Teams channels); chats; cleanup (old file versions); userSync; connectionTest.',
);
export type PermissionArea = s.Static<typeof PermissionArea>;

export const MissingPermission = s.object({
  permission: s.string({ description: 'A Microsoft Graph application permission, e.g. Mail.Read.' }),
  areas: s.array(PermissionArea, { minItems: 1, description: 'The areas that need it.' }),
});
export type MissingPermission = s.Static<typeof MissingPermission>;

export const ConnectionTestResult = s.object({
  ok: s.boolean(),
  latencyMs: s.integer({ minimum: 0 }),
  message: s.optional(s.string()),
  checkedAt: s.dateTime(),
  missingPermissions: s.optional(
    s.array(MissingPermission, {
      description:
        "The application permissions the token's roles lack (neither granted nor implied by a granted one), each with the areas that need it; absent when none is missing or the token could not be read. A working connection may still lack some: ok stays true.",
    }),
  ),
});
export type ConnectionTestResult = s.Static<typeof ConnectionTestResult>;

export const SwitchTenantResult = s.object({ tenantId: s.string(), tenantName: s.string(), isActive: s.literal(true) });
export type SwitchTenantResult = s.Static<typeof SwitchTenantResult>;

export const configurationEndpoints = defineResource('apollo', 'configuration', {
  syncUsers: {
    method: 'POST',
    path: '/sync-user-config',
    summary: "Synchronise the portal's users from the tenant",
    body: TenantRef,
    response: SyncUsersResult,
  },
  backupConfig: {
    method: 'GET',
    path: '/backup-config',
    summary: "A tenant's backup settings",
    query: TenantRef,
    response: BackupConfig,
  },
  license: {
    method: 'GET',
    path: '/license',
    summary: "The organisation's licence and trial limits left",
    query: LicenseQuery,
    response: License,
  },
  updateBackupConfig: {
    method: 'PUT',
    path: '/backup-update-config',
    summary: "Change a tenant's backup settings",
    body: BackupConfigUpdate,
    response: BackupConfig,
  },
  testOnedriveConnection: {
    method: 'POST',
    path: '/test-onedrive-connection',
    summary: "Test the tenant's Microsoft Graph connection",
    body: TenantRef,
    response: ConnectionTestResult,
  },
  switchTenant: {
    method: 'POST',
    path: '/v2/onedrive/switch-tenant',
    summary: 'Make a tenant the active one',
    body: TenantRef,
    response: SwitchTenantResult,
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function configurationApi(transport: Transport) {
  return bindResource(transport, configurationEndpoints);
}
