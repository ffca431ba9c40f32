/** Apollo tenants: the Microsoft 365 tenants an organisation connects, and their provisioning. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { guid } from '../common.js';
import { ConnectionTestResult, PermissionArea } from './configuration.js';

/** Where provisioning of a tenant stands. */
export const ProvisioningState = s.oneOfStrings([
  'notProvisioned',
  'provisioning',
  'provisioned',
  'deprovisioning',
  'failed',
]);
export type ProvisioningState = s.Static<typeof ProvisioningState>;

/** A connected Microsoft 365 tenant. The client secret is write-only and never returned. */
export const Tenant = s.object({
  tenantId: guid('Microsoft Entra tenant ID; the {tenantId} of tenant-scoped paths.'),
  tenantName: s.string({ minLength: 1, maxLength: 120 }),
  applicationId: guid('Application (client) ID of the app registration.'),
  objectId: guid('Object ID of the app registration.'),
  redirectUri: s.string({ format: 'uri', maxLength: 2048 }),
  organisationId: s.string({ description: 'The portal organisation that owns the tenant.' }),
  hasClientSecret: s.boolean('A client secret is stored (encrypted).'),
  isActive: s.boolean('The tenant the organisation currently works in.'),
  provisioning: ProvisioningState,
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
  adminConsentAt: s.optional(
    s.dateTime('When an administrator of the tenant last granted admin consent through the portal; absent: never.'),
  ),
  adminConsentBy: s.optional(
    s.string({ maxLength: 320, description: 'The portal user who started that consent (their email address).' }),
  ),
  defaultDomain: s.optional(
    s.string({
      maxLength: 255,
      description:
        "The default verified domain of the tenant's Microsoft 365 organisation (contoso.onmicrosoft.com), read from Microsoft Graph by the connection test; absent until read.",
    }),
  ),
});
export type Tenant = s.Static<typeof Tenant>;

/** Schema of the body of `POST /api/Tenants`. */
export const TenantCreate = s.object({
  tenantName: s.string({ minLength: 1, maxLength: 120 }),
  applicationId: guid('Application (client) ID.'),
  clientSecret: s.string({ minLength: 1, maxLength: 512 }),
  tenantId: guid('Microsoft Entra tenant ID.'),
  objectId: guid('Object ID.'),
  redirectUri: s.string({ format: 'uri', maxLength: 2048 }),
  organisationId: s.string({ minLength: 1 }),
});
/**
 * A Microsoft 365 tenant to connect: its name, Microsoft Entra tenant ID, the app registration's
 * application (client) ID, object ID, client secret and redirect URI, and the owning organisation. The
 * secret is stored encrypted and never answered; a tenant ID already connected is refused with 409.
 */
export type TenantCreate = s.Static<typeof TenantCreate>;

/** Schema of the body of `PUT /api/Tenants/{tenantId}`. */
export const TenantUpdate = s.object({
  tenantName: s.optional(s.string({ minLength: 1, maxLength: 120 })),
  applicationId: s.optional(guid('Application (client) ID.')),
  clientSecret: s.optional(s.string({ minLength: 1, maxLength: 512, description: 'Replaces the stored secret.' })),
  objectId: s.optional(guid('Object ID.')),
  redirectUri: s.optional(s.string({ format: 'uri', maxLength: 2048 })),
});
/**
 * A change to a connected tenant: only the fields given change; `clientSecret` replaces the stored
 * secret. The tenant ID and the owning organisation stay.
 */
export type TenantUpdate = s.Static<typeof TenantUpdate>;

/** An asynchronous provisioning or deprovisioning task. */
export const ProvisioningTask = s.object({
  taskId: s.string(),
  tenantId: s.string(),
  kind: s.oneOfStrings(['provision', 'deprovision']),
  status: s.oneOfStrings(['pending', 'running', 'succeeded', 'failed']),
  progress: s.integer({ minimum: 0, maximum: 100 }),
  message: s.optional(s.string()),
  started: s.dateTime(),
  finished: s.nullable(s.dateTime()),
});
export type ProvisioningTask = s.Static<typeof ProvisioningTask>;

/** Schema of one Microsoft Graph application permission the portal asks for, with the areas that need it. */
export const PermissionNeed = s.object({
  permission: s.string({ maxLength: 100, description: 'A Microsoft Graph application permission, e.g. Mail.Read.' }),
  areas: s.array(PermissionArea, { minItems: 1, description: 'The areas of the portal that need it.' }),
});
/** A Microsoft Graph application permission the portal's app registration needs, and the portal areas that use it. */
export type PermissionNeed = s.Static<typeof PermissionNeed>;

