/** Legacy locations: a worker's storage locations, all or by use. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { StorageLocation } from '../common.js';

export const legacyLocationsEndpoints = defineResource('legacy', 'locations', {
  worker: {
    method: 'GET',
    path: '/worker/locations/{workerIp}',
    scope: { worker: { in: 'path', name: 'workerIp' } },
    summary: "All of a worker's locations",
    response: s.array(StorageLocation),
  },
  backup: {
    method: 'GET',
    path: '/backup-locations/{workerIp}',
    scope: { worker: { in: 'path', name: 'workerIp' } },
    summary: 'Locations that hold backups',
    response: s.array(StorageLocation),
  },
  archive: {
    method: 'GET',
    path: '/archive-locations/{workerIp}',
    scope: { worker: { in: 'path', name: 'workerIp' } },
    summary: 'Locations that hold archives',
    response: s.array(StorageLocation),
  },
});

/**
 * Binds legacy locations to a transport: a worker's storage locations, all of them (`worker`), those
 * that hold backups (`backup`) or those that hold archives (`archive`). The same methods as
 * `client.legacy.locations`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function legacyLocationsApi(transport: Transport) {
  return bindResource(transport, legacyLocationsEndpoints);
}
