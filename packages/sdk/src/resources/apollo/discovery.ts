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

/** Schema of one group in the pages `GET /api/{tenantId}/discovery/{locationId}/groups` answers. */
export const DiscoveredGroup = s.object({
  groupId: s.string(),
  displayName: s.string(),
  mail: s.optional(s.string()),
  kind: s.oneOfStrings(['distribution', 'security', 'microsoft365']),
  memberCount: s.integer({ minimum: 0 }),
});
/**
 * A group found in the tenant's directory: distribution, security or Microsoft 365 group, with its mail
 * address when it has one and its member count. `groupUsers` lists its members.
 */
export type DiscoveredGroup = s.Static<typeof DiscoveredGroup>;

/**
 * Schema of a node of a snapshot's tree: drive, folder, file, site, library, team, channel or message;
 * and a site's lists (`list:{listId}`), their items (`listItem:{listId}:{itemId}`), its pages group
 * (`pages`) and its pages (`page:{pageId}`). A restore job names what it restores by these node ids.
 */
export const DiscoveryNode = s.object({
  nodeId: s.string(),
  parentId: s.nullable(s.string()),
  kind: s.oneOfStrings([
    'drive',
    'folder',
    'file',
    'site',
    'library',
    'team',
    'channel',
    'message',
    'list',
    'listItem',
    'pages',
    'page',
  ]),
  name: s.string(),
  path: s.string(),
  sizeBytes: s.integer({ minimum: 0, description: 'Bytes; 0 for a list item whose size SharePoint did not give.' }),
  modified: s.nullable(s.dateTime()),
  hasChildren: s.boolean(),
  itemCount: s.optional(
    s.integer({ minimum: 0, description: 'A list: its items in the snapshot; the pages group: its pages.' }),
  ),
  version: s.optional(s.string({ maxLength: 64, description: "A list item's or page's version label, e.g. 3.0." })),
});
/**
 * A node of a snapshot's tree, as `items` lists a node's children: its id (the one a restore job
 * names), kind, name, path, size, last change and whether it has children; a list or the pages group
 * with its count of items, a list item or a page with its version label.
 */
export type DiscoveryNode = s.Static<typeof DiscoveryNode>;

/** Schema of the query of the discovery lists: `users`, `groups` and `groupUsers`. */
export const DiscoveryQuery = s.object({ ...listQueryProperties, application: s.optional(Application) });
/**
 * Paging, sorting and search of a discovery list, and the workload whose accounts, sites or teams to
 * list (`application`; `users` lists OneDrive accounts when it is left out).
 */
export type DiscoveryQuery = s.Static<typeof DiscoveryQuery>;

/**
 * Schema of the query of `GET /api/{tenantId}/discovery/{locationId}/source/{sourceId}/items/{nodeId}`.
 */
export const DiscoveryItemsQuery = s.object({
  ...listQueryProperties,
  snapshot: s.optional(s.dateTime('The snapshot to browse; default the newest.')),
});
/**
 * Paging, sorting and search of a node's children in a backed-up source, and the snapshot to browse
 * (its date; default the newest).
 */
export type DiscoveryItemsQuery = s.Static<typeof DiscoveryItemsQuery>;

/** Schema of the query of `GET /api/{tenantId}/discovery/{locationId}/source/{sourceId}/lists/{listId}/csv`. */
export const DiscoveryListCsvQuery = s.object({
  snapshot: s.optional(s.dateTime('The snapshot whose items to export; default the newest.')),
});
/** The snapshot a list's csv export reads (its date; default the newest). */
export type DiscoveryListCsvQuery = s.Static<typeof DiscoveryListCsvQuery>;

/**
 * The catalogue entries of apollo discovery: `users`, `groups` and `groupUsers` (what the tenant holds)
 * `items` (the tree of a source's snapshot) and `listCsv` (a backed-up list's items as csv), under `/api/{tenantId}/discovery/{locationId}/`.
 * {@link discoveryApi} binds them.
 */
export const discoveryEndpoints = defineResource('apollo', 'discovery', {
  users: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/users',
    scope: { tenant: 'path' },
    summary: 'Accounts, sites or teams found in the tenant',
    query: DiscoveryQuery,
    response: page(DiscoveredSource),
  },
  items: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/source/{sourceId}/items/{nodeId}',
    scope: { tenant: 'path' },
    summary: "The children of a node in a source's snapshot (nodeId root for the top)",
    query: DiscoveryItemsQuery,
    response: page(DiscoveryNode),
  },
  listCsv: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/source/{sourceId}/lists/{listId}/csv',
    scope: { tenant: 'path' },
    summary: "A backed-up SharePoint list's items as csv (RFC 4180), as the snapshot had them",
    query: DiscoveryListCsvQuery,
    responseKind: 'blob',
    contentTypes: ['text/csv'],
  },
  groups: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/groups',
    scope: { tenant: 'path' },
    summary: 'Groups found in the tenant',
    query: DiscoveryQuery,
    response: page(DiscoveredGroup),
  },
  groupUsers: {
    method: 'GET',
    path: '/api/{tenantId}/discovery/{locationId}/groups/{groupId}/users',
    scope: { tenant: 'path' },
    summary: "A group's members",
    query: DiscoveryQuery,
    response: page(DiscoveredSource),
  },
});

/**
 * Binds apollo discovery to a transport: the accounts, sites, teams and groups found in a tenant, a
 * group's members, and the children of a node in a backed-up source's snapshot (`nodeId` `root` for the
 * top), each a paged list with `.pages()` and `.items()`, and a backed-up SharePoint list's items as a csv
 * download (`listCsv`, save it with `saveDownload`). The same methods as
 * `client.apollo.discovery`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function discoveryApi(transport: Transport) {
  return bindResource(transport, discoveryEndpoints);
}