/** Schema of the answer of `GET /api/tenant-consent`. */
export const TenantConsentSetup = s.object({
  redirectUri: s.string({
    format: 'uri',
    maxLength: 2048,
    description:
      "The portal's address for the answer of admin consent: a redirect URI (platform Web) the app registration must list.",
  }),
  authority: s.string({
    format: 'uri',
    maxLength: 2048,
    description: 'The identity platform the consent links lead to, e.g. https://login.microsoftonline.com.',
  }),
  permissions: s.array(PermissionNeed, {
    description: 'The application permissions the app registration needs (API permissions, Microsoft Graph).',
  }),
});
/**
 * What an administrator needs to prepare an app registration for the portal: the redirect URI to add
 * (Authentication, platform Web), the identity platform, and the Microsoft Graph application
 * permissions to add (API permissions), each with the portal areas that need it.
 */
export type TenantConsentSetup = s.Static<typeof TenantConsentSetup>;

/** Schema of the body of `POST /api/tenant-consent`. */
export const TenantConsentStart = s.object({
  organisationId: s.string({ minLength: 1, maxLength: 64 }),
  tenantName: s.string({ minLength: 1, maxLength: 120 }),
  applicationId: guid('Application (client) ID of the app registration.'),
  clientSecret: s.string({ minLength: 1, maxLength: 512, description: "A client secret's value." }),
  directory: s.optional(
    s.string({
      minLength: 1,
      maxLength: 253,
      pattern: '^([0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}|([A-Za-z0-9-]+\\.)+[A-Za-z]{2,63})$',
      description:
        "The tenant's ID or one of its domains, where the administrator consents; without it the administrator's own tenant (organizations).",
    }),
  ),
});
/**
 * A tenant to connect by admin consent: its name in the portal, the owning organisation, and the
 * application (client) ID and client secret of the app registration to consent to. The tenant ID is
 * not typed: it comes from the consent, and is taken only once the app gets a token there with this
 * secret. `directory` (a tenant ID or domain) sends the administrator to that tenant's sign-in.
 */
export type TenantConsentStart = s.Static<typeof TenantConsentStart>;

/** Schema of the answer of `POST /api/tenant-consent` and `POST /api/Tenants/{tenantId}/consent`. */
export const TenantConsentLink = s.object({
  consentUrl: s.string({
    format: 'uri',
    maxLength: 4096,
    description: "The admin consent endpoint of Microsoft's identity platform, with this consent's state.",
  }),
  expiresAt: s.dateTime('The answer must come back before this moment (10 minutes).'),
});
/** Where to send the administrator to consent, and until when the portal waits for the answer. */
export type TenantConsentLink = s.Static<typeof TenantConsentLink>;

/** Schema of the body of `POST /api/tenant-consent/answer`. */
export const TenantConsentAnswer = s.object({
  state: s.string({ minLength: 1, maxLength: 256 }),
  adminConsent: s.optional(s.string({ maxLength: 16, description: "The answer's `admin_consent`." })),
  tenant: s.optional(s.string({ maxLength: 64, description: "The answer's `tenant`." })),
  scope: s.optional(s.string({ maxLength: 8192, description: "The answer's `scope`." })),
  error: s.optional(s.string({ maxLength: 128, description: "The answer's `error`." })),
  errorDescription: s.optional(s.string({ maxLength: 4096, description: "The answer's `error_description`." })),
});
/**
 * The answer the identity platform sent to the portal's redirect URI, passed on as it came:
 * `admin_consent`, `tenant`, `scope` and `state` on success, `error` and `error_description` otherwise.
 */
export type TenantConsentAnswer = s.Static<typeof TenantConsentAnswer>;

/** Schema of the answer of `POST /api/tenant-consent/answer`. */
export const TenantConsentOutcome = s.object({
  outcome: s.oneOfStrings(
    ['granted', 'declined', 'failed'],
    'granted: consented and connected; declined: the administrator cancelled; failed: Microsoft refused, or the app got no token afterwards.',
  ),
  tenant: s.optional(Tenant),
  connectionTest: s.optional(ConnectionTestResult),
  error: s.optional(
    s.string({
      maxLength: 128,
      description:
        "The identity platform's error (access_denied, invalid_client …), or otherTenant: the consent was given in another tenant than the one asked for.",
    }),
  ),
  errorCode: s.optional(s.integer({ minimum: 0, description: 'The AADSTS code of the error, e.g. 65004.' })),
  description: s.optional(s.string({ maxLength: 1000, description: "The identity platform's own words, in English." })),
});
/**
 * How an admin consent ended: `granted`, with the tenant connected (or consented again) and the
 * connection test run at once; `declined` by the administrator (AADSTS65004); or `failed`, with the
 * identity platform's error and AADSTS code, at the consent or at the token the portal asked for after it.
 */
