/** Apollo locations: where a tenant's jobs store their data. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { StorageLocation } from '../common.js';

/**
 * Schema of the body of `POST /api/{tenantId}/locations` and `PUT
 * /api/{tenantId}/locations/{locationId}`.
 */
export const LocationInput = s.object({
  name: s.string({ minLength: 1, maxLength: 120, description: 'Location name.' }),
  siteAddress: s.string({
    format: 'uri',
    minLength: 1,
    maxLength: 2048,
    description:
      "Site address: a SharePoint site (stored in the server's own store), an Azure Blob Storage container " +
      '(https://<account>.blob.core.windows.net/<container>[/<prefix>], or azure+http://<host>:<port>/<account>/<container> ' +
      'for an emulator), or an S3 bucket (s3://<bucket>[/<prefix>][?endpoint=<url>&region=<region>]).',
  }),
  accessKeyId: s.optional(
    s.string({ minLength: 1, maxLength: 256, description: 'S3: the access key ID (with `secret`).' }),
  ),
  secret: s.optional(
    s.string({
      minLength: 1,
      maxLength: 1024,
      description:
        'Azure: the account key; S3: the secret access key. Kept encrypted, never sent back; on a change, ' +
        'absent keeps the stored one.',
    }),
  ),
});
/**
 * A storage location's name (1 to 120 characters, unique in the tenant: a taken name is refused with
 * 409), site address, and for an object store its credentials. An object store is tested when the
 * location is saved (a test object written, read back and deleted): a failure is refused with 400 and
 * a code saying why (`storeUnreachable`, `storeCredentialsRefused`, `storeNotFound`, `storeProbeFailed`).
 */
export type LocationInput = s.Static<typeof LocationInput>;

/**
 * The catalogue entries of apollo locations: list, create, read, change, remove and test the store
 * again, under `/api/{tenantId}/locations`. {@link locationsApi} binds them.
 */
export const locationsEndpoints = defineResource('apollo', 'locations', {
  list: {
    method: 'GET',
    path: '/api/{tenantId}/locations',
    scope: { tenant: 'path' },
    summary: "A tenant's locations",
    response: s.array(StorageLocation),
  },
  create: {
    method: 'POST',
    path: '/api/{tenantId}/locations',
    scope: { tenant: 'path' },
    summary: 'Create a location',
    body: LocationInput,
    response: StorageLocation,
    refusals: {
      400: 'The object store failed its test (unreachable, credentials refused, no such container or bucket).',
      409: 'The tenant has a location of this name.',
    },
  },
  get: {
    method: 'GET',
    path: '/api/{tenantId}/locations/{locationId}',
    scope: { tenant: 'path' },
    summary: 'One location',
    response: StorageLocation,
  },
  update: {
    method: 'PUT',
    path: '/api/{tenantId}/locations/{locationId}',
    scope: { tenant: 'path' },
    summary: 'Change a location',
    body: LocationInput,
    response: StorageLocation,
    refusals: {
      400: 'The object store failed its test (unreachable, credentials refused, no such container or bucket).',
      409: 'The tenant has another location of this name, or the location holds data and the address names another store.',
    },
  },
  delete: {
    method: 'DELETE',
    path: '/api/{tenantId}/locations/{locationId}',
    scope: { tenant: 'path' },
    summary: 'Remove a location (refused while a job uses it)',
    refusals: { 409: 'A job uses the location.' },
  },
  /**
   * Writes, reads back and deletes a test object where the location keeps its data, records the
   * outcome (when, and for a failure why) and answers the location with it in `probe`: a failed test
   * is an answer, not a refusal. The server's own store is not tested per location (`probe` absent).
   */
  probe: {
    method: 'POST',
    path: '/api/{tenantId}/locations/{locationId}/probe',
    scope: { tenant: 'path' },
    summary: "Test a location's object store again and record the outcome",
    response: StorageLocation,
  },
});

/**
 * Binds apollo locations to a transport: where a tenant's backup and archive jobs store their data.
 * Removing a location a job uses is refused with 409. The same methods as `client.apollo.locations`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function locationsApi(transport: Transport) {
  return bindResource(transport, locationsEndpoints);
}
