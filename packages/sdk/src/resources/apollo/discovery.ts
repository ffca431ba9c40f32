/** Apollo discovery: what a tenant holds (accounts, groups) and the tree of a backed-up source. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { Application, listQueryProperties, page } from '../common.js';

/** An account, site or team found in the tenant. */
export const DiscoveredSource = s.object({
  sourceId: s.string(),
  kind: s.oneOfStrings(['user', 'site', 'team', 'mailbox']),
  displayName: s.string(),
  email: s.optional(s.string()),
  url: s.optional(s.string()),
  sizeBytes: s.optional(s.integer({ minimum: 0 })),
  protected: s.boolean('A backup job covers it.'),
});
export type DiscoveredSource = s.Static<typeof DiscoveredSource>;

export const DiscoveredGroup = s.object({
  groupId: s.string(),
  displayName: s.string(),
  mail: s.optional(s.string()),
  kind: s.oneOfStrings(['distribution', 'security', 'microsoft365']),
  memberCount: s.integer({ minimum: 0 }),
});
export type DiscoveredGroup = s.Static<typeof DiscoveredGroup>;

/** A node of a snapshot's tree: drive, folder, file, site, library, team or channel. */
export const DiscoveryNode = s.object({
  nodeId: s.string(),
  parentId: s.nullable(s.string()),
  kind: s.oneOfStrings(['drive', 'folder', 'file', 'site', 'library', 'team', 'channel', 'message']),
  name: s.string(),
  path: s.string(),
  sizeBytes: s.integer({ minimum: 0 }),
  modified: s.nullable(s.dateTime()),
  hasChildren: s.boolean(),
});
export type DiscoveryNode = s.Static<typeof DiscoveryNode>;

export const DiscoveryQuery = s.object({ ...listQueryProperties, application: s.optional(Application) });
export type DiscoveryQuery = s.Static<typeof DiscoveryQuery>;

export const DiscoveryItemsQuery = s.object({
  ...listQueryProperties,
  snapshot: s.optional(s.dateTime('The snapshot to browse; default the newest.')),
});
export type DiscoveryItemsQuery = s.Static<typeof DiscoveryItemsQuery>;

export const discoveryEndpoints = defineResource('apollo', 'discovery', {
  users: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/users',
    summary: 'Accounts, sites or teams found in the tenant',
    query: DiscoveryQuery,
    response: page(DiscoveredSource),
  },
  items: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/source/{sourceId}/items/{nodeId}',
    summary: "The children of a node in a source's snapshot (nodeId root for the top)",
    query: DiscoveryItemsQuery,
    response: page(DiscoveryNode),
  },
  groups: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/groups',
    summary: 'Groups found in the tenant',
    query: DiscoveryQuery,
    response: page(DiscoveredGroup),
  },
  groupUsers: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/groups/{groupId}/users',
    summary: "A group's members",
    query: DiscoveryQuery,
    response: page(DiscoveredSource),
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function discoveryApi(transport: Transport) {
  return bindResource(transport, discoveryEndpoints);
}
