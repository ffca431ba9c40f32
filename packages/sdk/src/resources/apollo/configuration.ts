/** Apollo configuration: user synchronisation, backup settings, licence, connection test, tenant switch. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { LicenseKind } from '../common.js';

/**
 * Schema of the tenant reference that `POST /sync-user-config`, `GET /backup-config` (as query), `POST
 * /test-onedrive-connection` and `POST /v2/onedrive/switch-tenant` take.
 */
export const TenantRef = s.object({ tenantId: s.string({ minLength: 1 }) });
/** The tenant a configuration call is about, by its Microsoft Entra tenant ID. */
export type TenantRef = s.Static<typeof TenantRef>;

/** Schema of the answer of `POST /sync-user-config`. */
export const SyncUsersResult = s.object({
  tenantId: s.string(),
  synchronized: s.integer({ minimum: 0, description: 'Users read from the tenant.' }),
  added: s.integer({ minimum: 0 }),
  removed: s.integer({ minimum: 0 }),
  finished: s.dateTime(),
});
/**
 * The outcome of synchronising the portal's users from the tenant's directory: how many users were
 * read, added and removed, and when the synchronisation finished.
 */
export type SyncUsersResult = s.Static<typeof SyncUsersResult>;

/**
 * Schema of a tenant's backup settings, as `GET /backup-config` and `PUT /backup-update-config` answer
 * them.
 */
export const BackupConfig = s.object({
  tenantId: s.string(),
  defaultLocationId: s.nullable(s.string()),
  pricePerGbMonth: s.number({ minimum: 0, description: 'Used for the storage-saving figures.' }),
  currency: s.string({ minLength: 3, maxLength: 3 }),
  teamsConfigured: s.boolean(),
  exchangeConfigured: s.boolean(),
  maxConcurrency: s.integer({ minimum: 1, maximum: 16, description: 'Parallel Graph calls per tenant.' }),
});
/**
 * A tenant's backup settings: the location a new backup or archive job writes to when it names none
 * (`defaultLocationId`, null for none), the price per GB and month with its three-letter currency for
 * the storage-saving figures, whether Teams and Exchange archiving are set up, and how many Microsoft
 * Graph calls run in parallel for the tenant (1 to 16).
 */
export type BackupConfig = s.Static<typeof BackupConfig>;

/** Schema of the body of `PUT /backup-update-config`. */
export const BackupConfigUpdate = s.object({
  tenantId: s.string({ minLength: 1 }),
  defaultLocationId: s.optional(s.nullable(s.string())),
  pricePerGbMonth: s.optional(s.number({ minimum: 0, maximum: 1000 })),
  currency: s.optional(s.string({ minLength: 3, maxLength: 3 })),
  teamsConfigured: s.optional(s.boolean()),
  exchangeConfigured: s.optional(s.boolean()),
  maxConcurrency: s.optional(s.integer({ minimum: 1, maximum: 16 })),
});
/**
 * A change to a tenant's backup settings: only the fields given change (`defaultLocationId: null`
 * clears the default location; a location of another tenant is refused with 404). The price is 0 to
 * 1000 per GB and month.
 */
export type BackupConfigUpdate = s.Static<typeof BackupConfigUpdate>;

const PerApplication = s.object({
  onedrive: s.integer({ minimum: 0 }),
  sharepoint: s.integer({ minimum: 0 }),
  teams: s.integer({ minimum: 0 }),
});

/** What an organisation's licence allows and, on trial, what is left of it. */
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

/** Schema of the query of `GET /license`. */
export const LicenseQuery = s.object({ organisationId: s.optional(s.string()) });
/**
 * Whose licence to read: an organisation the caller may act for (a partner's client, any for an
 * operator); default the caller's own.
 */
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
/** Schema of a portal area that calls Microsoft Graph; its values are {@link PERMISSION_AREAS}. */
export const PermissionArea = s.oneOfStrings(
  PERMISSION_AREAS,
  'backup; restore; mailArchive (Exchange archive); teamsArchive (Teams channels); chats; cleanup (old file versions); userSync; connectionTest.',
);
/**
 * A portal area that calls Microsoft Graph with permissions of its own: `backup`, `restore`,
 * `mailArchive` (Exchange archive), `teamsArchive` (Teams channels), `chats`, `cleanup` (old file
 * versions), `userSync` or `connectionTest`.
 */
export type PermissionArea = s.Static<typeof PermissionArea>;

/** Schema of one missing permission in a connection test's answer. */
export const MissingPermission = s.object({
  permission: s.string({ description: 'A Microsoft Graph application permission, e.g. Mail.Read.' }),
  areas: s.array(PermissionArea, { minItems: 1, description: 'The areas that need it.' }),
});
/**
 * A Microsoft Graph application permission (such as `Mail.Read`) that the tenant's app registration
 * lacks, with the portal areas that will fail without it.
 */
export type MissingPermission = s.Static<typeof MissingPermission>;

/** Schema of the answer of `POST /test-onedrive-connection`. */
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
/**
 * The outcome of testing the tenant's Microsoft Graph connection: whether it worked, how long it took
 * (`latencyMs`), the reason when it failed (`message`) and when it was checked. A working connection
 * may still lack permissions that some areas need: `missingPermissions` lists them (absent when none is
 * missing or the token could not be read).
 */
export type ConnectionTestResult = s.Static<typeof ConnectionTestResult>;

/** Schema of the answer of `POST /v2/onedrive/switch-tenant`. */
export const SwitchTenantResult = s.object({ tenantId: s.string(), tenantName: s.string(), isActive: s.literal(true) });
/** The tenant that is now the organisation's active one, with its name. */
export type SwitchTenantResult = s.Static<typeof SwitchTenantResult>;

/**
 * The catalogue entries of apollo configuration: `/sync-user-config`, `/backup-config`, `/license`,
 * `/backup-update-config`, `/test-onedrive-connection` and `/v2/onedrive/switch-tenant`. {@link
 * configurationApi} binds them.
 */
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

/**
 * Binds apollo configuration to a transport: user synchronisation, a tenant's backup settings, the
 * licence with its trial limits left, the Microsoft Graph connection test and the switch of the active
 * tenant. The same methods as `client.apollo.configuration`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function configurationApi(transport: Transport) {
  return bindResource(transport, configurationEndpoints);
}
