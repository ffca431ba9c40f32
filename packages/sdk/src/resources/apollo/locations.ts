/** Apollo locations: where a tenant's jobs store their data. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { StorageLocation } from '../common.js';

export const LocationInput = s.object({
  name: s.string({ minLength: 1, maxLength: 120, description: 'Location name.' }),
  siteAddress: s.string({ format: 'uri', minLength: 1, maxLength: 2048, description: 'Site address.' }),
});
export type LocationInput = s.Static<typeof LocationInput>;

export const locationsEndpoints = defineResource('apollo', 'locations', {
  list: {
    method: 'GET',
    path: '/api/{tenantId}/locations',
    summary: "A tenant's locations",
    response: s.array(StorageLocation),
  },
  create: {
    method: 'POST',
    path: '/api/{tenantId}/locations',
    summary: 'Create a location',
    body: LocationInput,
    response: StorageLocation,
    refusals: { 409: 'The tenant has a location of this name.' },
  },
  get: {
    method: 'GET',
    path: '/api/{tenantId}/locations/{locationId}',
    summary: 'One location',
    response: StorageLocation,
  },
  update: {
    method: 'PUT',
    path: '/api/{tenantId}/locations/{locationId}',
    summary: 'Change a location',
    body: LocationInput,
    response: StorageLocation,
    refusals: { 409: 'The tenant has another location of this name.' },
  },
  delete: {
    method: 'DELETE',
    path: '/api/{tenantId}/locations/{locationId}',
    summary: 'Remove a location (refused while a job uses it)',
    refusals: { 409: 'A job uses the location.' },
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function locationsApi(transport: Transport) {
  return bindResource(transport, locationsEndpoints);
}