export type TenantConsentOutcome = s.Static<typeof TenantConsentOutcome>;

/**
 * The catalogue entries of apollo tenants: list, connect, read, change and remove a tenant, start
 * provisioning or deprovisioning, and read a provisioning task, under `/api/Tenants`. {@link
 * tenantsApi} binds them.
 */
export const tenantsEndpoints = defineResource('apollo', 'tenants', {
  list: {
    method: 'GET',
    path: '/api/Tenants',
    scope: 'caller',
    summary: "The caller's tenants",
    response: s.array(Tenant),
  },
  create: {
    method: 'POST',
    path: '/api/Tenants',
    scope: 'caller',
    summary: 'Connect a tenant',
    body: TenantCreate,
    response: Tenant,
    refusals: { 409: 'A tenant with this tenant ID is already connected.' },
  },
  get: {
    method: 'GET',
    path: '/api/Tenants/{tenantId}',
    scope: { tenant: 'path' },
    summary: 'One tenant',
    response: Tenant,
  },
  update: {
    method: 'PUT',
    path: '/api/Tenants/{tenantId}',
    scope: { tenant: 'path' },
    summary: 'Change a tenant',
    body: TenantUpdate,
    response: Tenant,
  },
  delete: {
    method: 'DELETE',
    path: '/api/Tenants/{tenantId}',
    scope: { tenant: 'path' },
    summary: 'Remove a tenant',
    refusals: { 409: 'A provisioning task or a job of the tenant is running.' },
  },
  provision: {
    method: 'POST',
    path: '/api/Tenants/{tenantId}/provision',
    scope: { tenant: 'path' },
    summary: 'Start provisioning (asynchronous)',
    response: ProvisioningTask,
    successStatus: 202,
    refusals: { 409: 'A provisioning task for this tenant is already running.' },
  },
  deprovision: {
    method: 'DELETE',
    path: '/api/Tenants/{tenantId}/provision',
    scope: { tenant: 'path' },
    summary: 'Start deprovisioning (asynchronous)',
    response: ProvisioningTask,
    successStatus: 202,
    refusals: { 409: 'A provisioning task for this tenant is already running.' },
  },
  task: {
    method: 'GET',
    path: '/api/Tenants/{tenantId}/{taskId}',
    scope: { tenant: 'path' },
    summary: 'Status of a provisioning task',
    response: ProvisioningTask,
  },
  consentSetup: {
    method: 'GET',
    path: '/api/tenant-consent',
    scope: 'caller',
    summary: 'What an app registration needs for admin consent: redirect URI and permissions',
    response: TenantConsentSetup,
  },
  startConsent: {
    method: 'POST',
    path: '/api/tenant-consent',
    scope: 'caller',
    summary: 'Start connecting a tenant by admin consent',
    body: TenantConsentStart,
    response: TenantConsentLink,
  },
  finishConsent: {
    method: 'POST',
    path: '/api/tenant-consent/answer',
    scope: 'caller',
    summary: "Finish an admin consent with the identity platform's answer",
    body: TenantConsentAnswer,
    response: TenantConsentOutcome,
    refusals: {
      400: 'The state is not one the caller started or was used (code consentStateUnknown), or it is older than 10 minutes (code consentExpired).',
      404: 'The organisation of the consent is no longer one the caller acts for.',
      409: 'The consented tenant is already connected to the portal (code consentTenantConnected).',
    },
  },
  renewConsent: {
    method: 'POST',
    path: '/api/Tenants/{tenantId}/consent',
    scope: { tenant: 'path' },
    summary: "Admin consent again for a connected tenant's app registration",
    response: TenantConsentLink,
  },
});

/**
 * Binds apollo tenants to a transport: the Microsoft 365 tenants an organisation connects, and their
 * asynchronous provisioning (`provision` and `deprovision` answer 202 with a {@link ProvisioningTask}
 * that `task` follows). The same methods as `client.apollo.tenants`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function tenantsApi(transport: Transport) {
  return bindResource(transport, tenantsEndpoints);
}
