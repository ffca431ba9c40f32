/** Apollo tenants: the Microsoft 365 tenants an organisation connects, and their provisioning. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { guid } from '../common.js';

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

/**
 * The catalogue entries of apollo tenants: list, connect, read, change and remove a tenant, start
 * provisioning or deprovisioning, and read a provisioning task, under `/api/Tenants`. {@link
 * tenantsApi} binds them.
 */
export const tenantsEndpoints = defineResource('apollo', 'tenants', {
  list: { method: 'GET', path: '/api/Tenants', summary: "The caller's tenants", response: s.array(Tenant) },
  create: {
    method: 'POST',
    path: '/api/Tenants',
    summary: 'Connect a tenant',
    body: TenantCreate,
    response: Tenant,
    refusals: { 409: 'A tenant with this tenant ID is already connected.' },
  },
  get: { method: 'GET', path: '/api/Tenants/{tenantId}', summary: 'One tenant', response: Tenant },
  update: {
    method: 'PUT',
    path: '/api/Tenants/{tenantId}',
    summary: 'Change a tenant',
    body: TenantUpdate,
    response: Tenant,
  },
  delete: {
    method: 'DELETE',
    path: '/api/Tenants/{tenantId}',
    summary: 'Remove a tenant',
    refusals: { 409: 'A provisioning task or a job of the tenant is running.' },
  },
  provision: {
    method: 'POST',
    path: '/api/Tenants/{tenantId}/provision',
    summary: 'Start provisioning (asynchronous)',
    response: ProvisioningTask,
    successStatus: 202,
    refusals: { 409: 'A provisioning task for this tenant is already running.' },
  },
  deprovision: {
    method: 'DELETE',
    path: '/api/Tenants/{tenantId}/provision',
    summary: 'Start deprovisioning (asynchronous)',
    response: ProvisioningTask,
    successStatus: 202,
    refusals: { 409: 'A provisioning task for this tenant is already running.' },
  },
  task: {
    method: 'GET',
    path: '/api/Tenants/{tenantId}/{taskId}',
    summary: 'Status of a provisioning task',
    response: ProvisioningTask,
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
