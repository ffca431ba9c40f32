/** Apollo configuration: user synchronisation, backup settings, licence, connection test, tenant switch. */
import { bindResource } from '../../core/call.js';
import type { ErrorCode } from '../../core/codes.js';
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

/**
 * The causes of a Microsoft 365 failure, each a refusal code ({@link ErrorCode}) with its text and
 * messages: the address not resolved (`m365HostNotFound`) or not reached (`m365Unreachable`), TLS
 * (`m365TlsFailed`); the token endpoint refusing the secret as wrong (`m365SecretWrong`, AADSTS7000215)
 * or expired (`m365SecretExpired`, AADSTS7000222), the application (`m365ApplicationUnknown`,
 * AADSTS700016) or the tenant (`m365TenantUnknown`, AADSTS90002), or for another reason
 * (`m365TokenRefused`); consent (`m365ConsentMissing`: AADSTS65001, or Graph's 403 to a token without
 * roles), a permission (`m365PermissionMissing`, named in `missingPermissions`) or access refused with
 * the permissions granted (`m365AccessDenied`); Graph throttling (`m365Throttled`, with `retryAfter`)
 * or failing (`m365Outage`); no client secret stored (`m365SecretMissing`) or none the server can open
 * (`m365SecretUnreadable`); and anything else (`m365Failed`).
 */
export const MICROSOFT365_FAILURE_CODES = [
  'm365HostNotFound',
  'm365Unreachable',
  'm365TlsFailed',
  'm365SecretWrong',
  'm365SecretExpired',
  'm365ApplicationUnknown',
  'm365TenantUnknown',
  'm365ConsentMissing',
  'm365PermissionMissing',
  'm365AccessDenied',
  'm365Throttled',
  'm365Outage',
  'm365TokenRefused',
  'm365SecretMissing',
  'm365SecretUnreadable',
  'm365Failed',
] as const satisfies readonly ErrorCode[];

/** A cause of a Microsoft 365 failure: one of {@link MICROSOFT365_FAILURE_CODES}. */
export type Microsoft365FailureCode = (typeof MICROSOFT365_FAILURE_CODES)[number];

const id = (description: string) => s.optional(s.string({ maxLength: 128, description }));

/** Schema of a Microsoft 365 failure: its cause and Microsoft's raw details, for support. */
export const Microsoft365Failure = s.object({
  code: s.oneOfStrings(MICROSOFT365_FAILURE_CODES, 'The cause; its text is the refusal code of the same name.'),
  status: s.optional(
    s.integer({ minimum: 100, maximum: 599, description: 'The HTTP status Microsoft answered, when it answered.' }),
  ),
  aadsts: s.optional(
    s.string({ maxLength: 16, description: "The identity platform's error code, e.g. AADSTS7000222." }),
  ),
  error: s.optional(
    s.string({
      maxLength: 128,
      description:
        "Microsoft's error code (the OAuth error such as invalid_client, or Graph's such as Authorization_RequestDenied), or the network's (ENOTFOUND, ECONNREFUSED, a TLS error).",
    }),
  ),
  requestId: id("Microsoft's request-id of the answer (Graph), or x-ms-request-id (the identity platform)."),
  clientRequestId: id('The client-request-id sent with the request and echoed by Microsoft.'),
  correlationId: id("The identity platform's correlation id."),
  traceId: id("The identity platform's trace id."),
  timestamp: s.optional(s.string({ maxLength: 64, description: 'When Microsoft answered, as it wrote it.' })),
  retryAfter: s.optional(
    s.integer({ minimum: 0, maximum: 86_400, description: 'Seconds Microsoft asked to wait (Retry-After).' }),
  ),
  host: s.optional(s.string({ maxLength: 253, description: 'The host name that was not resolved or not reached.' })),
  missingPermissions: s.optional(
    s.array(MissingPermission, {
      description: 'The application permissions the area lacks, each with every area that needs it.',
    }),
  ),
  message: s.optional(s.string({ maxLength: 1000, description: "Microsoft's own words, as it answered (English)." })),
});
/**
 * A failure of Microsoft 365 behind a call: its cause (`code`, one of
 * {@link MICROSOFT365_FAILURE_CODES}) and what Microsoft said, for support: the HTTP status, the
 * AADSTS code, Microsoft's error code, request and correlation ids, Retry-After, the host not reached,
 * the missing permissions and Microsoft's own message.
 */
export type Microsoft365Failure = s.Static<typeof Microsoft365Failure>;

/** Is `value` one of the {@link MICROSOFT365_FAILURE_CODES}? */
export function isMicrosoft365FailureCode(value: unknown): value is Microsoft365FailureCode {
  return typeof value === 'string' && (MICROSOFT365_FAILURE_CODES as readonly string[]).includes(value);
}

/**
 * The Microsoft 365 failure a call was refused with (the `microsoft365` member of its error body), or
 * undefined when the error is not one: for an error an SDK call rejected with, or its body.
 */
export function microsoft365FailureOf(error: unknown): Microsoft365Failure | undefined {
  const body = error && typeof error === 'object' && 'body' in error ? (error as { body: unknown }).body : error;
  if (!body || typeof body !== 'object') return undefined;
  const failure = (body as { microsoft365?: unknown }).microsoft365;
  if (!failure || typeof failure !== 'object') return undefined;
  return isMicrosoft365FailureCode((failure as { code?: unknown }).code) ? (failure as Microsoft365Failure) : undefined;
}

/** Schema of the answer of `POST /test-onedrive-connection`. */
export const ConnectionTestResult = s.object({
  ok: s.boolean(),
  latencyMs: s.integer({ minimum: 0 }),
  message: s.optional(s.string({ description: 'Why it failed, in English: the text of failure.code.' })),
  checkedAt: s.dateTime(),
  missingPermissions: s.optional(
    s.array(MissingPermission, {
      description:
        "The application permissions the token's roles lack (neither granted nor implied by a granted one), each with the areas that need it; absent when none is missing or the token could not be read. A working connection may still lack some: ok stays true.",
    }),
  ),
  failure: s.optional(Microsoft365Failure),
});
/**
 * The outcome of testing the tenant's Microsoft Graph connection: whether it worked, how long it took
 * (`latencyMs`), the reason when it failed (`message`, in English; `failure` its cause and
 * Microsoft's details) and when it was checked. A working connection
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
    scope: { tenant: 'body' },
    summary: "Synchronise the portal's users from the tenant",
    body: TenantRef,
    response: SyncUsersResult,
  },
  backupConfig: {
    method: 'GET',
    path: '/backup-config',
    scope: { tenant: 'query' },
    summary: "A tenant's backup settings",
    query: TenantRef,
    response: BackupConfig,
  },
  license: {
    method: 'GET',
    path: '/license',
    scope: { organisation: 'query' },
    summary: "The organisation's licence and trial limits left",
    query: LicenseQuery,
    response: License,
  },
  updateBackupConfig: {
    method: 'PUT',
    path: '/backup-update-config',
    scope: { tenant: 'body' },
    summary: "Change a tenant's backup settings",
    body: BackupConfigUpdate,
    response: BackupConfig,
  },
  testOnedriveConnection: {
    method: 'POST',
    path: '/test-onedrive-connection',
    scope: { tenant: 'body' },
    summary: "Test the tenant's Microsoft Graph connection",
    body: TenantRef,
    response: ConnectionTestResult,
  },
  switchTenant: {
    method: 'POST',
    path: '/v2/onedrive/switch-tenant',
    scope: { tenant: 'body' },
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
